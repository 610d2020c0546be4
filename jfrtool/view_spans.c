/* view_spans.c - the duration statistics by name of the GC phase views
 * (gc-parallel-phases, gc-concurrent-phases), computed in one pass over the
 * events instead of by their SQL: the same rows (the same aggregate
 * functions, sql/functions.c), without SQLite sorting every event by name.
 * tests/views/check-generic.sh compares both with `--generic`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfrsql.h"
#include "jfrtool.h"
#include "parallel.h"
#include "view_generic.h"

typedef struct span_group {
    char *name;
    double *v; /* the durations, to rank */
    size_t n, cap;
    jfrsql_span_sum sum;
    int64_t max, total;
} span_group;

typedef struct span_run {
    span_group *g;
    size_t n, cap;
    strmap index;
} span_run;

/* The view's event types in `chunk` ("GCPhaseParallel" is jdk.X, or in
 * JFR 1.0 com.oracle.jdk.X, which the library resolves); their names in
 * `names`, the count returned. */
static size_t chunk_types(jfr_chunk *chunk, const char *types, const char **names,
                          size_t max)
{
    size_t n = 0;

    for (const char *s = types; *s && n < max;) {
        size_t w = strcspn(s, " ");
        char full[256];
        const jfr_type *t;

        snprintf(full, sizeof full, "jdk.%.*s", (int)w, s);
        if ((t = jfr_chunk_event_type(chunk, full)))
            names[n++] = jfr_type_name(t);
        s += w + (s[w] == ' ');
    }
    return n;
}

static span_group *group_of(span_run *r, jfr_str name)
{
    long at = strmap_get_n(&r->index, name.ptr ? name.ptr : "", name.ptr ? name.len : 0);

    if (at >= 0)
        return &r->g[at];
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 64;
        r->g = xrealloc(r->g, r->cap, sizeof *r->g);
    }
    r->g[r->n] = (span_group){.name = xstrndup(name.ptr, name.len), .max = INT64_MIN};
    strmap_put_n(&r->index, name.ptr, name.len, r->n);
    return &r->g[r->n++];
}

static void add_event(span_run *r, const jfr_event *ev)
{
    jfr_value v;
    span_group *g;
    double d;

    if (jfr_event_field(&v, ev, "name") != JFR_OK || v.kind != JFR_VALUE_STRING)
        return; /* the SQL's group of no name: none in the JDK's phases */
    g = group_of(r, v.as.str);
    d = jfr_event_timespan_nanos(ev, "duration");
    /* count(*) counts every event; the other aggregates skip a NULL */
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 256;
        g->v = xrealloc(g->v, g->cap, sizeof *g->v);
    }
    if (isnan(d)) {
        g->v[g->n++] = NAN; /* counted, not ranked */
        return;
    }
    g->v[g->n++] = d;
    jfrsql_span_add(&g->sum, (int64_t)d);
    if ((int64_t)d > g->max)
        g->max = (int64_t)d;
    g->total += (int64_t)d;
}

bool gview_is_span_stats(const jfrsql_view *v)
{
    return v->fast_path && strcmp(v->fast_path, "view_spans.c") == 0;
}

/* ORDER BY sum(duration) DESC: no sum last, equal sums by name */
static int by_total(const void *a, const void *b)
{
    const gv_span_row *x = a, *y = b;

    if (x->has_values != y->has_values)
        return x->has_values ? -1 : 1;
    if (x->sum != y->sum)
        return x->sum > y->sum ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* ---- the chunks in threads, merged in chunk order ---------------------------- */

typedef struct span_read {
    const jfrsql_view *view;
    const char *path;
    bool traced;
    span_run total;
} span_read;

typedef struct span_chunk {
    span_run run;
    strbuf messages; /* a damaged event's error */
} span_chunk;

static int decode_chunk(jfr_chunk *chunk, jfr_recording *rec, void **result, void *user)
{
    const span_read *sr = user;
    span_chunk *sc = xcalloc(1, sizeof *sc);
    const char *names[8];
    jfr_event_iter *it;
    const jfr_event *ev;
    size_t n = chunk_types(chunk, sr->view->types, names, 8);
    int rc;

    *result = sc;
    if (n == 0 || jfr_event_iter_new(&it, chunk, names, n, 0) != JFR_OK)
        return JFR_OK;
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK)
        add_event(&sc->run, ev);
    if (rc < 0)
        parallel_say(&sc->messages, sr->path, jfr_recording_error(rec));
    jfr_event_iter_free(it);
    return JFR_OK;
}

/* Chunk by chunk in file order: the durations in the order the sequential
 * read met them, so the outcome does not depend on the threads. */
static void merge_chunk(void *result, const jfr_chunk_report *report, void *user)
{
    span_read *sr = user;
    span_chunk *sc = result;

    /* the tables' read told what is wrong with the chunks */
    parallel_trace(&sr->traced, sr->path, report->threads);
    if (!sc)
        return;
    for (size_t i = 0; i < sc->run.n; i++) {
        span_group *from = &sc->run.g[i];
        span_group *to = group_of(&sr->total, (jfr_str){from->name, strlen(from->name)});

        if (to->n + from->n > to->cap) {
            to->cap = to->n + from->n;
            to->v = xrealloc(to->v, to->cap, sizeof *to->v);
        }
        memcpy(to->v + to->n, from->v, from->n * sizeof *from->v);
        to->n += from->n;
        to->sum.seconds += from->sum.seconds;
        to->sum.nanos += from->sum.nanos;
        to->sum.n += from->sum.n;
        if (from->max > to->max)
            to->max = from->max;
        to->total += from->total;
        free(from->name);
        free(from->v);
    }
    if (sc->messages.len) {
        put_messages(sb_str(&sc->messages));
    }
    sb_free(&sc->messages);
    free(sc->run.g);
    strmap_free(&sc->run.index);
    free(sc);
}

/* The rows from the kept durations, by total (the view's ORDER BY). */
static void make_rows(span_run *r, gv_span_row *rows)
{
    for (size_t i = 0; i < r->n; i++) {
        span_group *g = &r->g[i];
        size_t ranked = 0;
        gv_span_row *row = &rows[i];

        for (size_t k = 0; k < g->n; k++)
            if (!isnan(g->v[k]))
                g->v[ranked++] = g->v[k];
        row->name = g->name;
        row->count = (int64_t)g->n;
        row->has_values = ranked > 0;
        if (ranked) {
            row->avg = jfrsql_span_mean(&g->sum);
            row->p95 = (int64_t)jfrsql_jdk_rank(g->v, ranked, 95);
            row->max = g->max;
            row->sum = g->total;
        }
        free(g->v);
    }
    qsort(rows, r->n, sizeof *rows, by_total);
}

int gview_span_stats(const jfrsql_view *v, const view_ctx *ctx, gv_span_row **rows,
                     size_t *nrows)
{
    static const jfr_chunk_ops ops = {decode_chunk, merge_chunk};
    span_read sr = {v, NULL, false, {0}};

    for (int f = 0; f < ctx->nfiles; f++)
        if (strcmp(ctx->files[f], "-") == 0)
            return -1; /* read once already, as a table: the SQL serves */

    /* the inputs were opened as tables first, which told what is wrong
     * with them: read them quietly (only a damaged event is told) */
    for (int f = 0; f < ctx->nfiles; f++) {
        jfr_recording *rec;
        jfr_error err;

        if (jfr_recording_open_file(&rec, ctx->files[f], NULL, &err) < 0)
            continue;
        sr.path = ctx->files[f];
        sr.traced = false;
        if (jfr_recording_decode_chunks(rec, (unsigned)ctx->jobs, &ops, &sr) < 0)
            diex(EXIT_INPUT, "%s: out of memory", ctx->files[f]);
        jfr_recording_free(rec);
    }
    *rows = xcalloc(sr.total.n ? sr.total.n : 1, sizeof **rows);
    make_rows(&sr.total, *rows);
    *nrows = sr.total.n;
    free(sr.total.g);
    strmap_free(&sr.total.index);
    return 0;
}
