/* seed.c - a random seed for each hash table that keys on what a file
 * says (pool keys, names, stack keys): a crafted recording cannot know
 * which keys collide, so lookups stay linear in the keys whatever it holds.
 * Tables never decide output order, so results do not depend on the seed. */
#include <stdint.h>
#include <sys/random.h>
#include <time.h>

#include "seed.h"

uint64_t jfrp_random_seed(void)
{
    uint64_t seed = 0;
    struct timespec ts;

    if (getrandom(&seed, sizeof seed, GRND_NONBLOCK) == (ssize_t)sizeof seed)
        return seed | 1;
    /* no entropy yet (early boot): the clock and an address still vary */
    clock_gettime(CLOCK_MONOTONIC, &ts);
    seed = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)&ts;
    return seed | 1;
}
