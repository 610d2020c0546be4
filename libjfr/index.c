/* index.c - growth of the open-addressing index (see index.h). */
#include <string.h>

#include "jfr/error.h"
#include "index.h"
#include "seed.h"

/* How many entries ahead a growth loads the slot an entry goes to. */
#define GROW_AHEAD 16

int jfrp_index_grow(jfrp_index *x, const jfrp_alloc *al, size_t initial,
                    jfrp_index_rehash rehash, const void *ctx)
{
    jfrp_index grown;
    uint64_t ahead[GROW_AHEAD];
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
    /* entries are 0..count-1: re-place them in order, each slot a cache
     * miss in a large index, so the slots of the entries a few on are
     * loaded while this one is placed (the growth of a 300 k-stack
     * profile's index took 20 ms) */
    for (uint32_t e = 0; e < n && e < GROW_AHEAD; e++)
        ahead[e % GROW_AHEAD] = rehash(ctx, e);
    for (uint32_t e = 0; e < n; e++) {
        uint64_t hash = ahead[e % GROW_AHEAD];

        if (e + GROW_AHEAD < n) {
            uint64_t later = rehash(ctx, e + GROW_AHEAD);

            ahead[e % GROW_AHEAD] = later;
            __builtin_prefetch(&grown.slots[jfrp_index_first(&grown, later)], 1);
        }
        jfrp_index_insert(&grown, hash, e);
    }
    jfrp_free(al, x->slots);
    *x = grown;
    return 0;
}

void jfrp_index_free(jfrp_index *x, const jfrp_alloc *al)
{
    jfrp_free(al, x->slots);
    memset(x, 0, sizeof *x);
}
