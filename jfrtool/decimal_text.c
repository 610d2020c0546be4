/* decimal_text.c - fixed_text and g17_text (decimal_text.h). printf rounds
 * the exact binary value, half to even; arithmetic on a double errs by an
 * ulp. So arithmetic is used only where its answer cannot differ: whole
 * numbers, and values small enough that the scaled value errs by far less
 * than its distance from a rounding tie. Everything else goes to printf. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <jfr/text.h>

#include "decimal_text.h"

/* Below 2^30 the scaled value errs by at most 2^-23, under TIE_MARGIN. */
#define FAST_BELOW 1073741824.0
#define TIE_MARGIN 1e-6

size_t fixed_text(char *buf, double v, int decimals)
{
    static const unsigned scale[] = {1, 10, 100, 1000};
    double r, whole, frac;
    uint64_t k;
    size_t n;

    if (decimals < 0 || decimals > 3 || !(v >= 0) || signbit(v))
        goto slow;
    r = v * scale[decimals];
    whole = floor(r);
    frac = r - whole;
    if (!(r < FAST_BELOW) || fabs(frac - 0.5) < TIE_MARGIN)
        goto slow;
    k = (uint64_t)whole + (frac > 0.5);
    n = jfr_text_u64(buf, DECIMAL_TEXT_ROOM, k / scale[decimals]);
    if (decimals) {
        unsigned rest = (unsigned)(k % scale[decimals]);

        buf[n++] = '.';
        for (int d = decimals - 1; d >= 0; d--, rest /= 10)
            buf[n + (size_t)d] = (char)('0' + rest % 10);
        n += (size_t)decimals;
    }
    buf[n] = '\0';
    return n;
slow:
    return (size_t)snprintf(buf, DECIMAL_TEXT_ROOM, "%.*f", decimals, v);
}

size_t g17_text(char *buf, double v)
{
    size_t n;

    /* a whole number of at most 17 digits prints as its digits */
    if (v >= 0 && !signbit(v) && v < 1e17 && v == floor(v)) {
        n = jfr_text_u64(buf, DECIMAL_TEXT_ROOM, (uint64_t)v);
        buf[n] = '\0';
        return n;
    }
    return (size_t)snprintf(buf, DECIMAL_TEXT_ROOM, "%.17g", v);
}
