/* map.h - an open-addressing hash map from uint64_t keys to non-zero
 * uint64_t values (offsets, indexes + 1, pointers). Value 0 marks a free
 * slot, so callers never store 0. */
#ifndef JFRP_MAP_H
#define JFRP_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "prefetch.h"

typedef struct jfrp_map {
    uint64_t *keys;
    uint64_t *vals;
    size_t cap; /* power of two, or 0 */
    size_t count;
    uint64_t seed; /* random, set when the table is first made (seed.c) */
} jfrp_map;

static inline size_t jfrp_map_slot(const jfrp_map *m, uint64_t key)
{
    size_t cap = m->cap;

    key ^= m->seed;
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return (size_t)key & (cap - 1);
}

/** The value for `key`, or 0. */
static inline uint64_t jfrp_map_get(const jfrp_map *m, uint64_t key)
{
    size_t i;

    if (!m->cap)
        return 0;
    for (i = jfrp_map_slot(m, key);; i = (i + 1) & (m->cap - 1)) {
        if (m->vals[i] == 0)
            return 0;
        if (m->keys[i] == key)
            return m->vals[i];
    }
}

/** Start loading the slot where `key` is looked up: in a large map it is a
 * cache miss. */
static JFRP_PREFETCHES void jfrp_map_prefetch(const jfrp_map *m, uint64_t key)
{
    if (m->cap) {
        size_t i = jfrp_map_slot(m, key);

        __builtin_prefetch(&m->vals[i]);
        __builtin_prefetch(&m->keys[i]);
    }
}

/** Insert or replace (last one wins). 0 on success, JFR_ENOMEM. */
int jfrp_map_put(jfrp_map *m, const jfrp_alloc *al, uint64_t key, uint64_t val);
/** Room for `more` keys without growing again (one allocation instead of
 * doubling through every size). 0 or JFR_ENOMEM. */
int jfrp_map_reserve(jfrp_map *m, const jfrp_alloc *al, size_t more);
void jfrp_map_free(jfrp_map *m, const jfrp_alloc *al);

#endif
