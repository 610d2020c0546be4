/* json_blocks.c - see json_blocks.h. */
#include <pthread.h>

#include "json_blocks.h"

/* Blocks made ahead of the writer, in memory: enough that neither thread
 * waits for the other long, few enough that the memory stays a few
 * blocks. */
#define SLOTS 4

typedef struct run {
    size_t nblocks;
    json_block_fn make;
    void *helpers;
    jw made[SLOTS];        /* block b's text in slot b % SLOTS */
    size_t made_of[SLOTS]; /* the block made in each slot, + 1; 0: none */
    size_t next;           /* the next block nobody has taken */
    size_t taken;          /* blocks written */
    int depth;             /* the array's, for the items' layout */
    bool first_comma;      /* before the first block's first item */
    pthread_mutex_t lock;
    pthread_cond_t changed;
} run;

/* Under the lock: the next block, when its slot is free. */
static bool take_block(run *r, size_t *b)
{
    if (r->next >= r->nblocks || r->next >= r->taken + SLOTS)
        return false;
    *b = r->next++;
    return true;
}

/* Make block b in its slot with `state`; takes and leaves the lock. */
static void make_in_slot(run *r, size_t b, void *state)
{
    jw *w = &r->made[b % SLOTS];

    pthread_mutex_unlock(&r->lock);
    sb_clear(&w->sb);
    w->depth = r->depth;
    /* a block after the first follows items */
    w->comma = b > 0 || r->first_comma;
    r->make(w, b, state);
    pthread_mutex_lock(&r->lock);
    r->made_of[b % SLOTS] = b + 1;
    pthread_cond_broadcast(&r->changed);
}

static void *make_blocks(void *arg)
{
    run *r = arg;
    size_t b;

    pthread_mutex_lock(&r->lock);
    while (r->next < r->nblocks) {
        if (take_block(r, &b))
            make_in_slot(r, b, r->helpers);
        else
            pthread_cond_wait(&r->changed, &r->lock);
    }
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

/* Under the lock: whether block b is made in its slot (else the calling
 * thread makes it straight into the writer), once it is made or taken
 * here; the calling thread makes other blocks while it waits. */
static bool wait_for_block(run *r, size_t b, void *mine)
{
    size_t other;

    for (;;) {
        if (r->made_of[b % SLOTS] == b + 1)
            return true;
        if (r->next == b) {
            r->next++;
            return false;
        }
        if (take_block(r, &other))
            make_in_slot(r, other, mine);
        else
            pthread_cond_wait(&r->changed, &r->lock);
    }
}

bool json_blocks_in_two(jw *w, size_t nblocks, json_block_fn make, void *mine,
                        void *helpers)
{
    run r = {.nblocks = nblocks, .make = make, .helpers = helpers};
    pthread_t helper;
    bool started;

    r.depth = w->depth;
    r.first_comma = w->comma;
    for (size_t i = 0; i < SLOTS; i++)
        jw_init_style(&r.made[i], NULL, w->style);
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.changed, NULL);
    started = pthread_create(&helper, NULL, make_blocks, &r) == 0;
    for (size_t b = 0; started && b < nblocks; b++) {
        const jw *made = &r.made[b % SLOTS];
        bool in_slot;

        pthread_mutex_lock(&r.lock);
        in_slot = wait_for_block(&r, b, mine);
        pthread_mutex_unlock(&r.lock);
        if (!in_slot) {
            make(w, b, mine);
        } else if (made->sb.len) {
            jw_rawn(w, made->sb.ptr, made->sb.len);
            w->comma = made->comma; /* as if its items were written here */
        }
        pthread_mutex_lock(&r.lock);
        r.taken = b + 1;
        pthread_cond_broadcast(&r.changed);
        pthread_mutex_unlock(&r.lock);
    }
    if (started)
        pthread_join(helper, NULL);
    for (size_t i = 0; i < SLOTS; i++)
        jw_flush(&r.made[i]);
    pthread_cond_destroy(&r.changed);
    pthread_mutex_destroy(&r.lock);
    return started;
}
