/* seed.h - random seeds for the hash tables (seed.c). */
#ifndef JFRP_SEED_H
#define JFRP_SEED_H

#include <stdint.h>

/** A random, odd 64-bit seed for a hash table. */
uint64_t jfrp_random_seed(void);

#endif
