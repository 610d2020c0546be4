/* profile_build_many.c - jfr_profile_build_many: several profiles of the
 * same inputs in one walk over their chunks, decoded in threads and
 * merged in chunk order (a report builds every kind at once). */
#include <stdlib.h>
#include <string.h>

#include "profile_struct.h"

int jfr_profile_many_options_init(jfr_profile_many_options *opts, unsigned version)
{
    static const size_t ends[] = {JFRP_END_OF(jfr_profile_many_options, user)};

    return jfrp_options_init(opts, version, ends, sizeof ends / sizeof ends[0]);
}

typedef struct many_run {
    jfr_profile **dst;
    const jfr_profile_many_options *o;
    const jfr_recording *rec;
    size_t input;
    uint64_t chunks;
    bool no_memory;
} many_run;

/* One chunk's profiles, one per profile built; all NULL when the chunk
 * was added to the profiles themselves (read in order). */
typedef struct many_result {
    uint64_t end;
    jfr_profile *p[];
} many_result;

/* Add `chunk` to every profile of `ps`: the first error, after every
 * profile had its turn. */
static int add_to_each(jfr_profile **ps, size_t n, jfr_chunk *chunk)
{
    int first = JFR_OK;

    for (size_t k = 0; k < n; k++) {
        int rc = jfr_profile_add_chunk(ps[k], chunk);
        if (rc < 0 && first == JFR_OK)
            first = rc;
    }
    return first;
}

static int decode_many(jfr_chunk *chunk, jfr_recording *rec, void **result, void *user)
{
    const many_run *mr = user;
    size_t n = mr->o->nprofiles;
    many_result *res = calloc(1, sizeof *res + n * sizeof res->p[0]);
    const jfr_header *h = jfr_chunk_header(chunk);
    jfr_error err;

    if (!res)
        return JFR_ENOMEM;
    res->end = h->file_offset + h->chunk_size;
    *result = res;
    /* read in order (the caller's handle, in the calling thread): no
     * profiles per chunk to merge */
    if (rec == mr->rec)
        return add_to_each(mr->dst, n, chunk);
    for (size_t k = 0; k < n; k++) {
        if (jfr_profile_new(&res->p[k], &mr->o->profiles[k], &err) < 0)
            return JFR_ENOMEM; /* the options were taken by the first profiles */
        /* merged and freed: its stacks need not be deduplicated */
        jfrp_profile_merge_only(res->p[k]);
    }
    return add_to_each(res->p, n, chunk);
}

static void merge_many(void *result, const jfr_chunk_report *report, void *user)
{
    many_run *mr = user;
    many_result *res = result;
    size_t n = mr->o->nprofiles;

    for (size_t k = 0; res && k < n; k++) {
        if (res->p[k] && jfr_profile_merge(mr->dst[k], res->p[k]) == JFR_ENOMEM)
            mr->no_memory = true;
        jfr_profile_free(res->p[k]);
    }
    if (!report->error && !res)
        mr->no_memory = true;
    mr->chunks += !report->error;
    if (mr->o->report) {
        jfr_profile_build_report r;
        memset(&r, 0, sizeof r);
        r.input = mr->input;
        r.chunk = report;
        r.chunk_end = res ? res->end : 0;
        mr->o->report(&r, mr->o->user);
    }
    free(res);
}

static void sum_counts(uint64_t *samples, uint64_t *lost, jfr_profile *const *ps,
                       size_t n)
{
    *samples = *lost = 0;
    for (size_t k = 0; k < n; k++) {
        *samples += jfr_profile_samples(ps[k]);
        *lost += jfr_profile_lost_stacks(ps[k]);
    }
}

/* Every chunk of input `i`, in threads, merged in chunk order. */
static int add_input(jfr_profile **dst, jfr_recording *rec, size_t i,
                     const jfr_profile_many_options *o)
{
    static const jfr_chunk_ops ops = {decode_many, merge_many};
    many_run mr = {dst, o, rec, i, 0, false};
    uint64_t samples, lost, samples_after, lost_after;
    jfr_profile_build_report r;

    sum_counts(&samples, &lost, dst, o->nprofiles);
    if (jfr_recording_decode_chunks(rec, o->threads, &ops, &mr) < 0 || mr.no_memory)
        return JFR_ENOMEM;
    if (o->report) {
        sum_counts(&samples_after, &lost_after, dst, o->nprofiles);
        memset(&r, 0, sizeof r);
        r.input = i;
        r.chunks = mr.chunks;
        r.samples = samples_after - samples;
        r.lost_stacks = lost_after - lost;
        o->report(&r, o->user);
    }
    return JFR_OK;
}

static void free_each(jfr_profile **ps, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        jfr_profile_free(ps[k]);
        ps[k] = NULL;
    }
}

/* Empty profiles of the options; JFR_EINVAL for one that cannot be saved
 * (its count of other kinds is per profile, not merged here). */
static int new_each(jfr_profile **out, const jfr_profile_many_options *o, jfr_error *err)
{
    for (size_t k = 0; k < o->nprofiles; k++) {
        int rc;
        if (o->profiles[k].flags & JFR_PROFILE_KIND_SAMPLES)
            return jfrp_fail(err, JFR_EINVAL, -1, 0,
                             "jfr_profile_build_many: profile %zu: kind samples are "
                             "not built here",
                             k);
        if ((rc = jfr_profile_new(&out[k], &o->profiles[k], err)) < 0)
            return rc;
        out[k]->threads = o->threads;
    }
    return JFR_OK;
}

int jfr_profile_build_many(jfr_profile **out, jfr_recording *const *inputs,
                           size_t ninputs, const jfr_profile_many_options *o,
                           jfr_error *err)
{
    int rc;

    if (!out || !o || o->version != JFR_PROFILE_MANY_OPTIONS_VERSION ||
        (o->nprofiles && !o->profiles) || (ninputs && !inputs))
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "jfr_profile_build_many: bad arguments");
    memset(out, 0, o->nprofiles * sizeof *out);
    rc = new_each(out, o, err);
    for (size_t i = 0; i < ninputs && rc == JFR_OK; i++) {
        jfr_recording *rec = inputs[i] ? inputs[i] : o->open ? o->open(i, o->user) : NULL;
        if (rec)
            rc = add_input(out, rec, i, o);
    }
    if (rc == JFR_ENOMEM)
        jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    if (rc != JFR_OK)
        free_each(out, o->nprofiles);
    return rc;
}
