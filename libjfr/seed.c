/* seed.c - a random seed for each hash table that keys on what a file
 * says (pool keys, names, stack keys): a crafted recording cannot know
 * which keys collide, so lookups stay linear in the keys whatever it holds.
 * Tables never decide output order, so results do not depend on the seed.
 *
 * One random key is read per process; each table's seed is that key and a
 * count mixed together. A chunk makes a dozen tables, and a system call per
 * table was 3,800 calls for a recording of 200 chunks; without the key the
 * seeds are as unpredictable as before. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/random.h>
#include <time.h>

#include "seed.h"

static uint64_t process_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static atomic_uint_fast64_t tables_seeded;

static void read_process_key(void)
{
    struct timespec ts;

    if (getrandom(&process_key, sizeof process_key, GRND_NONBLOCK) ==
        (ssize_t)sizeof process_key)
        return;
    /* no entropy yet (early boot): the clock and an address still vary */
    clock_gettime(CLOCK_MONOTONIC, &ts);
    process_key = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)&ts;
}

/* SplitMix64's finaliser: every input bit moves every output bit. */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

uint64_t jfrp_random_seed(void)
{
    uint64_t n;

    pthread_once(&key_once, read_process_key);
    n = atomic_fetch_add_explicit(&tables_seeded, 1, memory_order_relaxed);
    return mix(process_key + n * 0x9e3779b97f4a7c15ULL) | 1;
}
