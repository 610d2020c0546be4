/* index.h - an open-addressing hash index over an array its caller owns.
 *
 * The library's hash tables with keys other than one integer (interned
 * strings, a profile's (stack, thread) slots, frame caches) keep their
 * entries in a plain array and find them through this index, whose slots
 * hold an entry's position + 1 (0 = free). The caller hashes and compares;
 * probing, the load limit and growth live here once. Integer keys use
 * jfrp_map (map.h). */
#ifndef JFRP_INDEX_H
#define JFRP_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"

typedef struct jfrp_index {
    uint32_t *slots; /* entry + 1, 0 = free */
    size_t cap;      /* power of two, or 0 */
    size_t count;
    uint64_t seed; /* random, set when the index is first made (seed.c) */
} jfrp_index;

/** The hash of entry `entry`, to place it again when the index grows. */
typedef uint64_t (*jfrp_index_rehash)(const void *ctx, uint32_t entry);

/* Probing: start at jfrp_index_first(x, hash), stop at a slot holding 0,
 * step with jfrp_index_next. Only call these when x->cap is non-zero. */
static inline size_t jfrp_index_first(const jfrp_index *x, uint64_t hash)
{
    /* the seed makes the slots unpredictable for keys read from a file */
    hash = (hash ^ x->seed) * 0xff51afd7ed558ccdULL;
    return (size_t)(hash ^ hash >> 32) & (x->cap - 1);
}

static inline size_t jfrp_index_next(const jfrp_index *x, size_t slot)
{
    return (slot + 1) & (x->cap - 1);
}

/**
 * Room for one more entry, keeping the load at most one half: doubles the
 * slots (from `initial`, a power of two) and re-places every entry by
 * `rehash`. 0, JFR_ENOMEM, or JFR_ELIMIT past UINT32_MAX - 1 entries.
 */
int jfrp_index_grow(jfrp_index *x, const jfrp_alloc *al, size_t initial,
                    jfrp_index_rehash rehash, const void *ctx);
static inline int jfrp_index_reserve(jfrp_index *x, const jfrp_alloc *al, size_t initial,
                                     jfrp_index_rehash rehash, const void *ctx)
{
    /* the common case, room left, takes no call */
    if ((x->count + 1) * 2 <= x->cap && x->count < UINT32_MAX - 1)
        return 0;
    return jfrp_index_grow(x, al, initial, rehash, ctx);
}

/** Place `entry` (after jfrp_index_reserve; not already present). */
static inline void jfrp_index_insert(jfrp_index *x, uint64_t hash, uint32_t entry)
{
    size_t i = jfrp_index_first(x, hash);

    while (x->slots[i])
        i = jfrp_index_next(x, i);
    x->slots[i] = entry + 1;
    x->count++;
}

void jfrp_index_free(jfrp_index *x, const jfrp_alloc *al);

#endif
