/* test_report_data.c - the report's data in one call (libjfr/report_data*.c,
 * jfr/report.h): the summary against the chunks and sizes read another
 * way, each series against its events read one by one, the overview and
 * settings of a known recording, what could not be read with its
 * location in jfr_error's fields, inputs opened on demand, and the
 * arguments' edges. The page made of it is compared with the JDK's
 * numbers by tests/profile/check-report-overview.py. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "jfr.h"

static char *path_of(const char *name)
{
    const char *td = getenv("JFR_TESTDATA");
    static char path[4096];

    snprintf(path, sizeof path, "%s/recordings/%s", td ? td : "testdata", name);
    return path;
}

static jfr_recording *open_rec(const char *name)
{
    jfr_recording *rec;
    jfr_error err;

    cr_assert_eq(jfr_recording_open_file(&rec, path_of(name), NULL, &err), JFR_OK, "%s",
                 err.message);
    return rec;
}

static jfr_report_data *data_of(jfr_recording **inputs, size_t n,
                                const jfr_timeline_options *tl)
{
    jfr_report_data_options o;
    jfr_report_data *d;
    jfr_error err;

    cr_assert_eq(jfr_report_data_options_init(&o, JFR_REPORT_DATA_OPTIONS_VERSION),
                 JFR_OK);
    o.bucket_nanos = 1000000000;
    o.timeline = tl;
    cr_assert_eq(jfr_report_data_build(&d, inputs, n, &o, &err), JFR_OK, "%s",
                 err.message);
    return d;
}

/* The events of `type` read one by one: their number, and the sum of
 * field `field`. */
static size_t count_events(double *sum, const char *file, const char *type,
                           const char *field)
{
    jfr_recording *rec = open_rec(file);
    jfr_chunk *c;
    size_t n = 0;

    *sum = 0;
    while (jfr_recording_next_chunk(&c, rec) == JFR_OK) {
        jfr_event_iter *it;
        const jfr_event *ev;

        if (!jfr_chunk_event_type(c, type))
            continue;
        cr_assert_eq(jfr_event_iter_new(&it, c, &type, 1, 0), JFR_OK);
        while (jfr_event_next(&ev, it) == JFR_OK) {
            double v = jfr_event_number(ev, field);
            *sum += isnan(v) ? 0 : v;
            n++;
        }
        jfr_event_iter_free(it);
    }
    jfr_recording_free(rec);
    return n;
}

Test(report_data, summary_and_series_equal_the_events_read_one_by_one)
{
    static const char *const files[] = {"multi-jdk25.jfr", "cpu-jdk17.jfr"};

    for (size_t f = 0; f < 2; f++) {
        jfr_recording *rec = open_rec(files[f]);
        jfr_report_data *d = data_of(&rec, 1, NULL);
        const jfr_report_summary *s = jfr_report_data_summary(d);
        size_t nseries, chunks = 0;
        const jfr_report_series *series = jfr_report_data_series(&nseries, d);
        jfr_recording *again = open_rec(files[f]);
        jfr_chunk *c;

        while (jfr_recording_next_chunk(&c, again) == JFR_OK)
            chunks++;
        cr_assert_eq(s->chunks, chunks, "%s", files[f]);
        cr_assert_eq(s->bytes, jfr_recording_size(again));
        cr_assert_eq(s->inputs_read, 1);
        cr_assert_geq(s->end_nanos, s->origin_nanos);
        cr_assert_eq(nseries, 7);
        for (size_t i = 0; i < nseries; i++) {
            double sum, got = 0;
            size_t n = count_events(&sum, files[f], series[i].event_type,
                                    series[i].cols[series[i].ncols - 1]);

            cr_assert_str_eq(series[i].cols[0], "t");
            cr_assert_eq(series[i].count, n, "%s %s", files[f], series[i].name);
            for (size_t k = 0; k < series[i].count; k++) {
                double v = series[i].values[series[i].ncols - 1][k];
                got += isnan(v) ? 0 : v;
            }
            cr_assert_float_eq(got, sum, 1e-6 * (1 + fabs(sum)), "%s %s", files[f],
                               series[i].name);
        }
        cr_assert_gt(series[0].count, 0, "%s: CPU load points", files[f]);
        jfr_recording_free(again);
        jfr_recording_free(rec);
        jfr_report_data_free(d);
    }
}

static const char *row(const jfr_report_row *rows, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(rows[i].key, key) == 0)
            return rows[i].value;
    return NULL;
}

Test(report_data, overview_settings_and_analyses)
{
    jfr_timeline_options tl = JFR_TIMELINE_OPTIONS_INIT;
    jfr_recording *rec = open_rec("cpu-jdk25.jfr");
    jfr_report_data *d;
    const jfr_report_row *rows;
    size_t n;

    tl.sample_bin_nanos = 1000000;
    d = data_of(&rec, 1, &tl);
    rows = jfr_report_data_overview(&n, d);
    cr_assert_gt(n, 3);
    cr_assert_not_null(row(rows, n, "JVM"));
    cr_assert_eq(strncmp(row(rows, n, "JVM version"), "OpenJDK", 7), 0);
    cr_assert_not_null(row(rows, n, "OS"));
    rows = jfr_report_data_settings(&n, d);
    cr_assert_not_null(row(rows, n, "jdk.CPUTimeSample enabled"));
    cr_assert_str_eq(row(rows, n, "jdk.CPUTimeSample enabled"), "true");
    cr_assert_not_null(jfr_report_data_leaks(d));
    cr_assert_not_null(jfr_report_data_alloc_rate(d));
    cr_assert_eq(jfr_rate_bucket_nanos(jfr_report_data_alloc_rate(d)), 1000000000);
    cr_assert_not_null(jfr_report_data_timeline(d));
    cr_assert_gt(jfr_timeline_thread_count(jfr_report_data_timeline(d)), 0);
    (void)jfr_report_data_lost(&n, d);
    cr_assert_eq(n, 0);
    jfr_report_data_free(d);
    jfr_recording_free(rec);
}

static jfr_recording *open_none(size_t input, jfr_error *err, void *user)
{
    (void)input;
    (*(int *)user)++;
    snprintf(err->message, sizeof err->message, "no such input");
    err->code = JFR_EIO;
    err->chunk = -1;
    return NULL;
}

/* A cut recording and an input that does not open: the rest is read, and
 * each loss says where in jfr_error's fields, not in its text. */
Test(report_data, what_could_not_be_read)
{
    FILE *fp = fopen(path_of("multi-jdk25.jfr"), "rb");
    static unsigned char bytes[500000];
    size_t got = fread(bytes, 1, sizeof bytes, fp);
    jfr_recording *inputs[2] = {NULL, NULL};
    jfr_report_data_options o;
    jfr_report_data *d;
    const jfr_report_lost *lost;
    jfr_error err;
    int opened = 0;
    size_t n;

    fclose(fp);
    cr_assert_eq(jfr_recording_open_memory(&inputs[0], bytes, got, NULL, &err), JFR_OK);
    jfr_report_data_options_init(&o, JFR_REPORT_DATA_OPTIONS_VERSION);
    o.bucket_nanos = 1000000000;
    o.open = open_none;
    o.user = &opened;
    cr_assert_eq(jfr_report_data_build(&d, inputs, 2, &o, &err), JFR_OK);
    cr_assert_eq(opened, 1);
    cr_assert_eq(jfr_report_data_summary(d)->inputs_read, 1);
    cr_assert_gt(jfr_report_data_summary(d)->chunks, 0);
    lost = jfr_report_data_lost(&n, d);
    cr_assert_geq(n, 2);
    cr_assert_eq(lost[0].input, 0);
    cr_assert_geq(lost[0].error.chunk, 0);
    cr_assert_gt(lost[0].error.offset, 0);
    cr_assert_null(strstr(lost[0].error.message, "chunk "), "%s", lost[0].error.message);
    cr_assert_eq(lost[n - 1].input, 1);
    cr_assert_str_eq(lost[n - 1].error.message, "no such input");
    jfr_report_data_free(d);
    jfr_recording_free(inputs[0]);
}

Test(report_data, arguments)
{
    jfr_report_data_options o;
    jfr_report_data *d = (jfr_report_data *)&o;
    jfr_error err;
    size_t n = 7;

    cr_assert_eq(jfr_report_data_options_init(NULL, 1), JFR_EINVAL);
    cr_assert_eq(jfr_report_data_options_init(&o, 99), JFR_EINVAL);
    jfr_report_data_options_init(&o, JFR_REPORT_DATA_OPTIONS_VERSION);
    /* no bucket width */
    cr_assert_eq(jfr_report_data_build(&d, NULL, 0, &o, &err), JFR_EINVAL);
    cr_assert_null(d);
    cr_assert_eq(jfr_report_data_build(NULL, NULL, 0, &o, &err), JFR_EINVAL);
    o.bucket_nanos = 1;
    cr_assert_eq(jfr_report_data_build(&d, NULL, 1, &o, &err), JFR_EINVAL);
    cr_assert_eq(jfr_report_data_build(&d, NULL, 0, &o, &err), JFR_OK);
    cr_assert_eq(jfr_report_data_summary(d)->chunks, 0);
    cr_assert_null(jfr_report_data_timeline(d));
    jfr_report_data_free(d);
    cr_assert_null(jfr_report_data_summary(NULL));
    cr_assert_null(jfr_report_data_overview(&n, NULL));
    cr_assert_eq(n, 0);
    jfr_report_data_free(NULL);
}
