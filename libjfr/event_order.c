/* event_order.c - one chunk's kept records put in the JDK's dispatch
 * order (event_order.h). A least-significant-digit radix sort on each
 * end's distance from the chunk's earliest end: stable by construction,
 * so file order decides among equal ends without a key of its own, and as
 * many passes of 11 bits as the chunk's span of ends needs (three for a
 * chunk of a few seconds of nanosecond ticks). A comparison sort of
 * CPU-time samples, which thread buffers interleave, cost more than
 * reading them. */
#include <string.h>

#include "event_order.h"
#include "jfr_private.h"

#define DIGIT_BITS 11
#define DIGITS     (1u << DIGIT_BITS)

/* The span of ends, or 0 when the records are in order already. */
static uint64_t span_if_unordered(const jfrp_by_end *v, size_t n, int64_t *lowest)
{
    int64_t lo = v[0].end_ticks, hi = v[0].end_ticks;
    bool ordered = true;

    for (size_t i = 1; i < n; i++) {
        int64_t e = v[i].end_ticks;
        if (e < v[i - 1].end_ticks)
            ordered = false;
        if (e < lo)
            lo = e;
        if (e > hi)
            hi = e;
    }
    *lowest = lo;
    return ordered ? 0 : (uint64_t)hi - (uint64_t)lo;
}

static void pass(jfrp_by_end *dst, const jfrp_by_end *src, size_t n, int64_t lo,
                 unsigned shift)
{
    size_t place[DIGITS] = {0}, sum = 0;

    for (size_t i = 0; i < n; i++)
        place[(((uint64_t)src[i].end_ticks - (uint64_t)lo) >> shift) & (DIGITS - 1)]++;
    for (size_t d = 0; d < DIGITS; d++) {
        size_t c = place[d];
        place[d] = sum;
        sum += c;
    }
    for (size_t i = 0; i < n; i++)
        dst[place[(((uint64_t)src[i].end_ticks - (uint64_t)lo) >> shift) &
                  (DIGITS - 1)]++] = src[i];
}

int jfrp_order_by_end(const jfrp_alloc *al, jfrp_by_end *v, size_t n)
{
    jfrp_by_end *tmp, *src = v, *dst;
    int64_t lo;
    uint64_t span;

    if (n < 2 || (span = span_if_unordered(v, n, &lo)) == 0)
        return 0;
    if (!(tmp = jfrp_malloc(al, n * sizeof *tmp)))
        return JFR_ENOMEM;
    dst = tmp;
    for (unsigned shift = 0; shift < 64 && (span >> shift) != 0; shift += DIGIT_BITS) {
        jfrp_by_end *t;
        pass(dst, src, n, lo, shift);
        t = src;
        src = dst;
        dst = t;
    }
    if (src != v)
        memcpy(v, src, n * sizeof *v);
    jfrp_free(al, tmp);
    return 0;
}
