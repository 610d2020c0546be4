/* test_decimal_text.c - fixed_text and g17_text against snprintf, their
 * oracle: byte for byte on rounding ties, values near them, negative
 * zero, non-finite and huge values, and 200,000 random ones. */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "decimal_text.h"

static void same_fixed(double v, int decimals)
{
    char want[400], got[DECIMAL_TEXT_ROOM];
    size_t n = fixed_text(got, v, decimals);

    snprintf(want, sizeof want, "%.*f", decimals, v);
    cr_assert_str_eq(got, want, "%%.%df of %.17g", decimals, v);
    cr_assert_eq(n, strlen(want), "length of %s", want);
}

static void same_g17(double v)
{
    char want[400], got[DECIMAL_TEXT_ROOM];
    size_t n = g17_text(got, v);

    snprintf(want, sizeof want, "%.17g", v);
    cr_assert_str_eq(got, want, "%%.17g of %a", v);
    cr_assert_eq(n, strlen(want), "length of %s", want);
}

static void same_all(double v)
{
    for (int d = 0; d <= 3; d++)
        same_fixed(v, d);
    same_g17(v);
}

/* xorshift64*: the same values on every run */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

Test(decimal_text, ties_round_as_printf)
{
    /* exact halves go to even in printf; 0.125 and 2.675 are the classics */
    const double v[] = {0.5,    1.5,    2.5,       0.125,  0.375,  2.675, 1.005,
                        0.0625, 1023.5, 1048575.5, 0.0005, 0.0015, 12.345};

    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        same_all(v[i]);
        same_all(nextafter(v[i], 0));
        same_all(nextafter(v[i], INFINITY));
    }
    for (int k = 0; k < 4000; k++) /* every tie of the thousandths up to 2 */
        same_all(k / 2000.0);
}

Test(decimal_text, signs_and_extremes)
{
    const double v[] = {0.0,
                        -0.0,
                        -1.0,
                        -0.001,
                        -2.5,
                        1e-300,
                        4.9e-324,
                        1073741823.75,
                        1073741824.25,
                        9007199254740993.0,
                        99999999999999984.0,
                        1e17,
                        1.8e19,
                        1e300,
                        DBL_MAX,
                        INFINITY,
                        -INFINITY,
                        NAN};

    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        same_all(v[i]);
}

Test(decimal_text, random_values)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;

    for (int i = 0; i < 200000; i++) {
        uint64_t r = next_random(&s);
        /* pixels, percentages and seconds; whole counts; any bit pattern */
        double v = i % 3 == 0   ? (double)(r >> 11) / 9007199254740992.0 * 1300.0
                   : i % 3 == 1 ? (double)(r >> 20)
                                : (double)(r >> 24) / 1000.0;

        same_all(v);
        if (i % 100 == 0) {
            double bits;

            memcpy(&bits, &r, sizeof bits);
            same_all(bits);
        }
    }
}
