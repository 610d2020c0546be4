/* index.c - growth of the open-addressing index (see index.h). */
#include <string.h>

#include "jfr/error.h"
#include "index.h"
#include "seed.h"

int jfrp_index_grow(jfrp_index *x, const jfrp_alloc *al, size_t initial,
                    jfrp_index_rehash rehash, const void *ctx)
{
    jfrp_index grown;
    size_t n;

    if (x->count >= UINT32_MAX - 1)
        return JFR_ELIMIT;
    if ((x->count + 1) * 2 <= x->cap)
        return 0;
    grown.cap = x->cap ? x->cap * 2 : initial;
    if (grown.cap > SIZE_MAX / 2 / sizeof *grown.slots)
        return JFR_ENOMEM;
    grown.slots = jfrp_calloc(al, grown.cap, sizeof *grown.slots);
    if (!grown.slots)
        return JFR_ENOMEM;
    grown.count = 0;
    grown.seed = x->cap ? x->seed : jfrp_random_seed();
    n = x->count;
    /* entries are 0..count-1: re-place them in order */
    for (uint32_t e = 0; e < n; e++)
        jfrp_index_insert(&grown, rehash(ctx, e), e);
    jfrp_free(al, x->slots);
    *x = grown;
    return 0;
}

void jfrp_index_free(jfrp_index *x, const jfrp_alloc *al)
{
    jfrp_free(al, x->slots);
    memset(x, 0, sizeof *x);
}
