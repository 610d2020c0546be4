/* findings_read.c - jfr_findings_add_recordings: everything the facts
 * need from recordings in one call, the way jfrtool report gathers it
 * (doc/report.md): the chunks, the cpu, exec, alloc and exceptions
 * profiles with thread roots, the allocation rate cut as the report's
 * time axis is cut, and the leak analysis. One walk over the chunks, in
 * order (the rate and the leak chains need the order). Only the public
 * API is used. */
#include <string.h>

#include "findings_private.h"

#define PROFILE_KINDS 4
#define MAX_BUCKETS   120 /* of jfrtool report's time axis */

typedef struct reading {
    jfr_profile *profiles[PROFILE_KINDS];
    jfr_rate *rate;
    jfr_leaks *leaks;
} reading;

static const char *const kinds[PROFILE_KINDS] = {"cpu", "exec", "alloc", "exceptions"};

/* The earliest start and the latest end of the recordings' headers. */
static bool span_of(jfr_recording *const *recs, size_t n, int64_t *start, int64_t *end)
{
    bool any = false;

    for (size_t i = 0; i < n; i++) {
        int64_t s, e;
        if (jfr_recording_span_nanos(&s, &e, recs[i]) != JFR_OK)
            continue;
        if (!any || s < *start)
            *start = s;
        if (!any || e > *end)
            *end = e;
        any = true;
    }
    return any;
}

static int start_reading(reading *rd, jfr_recording *const *recs, size_t n)
{
    jfr_leaks_options lo = JFR_LEAKS_OPTIONS_INIT;
    jfr_rate_options ro = JFR_RATE_OPTIONS_INIT;
    int64_t start = 0, end = 0;
    jfr_error err;
    int rc;

    for (size_t k = 0; k < PROFILE_KINDS; k++) {
        jfr_profile_options po = JFR_PROFILE_OPTIONS_INIT;
        po.kind = kinds[k];
        po.flags = JFR_PROFILE_THREADS;
        if ((rc = jfr_profile_new(&rd->profiles[k], &po, &err)) < 0)
            return rc;
    }
    if (!span_of(recs, n, &start, &end) || end < start)
        end = start;
    ro.kind = "alloc";
    ro.bucket_nanos = jfr_rate_bucket_width(jfr_nanos_between(start, end), MAX_BUCKETS);
    ro.bucket_origin_nanos = start;
    if ((rc = jfr_rate_new(&rd->rate, &ro, &err)) < 0)
        return rc;
    return jfr_leaks_new(&rd->leaks, &lo, &err);
}

static void stop_reading(reading *rd)
{
    for (size_t k = 0; k < PROFILE_KINDS; k++)
        jfr_profile_free(rd->profiles[k]);
    jfr_rate_free(rd->rate);
    jfr_leaks_free(rd->leaks);
}

/* Every chunk of `rec` to everything; what a damaged chunk had counts. */
static int read_recording(jfr_findings *f, reading *rd, jfr_recording *rec)
{
    jfr_chunk *chunk;
    int rc;

    if ((rc = jfr_recording_rewind(rec)) < 0)
        return rc;
    while ((rc = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE) {
        if (rc == JFR_ENOMEM)
            return rc;
        if (rc < 0)
            continue; /* a damaged chunk: the next one may be whole */
        if (jfr_findings_add_chunk(f, chunk) == JFR_ENOMEM ||
            jfr_rate_add_chunk(rd->rate, chunk) == JFR_ENOMEM ||
            jfr_leaks_add_chunk(rd->leaks, chunk) == JFR_ENOMEM)
            return JFR_ENOMEM;
        for (size_t k = 0; k < PROFILE_KINDS; k++)
            if (jfr_profile_add_chunk(rd->profiles[k], chunk) == JFR_ENOMEM)
                return JFR_ENOMEM;
    }
    return JFR_OK;
}

int jfr_findings_add_recordings(jfr_findings *f, jfr_recording *const *recs, size_t n)
{
    reading rd;
    int rc;

    if (!f || (n && !recs))
        return JFR_EINVAL;
    for (size_t i = 0; i < n; i++)
        if (!recs[i])
            return JFR_EINVAL;
    memset(&rd, 0, sizeof rd);
    rc = start_reading(&rd, recs, n);
    for (size_t i = 0; i < n && rc == JFR_OK; i++)
        rc = read_recording(f, &rd, recs[i]);
    for (size_t k = 0; k < PROFILE_KINDS && rc == JFR_OK; k++)
        rc = jfr_findings_add_profile(f, kinds[k], rd.profiles[k]);
    if (rc == JFR_OK)
        rc = jfr_findings_add_rate(f, "alloc", rd.rate);
    if (rc == JFR_OK)
        rc = jfr_findings_add_leaks(f, rd.leaks);
    stop_reading(&rd);
    return rc;
}
