/* intern.h - interning of byte strings into dense ids, for data that must
 * outlive a chunk: frame names, frame keys, stacks as frame-id sequences.
 * The same key always gets the same id; ids count up from 0 in the order
 * keys were first seen, so results built from them are deterministic. */
#ifndef JFRP_INTERN_H
#define JFRP_INTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "index.h"
#include "prefetch.h"

typedef struct jfrp_intern {
    const jfrp_alloc *al;
    jfrp_arena arena;     /* the keys' bytes, each followed by a NUL byte */
    jfrp_index index;     /* ids by hash */
    const uint8_t **keys; /* by id */
    uint32_t *lens;       /* by id */
    uint64_t *hashes;     /* by id, to grow without rehashing the bytes */
    size_t count;
    size_t room;   /* allocated length of keys/lens/hashes */
    uint64_t seed; /* random (seed.c): crafted names cannot collide */
} jfrp_intern;

void jfrp_intern_init(jfrp_intern *t, const jfrp_alloc *al);

/**
 * The id of `len` bytes at `key`, adding a copy when new. `*added` (may be
 * NULL) tells whether it was new. Returns 0 or JFR_ENOMEM / JFR_ELIMIT.
 */
int jfrp_intern_put(jfrp_intern *t, const void *key, size_t len, uint32_t *id,
                    int *added);

/** The hash jfrp_intern_put looks `len` bytes at `key` up by. */
uint64_t jfrp_intern_hash(const jfrp_intern *t, const void *key, size_t len);

/** jfrp_intern_put of a key whose jfrp_intern_hash is `hash`. */
int jfrp_intern_put_hashed(jfrp_intern *t, const void *key, size_t len, uint64_t hash,
                           uint32_t *id, int *added);

/*
 * In a large table, a lookup is two cache misses: the slot of the key's
 * hash, then the entry the slot holds. A caller that puts several keys in
 * a row can have them load together: first the slots of all, then, once
 * those have come, their entries, then the puts.
 */
static JFRP_PREFETCHES void jfrp_intern_prefetch_slot(const jfrp_intern *t, uint64_t hash)
{
    if (t->index.cap)
        __builtin_prefetch(&t->index.slots[jfrp_index_first(&t->index, hash)]);
}

static JFRP_PREFETCHES void jfrp_intern_prefetch_entry(const jfrp_intern *t,
                                                       uint64_t hash)
{
    if (t->index.cap) {
        uint32_t slot = t->index.slots[jfrp_index_first(&t->index, hash)];

        if (slot)
            __builtin_prefetch(&t->hashes[slot - 1]);
    }
}

/**
 * A new id for a copy of `len` bytes at `key`, without looking for them
 * first: for a table whose keys are only read back by id (a chunk's
 * profile made to be merged), never looked up or put to afterwards.
 * Returns 0 or JFR_ENOMEM / JFR_ELIMIT.
 */
int jfrp_intern_append(jfrp_intern *t, const void *key, size_t len, uint32_t *id);

/**
 * Every key rewritten in place of the old: key `id` of `len` bytes becomes
 * `scale` * `len` bytes, written by `rewrite(to, from, len)`. Ids, hashes
 * and the index stay: for a table whose caller hashes each key in another
 * form than the one stored (jfrp_intern_put_hashed), such as stacks kept
 * in fewer bytes a frame than they are hashed in. On failure (JFR_ENOMEM,
 * JFR_ELIMIT) the table is as it was.
 */
int jfrp_intern_rewrite(jfrp_intern *t, size_t scale,
                        void (*rewrite)(uint8_t *to, const uint8_t *from, size_t len));

/** Whether `len` bytes at `key` are interned, and their id if so. */
bool jfrp_intern_find(const jfrp_intern *t, const void *key, size_t len, uint32_t *id);

/** The stored copy of key `id` (NUL-terminated) and its length. */
static inline const void *jfrp_intern_key(const jfrp_intern *t, uint32_t id, size_t *len)
{
    if (len)
        *len = t->lens[id];
    return t->keys[id];
}

static inline size_t jfrp_intern_count(const jfrp_intern *t)
{
    return t->count;
}

void jfrp_intern_free(jfrp_intern *t);

#endif
