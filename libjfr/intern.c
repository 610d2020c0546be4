/* intern.c - byte-string interning (see intern.h). */
#include <string.h>

#include "jfr_private.h"
#include "intern.h"
#include "seed.h"

void jfrp_intern_init(jfrp_intern *t, const jfrp_alloc *al)
{
    memset(t, 0, sizeof *t);
    t->al = al;
    t->seed = jfrp_random_seed();
    jfrp_arena_init(&t->arena, al);
}

/* Eight bytes per multiply: stacks are keys of hundreds of bytes, and a
 * byte-at-a-time hash was a fifth of a profile's time. Each step is
 * (h ^ word) * odd constant, folded; the final mix spreads the low bits. */
static uint64_t hash_bytes(uint64_t seed, const uint8_t *p, size_t len)
{
    const uint64_t mul = 0x9e3779b97f4a7c15ULL;
    uint64_t h = seed ^ (uint64_t)len * 0xff51afd7ed558ccdULL;
    uint64_t w;

    for (; len >= 8; p += 8, len -= 8) {
        memcpy(&w, p, 8);
        h = (h ^ w) * mul;
        h ^= h >> 29;
    }
    if (len) {
        w = 0;
        memcpy(&w, p, len);
        h = (h ^ w) * mul;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

static uint64_t hash_of(const void *ctx, uint32_t id)
{
    return ((const jfrp_intern *)ctx)->hashes[id];
}

static int grow_ids(jfrp_intern *t)
{
    size_t room = t->room ? t->room * 2 : 256;
    const uint8_t **keys;
    uint32_t *lens;
    uint64_t *hashes;

    keys = jfrp_reallocarray(t->al, t->keys, room, sizeof *keys);
    if (!keys)
        return JFR_ENOMEM;
    t->keys = keys;
    lens = jfrp_reallocarray(t->al, t->lens, room, sizeof *lens);
    if (!lens)
        return JFR_ENOMEM;
    t->lens = lens;
    hashes = jfrp_reallocarray(t->al, t->hashes, room, sizeof *hashes);
    if (!hashes)
        return JFR_ENOMEM;
    t->hashes = hashes;
    t->room = room;
    return 0;
}

static bool find(const jfrp_intern *t, const void *key, size_t len, uint64_t h,
                 uint32_t *id)
{
    if (!t->index.cap)
        return false;
    for (size_t i = jfrp_index_first(&t->index, h); t->index.slots[i];
         i = jfrp_index_next(&t->index, i)) {
        uint32_t cand = t->index.slots[i] - 1;
        if (t->hashes[cand] == h && t->lens[cand] == len &&
            memcmp(t->keys[cand], key, len) == 0) {
            *id = cand;
            return true;
        }
    }
    return false;
}

bool jfrp_intern_find(const jfrp_intern *t, const void *key, size_t len, uint32_t *id)
{
    return len < UINT32_MAX && find(t, key, len, hash_bytes(t->seed, key, len), id);
}

/* A copy of the key as id t->count, not yet counted nor indexed. */
static int store(jfrp_intern *t, const void *key, size_t len, uint64_t h)
{
    uint8_t *copy;
    int rc;

    if (t->count == t->room && (rc = grow_ids(t)) < 0)
        return rc;
    copy = jfrp_arena_alloc(&t->arena, len + 1);
    if (!copy)
        return JFR_ENOMEM;
    memcpy(copy, key, len);
    copy[len] = 0;
    t->keys[t->count] = copy;
    t->lens[t->count] = (uint32_t)len;
    t->hashes[t->count] = h;
    return 0;
}

uint64_t jfrp_intern_hash(const jfrp_intern *t, const void *key, size_t len)
{
    return hash_bytes(t->seed, key, len);
}

int jfrp_intern_put(jfrp_intern *t, const void *key, size_t len, uint32_t *id, int *added)
{
    return jfrp_intern_put_hashed(t, key, len, hash_bytes(t->seed, key, len), id, added);
}

int jfrp_intern_put_hashed(jfrp_intern *t, const void *key, size_t len, uint64_t h,
                           uint32_t *id, int *added)
{
    int rc;

    if (added)
        *added = 0;
    if (len >= UINT32_MAX)
        return JFR_ELIMIT;
    if (find(t, key, len, h, id))
        return 0;
    if ((rc = jfrp_index_reserve(&t->index, t->al, 256, hash_of, t)) < 0 ||
        (rc = store(t, key, len, h)) < 0)
        return rc;
    jfrp_index_insert(&t->index, h, (uint32_t)t->count);
    *id = (uint32_t)t->count++;
    if (added)
        *added = 1;
    return 0;
}

int jfrp_intern_append(jfrp_intern *t, const void *key, size_t len, uint32_t *id)
{
    int rc;

    if (len >= UINT32_MAX)
        return JFR_ELIMIT;
    if ((rc = store(t, key, len, 0)) < 0)
        return rc;
    *id = (uint32_t)t->count++;
    return 0;
}

int jfrp_intern_rewrite(jfrp_intern *t, size_t scale,
                        void (*rewrite)(uint8_t *to, const uint8_t *from, size_t len))
{
    jfrp_arena arena;
    const uint8_t **keys;

    for (size_t id = 0; id < t->count; id++)
        if (t->lens[id] >= (UINT32_MAX - 1) / scale)
            return JFR_ELIMIT;
    keys = jfrp_calloc(t->al, t->count ? t->count : 1, sizeof *keys);
    if (!keys)
        return JFR_ENOMEM;
    jfrp_arena_init(&arena, t->al);
    for (size_t id = 0; id < t->count; id++) {
        size_t len = t->lens[id] * scale;
        uint8_t *copy = jfrp_arena_alloc(&arena, len + 1);

        if (!copy) {
            jfrp_arena_free(&arena);
            jfrp_free(t->al, keys);
            return JFR_ENOMEM;
        }
        rewrite(copy, t->keys[id], t->lens[id]);
        copy[len] = 0;
        keys[id] = copy;
    }
    for (size_t id = 0; id < t->count; id++) {
        t->keys[id] = keys[id];
        t->lens[id] = (uint32_t)(t->lens[id] * scale);
    }
    jfrp_arena_free(&t->arena);
    t->arena = arena;
    jfrp_free(t->al, keys);
    return 0;
}

void jfrp_intern_free(jfrp_intern *t)
{
    jfrp_arena_free(&t->arena);
    jfrp_index_free(&t->index, t->al);
    jfrp_free(t->al, t->keys);
    jfrp_free(t->al, t->lens);
    jfrp_free(t->al, t->hashes);
    memset(t, 0, sizeof *t);
}
