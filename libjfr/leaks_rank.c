/* leaks_rank.c - ranking old-object samples by class or by allocation site:
 * the fallback when a recording has no reference chains, and the detail
 * shown for each candidate. */
#include <stdlib.h>
#include <string.h>

#include "jfr_private.h"
#include "leaks_private.h"

/* "pkg.Class.method(int, String)" as jfr view shows a method. Interned. */
static const char *method_text(jfr_leaks *lk, const jfr_leak_frame *f, int *rc)
{
    const char *cls = f->class_name, *m = f->method, *d = f->descriptor;
    size_t clen = cls ? strlen(cls) : 0, mlen = m ? strlen(m) : 0;
    size_t dlen = d ? strlen(d) : 0;
    size_t n = jfr_name_of_method(NULL, 0, cls, clen, m, mlen, d, dlen, 0);

    if ((*rc = jfrp_leaks_grow(lk, (void **)&lk->scratch, &lk->scratch_cap, n + 1, 1)) <
        0)
        return NULL;
    jfr_name_of_method(lk->scratch, n, cls, clen, m, mlen, d, dlen, 0);
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
