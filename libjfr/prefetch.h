/* prefetch.h - JFRP_PREFETCHES, for helpers that only prefetch.
 *
 * A function whose only statements are prefetches has no effect GCC can
 * see: GCC takes it for a pure function and drops each call to it that
 * was not inlined first, prefetches and all. Such a helper is declared
 * `static JFRP_PREFETCHES void name(...)`: always inlined, its prefetches
 * stay where they were written. */
#ifndef JFRP_PREFETCH_H
#define JFRP_PREFETCH_H

#if defined(__GNUC__)
#define JFRP_PREFETCHES inline __attribute__((always_inline))
#else
#define JFRP_PREFETCHES inline
#endif

#endif
