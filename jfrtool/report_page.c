/* report_page.c - the report's page: jfrtool/report.html (embedded at
 * build time as report_template[], see Makefile.am) with its data line
 * replaced by "const REPORT = {...};", every part of the report written
 * by the one JSON writer (json_writer.h), and "@@TITLE@@" by the title. */
#include <math.h>
#include <stdlib.h>

#include "report.h"

extern const unsigned char report_template[];
extern const size_t report_template_size;

#define DATA_LINE "/*@@REPORT_DATA@@*/"

static void write_series(jw *w, const jfr_report_series *s)
{
    jw_begin(w, '{');
    for (size_t c = 0; c < s->ncols; c++) {
        jw_key(w, s->cols[c]);
        jw_begin(w, '[');
        for (size_t i = 0; i < s->count; i++)
            jw_num(w, s->values[c][i]);
        jw_end(w, ']');
    }
    jw_key(w, "text");
    jw_begin(w, '[');
    for (size_t i = 0; i < s->count; i++)
        jw_str(w, s->texts[i]);
    jw_end(w, ']');
    jw_end(w, '}');
}

/* The allocation rate's bytes per bucket of the page (jfr/rate.h: each
 * sample's weight spread over the time it stands for), with what falls
 * outside the page's buckets, the bytes read and how many samples were
 * spread. */
static void alloc_rate_json(jw *w, const report *r)
{
    const jfr_rate *rate = jfr_report_data_alloc_rate(r->data);
    int64_t first = jfr_rate_first_bucket(rate);
    int64_t end = first + (int64_t)jfr_rate_bucket_count(rate);
    double before = 0, after = 0;

    for (int64_t b = first; b < end; b++) {
        if (b < 0)
            before += jfr_rate_bucket(rate, b);
        else if (b >= r->nbuckets)
            after += jfr_rate_bucket(rate, b);
    }
    jw_begin(w, '{');
    jw_key(w, "bytes");
    jw_begin(w, '[');
    for (int64_t b = 0; b < r->nbuckets; b++)
        jw_num(w, round(jfr_rate_bucket(rate, b) * 1000) / 1000);
    jw_end(w, ']');
    jw_key(w, "before");
    jw_num(w, round(before));
    jw_key(w, "after");
    jw_num(w, round(after));
    jw_key(w, "originNanos"); /* a string: more digits than a double holds */
    {
        char origin[32];
        snprintf(origin, sizeof origin, "%lld", (long long)jfr_rate_origin_nanos(rate));
        jw_str(w, origin);
    }
    jw_key(w, "bucketNanos");
    jw_int(w, jfr_rate_bucket_nanos(rate));
    jw_key(w, "total");
    jw_int(w, (int64_t)jfr_rate_total(rate));
    jw_key(w, "samples");
    jw_int(w, (int64_t)jfr_rate_events(rate));
    jw_key(w, "spread");
    jw_int(w, (int64_t)jfr_rate_spread_events(rate));
    jw_end(w, '}');
}

static void write_rows(jw *w, const jfr_report_row *list, size_t n)
{
    jw_begin(w, '[');
    for (size_t i = 0; i < n; i++) {
        jw_begin(w, '[');
        jw_str(w, list[i].key);
        jw_str(w, list[i].value);
        jw_end(w, ']');
    }
    jw_end(w, ']');
}

static void write_data(FILE *out, report *r, const char *title)
{
    jw *w = xmalloc(sizeof *w);
    const jfr_report_row *list;
    const jfr_report_series *series;
    size_t n;

    jw_init(w, out);
    jw_raw(w, "const REPORT = ");
    jw_begin(w, '{');
    jw_key(w, "title");
    jw_str(w, title);
    jw_key(w, "files");
    jw_begin(w, '[');
    for (int i = 0; i < r->nfiles; i++)
        jw_str(w, r->files[i]);
    jw_end(w, ']');
    jw_key(w, "origin");
    jw_num(w, (double)(r->origin / 1000000));
    jw_key(w, "duration");
    jw_num(w, (double)jfr_nanos_between(r->origin, r->end) / 1e6);
    jw_key(w, "bucketMs");
    jw_int(w, r->bucket_ns / 1000000);
    jw_key(w, "nbuckets");
    jw_int(w, r->nbuckets);
    jw_key(w, "chunks");
    jw_int(w, (int64_t)r->chunks);
    jw_key(w, "bytes");
    jw_int(w, (int64_t)r->bytes);
    jw_key(w, "info");
    list = jfr_report_data_overview(&n, r->data);
    write_rows(w, list, n);
    jw_key(w, "settings");
    list = jfr_report_data_settings(&n, r->data);
    write_rows(w, list, n);
    jw_key(w, "lost");
    jw_begin(w, '[');
    for (size_t i = 0; i < r->nlost; i++)
        jw_str(w, r->lost[i]);
    jw_end(w, ']');
    jw_key(w, "series");
    jw_begin(w, '{');
    series = jfr_report_data_series(&n, r->data);
    for (size_t i = 0; i < n; i++) {
        jw_key(w, series[i].name);
        write_series(w, &series[i]);
    }
    jw_end(w, '}');
    jw_key(w, "allocRate");
    alloc_rate_json(w, r);
    jw_key(w, "profiles");
    report_profiles_json(w, r);
    jw_key(w, "findings");
    report_findings_json(w, r);
    jw_key(w, "leaks");
    report_leaks_json(w, r);
    jw_key(w, "threads");
    report_threads_json(w, r);
    jw_end(w, '}');
    jw_raw(w, ";\n");
    jw_flush(w);
    free(w);
}

typedef struct page {
    report *r;
    const char *title;
} page;

static void page_data(FILE *out, void *user)
{
    page *pg = user;

    write_data(out, pg->r, pg->title);
}

void report_write_page(FILE *out, report *r, const char *title)
{
    page pg = {r, title};

    fill_template(out, report_template, report_template_size, DATA_LINE, title, page_data,
                  &pg);
}
