/* leaks_rank.c - ranking old-object samples by class or by allocation site:
 * the fallback when a recording has no reference chains, and the detail
 * shown for each candidate. */
#include <stdlib.h>
#include <string.h>

#include "jfr_private.h"
#include "leaks_private.h"

static int put_text(jfr_leaks *lk, size_t *n, const char *s, size_t len)
{
    int rc =
        jfrp_leaks_grow(lk, (void **)&lk->scratch, &lk->scratch_cap, *n + len + 1, 1);

    if (rc < 0)
        return rc;
    memcpy(lk->scratch + *n, s, len);
    *n += len;
    return 0;
}

/* One parameter type of a method descriptor at *p, shortened to the text
 * after its last '.' ("Ljava/util/Map$Entry;" -> "Map$Entry"). */
static int put_param(jfr_leaks *lk, size_t *n, const char **p, const char *end)
{
    static const char *const prim[] = {
        ['B'] = "byte", ['C'] = "char", ['D'] = "double", ['F'] = "float",
        ['I'] = "int",  ['J'] = "long", ['S'] = "short",  ['Z'] = "boolean",
    };
    size_t dims = 0;
    int rc;

    while (*p < end && **p == '[') {
        dims++;
        (*p)++;
    }
    if (*p >= end)
        return 0;
    if (**p == 'L') {
        const char *start = ++(*p), *semi = memchr(start, ';', (size_t)(end - start));
        const char *stop = semi ? semi : end, *last = start;

        for (const char *q = start; q < stop; q++)
            if (*q == '/' || *q == '.')
                last = q + 1;
        if ((rc = put_text(lk, n, last, (size_t)(stop - last))) < 0)
            return rc;
        *p = semi ? semi + 1 : end;
    } else {
        uint8_t c = (uint8_t) * *p;
        const char *name = c < sizeof prim / sizeof prim[0] && prim[c]
                               ? prim[c]
                               : "<unknown-descriptor-type>";
        if ((rc = put_text(lk, n, name, strlen(name))) < 0)
            return rc;
        (*p)++;
    }
    for (size_t i = 0; i < dims; i++)
        if ((rc = put_text(lk, n, "[]", 2)) < 0)
            return rc;
    return 0;
}

/* "pkg.Class.method(int, String)" as jfr view shows a method. Interned. */
static const char *method_text(jfr_leaks *lk, const jfr_leak_frame *f, int *rc)
{
    const char *cls = f->class_name ? f->class_name : "";
    const char *m = f->method ? f->method : "";
    const char *d = f->descriptor ? f->descriptor : "";
    const char *open = strchr(d, '('), *close = strrchr(d, ')');
    size_t n = 0;

    if ((*rc = put_text(lk, &n, cls, strlen(cls))) < 0)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (lk->scratch[i] == '/')
            lk->scratch[i] = '.';
    if ((*rc = put_text(lk, &n, ".", 1)) < 0 ||
        (*rc = put_text(lk, &n, m, strlen(m))) < 0 ||
        (*rc = put_text(lk, &n, "(", 1)) < 0)
        return NULL;
    if (open && close && close > open) {
        const char *p = open + 1;
        bool first = true;
        while (p < close) {
            if (!first && (*rc = put_text(lk, &n, ", ", 2)) < 0)
                return NULL;
            if ((*rc = put_param(lk, &n, &p, close)) < 0)
                return NULL;
            first = false;
        }
    }
    if ((*rc = put_text(lk, &n, ")", 1)) < 0)
        return NULL;
    return jfrp_leaks_intern(lk, lk->scratch, n, rc);
}

static int by_count(const void *a, const void *b)
{
    const jfr_leak_rank *x = a, *y = b;

    if (x->samples != y->samples)
        return x->samples < y->samples ? 1 : -1;
    return strcmp(x->name, y->name);
}

int jfr_leaks_rank(const jfr_leak_rank **rows, size_t *count, jfr_leaks *lk,
                   jfr_leaks_rank_by by, uint32_t within)
{
    jfrp_map index = {0}; /* interned name -> row + 1 */
    int rc;

    if (!rows || !count || !lk || (by != JFR_LEAKS_BY_CLASS && by != JFR_LEAKS_BY_SITE))
        return JFR_EINVAL;
    *rows = NULL;
    *count = 0;
    if ((rc = jfrp_leaks_merge(lk)) < 0)
        return rc;
    lk->nrank = 0;
    for (size_t i = 0; i < lk->nsamples; i++) {
        const jfr_leak_sample *s = &lk->samples[i];
        const char *name;
        jfr_leak_rank *row;
        uint64_t hit;

        if (!s->after_warmup || s->repeated)
            continue;
        if (within != JFR_LEAK_NONE && !jfr_leaks_node_within(lk, s->node, within))
            continue;
        rc = 0;
        if (by == JFR_LEAKS_BY_CLASS)
            name = s->object_type;
        else
            name = s->nframes
                       ? method_text(lk, &s->frames[s->app_frame >= 0 ? s->app_frame : 0],
                                     &rc)
                       : NULL;
        if (rc < 0)
            goto done;
        if (!name)
            name = "N/A";
        hit = jfrp_map_get(&index, (uint64_t)(uintptr_t)name);
        if (!hit) {
            if ((rc = jfrp_leaks_grow(lk, (void **)&lk->rank_rows, &lk->rank_cap,
                                      lk->nrank + 1, sizeof *lk->rank_rows)) < 0 ||
                (rc = jfrp_map_put(&index, &lk->al, (uint64_t)(uintptr_t)name,
                                   lk->nrank + 1)) < 0)
                goto done;
            memset(&lk->rank_rows[lk->nrank], 0, sizeof lk->rank_rows[0]);
            lk->rank_rows[lk->nrank].name = name;
            hit = ++lk->nrank;
        }
        row = &lk->rank_rows[hit - 1];
        row->samples++;
        if (s->has_allocation_time) {
            if (!row->first_allocation_nanos ||
                s->allocation_nanos < row->first_allocation_nanos)
                row->first_allocation_nanos = s->allocation_nanos;
            if (s->allocation_nanos > row->last_allocation_nanos)
                row->last_allocation_nanos = s->allocation_nanos;
        }
    }
    if (lk->nrank)
        qsort(lk->rank_rows, lk->nrank, sizeof *lk->rank_rows, by_count);
    *rows = lk->rank_rows;
    *count = lk->nrank;
    rc = JFR_OK;
done:
    jfrp_map_free(&index, &lk->al);
    return rc;
}
