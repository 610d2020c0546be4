/* json_blocks.c - see json_blocks.h. */
#include <pthread.h>

#include "json_blocks.h"

/* Odd blocks the helper may have made before the calling thread has
 * written them: enough that neither waits for the other long, few enough
 * that the memory stays a few blocks. */
#define AHEAD 2

typedef struct run {
    size_t nblocks;
    json_block_fn make;
    void *helpers;
    jw made[AHEAD]; /* odd blocks' text, by (block / 2) % AHEAD */
    size_t nmade;   /* odd blocks made */
    size_t ntaken;  /* odd blocks written */
    pthread_mutex_t lock;
    pthread_cond_t changed;
} run;

static void *make_odd_blocks(void *arg)
{
    run *r = arg;

    for (size_t k = 0; 2 * k + 1 < r->nblocks; k++) {
        jw *w = &r->made[k % AHEAD];

        pthread_mutex_lock(&r->lock);
        while (k >= r->ntaken + AHEAD)
            pthread_cond_wait(&r->changed, &r->lock);
        pthread_mutex_unlock(&r->lock);
        sb_clear(&w->sb);
        /* its text joins the array after other items */
        w->comma = true;
        r->make(w, 2 * k + 1, r->helpers);
        pthread_mutex_lock(&r->lock);
        r->nmade = k + 1;
        pthread_cond_broadcast(&r->changed);
        pthread_mutex_unlock(&r->lock);
    }
    return NULL;
}

bool json_blocks_in_two(jw *w, size_t nblocks, json_block_fn make, void *mine,
                        void *helpers)
{
    run r = {.nblocks = nblocks, .make = make, .helpers = helpers};
    pthread_t helper;
    bool started;

    for (size_t i = 0; i < AHEAD; i++)
        jw_init_style(&r.made[i], NULL, w->style);
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.changed, NULL);
    started = pthread_create(&helper, NULL, make_odd_blocks, &r) == 0;
    for (size_t i = 0; started && i < nblocks; i++) {
        const jw *odd = &r.made[(i / 2) % AHEAD];

        if (i % 2 == 0) {
            make(w, i, mine);
            continue;
        }
        pthread_mutex_lock(&r.lock);
        while (r.nmade <= i / 2)
            pthread_cond_wait(&r.changed, &r.lock);
        pthread_mutex_unlock(&r.lock);
        jw_rawn(w, odd->sb.ptr, odd->sb.len);
        pthread_mutex_lock(&r.lock);
        r.ntaken = i / 2 + 1;
        pthread_cond_broadcast(&r.changed);
        pthread_mutex_unlock(&r.lock);
    }
    if (started)
        pthread_join(helper, NULL);
    for (size_t i = 0; i < AHEAD; i++)
        jw_flush(&r.made[i]);
    pthread_cond_destroy(&r.changed);
    pthread_mutex_destroy(&r.lock);
    return started;
}
