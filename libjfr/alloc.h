/* alloc.h - allocation through the recording's jfr_allocator, and arenas. */
#ifndef JFRP_ALLOC_H
#define JFRP_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#include "jfr/options.h"

/** The allocator hooks in force for one recording (defaults filled in). */
typedef struct jfrp_alloc {
    jfr_allocator hooks;
} jfrp_alloc;

void jfrp_alloc_init(jfrp_alloc *al, const jfr_allocator *hooks);
void *jfrp_malloc(const jfrp_alloc *al, size_t size);
void *jfrp_calloc(const jfrp_alloc *al, size_t count, size_t size);
void *jfrp_realloc(const jfrp_alloc *al, void *ptr, size_t size);
/** realloc for `count` elements of `size` bytes, failing on overflow. */
void *jfrp_reallocarray(const jfrp_alloc *al, void *ptr, size_t count, size_t size);
void jfrp_free(const jfrp_alloc *al, void *ptr);
/** Grow `*arr` (`*cap` elements of `size` bytes) to hold at least `need`,
 * doubling from 16: the library's one growable array. 0 or JFR_ENOMEM. */
int jfrp_grow_array_to(const jfrp_alloc *al, void **arr, size_t *cap, size_t need,
                       size_t size);
static inline int jfrp_grow_array(const jfrp_alloc *al, void **arr, size_t *cap,
                                  size_t need, size_t size)
{
    return need <= *cap ? 0 : jfrp_grow_array_to(al, arr, cap, need, size);
}

/**
 * A bump allocator: many small allocations, one release. Blocks come from
 * the recording's allocator. Used for everything that lives as long as a
 * chunk (types, pool indexes, decoded strings) and for per-event scratch.
 */
typedef struct jfrp_arena_block jfrp_arena_block;
typedef struct jfrp_arena {
    const jfrp_alloc *al;
    jfrp_arena_block *head;
    size_t used;             /* bytes used in head */
    size_t total;            /* bytes allocated in all blocks */
    jfrp_arena_block *spare; /* blocks kept by jfrp_arena_recycle */
} jfrp_arena;

void jfrp_arena_init(jfrp_arena *a, const jfrp_alloc *al);
/** 8-byte aligned, uninitialised memory, or NULL when out of memory. */
void *jfrp_arena_alloc(jfrp_arena *a, size_t size);
void *jfrp_arena_calloc(jfrp_arena *a, size_t count, size_t size);
/** A NUL-terminated copy of `len` bytes at `s`. */
char *jfrp_arena_strndup(jfrp_arena *a, const char *s, size_t len);
/** Forget every allocation but keep the first block for reuse. */
void jfrp_arena_reset(jfrp_arena *a);
/** Forget every allocation but keep every block for the allocations to
 * come: a chunk's arena passes to the next chunk, which needs about as much,
 * without the heap shrinking and growing again in between. */
void jfrp_arena_recycle(jfrp_arena *a);
/** The bytes an arena holds, used or spare. */
size_t jfrp_arena_held(const jfrp_arena *a);
void jfrp_arena_free(jfrp_arena *a);

/** Checked arithmetic on sizes: false on overflow. */
static inline int jfrp_mul_size(size_t *out, size_t a, size_t b)
{
    return !__builtin_mul_overflow(a, b, out);
}
static inline int jfrp_add_size(size_t *out, size_t a, size_t b)
{
    return !__builtin_add_overflow(a, b, out);
}

#endif
