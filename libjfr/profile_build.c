/* profile_build.c - jfr_profile_build: a profile of several inputs and
 * options in one call, applying the rules every front end shares (the
 * default kind, the selection check, times as text, threads). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_build_private.h"
#include "profile_struct.h"

int jfr_profile_build_options_init(jfr_profile_build_options *opts, unsigned version)
{
    static const size_t ends[] = {JFRP_END_OF(jfr_profile_build_options, allocator)};

    return jfrp_options_init(opts, version, ends, sizeof ends / sizeof ends[0]);
}

/* A kind's name for titles: the JDK event type it reads when it reads one
 * (exec: jdk.ExecutionSample; another producer's stand-in aside), else
 * the kind ("wall"). */
static const char *kind_label(const jfr_profile_kind *kind)
{
    const char *one = NULL;

    for (size_t i = 0; i < kind->nsources; i++) {
        const char *t = kind->sources[i].event_type;
        if (strncmp(t, "jdk.", 4) != 0 || (one && strcmp(one, t) == 0))
            continue;
        if (one)
            return kind->name;
        one = t;
    }
    return one ? one : kind->name;
}

/* What the event and weight select: a kind, or one event type. A kind
 * counted instead of weighed ("count") is its sources without weights,
 * kept in `counted`. False (r->text says why) for a weight the selection
 * cannot have; -1 for no memory. */
static int set_selection(jfr_profile_build_info *info, jfr_profile_options *po,
                         const jfr_profile_build_options *o, jfr_profile_source **counted,
                         jfrp_refusal *r)
{
    const jfr_profile_kind *kind = jfr_profile_kind_by_name(info->selection);
    bool count = o->weight &&
                 (strcmp(o->weight, "count") == 0 || strcmp(o->weight, "samples") == 0);

    info->label = kind ? kind_label(kind) : info->selection;
    if (kind)
        info->selection = kind->name;
    if (o->weight && strcmp(o->weight, "period") == 0) {
        if (!kind || strcmp(kind->name, "cpu") != 0) {
            snprintf(r->text, sizeof r->text,
                     "--weight period needs CPU-time samples (--event cpu)");
            return 0;
        }
        po->weight_field = "samplingPeriod";
    } else if (o->weight && !count) {
        po->weight_field = o->weight;
    }
    if (!kind) {
        po->event_type = info->selection;
    } else if (count) {
        if (!(*counted = calloc(kind->nsources, sizeof **counted)))
            return -1;
        for (size_t i = 0; i < kind->nsources; i++) {
            (*counted)[i] = kind->sources[i];
            (*counted)[i].weight_field = NULL;
        }
        po->sources = *counted;
        po->nsources = kind->nsources;
    } else {
        po->kind = kind->name;
    }
    return 1;
}

/* Times as text, offsets from `start`. */
static bool parse_times(jfr_profile_options *po, const jfr_profile_build_options *o,
                        int64_t start, jfrp_refusal *r)
{
    const char *bad = NULL;

    if (o->from && jfr_parse_time(&po->from_nanos, o->from, start) != JFR_OK)
        bad = o->from;
    else if (o->to && jfr_parse_time(&po->to_nanos, o->to, start) != JFR_OK)
        bad = o->to;
    if (bad)
        snprintf(r->text, sizeof r->text,
                 "--from/--to need an ISO-8601 time or an offset such as 10s, not '%s'",
                 bad);
    return !bad;
}

/* ---- decoding ------------------------------------------------------------------ */

typedef struct build_run {
    jfr_profile *dst;
    const jfr_profile_options *po;
    const jfr_recording *rec;
    const jfr_profile_build_options *o;
    size_t input;
    uint64_t chunks;
    bool no_memory;
} build_run;

typedef struct chunk_result {
    jfr_profile *profile; /* NULL: added to dst in order */
    uint64_t end;
} chunk_result;

static int decode_chunk(jfr_chunk *chunk, jfr_recording *rec, void **result, void *user)
{
    const build_run *br = user;
    chunk_result *cr = calloc(1, sizeof *cr);
    const jfr_header *h = jfr_chunk_header(chunk);
    jfr_error err;

    if (!cr)
        return JFR_ENOMEM;
    cr->end = h->file_offset + h->chunk_size;
    *result = cr;
    /* read in order (the caller's handle, in the calling thread): no
     * profile per chunk to merge */
    if (rec == br->rec)
        return jfr_profile_add_chunk(br->dst, chunk);
    if (jfr_profile_new(&cr->profile, br->po, &err) < 0)
        return JFR_ENOMEM; /* the options were taken by the first profile */
    /* merged into dst and freed: its stacks need not be deduplicated */
    jfrp_profile_merge_only(cr->profile);
    return jfr_profile_add_chunk(cr->profile, chunk);
}

static void merge_chunk(void *result, const jfr_chunk_report *report, void *user)
{
    build_run *br = user;
    chunk_result *cr = result;
    jfr_profile_build_report r;

    if (cr && cr->profile && jfr_profile_merge(br->dst, cr->profile) == JFR_ENOMEM)
        br->no_memory = true;
    if (!report->error && !cr)
        br->no_memory = true;
    br->chunks += !report->error;
    if (br->o->report) {
        memset(&r, 0, sizeof r);
        r.input = br->input;
        r.chunk = report;
        r.chunk_end = cr ? cr->end : 0;
        br->o->report(&r, br->o->user);
    }
    if (cr)
        jfr_profile_free(cr->profile);
    free(cr);
}

/* Add the samples of input `i` in threads, one profile per chunk merged in
 * chunk order: the profile the sequential read makes. */
static int add_input(jfr_profile *dst, const jfr_profile_options *po, jfr_recording *rec,
                     size_t i, const jfr_profile_build_options *o)
{
    static const jfr_chunk_ops ops = {decode_chunk, merge_chunk};
    build_run br = {dst, po, rec, o, i, 0, false};
    uint64_t lost = jfr_profile_lost_stacks(dst), samples = jfr_profile_samples(dst);
    jfr_profile_build_report r;

    if (jfr_recording_decode_chunks(rec, o->threads, &ops, &br) < 0 || br.no_memory)
        return JFR_ENOMEM;
    if (o->report) {
        memset(&r, 0, sizeof r);
        r.input = i;
        r.chunks = br.chunks;
        r.samples = jfr_profile_samples(dst) - samples;
        r.lost_stacks = jfr_profile_lost_stacks(dst) - lost;
        o->report(&r, o->user);
    }
    return JFR_OK;
}

/* ---- the call ------------------------------------------------------------------ */

static jfr_recording *input_at(jfr_recording *const *inputs, size_t i,
                               const jfr_profile_build_options *o)
{
    return inputs[i] ? inputs[i] : o->open ? o->open(i, o->user) : NULL;
}

/* The profile options of `o`, from the first input `first` (may be NULL):
 * JFR_OK, JFR_EINVAL (r->text says why) or JFR_ENOMEM. */
static int make_options(jfr_profile_options *po, jfr_profile_build_info *info,
                        jfr_profile_source **counted, jfr_recording *first,
                        size_t ninputs, const jfr_profile_build_options *o,
                        jfrp_refusal *r)
{
    /* offsets count from the first input's start; from 0 when it could
     * not be opened; there are none without inputs */
    int64_t start = ninputs ? 0 : JFR_TIME_NO_START;
    const char *default_kind = "exec";
    int set;

    if (first && !o->event)
        jfr_recording_default_kind(&default_kind, first);
    /* the walk over chunk headers maps a page (and its neighbours) of every
     * chunk: only when an offset needs it */
    if (first && (o->from || o->to || o->bucket_nanos))
        jfr_recording_start_nanos(&start, first);
    info->selection = o->event ? o->event : default_kind;
    po->thread_regex = o->thread_regex;
    po->include_regex = o->include_regex;
    po->exclude_regex = o->exclude_regex;
    po->from_nanos = o->from_nanos;
    po->to_nanos = o->to_nanos;
    po->bucket_nanos = o->bucket_nanos;
    po->bucket_origin_nanos = start == JFR_TIME_NO_START ? 0 : start;
    po->allocator = o->allocator;
    po->flags = o->flags | (o->event ? 0 : JFR_PROFILE_KIND_SAMPLES);
    if (!parse_times(po, o, start, r))
        return JFR_EINVAL;
    if ((set = set_selection(info, po, o, counted, r)) <= 0)
        return set < 0 ? JFR_ENOMEM : JFR_EINVAL;
    return jfrp_profile_check(r, first, o, po) ? JFR_OK : JFR_EINVAL;
}

/* Read every input into `p`. */
static int add_inputs(jfr_profile *p, jfr_profile_build_info *info,
                      const jfr_profile_options *po, jfr_recording *first,
                      jfr_recording *const *inputs, size_t ninputs,
                      const jfr_profile_build_options *o)
{
    int rc = JFR_OK;

    for (size_t i = 0; i < ninputs && rc == JFR_OK; i++) {
        jfr_recording *rec = i == 0 ? first : input_at(inputs, i, o);

        if (!rec)
            continue;
        info->inputs_read++;
        rc = add_input(p, po, rec, i, o);
    }
    if (rc == JFR_OK && info->inputs_read && !o->event)
        jfr_profile_kind_hint(info->hint, sizeof info->hint, p, info->selection);
    return rc;
}

int jfr_profile_build(jfr_profile **out, jfr_profile_build_info *info,
                      jfr_recording *const *inputs, size_t ninputs,
                      const jfr_profile_build_options *o, jfr_error *err)
{
    jfr_profile_options po = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile_build_info own;
    jfr_profile_source *counted = NULL;
    jfr_recording *first;
    jfrp_refusal r = {{0}};
    int rc;

    if (out)
        *out = NULL;
    if (!info)
        info = &own;
    memset(info, 0, sizeof *info);
    if (!out || !o || o->version != JFR_PROFILE_BUILD_OPTIONS_VERSION ||
        (ninputs && !inputs))
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "jfr_profile_build: bad arguments");
    first = ninputs ? input_at(inputs, 0, o) : NULL;
    rc = make_options(&po, info, &counted, first, ninputs, o, &r);
    if (rc == JFR_OK && (rc = jfr_profile_new(out, &po, err)) == JFR_OK)
        (*out)->threads = o->threads;
    if (rc == JFR_OK)
        rc = add_inputs(*out, info, &po, first, inputs, ninputs, o);
    if (rc == JFR_EINVAL && r.text[0]) {
        memcpy(info->refusal, r.text, sizeof info->refusal);
        jfrp_fail(err, JFR_EINVAL, -1, 0, "%s", r.text);
    } else if (rc == JFR_EINVAL) {
        snprintf(info->refusal, sizeof info->refusal, "%s", err ? err->message : "");
    } else if (rc == JFR_ENOMEM) {
        jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    }
    if (rc != JFR_OK) {
        jfr_profile_free(*out);
        *out = NULL;
    }
    free(counted);
    return rc;
}
