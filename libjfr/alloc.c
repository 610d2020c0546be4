/* alloc.c - allocator hooks and the per-chunk arena. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "jfr/error.h"

static void *default_malloc(size_t size, void *ctx)
{
    (void)ctx;
    return malloc(size);
}

static void *default_realloc(void *ptr, size_t size, void *ctx)
{
    (void)ctx;
    return realloc(ptr, size);
}

static void default_free(void *ptr, void *ctx)
{
    (void)ctx;
    free(ptr);
}

void jfrp_alloc_init(jfrp_alloc *al, const jfr_allocator *hooks)
{
    if (hooks && hooks->malloc_fn && hooks->realloc_fn && hooks->free_fn) {
        al->hooks = *hooks;
        return;
    }
    al->hooks.malloc_fn = default_malloc;
    al->hooks.realloc_fn = default_realloc;
    al->hooks.free_fn = default_free;
    al->hooks.ctx = NULL;
}

void *jfrp_malloc(const jfrp_alloc *al, size_t size)
{
    return al->hooks.malloc_fn(size ? size : 1, al->hooks.ctx);
}

void *jfrp_calloc(const jfrp_alloc *al, size_t count, size_t size)
{
    size_t total;
    void *p;

    if (!jfrp_mul_size(&total, count, size))
        return NULL;
    p = jfrp_malloc(al, total);
    if (p)
        memset(p, 0, total);
    return p;
}

void *jfrp_realloc(const jfrp_alloc *al, void *ptr, size_t size)
{
    return al->hooks.realloc_fn(ptr, size ? size : 1, al->hooks.ctx);
}

void *jfrp_reallocarray(const jfrp_alloc *al, void *ptr, size_t count, size_t size)
{
    size_t total;

    if (!jfrp_mul_size(&total, count, size))
        return NULL;
    return jfrp_realloc(al, ptr, total);
}

void jfrp_free(const jfrp_alloc *al, void *ptr)
{
    if (ptr)
        al->hooks.free_fn(ptr, al->hooks.ctx);
}

int jfrp_grow_array_to(const jfrp_alloc *al, void **arr, size_t *cap, size_t need,
                       size_t size)
{
    size_t n = *cap ? *cap : 16;
    void *p;

    if (need <= *cap)
        return 0;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            return JFR_ENOMEM;
        n *= 2;
    }
    p = jfrp_reallocarray(al, *arr, n, size);
    if (!p)
        return JFR_ENOMEM;
    *arr = p;
    *cap = n;
    return 0;
}

/* ---- arena ------------------------------------------------------------- */

struct jfrp_arena_block {
    jfrp_arena_block *next;
    size_t size; /* usable bytes after the header */
    /* data follows, 16-byte aligned */
};

#define BLOCK_HEADER ((sizeof(jfrp_arena_block) + 15) & ~(size_t)15)
#define MIN_BLOCK    (64 * 1024 - BLOCK_HEADER)

void jfrp_arena_init(jfrp_arena *a, const jfrp_alloc *al)
{
    a->al = al;
    a->head = NULL;
    a->used = 0;
    a->total = 0;
    a->spare = NULL;
}

static unsigned char *block_data(jfrp_arena_block *b)
{
    return (unsigned char *)b + BLOCK_HEADER;
}

/* A kept block of at least `want` bytes, unlinked, or NULL. */
static jfrp_arena_block *take_spare(jfrp_arena *a, size_t want)
{
    for (jfrp_arena_block **p = &a->spare; *p; p = &(*p)->next) {
        jfrp_arena_block *b = *p;
        if (b->size >= want) {
            *p = b->next;
            return b;
        }
    }
    return NULL;
}

void *jfrp_arena_alloc(jfrp_arena *a, size_t size)
{
    jfrp_arena_block *b;
    size_t want, bytes;

    size = (size + 7) & ~(size_t)7;
    if (size == 0)
        size = 8;
    if (a->head && a->head->size - a->used >= size) {
        void *p = block_data(a->head) + a->used;
        a->used += size;
        return p;
    }
    want = size > MIN_BLOCK ? size : MIN_BLOCK;
    /* grow blocks geometrically so big chunks need few of them */
    if (a->total / 4 > want && a->total / 4 < ((size_t)1 << 26))
        want = a->total / 4;
    if (!(b = take_spare(a, want))) {
        if (!jfrp_add_size(&bytes, want, BLOCK_HEADER))
            return NULL;
        b = jfrp_malloc(a->al, bytes);
        if (!b)
            return NULL;
        b->size = want;
    }
    want = b->size;
    b->next = a->head;
    a->head = b;
    a->used = size;
    a->total += want;
    return block_data(b);
}

void *jfrp_arena_calloc(jfrp_arena *a, size_t count, size_t size)
{
    size_t total;
    void *p;

    if (!jfrp_mul_size(&total, count, size))
        return NULL;
    p = jfrp_arena_alloc(a, total);
    if (p)
        memset(p, 0, total);
    return p;
}

char *jfrp_arena_strndup(jfrp_arena *a, const char *s, size_t len)
{
    char *p;

    if (len == SIZE_MAX)
        return NULL;
    p = jfrp_arena_alloc(a, len + 1);
    if (!p)
        return NULL;
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

void jfrp_arena_reset(jfrp_arena *a)
{
    jfrp_arena_block *b, *next;

    if (!a->head)
        return;
    /* keep the oldest block (the last in the list) */
    for (b = a->head; b->next; b = next) {
        next = b->next;
        a->total -= b->size;
        jfrp_free(a->al, b);
    }
    a->head = b;
    a->used = 0;
}

void jfrp_arena_recycle(jfrp_arena *a)
{
    jfrp_arena_block *b, *next;

    for (b = a->head; b; b = next) {
        next = b->next;
        b->next = a->spare;
        a->spare = b;
    }
    a->head = NULL;
    a->used = 0;
    a->total = 0;
}

size_t jfrp_arena_held(const jfrp_arena *a)
{
    size_t n = a->total;

    for (const jfrp_arena_block *b = a->spare; b; b = b->next)
        n += b->size;
    return n;
}

void jfrp_arena_free(jfrp_arena *a)
{
    jfrp_arena_block *b, *next;

    jfrp_arena_recycle(a);
    for (b = a->spare; b; b = next) {
        next = b->next;
        jfrp_free(a->al, b);
    }
    a->spare = NULL;
    a->head = NULL;
    a->used = 0;
    a->total = 0;
}
