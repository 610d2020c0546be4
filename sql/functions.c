/* functions.c - the aggregates the JDK's views need, which SQLite lacks:
 * percentile(x, p), median(x), stdev(x), first(x), last(x) and
 * list_distinct(x [, separator]) (doc/sql.md, "Functions"). NULLs are
 * skipped, as SQL's own aggregates skip them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jfrsql.h"

/* ---- percentile and median: every value kept, ranked at the end ----------- */

typedef struct values {
    double *v;
    size_t n, cap;
    double p; /* the percentile asked for, 0..100 */
    bool all_ints;
    bool bad_p;
    bool jdk; /* the JDK's rule: rank (n + 1) * p, not numpy's */
} values;

static void values_step(sqlite3_context *ctx, sqlite3_value *x, double p)
{
    values *a = sqlite3_aggregate_context(ctx, sizeof *a);
    int type = sqlite3_value_numeric_type(x);

    if (!a) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (a->n == 0 && !a->v)
        a->all_ints = true;
    if (!(p >= 0 && p <= 100)) {
        a->bad_p = true;
        return;
    }
    a->p = p;
    if (type != SQLITE_INTEGER && type != SQLITE_FLOAT)
        return;
    if (type != SQLITE_INTEGER)
        a->all_ints = false;
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 64;
        double *v = sqlite3_realloc64(a->v, cap * sizeof *v);
        if (!v) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = sqlite3_value_double(x);
}

static void result_number(sqlite3_context *ctx, const values *a, double r)
{
    if (a->all_ints && fabs(r) < 9.2e18)
        sqlite3_result_int64(ctx,
                             (sqlite3_int64)r); /* truncated, as the JDK's longValue() */
    else
        sqlite3_result_double(ctx, r);
}

/* The JDK's percentiles (jdk_percentile) and median (jdk_median): see
 * jfrsql_jdk_rank. Integer inputs give integers, truncated, as the JDK's
 * durations. */
static void jdk_final(sqlite3_context *ctx, const values *a)
{
    result_number(ctx, a, jfrsql_jdk_rank(a->v, a->n, a->p));
}

static void values_final(sqlite3_context *ctx)
{
    values *a = sqlite3_aggregate_context(ctx, 0);
    double r;

    if (a && a->bad_p) {
        sqlite3_result_error(ctx, "percentile: P must be from 0 to 100", -1);
    } else if (a && a->n > 0) {
        if (a->jdk) {
            jdk_final(ctx, a);
            sqlite3_free(a->v);
            return;
        }
        r = jfrsql_linear_rank(a->v, a->n, a->p);
        if (a->all_ints && r == floor(r) && fabs(r) < 9.2e18)
            sqlite3_result_int64(ctx, (sqlite3_int64)r);
        else
            sqlite3_result_double(ctx, r);
    }
    if (a)
        sqlite3_free(a->v);
}

static void percentile_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    values_step(ctx, argv[0], sqlite3_value_double(argv[1]));
}

static void median_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    values_step(ctx, argv[0], 50.0);
}

static void jdk_percentile_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    values *a = sqlite3_aggregate_context(ctx, sizeof *a);

    (void)argc;
    if (a)
        a->jdk = true;
    values_step(ctx, argv[0], sqlite3_value_double(argv[1]));
}

static void jdk_median_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    values *a = sqlite3_aggregate_context(ctx, sizeof *a);

    (void)argc;
    if (a)
        a->jdk = true;
    values_step(ctx, argv[0], 50.0);
    if (a)
        a->p = -1; /* the median rule */
}

/* ---- jdk_avg_span: the JDK's average of durations ---------------------------
 * The sum of the durations divided by their count, rounded to the nearest
 * nanosecond (half up), kept as seconds and nanoseconds so that long sums
 * cannot overflow. */
void jfrsql_span_add(jfrsql_span_sum *a, int64_t v)
{
    int64_t sec = v / 1000000000, ns = v % 1000000000;

    if (ns < 0) {
        ns += 1000000000;
        sec--;
    }
    a->seconds += sec;
    a->nanos += ns;
    a->n++;
}

int64_t jfrsql_span_mean(const jfrsql_span_sum *a)
{
    /* (seconds * 1e9 + nanos) / n without overflow */
    int64_t sec = a->seconds + a->nanos / 1000000000, ns = a->nanos % 1000000000;
    int64_t q = sec / a->n, rem = sec % a->n;

    return q * 1000000000 + (rem * 1000000000 + ns + a->n / 2) / a->n;
}

static void avg_span_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    jfrsql_span_sum *a = sqlite3_aggregate_context(ctx, sizeof *a);

    (void)argc;
    if (!a) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (sqlite3_value_type(argv[0]) != SQLITE_NULL)
        jfrsql_span_add(a, sqlite3_value_int64(argv[0]));
}

static void avg_span_final(sqlite3_context *ctx)
{
    jfrsql_span_sum *a = sqlite3_aggregate_context(ctx, 0);

    if (a && a->n > 0)
        sqlite3_result_int64(ctx, jfrsql_span_mean(a));
}

/* ---- stdev: Welford's running mean and sum of squares ----------------------- */

typedef struct welford {
    sqlite3_int64 n;
    double mean, m2;
} welford;

static void stdev_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    welford *w = sqlite3_aggregate_context(ctx, sizeof *w);
    int type = sqlite3_value_numeric_type(argv[0]);
    double x, d;

    (void)argc;
    if (!w || (type != SQLITE_INTEGER && type != SQLITE_FLOAT))
        return;
    x = sqlite3_value_double(argv[0]);
    w->n++;
    d = x - w->mean;
    w->mean += d / (double)w->n;
    w->m2 += d * (x - w->mean);
}

/* The sample standard deviation (n - 1); NULL for fewer than two values. */
static void stdev_final(sqlite3_context *ctx)
{
    welford *w = sqlite3_aggregate_context(ctx, 0);

    if (w && w->n > 1)
        sqlite3_result_double(ctx, sqrt(w->m2 / (double)(w->n - 1)));
}

/* ---- first and last: in the order rows reach the aggregate ------------------ */

typedef struct kept {
    sqlite3_value *v;
    bool seen;
} kept;

/* first/last skip NULLs; jdk_first/jdk_last keep them, as the JDK's FIRST
 * and LAST keep a null value (its first, or its last, event's). */
static void keep(sqlite3_context *ctx, sqlite3_value *x, bool replace, bool nulls)
{
    kept *k = sqlite3_aggregate_context(ctx, sizeof *k);

    if (!k || (!nulls && sqlite3_value_type(x) == SQLITE_NULL) || (k->seen && !replace))
        return;
    k->seen = true;
    sqlite3_value_free(k->v);
    if (!(k->v = sqlite3_value_dup(x)))
        sqlite3_result_error_nomem(ctx);
}

static void first_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    keep(ctx, argv[0], false, false);
}

static void last_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    keep(ctx, argv[0], true, false);
}

static void jdk_first_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    keep(ctx, argv[0], false, true);
}

static void jdk_last_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    keep(ctx, argv[0], true, true);
}

static void kept_final(sqlite3_context *ctx)
{
    kept *k = sqlite3_aggregate_context(ctx, 0);

    if (k && k->v) {
        sqlite3_result_value(ctx, k->v);
        sqlite3_value_free(k->v);
    }
}

/* ---- list_distinct: distinct values as text, in the order first seen -------- */

typedef struct distinct {
    char **items;
    size_t n, cap;
    char *sep;
} distinct;

static void distinct_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    distinct *d = sqlite3_aggregate_context(ctx, sizeof *d);
    const char *s;

    if (!d)
        return;
    if (argc > 1 && !d->sep && sqlite3_value_type(argv[1]) != SQLITE_NULL)
        d->sep = sqlite3_mprintf("%s", (const char *)sqlite3_value_text(argv[1]));
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL ||
        !(s = (const char *)sqlite3_value_text(argv[0])))
        return;
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->items[i], s) == 0)
            return;
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 16;
        char **v = sqlite3_realloc64(d->items, cap * sizeof *v);
        if (!v) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
        d->items = v;
        d->cap = cap;
    }
    if (!(d->items[d->n] = sqlite3_mprintf("%s", s))) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    d->n++;
}

static void distinct_final(sqlite3_context *ctx)
{
    distinct *d = sqlite3_aggregate_context(ctx, 0);
    sqlite3_str *out;

    if (!d || d->n == 0) {
        if (d)
            sqlite3_free(d->sep);
        return;
    }
    out = sqlite3_str_new(NULL);
    for (size_t i = 0; i < d->n; i++) {
        if (i > 0)
            sqlite3_str_appendall(out, d->sep ? d->sep : ", ");
        sqlite3_str_appendall(out, d->items[i]);
        sqlite3_free(d->items[i]);
    }
    sqlite3_free(d->items);
    sqlite3_free(d->sep);
    sqlite3_result_text(ctx, sqlite3_str_finish(out), -1, sqlite3_free);
}

/* ---- jdk_not_init_frame(frames [, identities]) ----------------------------
 * Of "stackTrace.frames" (one method per line), the first line whose method
 * is not <init>, as the JDK's stackTrace.topNotInitFrame; NULL when none.
 * With "stackTrace.frames.identity" (one group per frame, by spaces) as
 * well, that frame's group instead: the JDK groups by the method. */
static void not_init_frame(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const char *p = (const char *)sqlite3_value_text(argv[0]);
    const char *ids = argc > 1 ? (const char *)sqlite3_value_text(argv[1]) : NULL;

    while (p && *p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        size_t id_len = ids ? strcspn(ids, " ") : 0;
        const char *open = memchr(p, '(', len);
        bool init =
            open && (size_t)(open - p) >= 7 && memcmp(open - 7, ".<init>", 7) == 0;
        if (!init && !(len == 3 && memcmp(p, "...", 3) == 0)) {
            if (argc == 1)
                sqlite3_result_text(ctx, p, (int)len, SQLITE_TRANSIENT);
            else if (ids && id_len > 0)
                sqlite3_result_text(ctx, ids, (int)id_len, SQLITE_TRANSIENT);
            return;
        }
        p = nl ? nl + 1 : NULL;
        if (ids)
            ids = ids[id_len] ? ids + id_len + 1 : NULL;
    }
}

int jfrsql_register_functions(sqlite3 *db)
{
    static const struct {
        const char *name;
        int nargs;
        void (*step)(sqlite3_context *, int, sqlite3_value **);
        void (*final)(sqlite3_context *);
    } aggs[] = {{"percentile", 2, percentile_step, values_final},
                {"median", 1, median_step, values_final},
                {"jdk_percentile", 2, jdk_percentile_step, values_final},
                {"jdk_median", 1, jdk_median_step, values_final},
                {"jdk_avg_span", 1, avg_span_step, avg_span_final},
                {"stdev", 1, stdev_step, stdev_final},
                {"first", 1, first_step, kept_final},
                {"last", 1, last_step, kept_final},
                {"jdk_first", 1, jdk_first_step, kept_final},
                {"jdk_last", 1, jdk_last_step, kept_final},
                {"list_distinct", 1, distinct_step, distinct_final},
                {"list_distinct", 2, distinct_step, distinct_final}};
    int rc = SQLITE_OK;

    for (size_t i = 0; i < sizeof aggs / sizeof aggs[0] && rc == SQLITE_OK; i++)
        rc = sqlite3_create_function_v2(db, aggs[i].name, aggs[i].nargs, SQLITE_UTF8,
                                        NULL, NULL, aggs[i].step, aggs[i].final, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "jdk_not_init_frame", 1,
                                        SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                        not_init_frame, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "jdk_not_init_frame", 2,
                                        SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
                                        not_init_frame, NULL, NULL, NULL);
    return rc;
}
