/* report_data_lists.c - the growing parts of a report's data: texts,
 * key/value rows and the series' columns. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_data_private.h"

/* ---- texts ---------------------------------------------------------------------- */

static bool text_room(jfrp_rdtext *t, size_t more)
{
    char *s;
    size_t cap;

    if (t->len + more + 1 <= t->cap)
        return true;
    cap = t->cap ? t->cap : 64;
    while (cap < t->len + more + 1)
        cap *= 2;
    if (!(s = realloc(t->s, cap))) {
        t->failed = true;
        return false;
    }
    t->s = s;
    t->cap = cap;
    return true;
}

void jfrp_rdtext_clear(jfrp_rdtext *t)
{
    t->len = 0;
    if (t->s)
        t->s[0] = '\0';
}

void jfrp_rdtext_putn(jfrp_rdtext *t, const char *s, size_t n)
{
    if (!text_room(t, n))
        return;
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

void jfrp_rdtext_puts(jfrp_rdtext *t, const char *s)
{
    jfrp_rdtext_putn(t, s, strlen(s));
}

void jfrp_rdtext_printf(jfrp_rdtext *t, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !text_room(t, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

const char *jfrp_rdtext_str(const jfrp_rdtext *t)
{
    return t->s ? t->s : "";
}

void jfrp_rdtext_free(jfrp_rdtext *t)
{
    free(t->s);
    memset(t, 0, sizeof *t);
}

/* ---- rows ----------------------------------------------------------------------- */

static void free_const(const char *s)
{
    free((void *)(uintptr_t)s);
}

static char *copy(jfr_report_data *d, const char *s)
{
    char *c = strdup(s);

    if (!c)
        d->no_memory = true;
    return c;
}

void jfrp_rows_set(jfr_report_data *d, jfrp_rows *rows, const char *key,
                   const char *value, bool replace)
{
    jfr_report_row *more;
    char *k, *v;

    for (size_t i = 0; i < rows->count; i++) {
        if (strcmp(rows->row[i].key, key) != 0)
            continue;
        if (replace && (v = copy(d, value)) != NULL) {
            free_const(rows->row[i].value);
            rows->row[i].value = v;
        }
        return;
    }
    if (!(more = realloc(rows->row, (rows->count + 1) * sizeof *more))) {
        d->no_memory = true;
        return;
    }
    rows->row = more;
    k = copy(d, key);
    v = copy(d, value);
    if (!k || !v) {
        free(k);
        free(v);
        return;
    }
    rows->row[rows->count].key = k;
    rows->row[rows->count++].value = v;
}

void jfrp_rows_free(jfrp_rows *rows)
{
    for (size_t i = 0; i < rows->count; i++) {
        free_const(rows->row[i].key);
        free_const(rows->row[i].value);
    }
    free(rows->row);
    memset(rows, 0, sizeof *rows);
}

/* ---- series --------------------------------------------------------------------- */

static const struct {
    const char *name, *event_type;
    const char *cols[JFR_REPORT_SERIES_COLUMNS];
} series_defs[JFRP_NSERIES] = {
    {"cpu", "jdk.CPULoad", {"t", "jvmUser", "jvmSystem", "machineTotal"}},
    {"heap", "jdk.GCHeapSummary", {"t", "heapUsed", "gcId"}},
    {"gc",
     "jdk.GarbageCollection",
     {"t", "duration", "longestPause", "sumOfPauses", "gcId"}},
    {"pause", "jdk.GCPhasePause", {"t", "duration", "gcId"}},
    {"threads", "jdk.JavaThreadStatistics", {"t", "activeCount", "daemonCount"}},
    {"safepoints", "jdk.SafepointBegin", {"t", "duration", "totalThreadCount"}},
    {"cpuLost", "jdk.CPUTimeSamplesLost", {"t", "lostSamples"}},
};

static size_t series_ncols(int series)
{
    size_t n = 0;

    while (n < JFR_REPORT_SERIES_COLUMNS && series_defs[series].cols[n])
        n++;
    return n;
}

static bool series_room(jfrp_series *s, size_t ncols)
{
    size_t cap = s->cap ? 2 * s->cap : 256;
    char **text;

    if (s->count < s->cap)
        return true;
    for (size_t c = 0; c < ncols; c++) {
        double *v = realloc(s->v[c], cap * sizeof *v);
        if (!v)
            return false;
        s->v[c] = v;
    }
    if (!(text = realloc(s->text, cap * sizeof *text)))
        return false;
    s->text = text;
    s->cap = cap;
    return true;
}

void jfrp_series_add(jfr_report_data *d, int series, const double *vals, const char *text)
{
    jfrp_series *s = &d->grow[series];
    size_t ncols = series_ncols(series);
    char *t = NULL;

    if (!series_room(s, ncols) || (text && !(t = copy(d, text)))) {
        d->no_memory = true;
        return;
    }
    for (size_t c = 0; c < ncols; c++)
        s->v[c][s->count] = vals[c];
    s->text[s->count++] = t;
}

void jfrp_series_publish(jfr_report_data *d)
{
    for (int i = 0; i < JFRP_NSERIES; i++) {
        jfr_report_series *p = &d->series[i];

        p->name = series_defs[i].name;
        p->event_type = series_defs[i].event_type;
        p->ncols = series_ncols(i);
        for (size_t c = 0; c < p->ncols; c++) {
            p->cols[c] = series_defs[i].cols[c];
            p->values[c] = d->grow[i].v[c];
        }
        p->texts = (const char *const *)d->grow[i].text;
        p->count = d->grow[i].count;
    }
}

void jfrp_series_free(jfr_report_data *d)
{
    for (int i = 0; i < JFRP_NSERIES; i++) {
        jfrp_series *s = &d->grow[i];

        for (size_t c = 0; c < JFR_REPORT_SERIES_COLUMNS; c++)
            free(s->v[c]);
        for (size_t k = 0; k < s->count; k++)
            free(s->text[k]);
        free(s->text);
    }
}
