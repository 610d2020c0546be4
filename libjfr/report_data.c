/* report_data.c - jfr_report_data_build: one walk over the chunks of
 * every input, in file order, for what a report shows besides its
 * profiles (jfr/report.h); the getters. */
#include <stdlib.h>
#include <string.h>

#include "report_data_private.h"

int jfr_report_data_options_init(jfr_report_data_options *opts, unsigned version)
{
    static const size_t ends[] = {JFRP_END_OF(jfr_report_data_options, user)};

    return jfrp_options_init(opts, version, ends, sizeof ends / sizeof ends[0]);
}

/* Something that could not be read, in the order met. */
static void lost(jfr_report_data *d, size_t input, const jfr_error *err, bool rest)
{
    jfr_report_lost *more = realloc(d->lost, (d->nlost + 1) * sizeof *more);

    if (!more) {
        d->no_memory = true;
        return;
    }
    d->lost = more;
    memset(&more[d->nlost], 0, sizeof *more);
    more[d->nlost].input = input;
    if (err)
        more[d->nlost].error = *err;
    more[d->nlost++].rest_of_chunk = rest;
}

/* The thread-state timeline, made at the first chunk (its bins start at
 * the origin, which the first chunk may set). */
static void timeline_add(jfr_report_data *d, jfr_chunk *chunk,
                         const jfr_report_data_options *o)
{
    if (!o->timeline)
        return;
    if (!d->timeline) {
        jfr_timeline_options to = *o->timeline;
        jfr_error err;

        to.sample_bin_origin_nanos = d->summary.origin_nanos;
        if (jfr_timeline_new(&d->timeline, &to, &err) < 0) {
            d->no_memory |= err.code == JFR_ENOMEM;
            return;
        }
    }
    /* its events were read before by the other readers: an error was told */
    (void)jfr_timeline_add_chunk(d->timeline, chunk);
}

/* Every reader of the data on one chunk of input `i`. */
static void add_chunk(jfr_report_data *d, jfr_chunk *chunk, jfr_recording *rec, size_t i,
                      const jfr_report_data_options *o)
{
    const jfr_header *h = jfr_chunk_header(chunk);
    int64_t end = jfrp_header_end_nanos(h);

    if (d->summary.chunks == 0 && d->summary.origin_nanos == 0)
        d->summary.origin_nanos = h->start_nanos;
    d->summary.chunks++;
    if (end > d->summary.end_nanos)
        d->summary.end_nanos = end;
    if (!jfrp_report_read_chunk(d, chunk))
        lost(d, i, jfr_recording_error(rec), true);
    if (jfr_leaks_add_chunk(d->leaks, chunk) < 0)
        lost(d, i, jfr_recording_error(rec), false);
    /* its events were read above: an error was told there */
    if (o->findings)
        (void)jfr_findings_add_chunk(o->findings, chunk);
    if (jfr_rate_add_chunk(d->rate, chunk) == JFR_ENOMEM)
        d->no_memory = true;
    timeline_add(d, chunk, o);
    if (jfr_chunk_warning(chunk))
        lost(d, i, jfr_chunk_warning(chunk), false);
}

/* Input `i`, given or opened, every chunk in file order. */
static void add_input(jfr_report_data *d, jfr_recording *const *inputs, size_t i,
                      const jfr_report_data_options *o)
{
    jfr_recording *rec = inputs[i];
    jfr_chunk *chunk;
    jfr_error err;
    int rc;

    if (!rec) {
        memset(&err, 0, sizeof err);
        rec = o->open ? o->open(i, &err, o->user) : NULL;
        if (!rec) {
            lost(d, i, &err, false);
            return;
        }
    }
    d->summary.inputs_read++;
    d->summary.bytes += jfr_recording_size(rec);
    while ((rc = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE) {
        if (rc < 0)
            lost(d, i, jfr_recording_error(rec), false);
        else
            add_chunk(d, chunk, rec, i, o);
    }
    if (!inputs[i])
        jfr_recording_free(rec);
}

/* The analyses the walk feeds. */
static int start(jfr_report_data *d, const jfr_report_data_options *o, jfr_error *err)
{
    jfr_leaks_options lo = JFR_LEAKS_OPTIONS_INIT;
    jfr_rate_options ro = JFR_RATE_OPTIONS_INIT;
    int rc;

    d->summary.origin_nanos = o->origin_nanos;
    d->summary.end_nanos = o->end_nanos;
    ro.kind = "alloc";
    ro.bucket_nanos = o->bucket_nanos;
    ro.bucket_origin_nanos = o->origin_nanos;
    if ((rc = jfr_leaks_new(&d->leaks, &lo, err)) < 0)
        return rc;
    return jfr_rate_new(&d->rate, &ro, err);
}

/* After the walk: trees built, views published, nothing left to build. */
static int finish(jfr_report_data *d)
{
    if (jfr_leaks_build_trees(d->leaks) < 0)
        return JFR_ENOMEM;
    if (d->timeline && jfr_timeline_finish(d->timeline) < 0)
        return JFR_ENOMEM;
    jfrp_series_publish(d);
    return d->no_memory ? JFR_ENOMEM : JFR_OK;
}

int jfr_report_data_build(jfr_report_data **out, jfr_recording *const *inputs,
                          size_t ninputs, const jfr_report_data_options *o,
                          jfr_error *err)
{
    jfr_report_data *d;
    int rc;

    if (out)
        *out = NULL;
    if (!out || !o || o->version != JFR_REPORT_DATA_OPTIONS_VERSION ||
        o->bucket_nanos <= 0 || (ninputs && !inputs))
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "jfr_report_data_build: bad arguments");
    if (!(d = calloc(1, sizeof *d)))
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    rc = start(d, o, err);
    for (size_t i = 0; i < ninputs && rc == JFR_OK; i++)
        add_input(d, inputs, i, o);
    if (rc == JFR_OK)
        rc = finish(d);
    if (rc == JFR_ENOMEM)
        jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    if (rc != JFR_OK) {
        jfr_report_data_free(d);
        return rc;
    }
    *out = d;
    return JFR_OK;
}

/* ---- getters -------------------------------------------------------------------- */

const jfr_report_summary *jfr_report_data_summary(const jfr_report_data *d)
{
    return d ? &d->summary : NULL;
}

const jfr_report_row *jfr_report_data_overview(size_t *count, const jfr_report_data *d)
{
    *count = d ? d->overview.count : 0;
    return d ? d->overview.row : NULL;
}

const jfr_report_row *jfr_report_data_settings(size_t *count, const jfr_report_data *d)
{
    *count = d ? d->settings.count : 0;
    return d ? d->settings.row : NULL;
}

const jfr_report_series *jfr_report_data_series(size_t *count, const jfr_report_data *d)
{
    *count = d ? JFRP_NSERIES : 0;
    return d ? d->series : NULL;
}

const jfr_report_lost *jfr_report_data_lost(size_t *count, const jfr_report_data *d)
{
    *count = d ? d->nlost : 0;
    return d ? d->lost : NULL;
}

jfr_leaks *jfr_report_data_leaks(const jfr_report_data *d)
{
    return d ? d->leaks : NULL;
}

const jfr_rate *jfr_report_data_alloc_rate(const jfr_report_data *d)
{
    return d ? d->rate : NULL;
}

const jfr_timeline *jfr_report_data_timeline(const jfr_report_data *d)
{
    return d ? d->timeline : NULL;
}

void jfr_report_data_free(jfr_report_data *d)
{
    if (!d)
        return;
    jfrp_rows_free(&d->overview);
    jfrp_rows_free(&d->settings);
    jfrp_series_free(d);
    free(d->lost);
    jfr_leaks_free(d->leaks);
    jfr_rate_free(d->rate);
    jfr_timeline_free(d->timeline);
    free(d);
}
