/* view_format.c - numbers as the JDK's views print them. Java's "%.2f" does
 * not round the binary value as C's printf does: it rounds the shortest
 * decimal that reads back as the double, half-up (doc/views.md §3.1), so
 * 1.005 prints 1.01 where C prints 1.00. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views.h"

/* The shortest digits of d > 0 that strtod reads back as d; *exp10 is the
 * power of ten of the first digit. Returns the number of digits. */
static int shortest_round_trip(char *digits, int *exp10, double d)
{
    char buf[64];

    for (int prec = 1; prec <= 17; prec++) {
        const char *e;
        int n = 0;

        snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
        if (strtod(buf, NULL) != d && prec < 17)
            continue;
        for (const char *p = buf; *p && *p != 'e'; p++)
            if (*p >= '0' && *p <= '9')
                digits[n++] = *p;
        while (n > 1 && digits[n - 1] == '0')
            n--;
        e = strchr(buf, 'e');
        *exp10 = e ? atoi(e + 1) : 0;
        return n;
    }
    return 0; /* not reached */
}

void view_fixed(strbuf *sb, double d, int decimals)
{
    char digits[32], out[400];
    int n, e, top, len;

    if (isnan(d) || isinf(d)) {
        sb_puts(sb, isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
        return;
    }
    if (signbit(d) && d != 0) {
        sb_putc(sb, '-');
        d = -d;
    }
    if (d == 0 || d >= 1e300) {
        sb_printf(sb, "%.*f", decimals, d);
        return;
    }
    n = shortest_round_trip(digits, &e, d);
    /* out[k] is the digit of power top - k, for powers top .. -decimals,
     * with one spare leading digit for a carry */
    top = (e > 0 ? e : 0) + 1;
    len = top + decimals + 1;
    if (len > (int)sizeof out)
        len = (int)sizeof out;
    for (int k = 0; k < len; k++) {
        int i = e - (top - k); /* index in digits of that power */
        out[k] = (i >= 0 && i < n) ? digits[i] : '0';
    }
    {
        int dropped = e + decimals + 1; /* index of the first dropped digit */
        if (dropped >= 0 && dropped < n && digits[dropped] >= '5') {
            int k = len - 1;
            while (k >= 0 && out[k] == '9')
                out[k--] = '0';
            if (k >= 0)
                out[k]++;
        }
    }
    {
        int k = 0;
        while (k < top && out[k] == '0') /* leading zeros of the integer part */
            k++;
        sb_putn(sb, out + k, (size_t)(top + 1 - k));
        if (decimals > 0) {
            sb_putc(sb, '.');
            sb_putn(sb, out + top + 1, (size_t)decimals);
        }
    }
}

void fmt_percent(strbuf *sb, uint64_t part, uint64_t total)
{
    double share = total ? ((double)part / (double)total) * 100.0 : 0.0;

    view_fixed(sb, share, 2);
    sb_putc(sb, '%');
}

double percent_value(uint64_t part, uint64_t total)
{
    strbuf sb = {0};
    double v;

    view_fixed(&sb, total ? ((double)part / (double)total) * 100.0 : 0.0, 2);
    v = strtod(sb_str(&sb), NULL);
    sb_free(&sb);
    return v;
}
