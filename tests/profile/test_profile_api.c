/* test_profile_api.c - the stack-aggregation API (jfr/profile.h) and its
 * internals (interning, parameter rendering) on the test recordings. The
 * folded goldens (test_folded.py) check the stacks themselves; this checks
 * the call tree, the flags and the accounting. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jfr.h"
#include "intern.h"
#include "jfr_private.h"
#include "profile_struct.h"
#include "testdata.h"

static char *recording_path(const char *name)
{
    static char path[4096];
    char rel[256];

    snprintf(rel, sizeof rel, "recordings/%s", name);
    return testdata_path(path, sizeof path, rel);
}

/* An empty profile of `event` samples. */
static jfr_profile *new_profile(const char *event, unsigned flags, const char *weight)
{
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile *p;
    jfr_error err;

    o.event_type = event;
    o.flags = flags;
    o.weight_field = weight;
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_OK, "%s", err.message);
    return p;
}

static jfr_profile *profile_of(const char *file, const char *event, unsigned flags,
                               const char *weight)
{
    jfr_profile *p = new_profile(event, flags, weight);
    jfr_recording *rec;
    jfr_chunk *c;
    jfr_error err;

    cr_assert_eq(jfr_recording_open_file(&rec, recording_path(file), NULL, &err), JFR_OK,
                 "%s: %s", file, err.message);
    while (jfr_recording_next_chunk(&c, rec) == JFR_OK)
        cr_assert_eq(jfr_profile_add_chunk(p, c), JFR_OK);
    jfr_recording_free(rec);
    return p;
}

static const char *frame_name(const jfr_profile *p, size_t node)
{
    return jfr_profile_frame_at(p, jfr_profile_node_frame(p, node))->name;
}

/* Pre-order, sizes, totals = self + children, children sorted by name. */
static void check_tree(jfr_profile *p)
{
    size_t n = (jfr_profile_build_tree(p), jfr_profile_node_count(p));

    cr_assert_gt(n, 1);
    cr_assert_eq(jfr_profile_node_frame(p, 0), JFR_PROFILE_ROOT);
    cr_assert_eq(jfr_profile_node_total(p, 0), jfr_profile_total(p));
    cr_assert_eq(jfr_profile_node_size(p, 0), n);
    for (size_t i = 0; i < n; i++) {
        size_t end = i + jfr_profile_node_size(p, i), prev = SIZE_MAX;
        uint64_t sum = jfr_profile_node_self(p, i);

        cr_assert_leq(end, n);
        for (size_t c = i + 1; c < end; c += jfr_profile_node_size(p, c)) {
            cr_assert_eq(jfr_profile_node_depth(p, c), jfr_profile_node_depth(p, i) + 1);
            sum += jfr_profile_node_total(p, c);
            if (prev != SIZE_MAX)
                cr_assert_leq(strcmp(frame_name(p, prev), frame_name(p, c)), 0,
                              "children out of order: %s, %s", frame_name(p, prev),
                              frame_name(p, c));
            prev = c;
        }
        cr_assert_eq(sum, jfr_profile_node_total(p, i), "node %zu", i);
    }
}

Test(profile_internals, intern_ids_are_dense_and_stable)
{
    jfrp_alloc al;
    jfrp_intern t;
    char key[32];
    uint32_t id;
    int added;

    jfrp_alloc_init(&al, NULL);
    jfrp_intern_init(&t, &al);
    for (uint32_t i = 0; i < 20000; i++) {
        snprintf(key, sizeof key, "k%u", i);
        cr_assert_eq(jfrp_intern_put(&t, key, strlen(key), &id, &added), 0);
        cr_assert_eq(id, i);
        cr_assert(added);
    }
    cr_assert_eq(jfrp_intern_put(&t, "k123", 4, &id, &added), 0);
    cr_assert_eq(id, 123);
    cr_assert_not(added);
    cr_assert_str_eq(jfrp_intern_key(&t, 19999, NULL), "k19999");
    /* bytes, not strings: embedded NULs count */
    cr_assert_eq(jfrp_intern_put(&t, "a\0b", 3, &id, &added), 0);
    cr_assert_eq(jfrp_intern_put(&t, "a\0c", 3, &id, &added), 0);
    cr_assert(added);
    cr_assert_eq(jfrp_intern_count(&t), 20002);
    jfrp_intern_free(&t);
}

Test(profile, tree_of_execution_samples)
{
    jfr_profile *p = profile_of("cpu-jdk25.jfr", "jdk.ExecutionSample", 0, NULL);
    uint64_t sum = 0;

    /* 172 jdk.ExecutionSample in testdata/jdk/cpu-jdk25.jfr.summary.txt */
    cr_assert_eq(jfr_profile_samples(p), 172);
    cr_assert_eq(jfr_profile_total(p), 172);
    for (size_t i = 0; i < jfr_profile_stack_count(p); i++) {
        uint64_t w;
        cr_assert_eq(jfr_profile_stack(&w, NULL, NULL, p, i), JFR_OK);
        cr_assert_eq(w, jfr_profile_stack_samples(p, i));
        sum += w;
    }
    cr_assert_eq(sum, 172);
    cr_assert_eq(jfr_profile_stack(NULL, NULL, NULL, p, jfr_profile_stack_count(p)),
                 JFR_EINVAL);
    cr_assert_null(jfr_profile_frame_at(p, (uint32_t)jfr_profile_frame_count(p)));
    check_tree(p);
    /* adding samples rebuilds the tree */
    cr_assert_eq(jfr_profile_add_synthetic(p, "[lost samples]", 28, 28), JFR_OK);
    cr_assert_eq(jfr_profile_add_synthetic(p, "[lost samples]", 2, 2), JFR_OK);
    check_tree(p);
    cr_assert_eq(jfr_profile_total(p), 202);
    cr_assert_str_eq(frame_name(p, 1), "[lost samples]");
    cr_assert_eq(jfr_profile_node_total(p, 1), 30);
    jfr_profile_free(p);
}

Test(profile, reversed_tree_starts_at_the_leaves)
{
    jfr_profile *p =
        profile_of("cpu-jdk25.jfr", "jdk.ExecutionSample", JFR_PROFILE_REVERSE, NULL);
    size_t n = (jfr_profile_build_tree(p), jfr_profile_node_count(p));

    check_tree(p);
    /* every stack's leaf is a child of the root, with the stack's weight */
    for (size_t i = 0; i < jfr_profile_stack_count(p); i++) {
        const uint32_t *frames;
        size_t depth;
        bool found = false;

        jfr_profile_stack(NULL, &frames, &depth, p, i);
        for (size_t c = 1; c < n; c += jfr_profile_node_size(p, c))
            found |= jfr_profile_node_frame(p, c) == frames[depth - 1];
        cr_assert(found, "leaf of stack %zu is no root child", i);
    }
    jfr_profile_free(p);
}

Test(profile, signatures_and_lines)
{
    jfr_profile *p = profile_of(
        "io-jdk25.jfr", "jdk.ExecutionSample",
        JFR_PROFILE_SIGNATURES | JFR_PROFILE_LINES | JFR_PROFILE_FRAME_KIND, NULL);
    bool sha = false, lines = false;

    /* the top row of testdata/jdk/io-jdk25.jfr.view-hot-methods.txt */
    for (uint32_t id = 0; id < jfr_profile_frame_count(p); id++) {
        const jfr_profile_frame *f = jfr_profile_frame_at(p, id);
        if (strcmp(f->name, "sun.security.provider.SHA2.implCompress0(byte[], int)") ==
            0) {
            sha = true;
            cr_assert_str_eq(f->class_name, "sun.security.provider.SHA2");
            cr_assert_str_eq(f->method, "implCompress0");
            cr_assert_str_eq(f->signature, "(byte[], int)");
        }
        lines |= f->line > 0;
    }
    cr_assert(sha);
    cr_assert(lines);
    check_tree(p);
    jfr_profile_free(p);
}

Test(profile, cpu_time_accounting)
{
    jfr_profile *p = profile_of("io-jdk25.jfr", "jdk.CPUTimeSample", 0, "samplingPeriod");
    const jfr_cpu_accounting *a = jfr_profile_cpu(p);

    /* testdata/jdk/io-jdk25.jfr.view-cpu-time-statistics.txt */
    cr_assert_eq(a->samples, 591);
    cr_assert_eq(a->with_stack, 591);
    cr_assert_eq(a->failed, 0);
    cr_assert_eq(a->biased, 128);
    cr_assert_eq(a->lost, 100);
    cr_assert_gt(a->lost_events, 0);
    cr_assert_eq(a->failed_period_ns, 0);
    cr_assert_gt(a->biased_period_ns, 128 * 1000000ull);
    cr_assert_lt(a->biased_period_ns, a->period_ns);
    cr_assert_eq(jfr_profile_samples(p), 591);
    /* weighted by the period: the total is the sum of the periods, in ns */
    cr_assert_eq(jfr_profile_total(p), a->period_ns);
    cr_assert_gt(a->period_ns, 591 * 1000000ull);
    jfr_profile_free(p);

    p = profile_of("io-jdk25.jfr", "jdk.ExecutionSample", 0, NULL);
    cr_assert_eq(jfr_profile_cpu(p)->samples, 0);
    cr_assert_eq(jfr_profile_cpu(p)->lost, 0);
    jfr_profile_free(p);
}

/* The accounting alone: the same figures as the whole profile, no stacks. */
Test(profile, accounting_only)
{
    jfr_profile *whole =
        profile_of("io-jdk25.jfr", "jdk.CPUTimeSample", 0, "samplingPeriod");
    jfr_profile *only = profile_of("io-jdk25.jfr", "jdk.CPUTimeSample",
                                   JFR_PROFILE_ACCOUNTING_ONLY, "samplingPeriod");

    cr_assert_eq(jfr_profile_cpu(only)->samples, 591);
    cr_assert_eq(
        memcmp(jfr_profile_cpu(only), jfr_profile_cpu(whole), sizeof(jfr_cpu_accounting)),
        0);
    cr_assert_eq(jfr_profile_stack_count(only), 0);
    cr_assert_eq(jfr_profile_samples(only), 0);
    cr_assert_eq(jfr_profile_total(only), 0);
    cr_assert_gt(jfr_profile_stack_count(whole), 0);
    jfr_profile_free(only);
    jfr_profile_free(whole);
}

/* Time buckets: the per-bucket stacks sum to the plain profile, and the
 * buckets [b0, b1) hold what a profile with from/to at their edges holds. */
static jfr_profile *bucket_profile(int64_t origin, int64_t width, int64_t from,
                                   int64_t to)
{
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    jfr_recording *rec;
    jfr_profile *p;
    jfr_chunk *c;
    jfr_error err;

    o.event_type = "jdk.ExecutionSample";
    o.bucket_nanos = width;
    o.bucket_origin_nanos = origin;
    o.from_nanos = from;
    o.to_nanos = to;
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_OK, "%s", err.message);
    cr_assert_eq(
        jfr_recording_open_file(&rec, recording_path("cpu-jdk25.jfr"), NULL, &err),
        JFR_OK);
    while (jfr_recording_next_chunk(&c, rec) == JFR_OK)
        cr_assert_eq(jfr_profile_add_chunk(p, c), JFR_OK);
    jfr_recording_free(rec);
    return p;
}

Test(profile, time_buckets)
{
    jfr_recording *rec;
    jfr_error err;
    int64_t start, width = 500000000;
    uint64_t in_range = 0, all = 0;
    jfr_profile *whole, *b, *ranged;

    cr_assert_eq(
        jfr_recording_open_file(&rec, recording_path("cpu-jdk25.jfr"), NULL, &err),
        JFR_OK);
    cr_assert_eq(jfr_recording_start_nanos(&start, rec), JFR_OK);
    jfr_recording_free(rec);
    whole = profile_of("cpu-jdk25.jfr", "jdk.ExecutionSample", 0, NULL);
    b = bucket_profile(start, width, 0, 0);
    ranged = bucket_profile(start, width, start + 2 * width, start + 5 * width);
    cr_assert_eq(jfr_profile_total(b), jfr_profile_total(whole));
    for (size_t i = 0; i < jfr_profile_stack_count(b); i++) {
        uint64_t w;
        const uint32_t *frames;
        size_t depth;
        const jfr_profile_frame *root;

        cr_assert_eq(jfr_profile_stack(&w, &frames, &depth, b, i), JFR_OK);
        root = jfr_profile_frame_at(b, frames[0]);
        cr_assert(root->synthetic);
        cr_assert_geq(root->time_bucket, 0, "%s", root->name);
        all += w;
        if (root->time_bucket >= 2 && root->time_bucket < 5)
            in_range += w;
        cr_assert_eq(jfr_profile_frame_at(b, frames[depth - 1])->time_bucket, INT64_MIN);
    }
    cr_assert_eq(all, jfr_profile_total(whole));
    cr_assert_gt(in_range, 0);
    cr_assert_eq(in_range, jfr_profile_total(ranged));
    jfr_profile_free(whole);
    jfr_profile_free(b);
    jfr_profile_free(ranged);
}

Test(profile, options_are_checked)
{
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile *p = NULL;
    jfr_error err;

    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_EINVAL);
    o.event_type = "jdk.ExecutionSample";
    o.include_regex = "(";
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_EINVAL);
    cr_assert(strstr(err.message, "include") != NULL, "%s", err.message);
    cr_assert_null(p);
    o.include_regex = NULL;
    o.weight_field = "noSuchField";
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_OK);
    {
        jfr_recording *rec;
        jfr_chunk *c;
        cr_assert_eq(
            jfr_recording_open_file(&rec, recording_path("cpu-jdk25.jfr"), NULL, &err),
            JFR_OK);
        cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_OK);
        cr_assert_eq(jfr_profile_add_chunk(p, c), JFR_ENOTFOUND);
        cr_assert(strstr(jfr_recording_error(rec)->message, "noSuchField") != NULL);
        jfr_recording_free(rec);
    }
    jfr_profile_free(p);
    jfr_profile_free(NULL);
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every stack as "frame:line:kind;...; weight/samples", sorted: what two
 * profiles must agree on whatever order their ids were given in. */
static char **stack_lines(const jfr_profile *p, size_t *n)
{
    char **lines;

    *n = jfr_profile_stack_count(p);
    lines = calloc(*n ? *n : 1, sizeof *lines);
    cr_assert_not_null(lines);
    for (size_t i = 0; i < *n; i++) {
        const uint32_t *frames;
        size_t depth, len = 0, cap = 64;
        uint64_t w;
        char *s = malloc(cap);

        cr_assert_eq(jfr_profile_stack(&w, &frames, &depth, p, i), JFR_OK);
        for (size_t k = 0; k <= depth; k++) {
            const jfr_profile_frame *f =
                k < depth ? jfr_profile_frame_at(p, frames[k]) : NULL;
            char part[2048];
            int m = f ? snprintf(part, sizeof part, "%s:%d:%d;", f->name, (int)f->line,
                                 (int)f->kind)
                      : snprintf(part, sizeof part, " %llu/%llu", (unsigned long long)w,
                                 (unsigned long long)jfr_profile_stack_samples(p, i));
            cr_assert(m > 0 && (size_t)m < sizeof part);
            while (len + (size_t)m + 1 > cap)
                s = realloc(s, cap *= 2);
            memcpy(s + len, part, (size_t)m + 1);
            len += (size_t)m;
        }
        lines[i] = s;
    }
    qsort(lines, *n, sizeof *lines, compare_strings);
    return lines;
}

static void free_lines(char **lines, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

/* One profile per chunk, each chunk read by its own recording handle that
 * skips the others (as jfrtool's threads do), merged in chunk order. */
static jfr_profile *merged_profile_of(const char *file, const char *event, unsigned flags,
                                      const char *weight, size_t *nchunks)
{
    jfr_profile *all = new_profile(event, flags, weight), *one;
    jfr_recording *rec;
    jfr_chunk *c;
    jfr_error err;

    for (*nchunks = 0;; (*nchunks)++) {
        int rc = JFR_OK;

        cr_assert_eq(jfr_recording_open_file(&rec, recording_path(file), NULL, &err),
                     JFR_OK);
        for (size_t k = 0; k < *nchunks && rc == JFR_OK; k++)
            rc = jfr_recording_skip_chunk(rec);
        cr_assert(rc == JFR_OK || rc == JFR_DONE, "skip: %d", rc);
        if (rc == JFR_DONE || jfr_recording_next_chunk(&c, rec) != JFR_OK) {
            jfr_recording_free(rec);
            break;
        }
        one = new_profile(event, flags, weight);
        cr_assert_eq(jfr_profile_add_chunk(one, c), JFR_OK);
        cr_assert_eq(jfr_profile_merge(all, one), JFR_OK);
        jfr_profile_free(one);
        jfr_recording_free(rec);
    }
    return all;
}

static void check_merge_equals_direct(const char *file, const char *event, unsigned flags,
                                      const char *weight, size_t want_chunks)
{
    jfr_profile *direct = profile_of(file, event, flags, weight);
    size_t nchunks, n1, n2;
    jfr_profile *merged = merged_profile_of(file, event, flags, weight, &nchunks);
    char **a = stack_lines(direct, &n1), **b = stack_lines(merged, &n2);

    cr_assert_eq(nchunks, want_chunks, "%s", file);
    cr_assert_gt(n1, 10, "%s has stacks to merge", file);
    cr_assert_eq(n1, n2, "%s: %zu stacks direct, %zu merged", file, n1, n2);
    for (size_t i = 0; i < n1; i++)
        cr_assert_str_eq(a[i], b[i], "%s: stack %zu", file, i);
    cr_assert_eq(jfr_profile_total(direct), jfr_profile_total(merged));
    cr_assert_eq(jfr_profile_samples(direct), jfr_profile_samples(merged));
    cr_assert_eq(jfr_profile_frame_count(direct), jfr_profile_frame_count(merged));
    cr_assert_eq(memcmp(jfr_profile_cpu(direct), jfr_profile_cpu(merged),
                        sizeof(jfr_cpu_accounting)),
                 0);
    free_lines(a, n1);
    free_lines(b, n2);
    jfr_profile_free(direct);
    jfr_profile_free(merged);
}

Test(profile, merged_chunks_equal_one_profile)
{
    unsigned all = JFR_PROFILE_LINES | JFR_PROFILE_FRAME_KIND | JFR_PROFILE_THREADS |
                   JFR_PROFILE_SIGNATURES;

    check_merge_equals_direct("multi-jdk25.jfr", "jdk.ExecutionSample", all, NULL, 3);
    check_merge_equals_direct("multi-jdk25.jfr", "jdk.ObjectAllocationSample",
                              JFR_PROFILE_FRAME_KIND, "weight", 3);
    check_merge_equals_direct("concat-17-25.jfr", "jdk.CPUTimeSample", all,
                              "samplingPeriod", 2);
    check_merge_equals_direct("concat-17-25.jfr", "jdk.ExecutionSample", 0, NULL, 2);
}

Test(profile, merge_needs_the_same_profile_kind)
{
    jfr_profile *a = profile_of("cpu-jdk25.jfr", "jdk.ExecutionSample", 0, NULL);
    jfr_profile *b =
        profile_of("cpu-jdk25.jfr", "jdk.ExecutionSample", JFR_PROFILE_LINES, NULL);
    jfr_profile *c = profile_of("cpu-jdk25.jfr", "jdk.CPUTimeSample", 0, NULL);
    uint64_t total = jfr_profile_total(a);

    cr_assert_eq(jfr_profile_merge(a, b), JFR_EINVAL);
    cr_assert_eq(jfr_profile_merge(a, c), JFR_EINVAL);
    cr_assert_eq(jfr_profile_merge(a, a), JFR_EINVAL);
    cr_assert_eq(jfr_profile_merge(NULL, a), JFR_EINVAL);
    cr_assert_eq(jfr_profile_total(a), total);
    /* merging a profile into an empty one copies it */
    {
        jfr_profile *empty = new_profile("jdk.ExecutionSample", 0, NULL);
        size_t n1, n2;
        char **x, **y;

        cr_assert_eq(jfr_profile_merge(empty, a), JFR_OK);
        x = stack_lines(a, &n1);
        y = stack_lines(empty, &n2);
        cr_assert_eq(n1, n2);
        for (size_t i = 0; i < n1; i++)
            cr_assert_str_eq(x[i], y[i]);
        free_lines(x, n1);
        free_lines(y, n2);
        jfr_profile_free(empty);
    }
    jfr_profile_free(a);
    jfr_profile_free(b);
    jfr_profile_free(c);
}

/* ---- kinds ---- */

static jfr_profile *kind_profile(const char *file, const char *kind,
                                 const jfr_profile_source *sources, size_t n)
{
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile *p;
    jfr_recording *rec;
    jfr_chunk *c;
    jfr_error err;

    o.kind = kind;
    o.sources = sources;
    o.nsources = n;
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_OK, "%s", err.message);
    cr_assert_eq(jfr_recording_open_file(&rec, recording_path(file), NULL, &err), JFR_OK);
    while (jfr_recording_next_chunk(&c, rec) == JFR_OK)
        cr_assert_eq(jfr_profile_add_chunk(p, c), JFR_OK, "%s",
                     jfr_recording_error(rec)->message);
    jfr_recording_free(rec);
    return p;
}

Test(kinds, the_table_is_well_formed)
{
    size_t n;
    const jfr_profile_kind *k = jfr_profile_kinds(&n);
    const char *wanted[] = {"cpu",  "exec", "native", "wall",      "alloc",
                            "lock", "wait", "io",     "exceptions"};

    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
        cr_assert_not_null(jfr_profile_kind_by_name(wanted[i]), "%s", wanted[i]);
    cr_assert_null(jfr_profile_kind_by_name("jdk.ExecutionSample"));
    cr_assert_null(jfr_profile_kind_by_name(NULL));
    for (size_t i = 0; i < n; i++) {
        cr_assert_eq(jfr_profile_kind_by_name(k[i].name), &k[i]);
        cr_assert_gt(k[i].nsources, 0);
        cr_assert(*k[i].description);
        /* groups start at 0 and follow each other */
        cr_assert_eq(k[i].sources[0].group, 0, "%s", k[i].name);
        for (size_t j = 0; j < k[i].nsources; j++) {
            const jfr_profile_source *src = &k[i].sources[j];
            cr_assert(strncmp(src->event_type, "jdk.", 4) == 0 ||
                      strncmp(src->event_type, "profiler.", 9) == 0 ||
                      strncmp(src->event_type, "datadog.", 8) == 0);
            cr_assert(j == 0 || src->group == k[i].sources[j - 1].group ||
                          src->group == k[i].sources[j - 1].group + 1,
                      "%s", k[i].name);
        }
    }
    cr_assert_str_eq(jfr_unit_name(JFR_UNIT_NANOS), "ns");
    cr_assert_str_eq(jfr_unit_name(JFR_UNIT_BYTES), "bytes");
}

/* A kind of several types is the sum of its one-type profiles, stack by
 * stack, with the unit the metadata gives. */
Test(kinds, several_types_sum_per_stack)
{
    jfr_profile *wall = kind_profile("io-jdk25.jfr", "wall", NULL, 0);
    jfr_profile *exec = profile_of("io-jdk25.jfr", "jdk.ExecutionSample", 0, NULL);
    jfr_profile *native = profile_of("io-jdk25.jfr", "jdk.NativeMethodSample", 0, NULL);
    jfr_profile *lock = kind_profile("io-jdk25.jfr", "lock", NULL, 0);
    jfr_profile *enter =
        profile_of("io-jdk25.jfr", "jdk.JavaMonitorEnter", 0, "duration");
    jfr_profile *park = profile_of("io-jdk25.jfr", "jdk.ThreadPark", 0, "duration");

    cr_assert_gt(jfr_profile_samples(exec), 0);
    cr_assert_gt(jfr_profile_samples(native), 0);
    cr_assert_eq(jfr_profile_total(wall),
                 jfr_profile_total(exec) + jfr_profile_total(native));
    cr_assert_eq(jfr_profile_unit(wall), JFR_UNIT_SAMPLES);
    cr_assert_gt(jfr_profile_total(park), 0);
    cr_assert_eq(jfr_profile_total(lock),
                 jfr_profile_total(enter) + jfr_profile_total(park));
    cr_assert_eq(jfr_profile_unit(lock), JFR_UNIT_NANOS);
    /* merged per stack: no more stacks than the parts, and every stack's
     * weight is the parts' */
    cr_assert_leq(jfr_profile_stack_count(lock),
                  jfr_profile_stack_count(enter) + jfr_profile_stack_count(park));
    {
        jfr_profile *sum = new_profile("jdk.JavaMonitorEnter", 0, "duration");
        size_t n1, n2;
        char **x, **y;

        /* the same sources given by hand merge with the kind */
        cr_assert_eq(jfr_profile_merge(sum, enter), JFR_OK);
        cr_assert_eq(jfr_profile_merge(sum, lock), JFR_EINVAL);
        jfr_profile_free(sum);
        sum =
            kind_profile("io-jdk25.jfr", NULL, jfr_profile_kind_by_name("lock")->sources,
                         jfr_profile_kind_by_name("lock")->nsources);
        x = stack_lines(lock, &n1);
        y = stack_lines(sum, &n2);
        cr_assert_eq(n1, n2);
        for (size_t i = 0; i < n1; i++)
            cr_assert_str_eq(x[i], y[i]);
        free_lines(x, n1);
        free_lines(y, n2);
        jfr_profile_free(sum);
    }
    jfr_profile_free(wall);
    jfr_profile_free(exec);
    jfr_profile_free(native);
    jfr_profile_free(lock);
    jfr_profile_free(enter);
    jfr_profile_free(park);
}

Test(kinds, units_come_from_the_metadata)
{
    jfr_profile *alloc = kind_profile("cpu-jdk17.jfr", "alloc", NULL, 0);
    jfr_profile *exc = kind_profile("cpu-jdk17.jfr", "exceptions", NULL, 0);
    jfr_profile *period =
        profile_of("cpu-jdk25.jfr", "jdk.CPUTimeSample", 0, "samplingPeriod");
    /* a field without a unit annotation: a plain number */
    jfr_profile *plain = profile_of("cpu-jdk25.jfr", "jdk.ThreadCPULoad", 0, NULL);

    cr_assert_eq(jfr_profile_unit(alloc), JFR_UNIT_BYTES);
    cr_assert_gt(jfr_profile_total(alloc), 0);
    cr_assert_eq(jfr_profile_unit(exc), JFR_UNIT_EVENTS);
    cr_assert_eq(jfr_profile_unit(period), JFR_UNIT_NANOS);
    cr_assert_eq(jfr_profile_unit(plain), JFR_UNIT_SAMPLES);
    jfr_profile_free(alloc);
    jfr_profile_free(exc);
    jfr_profile_free(period);
    jfr_profile_free(plain);
}

/* Weights of different units are not added up. */
Test(kinds, mixed_units_are_refused)
{
    const jfr_profile_source mixed[] = {
        {.event_type = "jdk.ThreadPark", .weight_field = "duration"},
        {.event_type = "jdk.ObjectAllocationSample", .weight_field = "weight"}};
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    jfr_recording *rec;
    jfr_profile *p;
    jfr_chunk *c;
    jfr_error err;
    int rc = JFR_OK;

    o.sources = mixed;
    o.nsources = 2;
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_OK);
    cr_assert_eq(
        jfr_recording_open_file(&rec, recording_path("io-jdk25.jfr"), NULL, &err),
        JFR_OK);
    while (rc == JFR_OK && jfr_recording_next_chunk(&c, rec) == JFR_OK)
        rc = jfr_profile_add_chunk(p, c);
    cr_assert_eq(rc, JFR_EFORMAT);
    cr_assert(strstr(jfr_recording_error(rec)->message, "bytes") != NULL, "%s",
              jfr_recording_error(rec)->message);
    jfr_recording_free(rec);
    jfr_profile_free(p);
}

/* The sum of integer field `field` of the events of `type` (count: NULL). */
static uint64_t sum_of(const char *file, const char *type, const char *field,
                       uint64_t *events)
{
    const char *types[] = {type};
    jfr_recording *rec;
    jfr_event_iter *it;
    const jfr_event *ev;
    jfr_chunk *c;
    jfr_error err;
    uint64_t sum = 0;

    *events = 0;
    cr_assert_eq(jfr_recording_open_file(&rec, recording_path(file), NULL, &err), JFR_OK);
    while (jfr_recording_next_chunk(&c, rec) == JFR_OK) {
        if (!jfr_chunk_event_type(c, type))
            continue;
        cr_assert_eq(jfr_event_iter_new(&it, c, types, 1, 0), JFR_OK);
        while (jfr_event_next(&ev, it) == JFR_OK) {
            sum += field ? (uint64_t)jfr_event_number(ev, field) : 1;
            (*events)++;
        }
        jfr_event_iter_free(it);
    }
    jfr_recording_free(rec);
    return sum;
}

/* JDK 17 with jdk.ObjectAllocationSample declared but off: a new TLAB
 * stands for tlabSize bytes, an allocation outside one for its size. */
Test(kinds, alloc_reads_tlab_events_where_the_sample_is_off)
{
    const char *file = "../kinds/alloc-tlab-jdk17.jfr";
    jfr_profile *p = kind_profile(file, "alloc", NULL, 0);
    uint64_t in, out;
    uint64_t bytes =
        sum_of(file, "jdk.ObjectAllocationInNewTLAB", "tlabSize", &in) +
        sum_of(file, "jdk.ObjectAllocationOutsideTLAB", "allocationSize", &out);

    cr_assert_gt(in, 0);
    cr_assert_gt(out, 0);
    cr_assert_eq(jfr_profile_samples(p), in + out);
    cr_assert_eq(jfr_profile_total(p), bytes);
    cr_assert_eq(jfr_profile_unit(p), JFR_UNIT_BYTES);
    jfr_profile_free(p);
}

/* Both throw events on: each Throwable once (an Error is both events). */
Test(kinds, exceptions_count_each_throw_once)
{
    const char *file = "../kinds/throws-jdk25.jfr";
    jfr_profile *p = kind_profile(file, "exceptions", NULL, 0);
    uint64_t thrown, errors;

    (void)sum_of(file, "jdk.JavaExceptionThrow", NULL, &thrown);
    (void)sum_of(file, "jdk.JavaErrorThrow", NULL, &errors);
    cr_assert_gt(errors, 0);
    cr_assert_eq(jfr_profile_samples(p), thrown);
    jfr_profile_free(p);
    /* default settings (only the error event on): the errors */
    p = kind_profile("cpu-jdk17.jfr", "exceptions", NULL, 0);
    (void)sum_of("cpu-jdk17.jfr", "jdk.JavaErrorThrow", NULL, &errors);
    cr_assert_eq(jfr_profile_samples(p), errors);
    jfr_profile_free(p);
}

/* A group whose type the chunk's settings turn on is chosen even without
 * an event (cpu-jdk17.jfr: jdk.JavaMonitorEnter is on, with none), one
 * turned off is passed over (jdk.JavaExceptionThrow). */
Test(kinds, groups_follow_the_chunk_settings)
{
    const jfr_profile_source on[] = {{.event_type = "jdk.JavaMonitorEnter", .group = 0},
                                     {.event_type = "jdk.ExecutionSample", .group = 1}};
    const jfr_profile_source off[] = {
        {.event_type = "jdk.JavaExceptionThrow", .group = 0},
        {.event_type = "jdk.ExecutionSample", .group = 1}};
    jfr_profile *p = kind_profile("cpu-jdk17.jfr", NULL, on, 2);
    uint64_t exec;

    (void)sum_of("cpu-jdk17.jfr", "jdk.ExecutionSample", NULL, &exec);
    cr_assert_gt(exec, 0);
    cr_assert_eq(jfr_profile_samples(p), 0);
    jfr_profile_free(p);
    p = kind_profile("cpu-jdk17.jfr", NULL, off, 2);
    cr_assert_eq(jfr_profile_samples(p), exec);
    jfr_profile_free(p);
}

/* JFR_PROFILE_KIND_SAMPLES counts, in the profile's own pass, what every
 * kind that counts samples would select: equal to each kind's own total,
 * with the same time range; 0 for kinds that weigh by bytes or time. */
Test(kinds, kind_samples_equal_each_kind_total)
{
    static const char *const kinds[] = {"cpu", "exec", "native", "wall"};
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    jfr_recording *rec;
    jfr_profile *p;
    jfr_chunk *c;
    jfr_error err;

    o.kind = "exec";
    o.flags = JFR_PROFILE_KIND_SAMPLES;
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_OK, "%s", err.message);
    cr_assert_eq(
        jfr_recording_open_file(&rec, recording_path("io-jdk25.jfr"), NULL, &err),
        JFR_OK);
    while (jfr_recording_next_chunk(&c, rec) == JFR_OK)
        cr_assert_eq(jfr_profile_add_chunk(p, c), JFR_OK);
    jfr_recording_free(rec);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        jfr_profile *k = kind_profile("io-jdk25.jfr", kinds[i], NULL, 0);
        cr_assert_gt(jfr_profile_total(k), 0, "%s", kinds[i]);
        cr_assert_eq(jfr_profile_kind_samples(p, kinds[i]), jfr_profile_total(k), "%s",
                     kinds[i]);
        jfr_profile_free(k);
    }
    cr_assert_eq(jfr_profile_kind_samples(p, "alloc"), 0);
    cr_assert_eq(jfr_profile_kind_samples(p, "nope"), 0);
    cr_assert_eq(jfr_profile_kind_samples(NULL, "exec"), 0);
    jfr_profile_free(p);
}

/* Sources of one type must weigh alike; groups are bounded. */
Test(kinds, sources_of_one_type_agree)
{
    const jfr_profile_source two[] = {
        {.event_type = "jdk.ThreadPark", .weight_field = "duration"},
        {.event_type = "jdk.ThreadPark", .group = 1}};
    const jfr_profile_source far[] = {{.event_type = "jdk.ThreadPark", .group = 8}};
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile *p = NULL;
    jfr_error err;

    o.sources = two;
    o.nsources = 2;
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_EINVAL);
    o.sources = far;
    o.nsources = 1;
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_EINVAL);
    cr_assert_null(p);
}

Test(kinds, options_name_exactly_one_selection)
{
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    const jfr_profile_source none[] = {{.event_type = NULL}};
    jfr_profile *p = NULL;
    jfr_error err;

    o.kind = "nope";
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_EINVAL);
    cr_assert(strstr(err.message, "nope") != NULL);
    o.kind = "lock";
    o.event_type = "jdk.ThreadPark";
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_EINVAL);
    o.kind = NULL;
    o.event_type = NULL;
    o.sources = none;
    o.nsources = 1;
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_EINVAL);
    o.version = JFR_PROFILE_OPTIONS_VERSION + 1; /* unknown */
    o.sources = NULL;
    o.nsources = 0;
    o.event_type = "jdk.ThreadPark";
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_EINVAL);
    /* version 1 callers have no kind fields: they are not read */
    o.version = 1;
    o.kind = "nope";
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_OK, "%s", err.message);
    jfr_profile_free(p);
    cr_assert_null(jfr_profile_kind_by_name("nope"));
}

/* JFR 1.0 (JDK 9 and 10) names its events com.oracle.jdk.X. The corpus's
 * JDK 9 recordings declare the sample types but hold no samples, so this
 * checks the names are found; the profile reads them without error. */
Test(kinds, jfr_1_0_names)
{
    jfr_recording *rec = testdata_open_shared("corpus/public/jmc-9u0.jfr");
    jfr_profile *p;
    jfr_chunk *c;
    jfr_error err;
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;

    o.kind = "exec";
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_OK);
    while (jfr_recording_next_chunk(&c, rec) == JFR_OK) {
        cr_assert_not_null(jfr_chunk_event_type(c, "jdk.ExecutionSample"));
        cr_assert_null(jfr_chunk_type_by_name(c, "jdk.ExecutionSample"));
        cr_assert_str_eq(jfr_type_name(jfr_chunk_event_type(c, "jdk.ThreadPark")),
                         "com.oracle.jdk.ThreadPark");
        cr_assert_null(jfr_chunk_event_type(c, "jdk.NoSuchEvent"));
        cr_assert_eq(jfr_profile_add_chunk(p, c), JFR_OK);
    }
    jfr_profile_free(p);
    jfr_recording_free(rec);
}

/* ---- chunks in threads (jfr_recording_decode_chunks) ---- */

static uint8_t *read_whole(const char *name, size_t *len)
{
    FILE *f = fopen(recording_path(name), "rb");
    uint8_t *buf;

    cr_assert_not_null(f, "%s", name);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc(*len);
    cr_assert_eq(fread(buf, 1, *len, f), *len);
    fclose(f);
    return buf;
}

/* Seven chunks of three JVMs in one buffer; `bad_chunk` >= 0 gets metadata
 * offset 12345, which its sound header does not betray. */
static uint8_t *seven_chunks(size_t *len, int bad_chunk)
{
    const char *parts[] = {"cpu-jdk25.jfr", "io-jdk25.jfr", "concat-17-25.jfr",
                           "multi-jdk25.jfr"};
    uint8_t *all = NULL;
    size_t n = 0;
    int chunk = 0;

    for (size_t i = 0; i < 4; i++) {
        size_t plen;
        uint8_t *p = read_whole(parts[i], &plen);
        all = realloc(all, n + plen);
        memcpy(all + n, p, plen);
        free(p);
        n += plen;
    }
    for (size_t pos = 0; pos + 68 <= n; chunk++) {
        uint64_t size = 0;
        for (int b = 0; b < 8; b++)
            size = size << 8 | all[pos + 8 + b];
        if (chunk == bad_chunk)
            for (int b = 0; b < 8; b++)
                all[pos + 24 + b] = (uint8_t)(12345ull >> (56 - 8 * b));
        pos += size;
    }
    cr_assert_eq(chunk, 7);
    *len = n;
    return all;
}

typedef struct seen {
    int64_t index[16];
    uint64_t events[16];
    int error[16];
    size_t n;
    unsigned threads;
} seen;

static int count_events(jfr_chunk *chunk, jfr_recording *rec, void **result, void *user)
{
    jfr_event_iter *it;
    const jfr_event *ev;
    uint64_t *n = calloc(1, sizeof *n);

    (void)rec;
    (void)user;
    cr_assert_eq(jfr_event_iter_new(&it, chunk, NULL, 0, 0), JFR_OK);
    while (jfr_event_next(&ev, it) == JFR_OK)
        (*n)++;
    jfr_event_iter_free(it);
    *result = n;
    return JFR_OK;
}

static void note_chunk(void *result, const jfr_chunk_report *report, void *user)
{
    seen *s = user;
    uint64_t *n = result;

    cr_assert_lt(s->n, 16);
    cr_assert_eq(report->error == NULL, n != NULL);
    s->index[s->n] = report->index;
    s->events[s->n] = n ? *n : 0;
    s->error[s->n] = report->error ? report->error->code : 0;
    s->threads = report->threads;
    s->n++;
    free(n);
}

static seen decode_all(const uint8_t *buf, size_t len, unsigned threads)
{
    static const jfr_chunk_ops ops = {count_events, note_chunk};
    jfr_recording *rec;
    jfr_chunk *c;
    jfr_error err;
    seen s;

    memset(&s, 0, sizeof s);
    cr_assert_eq(jfr_recording_open_memory(&rec, buf, len, NULL, &err), JFR_OK);
    cr_assert_eq(jfr_recording_decode_chunks(rec, threads, &ops, &s), JFR_OK);
    /* the recording is left at its end */
    cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_DONE);
    jfr_recording_free(rec);
    return s;
}

Test(threads, any_number_of_threads_merges_the_same_in_order)
{
    for (int bad = -1; bad < 7; bad += 2) {
        size_t len;
        uint8_t *buf = seven_chunks(&len, bad);
        seen one = decode_all(buf, len, 1);

        cr_assert_eq(one.n, 7);
        cr_assert_eq(one.threads, 1);
        for (size_t i = 0; i < one.n; i++) {
            cr_assert_eq(one.index[i], (int64_t)i);
            cr_assert_eq(one.error[i] != 0, (int)i == bad, "chunk %zu", i);
            cr_assert(one.error[i] || one.events[i] > 0);
        }
        for (unsigned t = 2; t <= 8; t += 3) {
            seen many = decode_all(buf, len, t);
            cr_assert_eq(many.threads, t < 7 ? t : 7);
            cr_assert_eq(many.n, one.n);
            for (size_t i = 0; i < one.n; i++) {
                cr_assert_eq(many.index[i], one.index[i]);
                cr_assert_eq(many.events[i], one.events[i]);
                cr_assert_eq(many.error[i], one.error[i]);
            }
        }
        free(buf);
    }
}

static unsigned idle_asked;
static unsigned eight_idle(void)
{
    idle_asked++;
    return 8;
}
static unsigned one_idle(void)
{
    idle_asked++;
    return 1;
}

/* 0 threads: one per idle CPU and per 4 MB at most, and a small input
 * does not even look at the CPUs (the look may sleep) */
Test(threads, the_default_takes_a_thread_per_4_mb_at_most)
{
    const uint64_t mb = 1u << 20;

    idle_asked = 0;
    cr_assert_eq(jfrp_auto_threads(0, eight_idle), 1);
    cr_assert_eq(jfrp_auto_threads(3 * mb, eight_idle), 1);
    cr_assert_eq(jfrp_auto_threads(8 * mb - 1, eight_idle), 1);
    cr_assert_eq(idle_asked, 0);
    cr_assert_eq(jfrp_auto_threads(8 * mb, eight_idle), 2);
    cr_assert_eq(jfrp_auto_threads(13 * mb, eight_idle), 3);
    cr_assert_eq(jfrp_auto_threads(139 * mb, eight_idle), 8);
    cr_assert_eq(jfrp_auto_threads(139 * mb, one_idle), 1);
    cr_assert_eq(idle_asked, 4);
}

/* the public rule is that rule with the machine's idle CPUs */
Test(threads, jfr_auto_threads_is_the_rule_on_this_machine)
{
    const uint64_t mb = 1u << 20;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned big = jfr_auto_threads(1000000 * mb);

    cr_assert_eq(jfr_auto_threads(0), 1);
    cr_assert_eq(jfr_auto_threads(8 * mb - 1), 1);
    cr_assert_geq(big, 1);
    cr_assert_leq(big, online > 0 ? (unsigned)online : 1u);
    cr_assert_leq(jfr_auto_threads(8 * mb), 2);
}

/* and jfr_recording_decode_chunks follows it: these 2.6 MB of seven
 * chunks are read in the calling thread, with the same results */
Test(threads, the_default_reads_a_small_file_in_one_thread)
{
    size_t len;
    uint8_t *buf = seven_chunks(&len, -1);
    seen one = decode_all(buf, len, 1), dflt = decode_all(buf, len, 0);

    cr_assert_lt(len, (size_t)8 << 20);
    cr_assert_eq(dflt.threads, 1);
    cr_assert_eq(dflt.n, one.n);
    for (size_t i = 0; i < one.n; i++)
        cr_assert_eq(dflt.events[i], one.events[i]);
    free(buf);
}

Test(threads, rewind_and_start)
{
    size_t len;
    uint8_t *buf = seven_chunks(&len, -1);
    jfr_recording *rec;
    jfr_chunk *c;
    jfr_error err;
    int64_t start, first_start = 0;
    int n = 0;

    cr_assert_eq(jfr_recording_open_memory(&rec, buf, len, NULL, &err), JFR_OK);
    cr_assert_eq(jfr_recording_start_nanos(&start, rec), JFR_OK);
    while (jfr_recording_next_chunk(&c, rec) == JFR_OK) {
        int64_t s = jfr_chunk_header(c)->start_nanos;
        if (!n++ || s < first_start)
            first_start = s;
    }
    cr_assert_eq(n, 7);
    cr_assert_eq(start, first_start);
    cr_assert_eq(jfr_recording_rewind(rec), JFR_OK);
    cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_OK);
    cr_assert_eq(jfr_chunk_index(c), 0);
    cr_assert_eq(jfr_recording_rewind(NULL), JFR_EINVAL);
    cr_assert_eq(jfr_recording_start_nanos(&start, NULL), JFR_EINVAL);
    cr_assert_eq(jfr_recording_decode_chunks(rec, 2, NULL, NULL), JFR_EINVAL);
    jfr_recording_free(rec);
    free(buf);
}

Test(recording, skip_chunk_stops_at_an_unfinished_chunk)
{
    jfr_recording *rec;
    jfr_chunk *c;
    jfr_error err;

    cr_assert_eq(
        jfr_recording_open_file(&rec, recording_path("unfinished-jdk25.jfr"), NULL, &err),
        JFR_OK);
    cr_assert_eq(jfr_recording_skip_chunk(rec), JFR_ETRUNCATED);
    cr_assert(strstr(jfr_recording_error(rec)->message, "not skipped") != NULL, "%s",
              jfr_recording_error(rec)->message);
    /* it did not move: the chunk can still be read */
    cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_OK);
    cr_assert(jfr_chunk_is_unfinished(c));
    jfr_recording_free(rec);
    cr_assert_eq(jfr_recording_skip_chunk(NULL), JFR_EINVAL);
}

/* ---- findings (jfr/findings.h) ---------------------------------------------------- */

/* The findings of testdata/report/NAME: chunks, the cpu, exec and alloc
 * profiles (threads, time buckets) and the leak analysis. */
static jfr_findings *findings_of(const char *name)
{
    static const char *const kinds[] = {"cpu", "exec", "alloc", "exceptions"};
    char path[4096], rel[256];
    jfr_profile *p[4];
    jfr_findings *f;
    jfr_leaks *lk;
    jfr_recording *rec;
    jfr_chunk *c;
    jfr_error err;
    int64_t start, end;

    snprintf(rel, sizeof rel, "report/%s", name);
    testdata_path(path, sizeof path, rel);
    cr_assert_eq(jfr_findings_new(&f, NULL, &err), JFR_OK);
    cr_assert_eq(jfr_leaks_new(&lk, NULL, &err), JFR_OK);
    cr_assert_eq(jfr_recording_open_file(&rec, path, NULL, &err), JFR_OK, "%s", path);
    cr_assert_eq(jfr_recording_span_nanos(&start, &end, rec), JFR_OK);
    cr_assert_leq(start, end);
    for (size_t k = 0; k < 4; k++) {
        jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
        o.kind = kinds[k];
        o.flags = JFR_PROFILE_THREADS;
        o.bucket_nanos = 100000000;
        o.bucket_origin_nanos = start;
        cr_assert_eq(jfr_profile_new(&p[k], &o, &err), JFR_OK);
    }
    while (jfr_recording_next_chunk(&c, rec) == JFR_OK) {
        cr_assert_eq(jfr_findings_add_chunk(f, c), JFR_OK);
        cr_assert_eq(jfr_leaks_add_chunk(lk, c), JFR_OK);
        for (size_t k = 0; k < 4; k++)
            cr_assert_eq(jfr_profile_add_chunk(p[k], c), JFR_OK);
    }
    for (size_t k = 0; k < 4; k++) {
        cr_assert_eq(jfr_findings_add_profile(f, kinds[k], p[k]), JFR_OK);
        jfr_profile_free(p[k]);
    }
    cr_assert_eq(jfr_findings_add_leaks(f, lk), JFR_OK);
    jfr_leaks_free(lk);
    jfr_recording_free(rec);
    cr_assert_eq(jfr_findings_evaluate(f), JFR_OK);
    return f;
}

static const jfr_finding *finding_by_id(jfr_findings *f, const char *id)
{
    for (size_t i = 0; i < jfr_findings_count(f); i++)
        if (strcmp(jfr_findings_at(f, i)->id, id) == 0)
            return jfr_findings_at(f, i);
    return NULL;
}

Test(findings, seeded_problems_are_found)
{
    jfr_findings *f = findings_of("seeded-jdk25.jfr");
    const jfr_finding *x;

    /* lock contention is a rule over the recording's tables (sql/rules.ini),
     * which the SQL layer runs: tests/rules/check-rules.sh and
     * tests/browser/test_report_html.py find it on this recording; libjfr's
     * own rules are those over facts */
    cr_assert_null(finding_by_id(f, "lock-contention"));
    cr_assert_not_null(x = finding_by_id(f, "alloc-rate"));
    cr_assert_eq(x->severity, JFR_SEVERITY_WARNING);
    cr_assert_geq(x->value, x->threshold);
    cr_assert_gt(x->at_nanos, 0);
    cr_assert_not_null(x = finding_by_id(f, "leak"));
    cr_assert_str_eq(x->subject, "wl.SeededWorkload.REGISTRY");
    cr_assert(strstr(x->title, "wl.SeededWorkload.REGISTRY") != NULL, "%s", x->title);
    cr_assert_null(jfr_findings_at(f, jfr_findings_count(f)));
    jfr_findings_free(f);
}

Test(findings, quiet_recording_has_none)
{
    jfr_findings *f = findings_of("quiet-jdk25.jfr");

    for (size_t i = 0; i < jfr_findings_count(f); i++)
        cr_assert_neq(jfr_findings_at(f, i)->severity, JFR_SEVERITY_WARNING, "%s",
                      jfr_findings_at(f, i)->title);
    jfr_findings_free(f);
}

Test(findings, arguments_are_checked)
{
    jfr_findings_options o = JFR_FINDINGS_OPTIONS_INIT;
    jfr_findings *f;
    jfr_error err;

    o.version = JFR_FINDINGS_OPTIONS_VERSION + 1;
    cr_assert_eq(jfr_findings_new(&f, &o, &err), JFR_EINVAL);
    cr_assert_eq(jfr_findings_new(&f, NULL, &err), JFR_OK);
    cr_assert_eq(jfr_findings_add_chunk(f, NULL), JFR_EINVAL);
    cr_assert_eq(jfr_findings_add_profile(f, "cpu", NULL), JFR_EINVAL);
    cr_assert_eq(jfr_findings_add_leaks(f, NULL), JFR_EINVAL);
    cr_assert_eq(jfr_findings_count(f), 0);
    cr_assert_eq(jfr_findings_count(NULL), 0);
    cr_assert_eq(jfr_findings_evaluate(NULL), JFR_EINVAL);
    jfr_findings_free(f);
    jfr_findings_free(NULL);
}

/* ---- saved profiles (jfr_profile_save, jfr_profile_load) ---- */

static void check_same_stacks(const jfr_profile *a, const jfr_profile *b,
                              const char *what)
{
    size_t n1, n2;
    char **x = stack_lines(a, &n1), **y = stack_lines(b, &n2);

    cr_assert_eq(n1, n2, "%s: %zu stacks, %zu", what, n1, n2);
    for (size_t i = 0; i < n1; i++)
        cr_assert_str_eq(x[i], y[i], "%s: stack %zu", what, i);
    cr_assert_eq(jfr_profile_total(a), jfr_profile_total(b), "%s", what);
    cr_assert_eq(jfr_profile_samples(a), jfr_profile_samples(b), "%s", what);
    cr_assert_eq(jfr_profile_unit(a), jfr_profile_unit(b), "%s", what);
    cr_assert_eq(
        memcmp(jfr_profile_cpu(a), jfr_profile_cpu(b), sizeof(jfr_cpu_accounting)), 0,
        "%s", what);
    free_lines(x, n1);
    free_lines(y, n2);
}

static jfr_profile *reloaded(const jfr_profile *p, size_t *size)
{
    jfr_profile *q;
    jfr_error err;
    void *bytes;

    cr_assert_eq(jfr_profile_save(&bytes, size, p), JFR_OK);
    cr_assert_eq(jfr_profile_load(&q, bytes, *size, NULL, &err), JFR_OK, "%s",
                 err.message);
    jfr_profile_bytes_free(bytes);
    return q;
}

Test(saved, round_trip_keeps_stacks_frames_and_ids)
{
    unsigned all = JFR_PROFILE_LINES | JFR_PROFILE_FRAME_KIND | JFR_PROFILE_THREADS |
                   JFR_PROFILE_SIGNATURES;
    jfr_profile *p =
        profile_of("concat-17-25.jfr", "jdk.CPUTimeSample", all, "samplingPeriod");
    size_t size;
    jfr_profile *q = reloaded(p, &size);

    check_same_stacks(p, q, "round trip");
    cr_assert_eq(jfr_profile_flags(q), all);
    cr_assert_eq(jfr_profile_stack_count(p), jfr_profile_stack_count(q));
    cr_assert_eq(jfr_profile_frame_count(p), jfr_profile_frame_count(q));
    for (uint32_t id = 0; id < jfr_profile_frame_count(p); id++) {
        const jfr_profile_frame *a = jfr_profile_frame_at(p, id),
                                *b = jfr_profile_frame_at(q, id);

        cr_assert_str_eq(a->name, b->name);
        cr_assert_str_eq(a->method, b->method);
        cr_assert_str_eq(a->signature, b->signature);
        cr_assert_eq(a->class_name == NULL, b->class_name == NULL);
        cr_assert(a->line == b->line && a->kind == b->kind &&
                  a->synthetic == b->synthetic);
    }
    /* a loaded profile merges with one fed chunks, and again saves the same */
    cr_assert_eq(jfr_profile_merge(p, q), JFR_OK);
    cr_assert_eq(jfr_profile_total(p), 2 * jfr_profile_total(q));
    jfr_profile_free(p);
    jfr_profile_free(q);
}

/* The profile of two files merged through their saved bytes equals the
 * profile fed both: what jfr.fleet relies on. */
Test(saved, merge_of_two_equals_the_profile_of_both)
{
    const char *files[] = {"cpu-jdk17.jfr", "cpu-jdk25.jfr"};
    jfr_profile *both = new_profile("jdk.ExecutionSample", JFR_PROFILE_FRAME_KIND, NULL);
    jfr_profile *merged = NULL;
    jfr_error err;

    for (size_t i = 0; i < 2; i++) {
        jfr_profile *one =
            profile_of(files[i], "jdk.ExecutionSample", JFR_PROFILE_FRAME_KIND, NULL);
        jfr_recording *rec;
        jfr_chunk *c;
        void *bytes;
        size_t size;

        cr_assert_eq(jfr_recording_open_file(&rec, recording_path(files[i]), NULL, &err),
                     JFR_OK);
        while (jfr_recording_next_chunk(&c, rec) == JFR_OK)
            cr_assert_eq(jfr_profile_add_chunk(both, c), JFR_OK);
        jfr_recording_free(rec);
        cr_assert_eq(jfr_profile_save(&bytes, &size, one), JFR_OK);
        if (!merged)
            cr_assert_eq(jfr_profile_load(&merged, bytes, size, NULL, &err), JFR_OK);
        else
            cr_assert_eq(jfr_profile_merge_saved(merged, bytes, size, &err), JFR_OK, "%s",
                         err.message);
        jfr_profile_bytes_free(bytes);
        jfr_profile_free(one);
    }
    check_same_stacks(both, merged, "two files");
    cr_assert_gt(jfr_profile_stack_count(merged), 10);
    jfr_profile_free(both);
    jfr_profile_free(merged);
}

Test(saved, other_flags_and_census_are_refused)
{
    jfr_profile *a = profile_of("cpu-jdk25.jfr", "jdk.ExecutionSample", 0, NULL);
    jfr_profile *b =
        profile_of("cpu-jdk25.jfr", "jdk.ExecutionSample", JFR_PROFILE_LINES, NULL);
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile *census;
    jfr_error err;
    void *bytes;
    size_t size;
    uint64_t total = jfr_profile_total(a);

    cr_assert_eq(jfr_profile_save(&bytes, &size, b), JFR_OK);
    cr_assert_eq(jfr_profile_merge_saved(a, bytes, size, &err), JFR_EINVAL);
    cr_assert_eq(jfr_profile_merge_saved(NULL, bytes, size, &err), JFR_EINVAL);
    cr_assert_eq(jfr_profile_total(a), total);
    jfr_profile_bytes_free(bytes);
    jfr_profile_bytes_free(NULL);
    o.kind = "exec";
    o.flags = JFR_PROFILE_KIND_SAMPLES;
    cr_assert_eq(jfr_profile_new(&census, &o, &err), JFR_OK);
    cr_assert_eq(jfr_profile_save(&bytes, &size, census), JFR_EINVAL);
    cr_assert_null(bytes);
    cr_assert_eq(jfr_profile_save(NULL, &size, a), JFR_EINVAL);
    jfr_profile_free(census);
    jfr_profile_free(a);
    jfr_profile_free(b);
}

/* Every truncation is refused with the offset where it went wrong; a byte
 * added at the end too; any flipped byte loads or is refused (the
 * sanitizer build checks that nothing is read out of bounds). */
Test(saved, malformed_bytes_are_refused)
{
    jfr_profile *p =
        profile_of("cpu-jdk25.jfr", "jdk.ExecutionSample", JFR_PROFILE_LINES, NULL);
    jfr_profile *q;
    jfr_error err;
    uint8_t *bytes, *copy;
    size_t size;

    cr_assert_eq(jfr_profile_save((void **)&bytes, &size, p), JFR_OK);
    copy = malloc(size + 1);
    for (size_t len = 0; len < size; len += 1 + len / 64) {
        memcpy(copy, bytes, len);
        cr_assert_eq(jfr_profile_load(&q, copy, len, NULL, &err), JFR_ECORRUPT, "%zu",
                     len);
        cr_assert_null(q);
        cr_assert(err.offset <= len && err.chunk == -1, "%zu: offset %llu", len,
                  (unsigned long long)err.offset);
    }
    memcpy(copy, bytes, size);
    copy[size] = 0;
    cr_assert_eq(jfr_profile_load(&q, copy, size + 1, NULL, &err), JFR_ECORRUPT);
    cr_assert_eq(err.offset, size);
    for (size_t at = 0; at < size; at += 1 + at / 32) {
        int rc;

        memcpy(copy, bytes, size);
        copy[at] ^= 0xa5;
        rc = jfr_profile_load(&q, copy, size, NULL, &err);
        cr_assert(rc == JFR_OK || rc == JFR_ECORRUPT || rc == JFR_ELIMIT, "%zu: %d", at,
                  rc);
        jfr_profile_free(q);
    }
    cr_assert_eq(jfr_profile_load(&q, NULL, 0, NULL, &err), JFR_ECORRUPT);
    free(copy);
    jfr_profile_bytes_free(bytes);
    jfr_profile_free(p);
}

static bool same_saved_bytes(const jfr_profile *a, const jfr_profile *b)
{
    void *x, *y;
    size_t nx, ny;
    bool same;

    cr_assert_eq(jfr_profile_save(&x, &nx, a), JFR_OK);
    cr_assert_eq(jfr_profile_save(&y, &ny, b), JFR_OK);
    same = nx == ny && memcmp(x, y, nx) == 0;
    jfr_profile_bytes_free(x);
    jfr_profile_bytes_free(y);
    return same;
}

/* jfr_profile_merge_saved adds the bytes straight into its destination:
 * the result is the one of loading them and merging (frames and stacks
 * in the same order, so saved byte for byte the same), and bytes that
 * are refused, even at their very end, leave the destination as it was. */
Test(saved, merge_saved_equals_load_and_merge)
{
    jfr_profile *dst =
        profile_of("cpu-jdk17.jfr", "jdk.ExecutionSample", JFR_PROFILE_LINES, NULL);
    jfr_profile *ref =
        profile_of("cpu-jdk17.jfr", "jdk.ExecutionSample", JFR_PROFILE_LINES, NULL);
    jfr_profile *src =
        profile_of("cpu-jdk25.jfr", "jdk.ExecutionSample", JFR_PROFILE_LINES, NULL);
    jfr_profile *loaded;
    jfr_error err;
    uint8_t *bytes;
    size_t size;

    cr_assert_eq(jfr_profile_save((void **)&bytes, &size, src), JFR_OK);
    for (size_t len = size - 1; len + 64 > size && len > 0; len--) {
        cr_assert_eq(jfr_profile_merge_saved(dst, bytes, len, &err), JFR_ECORRUPT);
        cr_assert(same_saved_bytes(dst, ref), "%zu", len);
    }
    bytes[size - 1] ^= 0x80; /* the last stack's samples run past the end */
    cr_assert_eq(jfr_profile_merge_saved(dst, bytes, size, &err), JFR_ECORRUPT);
    cr_assert(same_saved_bytes(dst, ref));
    bytes[size - 1] ^= 0x80;
    cr_assert_eq(jfr_profile_merge_saved(dst, bytes, size, &err), JFR_OK, "%s",
                 err.message);
    cr_assert_eq(jfr_profile_load(&loaded, bytes, size, NULL, &err), JFR_OK);
    cr_assert_eq(jfr_profile_merge(ref, loaded), JFR_OK);
    cr_assert_gt(jfr_profile_stack_count(dst), jfr_profile_stack_count(src));
    cr_assert(same_saved_bytes(dst, ref));
    jfr_profile_bytes_free(bytes);
    jfr_profile_free(loaded);
    jfr_profile_free(src);
    jfr_profile_free(ref);
    jfr_profile_free(dst);
}

/* jfr_parse_time (profile_select.c): the times jfrtool and the bindings
 * take; the ISO ones checked against `date -u -d ... +%s%N`. */
Test(profile_select, parse_time)
{
    static const struct {
        const char *text;
        int64_t start, want;
    } ok[] = {
        {"2026-11-22T03:02:58.5Z", 0, 1795316578500000000},
        {"2026-11-22 03:02:58", 0, 1795316578000000000},
        {"2026-11-22T04:02:58.123456789+01:00", 0, 1795316578123456789},
        {"2026-11-22T01:32:58,25-0130", 0, 1795316578250000000},
        {"2000-02-29T00:00:00Z", 0, 951782400000000000},
        {"10s", 1000, 10000001000},
        {"500ms", 0, 500000000},
        {"2m", 5, 120000000005},
        {"1.5h", 0, 5400000000000},
        {"250us", 0, 250000},
        {"40ns", 0, 40},
        {"3", 0, 3000000000},
    };
    static const char *const bad[] = {"",
                                      "10 s",
                                      "-1s",
                                      "1e400s",
                                      "s",
                                      "10x",
                                      "2026-13-01T00:00:00Z",
                                      "2026-11-22T03:02",
                                      "2026-11-22T03:02:58Q",
                                      "9223372037s"};
    int64_t t;

    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        cr_assert_eq(jfr_parse_time(&t, ok[i].text, ok[i].start), JFR_OK, "%s",
                     ok[i].text);
        cr_assert_eq(t, ok[i].want, "%s: %lld", ok[i].text, (long long)t);
    }
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        cr_assert_eq(jfr_parse_time(&t, bad[i], 0), JFR_EINVAL, "'%s' accepted", bad[i]);
    cr_assert_eq(jfr_parse_time(&t, "10s", JFR_TIME_NO_START), JFR_EINVAL,
                 "an offset with nothing to count from");
    cr_assert_eq(jfr_parse_time(&t, "2026-11-22T03:02:58Z", JFR_TIME_NO_START), JFR_OK);
    cr_assert_eq(jfr_parse_time(NULL, "1s", 0), JFR_EINVAL);
}

/* ---- jfr_profile_build (profile_build.c, profile_check.c) ---- */

typedef struct build_seen {
    const char *file;
    size_t opened, chunks, inputs_done;
    uint64_t samples;
} build_seen;

static jfr_recording *open_for_build(size_t input, void *user)
{
    build_seen *bs = user;
    jfr_recording *rec;
    jfr_error err;

    (void)input;
    cr_assert_eq(jfr_recording_open_file(&rec, recording_path(bs->file), NULL, &err),
                 JFR_OK);
    bs->opened++;
    return rec;
}

static void note_build(const jfr_profile_build_report *r, void *user)
{
    build_seen *bs = user;

    if (r->chunk) {
        cr_assert_null(r->chunk->error);
        cr_assert_gt(r->chunk_end, 0);
        bs->chunks++;
        return;
    }
    bs->inputs_done++;
    bs->samples += r->samples;
}

/* One call with the default kind, in threads, with an input it opens,
 * makes the profile that a kind's profile fed every chunk makes; the
 * reports add up to it. */
Test(profile_build, one_call_equals_the_conversation)
{
    jfr_profile_build_options o;
    jfr_profile_build_info info;
    jfr_recording *inputs[1] = {NULL};
    build_seen bs = {"cpu-jdk25.jfr", 0, 0, 0, 0};
    jfr_profile *built, *direct = kind_profile("cpu-jdk25.jfr", "cpu", NULL, 0);
    size_t n1, n2;
    char **a, **b;
    jfr_error err;

    cr_assert_eq(jfr_profile_build_options_init(&o, JFR_PROFILE_BUILD_OPTIONS_VERSION),
                 JFR_OK);
    o.threads = 2;
    o.open = open_for_build;
    o.report = note_build;
    o.user = &bs;
    cr_assert_eq(jfr_profile_build(&built, &info, inputs, 1, &o, &err), JFR_OK, "%s",
                 err.message);
    cr_assert_str_eq(info.selection, "cpu");
    cr_assert_str_eq(info.label, "jdk.CPUTimeSample");
    cr_assert_eq(info.inputs_read, 1);
    cr_assert_eq(bs.opened, 1);
    cr_assert_eq(bs.inputs_done, 1);
    cr_assert_gt(bs.chunks, 0);
    cr_assert_eq(bs.samples, jfr_profile_samples(built));
    a = stack_lines(direct, &n1);
    b = stack_lines(built, &n2);
    cr_assert_eq(n1, n2);
    for (size_t i = 0; i < n1; i++)
        cr_assert_str_eq(a[i], b[i], "stack %zu", i);
    free_lines(a, n1);
    free_lines(b, n2);
    jfr_recording_free(inputs[0]);
    jfr_profile_free(built);
    jfr_profile_free(direct);
}

/* A selection that cannot match is refused with what the input has. */
Test(profile_build, refusals_say_why)
{
    static const struct {
        const char *event, *weight, *from, *to, *want;
    } cases[] = {
        {NULL, NULL, "3s", "1s",
         "--from 3s is not before --to 1s: no sample can be selected"},
        {"exec", "period", NULL, NULL,
         "--weight period needs CPU-time samples (--event cpu)"},
        {NULL, NULL, "soon", NULL,
         "--from/--to need an ISO-8601 time or an offset such as 10s, not 'soon'"},
        {"jdk.ExecutionSample", "nope", NULL, NULL,
         "jdk.ExecutionSample has no integer field 'nope' to weigh by; its integer "
         "fields: "},
    };
    jfr_recording *rec;
    jfr_profile *p;
    jfr_profile_build_info info;
    jfr_error err;

    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        jfr_profile_build_options o;

        jfr_profile_build_options_init(&o, JFR_PROFILE_BUILD_OPTIONS_VERSION);
        o.event = cases[i].event;
        o.weight = cases[i].weight;
        o.from = cases[i].from;
        o.to = cases[i].to;
        cr_assert_eq(
            jfr_recording_open_file(&rec, recording_path("cpu-jdk25.jfr"), NULL, &err),
            JFR_OK);
        cr_assert_eq(jfr_profile_build(&p, &info, &rec, 1, &o, &err), JFR_EINVAL, "%zu",
                     i);
        cr_assert_null(p);
        cr_assert_eq(strncmp(info.refusal, cases[i].want, strlen(cases[i].want)), 0,
                     "%zu: %s", i, info.refusal);
        cr_assert_eq(strncmp(info.refusal, err.message, strlen(err.message)), 0);
        jfr_recording_free(rec);
    }
    cr_assert_eq(jfr_profile_build(&p, NULL, NULL, 0, NULL, &err), JFR_EINVAL);
}

/* ---- jfr_profile_build_many (profile_build_many.c) ---- */

static jfr_recording *open_recording(const char *file)
{
    jfr_recording *rec;
    jfr_error err;

    cr_assert_eq(jfr_recording_open_file(&rec, recording_path(file), NULL, &err), JFR_OK,
                 "%s: %s", file, err.message);
    return rec;
}

/* The saved bytes of the profile jfr_profile_build makes of `file` for
 * kind `kind` alone. */
static void *build_one_saved(size_t *size, const char *file, const char *kind,
                             unsigned flags, int64_t bucket, unsigned threads)
{
    jfr_profile_build_options o;
    jfr_recording *rec = open_recording(file);
    jfr_profile *p;
    jfr_error err;
    void *bytes;

    jfr_profile_build_options_init(&o, JFR_PROFILE_BUILD_OPTIONS_VERSION);
    o.event = kind;
    o.flags = flags;
    o.bucket_nanos = bucket;
    o.threads = threads;
    cr_assert_eq(jfr_profile_build(&p, NULL, &rec, 1, &o, &err), JFR_OK, "%s",
                 err.message);
    cr_assert_eq(jfr_profile_save(&bytes, size, p), JFR_OK);
    jfr_profile_free(p);
    jfr_recording_free(rec);
    return bytes;
}

/* Every kind built in one walk, in `threads` threads, equals the kind
 * built alone in as many: the same saved bytes (stacks in the same order,
 * frame ids, weights, accounting). */
static void check_many_equals_each(const char *file, unsigned threads)
{
    unsigned flags = JFR_PROFILE_FRAME_KIND | JFR_PROFILE_THREADS;
    int64_t bucket = 250000000, start;
    size_t nkinds, total_samples = 0;
    const jfr_profile_kind *kinds = jfr_profile_kinds(&nkinds);
    jfr_profile_options *po = calloc(nkinds, sizeof *po);
    jfr_profile **out = calloc(nkinds, sizeof *out);
    jfr_profile_many_options mo;
    jfr_recording *rec = open_recording(file);
    jfr_error err;

    cr_assert_eq(jfr_recording_start_nanos(&start, rec), JFR_OK);
    for (size_t k = 0; k < nkinds; k++) {
        jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
        o.kind = kinds[k].name;
        o.flags = flags;
        o.bucket_nanos = bucket;
        o.bucket_origin_nanos = start;
        po[k] = o;
    }
    cr_assert_eq(jfr_profile_many_options_init(&mo, JFR_PROFILE_MANY_OPTIONS_VERSION),
                 JFR_OK);
    mo.profiles = po;
    mo.nprofiles = nkinds;
    mo.threads = threads;
    cr_assert_eq(jfr_profile_build_many(out, &rec, 1, &mo, &err), JFR_OK, "%s",
                 err.message);
    for (size_t k = 0; k < nkinds; k++) {
        size_t n1, n2;
        void *alone = build_one_saved(&n1, file, kinds[k].name, flags, bucket, threads);
        void *many;

        cr_assert_eq(jfr_profile_save(&many, &n2, out[k]), JFR_OK);
        cr_assert_eq(n1, n2, "%s %s: %zu bytes alone, %zu in many", file, kinds[k].name,
                     n1, n2);
        cr_assert_eq(memcmp(alone, many, n1), 0, "%s %s", file, kinds[k].name);
        total_samples += jfr_profile_samples(out[k]);
        jfr_profile_bytes_free(alone);
        jfr_profile_bytes_free(many);
        jfr_profile_free(out[k]);
    }
    cr_assert_gt(total_samples, 0, "%s", file);
    jfr_recording_free(rec);
    free(out);
    free(po);
}

Test(profile_build_many, each_profile_equals_the_kind_built_alone)
{
    static const char *const files[] = {"multi-jdk25.jfr", "concat-17-25.jfr",
                                        "cpu-jdk25.jfr"};

    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        check_many_equals_each(files[f], 1);
        check_many_equals_each(files[f], 3);
    }
}

/* Inputs opened on demand are reported, chunk by chunk and when done;
 * bad arguments and kind samples are refused, leaving no profile. */
Test(profile_build_many, opens_reports_and_refuses)
{
    jfr_profile_options po[2] = {JFR_PROFILE_OPTIONS_INIT, JFR_PROFILE_OPTIONS_INIT};
    jfr_profile *out[2];
    jfr_recording *inputs[1] = {NULL};
    build_seen bs = {"cpu-jdk25.jfr", 0, 0, 0, 0};
    jfr_profile_many_options mo;
    jfr_error err;

    po[0].kind = "cpu";
    po[1].kind = "exec";
    jfr_profile_many_options_init(&mo, JFR_PROFILE_MANY_OPTIONS_VERSION);
    mo.profiles = po;
    mo.nprofiles = 2;
    mo.threads = 2;
    mo.open = open_for_build;
    mo.report = note_build;
    mo.user = &bs;
    cr_assert_eq(jfr_profile_build_many(out, inputs, 1, &mo, &err), JFR_OK, "%s",
                 err.message);
    cr_assert_eq(bs.opened, 1);
    cr_assert_eq(bs.inputs_done, 1);
    cr_assert_gt(bs.chunks, 0);
    cr_assert_eq(bs.samples, jfr_profile_samples(out[0]) + jfr_profile_samples(out[1]));
    jfr_recording_free(inputs[0]);
    jfr_profile_free(out[0]);
    jfr_profile_free(out[1]);

    po[1].flags = JFR_PROFILE_KIND_SAMPLES;
    mo.open = NULL;
    mo.report = NULL;
    cr_assert_eq(jfr_profile_build_many(out, inputs, 0, &mo, &err), JFR_EINVAL);
    cr_assert_null(out[0]);
    cr_assert_null(out[1]);
    po[1].flags = 0;
    po[1].kind = "no-such-kind";
    cr_assert_eq(jfr_profile_build_many(out, inputs, 0, &mo, &err), JFR_EINVAL);
    cr_assert_null(out[0]);
    cr_assert_eq(jfr_profile_build_many(NULL, inputs, 0, &mo, &err), JFR_EINVAL);
    cr_assert_eq(jfr_profile_build_many(out, inputs, 0, NULL, &err), JFR_EINVAL);
    cr_assert_eq(jfr_profile_many_options_init(NULL, 1), JFR_EINVAL);
    cr_assert_eq(jfr_profile_many_options_init(&mo, 99), JFR_EINVAL);
}

/* The profile of a pass over a walk of the caller's (jfr_profile_pass):
 * the walk covers the pass's types and one more, whose events the pass
 * passes over. */
static jfr_profile *profile_by_passes(const char *file, const char *event, unsigned flags,
                                      const char *weight)
{
    jfr_profile *p = new_profile(event, flags, weight);
    jfr_recording *rec;
    jfr_chunk *c;
    jfr_error err;

    cr_assert_eq(jfr_recording_open_file(&rec, recording_path(file), NULL, &err), JFR_OK);
    while (jfr_recording_next_chunk(&c, rec) == JFR_OK) {
        const char *const *types;
        const char *names[40] = {"jdk.ThreadPark"};
        jfr_profile_pass *pass;
        jfr_event_iter *it;
        const jfr_event *ev;
        size_t n;
        int walk;

        cr_assert_eq(jfr_profile_pass_new(&pass, p, c), JFR_OK);
        n = jfr_profile_pass_types(&types, pass);
        cr_assert_lt(n, 39);
        memcpy(names + 1, types, n * sizeof *types);
        cr_assert_eq(jfr_event_iter_new(&it, c, names, n + 1, 0), JFR_OK);
        while ((walk = jfr_event_next(&ev, it)) == JFR_OK)
            cr_assert_eq(jfr_profile_pass_add(pass, ev), JFR_OK);
        jfr_event_iter_free(it);
        cr_assert_eq(jfr_profile_pass_finish(pass, walk), JFR_OK);
    }
    jfr_recording_free(rec);
    return p;
}

Test(profile_pass, equals_the_profile_of_the_chunks)
{
    static const struct {
        const char *file, *event, *weight;
        unsigned flags;
    } cases[] = {
        {"io-jdk25.jfr", "jdk.CPUTimeSample", "samplingPeriod", 0},
        {"io-jdk25.jfr", "jdk.CPUTimeSample", NULL, JFR_PROFILE_ACCOUNTING_ONLY},
        {"multi-jdk25.jfr", "jdk.ExecutionSample", NULL,
         JFR_PROFILE_LINES | JFR_PROFILE_THREADS | JFR_PROFILE_SIGNATURES},
        {"multi-jdk25.jfr", "jdk.ObjectAllocationSample", "weight",
         JFR_PROFILE_TOP_FRAME},
        {"concat-17-25.jfr", "jdk.CPUTimeSample", "samplingPeriod",
         JFR_PROFILE_FRAME_KIND},
    };

    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        jfr_profile *a =
            profile_of(cases[i].file, cases[i].event, cases[i].flags, cases[i].weight);
        jfr_profile *b = profile_by_passes(cases[i].file, cases[i].event, cases[i].flags,
                                           cases[i].weight);
        cr_assert(same_saved_bytes(a, b), "%s %s: the passes' profile differs",
                  cases[i].file, cases[i].event);
        cr_assert_eq(
            memcmp(jfr_profile_cpu(a), jfr_profile_cpu(b), sizeof(jfr_cpu_accounting)),
            0);
        if (strcmp(cases[i].event, "jdk.CPUTimeSample") == 0)
            cr_assert_gt(jfr_profile_cpu(b)->samples, 0);
        jfr_profile_free(a);
        jfr_profile_free(b);
    }
}

Test(profile_pass, arguments_are_checked)
{
    jfr_profile *p = new_profile("jdk.ExecutionSample", 0, NULL);
    const char *const *types = NULL;
    jfr_profile_pass *pass;

    cr_assert_eq(jfr_profile_pass_new(NULL, p, NULL), JFR_EINVAL);
    cr_assert_eq(jfr_profile_pass_new(&pass, p, NULL), JFR_EINVAL);
    cr_assert_null(pass);
    cr_assert_eq(jfr_profile_pass_types(&types, NULL), 0);
    cr_assert_eq(jfr_profile_pass_add(NULL, NULL), JFR_EINVAL);
    cr_assert_eq(jfr_profile_pass_finish(NULL, JFR_DONE), JFR_EINVAL);
    jfr_profile_pass_free(NULL);
    jfr_profile_free(p);
}
