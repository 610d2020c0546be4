/* map.c - growth and insertion for jfrp_map. */
#include <string.h>

#include "jfr/error.h"
#include "map.h"
#include "seed.h"

static void put_slot(jfrp_map *m, uint64_t key, uint64_t val)
{
    size_t i;

    for (i = jfrp_map_slot(m, key);; i = (i + 1) & (m->cap - 1)) {
        if (m->vals[i] == 0) {
            m->keys[i] = key;
            m->vals[i] = val;
            m->count++;
            return;
        }
        if (m->keys[i] == key) {
            m->vals[i] = val;
            return;
        }
    }
}

static int grow(jfrp_map *m, const jfrp_alloc *al, size_t newcap)
{
    jfrp_map old = *m;
    uint64_t *keys, *vals;

    if (newcap > SIZE_MAX / 2 / sizeof(uint64_t))
        return JFR_ENOMEM;
    keys = jfrp_malloc(al, newcap * sizeof *keys);
    vals = jfrp_calloc(al, newcap, sizeof *vals);
    if (!keys || !vals) {
        jfrp_free(al, keys);
        jfrp_free(al, vals);
        return JFR_ENOMEM;
    }
    m->keys = keys;
    m->vals = vals;
    m->cap = newcap;
    if (!old.cap)
        m->seed = jfrp_random_seed();
    m->count = 0;
    for (size_t i = 0; i < old.cap; i++)
        if (old.vals[i])
            put_slot(m, old.keys[i], old.vals[i]);
    jfrp_free(al, old.keys);
    jfrp_free(al, old.vals);
    return 0;
}

int jfrp_map_put(jfrp_map *m, const jfrp_alloc *al, uint64_t key, uint64_t val)
{
    /* keep the load factor under 1/2 */
    if ((m->count + 1) * 2 > m->cap) {
        int rc = grow(m, al, m->cap ? m->cap * 2 : 16);
        if (rc < 0)
            return rc;
    }
    put_slot(m, key, val);
    return 0;
}

void jfrp_map_free(jfrp_map *m, const jfrp_alloc *al)
{
    jfrp_free(al, m->keys);
    jfrp_free(al, m->vals);
    memset(m, 0, sizeof *m);
}

int jfrp_map_reserve(jfrp_map *m, const jfrp_alloc *al, size_t more)
{
    size_t cap = m->cap ? m->cap : 16;

    if (more > SIZE_MAX / 4 - m->count)
        return JFR_ENOMEM;
    while ((m->count + more) * 2 > cap)
        cap *= 2;
    return cap == m->cap ? 0 : grow(m, al, cap);
}
