/* fuzz_profile.c - stack aggregation (jfr/profile.h) over every chunk:
 * execution samples counted by stack and thread, allocation samples
 * weighed by their "weight" field.
 * Properties: the stacks' weights add up to the total and their sample
 * counts to the sample count; frame ids are in range; the call tree's root
 * holds the total, self weights add up to it, and every subtree's total is
 * its self weight plus its children's totals. One profile per chunk merged
 * in chunk order (jfr_profile_merge, as jfrtool --jobs does) has the
 * stacks, frames and totals of the profile fed every chunk; a top-frame
 * profile has its totals and stacks of one frame (plus the thread root).
 * A profile with time buckets has the plain one's total, and a time root
 * first in every stack that has one; the findings fed all of it give
 * findings with their strings. A thread-state timeline (jfr/timeline.h),
 * capped at a few intervals, finishes with every kept interval in its
 * lane in time order, and its totals count every event, kept or not.
 * Profiles saved (jfr_profile_save) load as the same profile; an input
 * that starts as a saved profile ("JFRPROF") is loaded instead of opened
 * as a recording: refused or well formed, and saved again byte for byte.
 * A compact profile (JFR_PROFILE_COMPACT_STACKS) fed the same chunks, and
 * one merged from compact profiles of each chunk, copy out the plain
 * profile's stacks frame for frame, save as it does (after the flag) and
 * still do once rewritten in 4 bytes a frame. */
#include "fuzz_common.h"

static void check_profile(jfr_profile *p)
{
    uint64_t sum = 0, samples = 0, self_sum = 0;
    size_t nstacks = jfr_profile_stack_count(p), nframes = jfr_profile_frame_count(p);
    size_t nodes;

    for (size_t i = 0; i < nstacks; i++) {
        uint64_t w;
        const uint32_t *frames;
        size_t depth;

        FZ_CHECK(jfr_profile_stack(&w, &frames, &depth, p, i) == JFR_OK);
        FZ_CHECK(depth > 0);
        for (size_t k = 0; k < depth; k++) {
            const jfr_profile_frame *f = jfr_profile_frame_at(p, frames[k]);

            FZ_CHECK(frames[k] < nframes && f != NULL && f->name != NULL);
            FZ_CHECK(f->synthetic ? f->class_name == NULL : f->method != NULL);
        }
        sum += w;
        samples += jfr_profile_stack_samples(p, i);
    }
    FZ_CHECK(jfr_profile_stack(NULL, NULL, NULL, p, nstacks) == JFR_EINVAL);
    FZ_CHECK(sum == jfr_profile_total(p));
    FZ_CHECK(samples == jfr_profile_samples(p));
    if (jfr_profile_build_tree(p) < 0)
        return; /* out of memory */
    nodes = jfr_profile_node_count(p);
    FZ_CHECK(jfr_profile_node_frame(p, 0) == JFR_PROFILE_ROOT);
    FZ_CHECK(jfr_profile_node_total(p, 0) == sum);
    FZ_CHECK(jfr_profile_node_size(p, 0) == nodes);
    for (size_t n = 0; n < nodes; n++) {
        size_t size = jfr_profile_node_size(p, n), depth = jfr_profile_node_depth(p, n);
        uint64_t children = 0;

        FZ_CHECK(size >= 1 && n + size <= nodes);
        if (n)
            FZ_CHECK(jfr_profile_node_frame(p, n) < nframes && depth >= 1);
        for (size_t k = n + 1; k < n + size; k += jfr_profile_node_size(p, k)) {
            FZ_CHECK(jfr_profile_node_depth(p, k) == depth + 1);
            children += jfr_profile_node_total(p, k);
        }
        FZ_CHECK(jfr_profile_node_total(p, n) == jfr_profile_node_self(p, n) + children);
        self_sum += jfr_profile_node_self(p, n);
    }
    FZ_CHECK(self_sum == sum);
}

static jfr_profile *new_profile(const char *type, const char *weight, unsigned flags)
{
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile *p;
    jfr_error err;

    o.event_type = type;
    o.weight_field = weight;
    o.flags = flags;
    FZ_CHECK(jfr_profile_new(&p, &o, &err) == JFR_OK);
    return p;
}

#define CPU_FLAGS (JFR_PROFILE_THREADS | JFR_PROFILE_LINES | JFR_PROFILE_SIGNATURES)

static void check_same_profile(const jfr_profile *a, const jfr_profile *b)
{
    FZ_CHECK(jfr_profile_total(a) == jfr_profile_total(b));
    FZ_CHECK(jfr_profile_samples(a) == jfr_profile_samples(b));
    FZ_CHECK(jfr_profile_stack_count(a) == jfr_profile_stack_count(b));
    FZ_CHECK(jfr_profile_frame_count(a) == jfr_profile_frame_count(b));
}

static void check_top_frames(jfr_profile *top)
{
    for (size_t i = 0; i < jfr_profile_stack_count(top); i++) {
        size_t depth;
        FZ_CHECK(jfr_profile_stack(NULL, NULL, &depth, top, i) == JFR_OK);
        FZ_CHECK(depth >= 1 && depth <= 2); /* thread root, top frame */
    }
}

static void check_buckets(const jfr_profile *b, const jfr_profile *plain)
{
    FZ_CHECK(jfr_profile_total(b) == jfr_profile_total(plain));
    for (size_t i = 0; i < jfr_profile_stack_count(b); i++) {
        const uint32_t *frames;
        size_t depth;
        FZ_CHECK(jfr_profile_stack(NULL, &frames, &depth, b, i) == JFR_OK);
        for (size_t k = 1; k < depth; k++)
            FZ_CHECK(jfr_profile_frame_at(b, frames[k])->time_bucket == INT64_MIN);
    }
}

static void check_findings(jfr_findings *f)
{
    size_t n;

    FZ_CHECK(jfr_findings_count(f) == 0); /* nothing until evaluated */
    if (jfr_findings_evaluate(f) != JFR_OK)
        return;
    n = jfr_findings_count(f);
    for (size_t i = 0; i < n; i++) {
        const jfr_finding *x = jfr_findings_at(f, i);
        FZ_CHECK(x && x->id && x->title && x->evidence && x->key && x->source);
    }
    FZ_CHECK(jfr_findings_at(f, n) == NULL);
}

static void check_timeline(jfr_timeline *tl)
{
    size_t nlanes, kept = 0;
    uint64_t events = 0;

    FZ_CHECK(jfr_timeline_finish(tl) == JFR_OK);
    FZ_CHECK(jfr_timeline_finish(tl) == JFR_EINVAL);
    nlanes = jfr_timeline_thread_count(tl);
    for (size_t i = 0; i <= nlanes; i++) {
        uint32_t lane = i < nlanes ? (uint32_t)i : JFR_TIMELINE_ALL_THREADS;
        const jfr_timeline_thread *t = i < nlanes ? jfr_timeline_thread_at(tl, i) : NULL;
        uint64_t lane_events = 0;

        for (int s = 0; s < JFR_STATE_COUNT; s++) {
            uint64_t n;
            int64_t ns;
            FZ_CHECK(jfr_timeline_thread_total(&n, &ns, tl, lane, (jfr_thread_state)s) ==
                     JFR_OK);
            FZ_CHECK(ns >= 0);
            lane_events += n;
        }
        events += lane_events;
        if (!t)
            continue;
        FZ_CHECK(t->name && t->group && lane_events == t->events);
        for (size_t k = 0, prev = 0; k < t->interval_count; k++) {
            /* one at a time: the intervals are not one array */
            const jfr_timeline_interval *iv =
                jfr_timeline_interval_at(tl, t->first_interval + k);
            FZ_CHECK(iv && iv->thread == lane && iv->detail && iv->top_frame &&
                     iv->event_type && iv->duration_nanos >= 0);
            if (k)
                FZ_CHECK(iv->start_nanos >=
                         jfr_timeline_interval_at(tl, prev)->start_nanos);
            prev = t->first_interval + k;
        }
        kept += t->interval_count;
    }
    for (size_t k = kept; k < jfr_timeline_interval_count(tl); k++)
        FZ_CHECK(jfr_timeline_interval_at(tl, k)->thread == JFR_TIMELINE_ALL_THREADS);
    FZ_CHECK(jfr_timeline_interval_count(tl) <= 64);
    FZ_CHECK(jfr_timeline_interval_count(tl) + jfr_timeline_dropped(tl) == events);
    jfr_timeline_free(tl);
}

/* A profile saved and loaded again is the same profile; a saved profile
 * loaded and saved again gives the same bytes. */
static void check_saved(const jfr_profile *p)
{
    jfr_profile *q;
    jfr_error err;
    void *bytes, *again;
    size_t size, size2;

    if (jfr_profile_save(&bytes, &size, p) < 0)
        return; /* out of memory */
    FZ_CHECK(jfr_profile_load(&q, bytes, size, NULL, &err) == JFR_OK);
    check_same_profile(p, q);
    check_profile(q);
    FZ_CHECK(jfr_profile_save(&again, &size2, q) == JFR_OK);
    FZ_CHECK(size2 == size && memcmp(bytes, again, size) == 0);
    jfr_profile_bytes_free(again);
    jfr_profile_bytes_free(bytes);
    jfr_profile_free(q);
}

/* Bytes that start as a saved profile: loaded or refused, never read past
 * their end; what loads is a well-formed profile that saves again. */
static void fuzz_saved(const uint8_t *data, size_t size)
{
    jfr_profile *p;
    jfr_error err;
    int rc = jfr_profile_load(&p, data, size, NULL, &err);

    if (rc < 0) {
        FZ_CHECK(p == NULL && err.offset <= size);
        return;
    }
    check_profile(p);
    check_saved(p);
    jfr_profile_free(p);
}

/* `compact` holds the stacks of `plain` in the same order: read by copies
 * (nothing rewritten), then in place (rewritten for good). */
static void check_compact(jfr_profile *compact, const jfr_profile *plain)
{
    uint32_t frames[64];

    check_same_profile(compact, plain);
    for (size_t i = 0; i < jfr_profile_stack_count(plain); i++) {
        uint64_t w, cw;
        const uint32_t *want;
        size_t depth, got;
        int rc;

        FZ_CHECK(jfr_profile_stack(&w, &want, &depth, plain, i) == JFR_OK);
        rc = jfr_profile_stack_copy(&cw, frames, 64, &got, compact, i);
        FZ_CHECK(got == depth && (rc == JFR_OK) == (depth <= 64));
        if (rc == JFR_OK)
            FZ_CHECK(cw == w && memcmp(frames, want, depth * sizeof *want) == 0);
        else
            FZ_CHECK(rc == JFR_ELIMIT);
    }
    check_saved(compact);
    check_profile(compact); /* rewrites the stacks in 4 bytes a frame */
    check_same_profile(compact, plain);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jfr_recording *rec;
    jfr_chunk *chunk;
    jfr_profile *cpu, *alloc, *merged, *top, *buckets, *compact, *compact_merged;
    jfr_findings *findings;
    jfr_leaks *leaks;
    jfr_timeline *timeline;
    jfr_timeline_options to = JFR_TIMELINE_OPTIONS_INIT;
    jfr_profile_options bo = JFR_PROFILE_OPTIONS_INIT;
    jfr_error err;
    int64_t start = 0, end = 0;
    int rc, guard = 0;

    if (size >= 7 && memcmp(data, "JFRPROF", 7) == 0) {
        fuzz_saved(data, size);
        return 0;
    }
    if (fz_open(&rec, data, size) < 0)
        return 0;
    (void)jfr_recording_span_nanos(&start, &end, rec);
    bo.event_type = "jdk.ExecutionSample";
    bo.flags = CPU_FLAGS;
    bo.bucket_nanos = 10000000;
    bo.bucket_origin_nanos = start;
    FZ_CHECK(jfr_profile_new(&buckets, &bo, &err) == JFR_OK);
    FZ_CHECK(jfr_findings_new(&findings, NULL, &err) == JFR_OK);
    FZ_CHECK(jfr_leaks_new(&leaks, NULL, &err) == JFR_OK);
    to.max_intervals = 64;
    FZ_CHECK(jfr_timeline_new(&timeline, &to, &err) == JFR_OK);
    cpu = new_profile("jdk.ExecutionSample", NULL, CPU_FLAGS);
    merged = new_profile("jdk.ExecutionSample", NULL, CPU_FLAGS);
    compact =
        new_profile("jdk.ExecutionSample", NULL, CPU_FLAGS | JFR_PROFILE_COMPACT_STACKS);
    compact_merged =
        new_profile("jdk.ExecutionSample", NULL, CPU_FLAGS | JFR_PROFILE_COMPACT_STACKS);
    top = new_profile("jdk.ExecutionSample", NULL, CPU_FLAGS | JFR_PROFILE_TOP_FRAME);
    alloc = new_profile("jdk.ObjectAllocationSample", "weight",
                        JFR_PROFILE_REVERSE | JFR_PROFILE_FRAME_KIND);
    while ((rc = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE && guard++ < 1000) {
        jfr_profile *one;

        if (rc < 0)
            continue;
        (void)jfr_profile_add_chunk(cpu, chunk);
        (void)jfr_profile_add_chunk(compact, chunk);
        (void)jfr_profile_add_chunk(alloc, chunk);
        (void)jfr_profile_add_chunk(top, chunk);
        (void)jfr_profile_add_chunk(buckets, chunk);
        (void)jfr_findings_add_chunk(findings, chunk);
        (void)jfr_leaks_add_chunk(leaks, chunk);
        (void)jfr_timeline_add_chunk(timeline, chunk);
        one = new_profile("jdk.ExecutionSample", NULL, CPU_FLAGS);
        (void)jfr_profile_add_chunk(one, chunk);
        FZ_CHECK(jfr_profile_merge(merged, one) == JFR_OK);
        jfr_profile_free(one);
        one = new_profile("jdk.ExecutionSample", NULL,
                          CPU_FLAGS | JFR_PROFILE_COMPACT_STACKS);
        (void)jfr_profile_add_chunk(one, chunk);
        FZ_CHECK(jfr_profile_merge(compact_merged, one) == JFR_OK);
        jfr_profile_free(one);
    }
    check_same_profile(cpu, merged);
    check_compact(compact, cpu);
    check_compact(compact_merged, merged);
    jfr_profile_free(compact);
    jfr_profile_free(compact_merged);
    check_saved(cpu);
    check_saved(alloc);
    check_buckets(buckets, cpu);
    FZ_CHECK(jfr_findings_add_profile(findings, "exec", buckets) == JFR_OK);
    FZ_CHECK(jfr_findings_add_profile(findings, "alloc", alloc) == JFR_OK);
    FZ_CHECK(jfr_findings_add_leaks(findings, leaks) != JFR_EINVAL);
    check_findings(findings);
    check_timeline(timeline);
    jfr_findings_free(findings);
    /* every fact of the recording in one call (jfr_findings_add_recordings) */
    FZ_CHECK(jfr_findings_new(&findings, NULL, &err) == JFR_OK);
    FZ_CHECK(jfr_findings_add_recordings(findings, &rec, 1) != JFR_EINVAL);
    check_findings(findings);
    jfr_findings_free(findings);
    jfr_leaks_free(leaks);
    jfr_profile_free(buckets);
    FZ_CHECK(jfr_profile_total(top) == jfr_profile_total(cpu));
    check_top_frames(top);
    FZ_CHECK(jfr_profile_add_synthetic(cpu, "[lost samples]", 3, 1) == JFR_OK);
    check_profile(cpu);
    check_profile(merged);
    check_profile(top);
    check_profile(alloc);
    jfr_profile_free(cpu);
    jfr_profile_free(merged);
    jfr_profile_free(top);
    jfr_profile_free(alloc);
    jfr_recording_free(rec);
    return 0;
}
