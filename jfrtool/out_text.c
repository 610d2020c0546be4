/* out_text.c - locale-independent formatting (see out_text.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "out_text.h"

void fmt_grouped(strbuf *sb, int64_t v)
{
    char digits[32];
    int n, lead;

    if (v < 0) {
        sb_putc(sb, '-');
        n = snprintf(digits, sizeof digits, "%llu", (unsigned long long)(-(uint64_t)v));
    } else {
        n = snprintf(digits, sizeof digits, "%lld", (long long)v);
    }
    lead = n % 3 ? n % 3 : 3;
    sb_putn(sb, digits, (size_t)lead);
    for (int i = lead; i < n; i += 3) {
        sb_putc(sb, ',');
        sb_putn(sb, digits + i, 3);
    }
}

void fmt_java_number(strbuf *sb, double d)
{
    char buf[400];
    char *dot, *end;
    int n, lead;

    if (isnan(d)) {
        sb_puts(sb, "NaN");
        return;
    }
    if (isinf(d)) {
        sb_puts(sb, d < 0 ? "-\u221e" : "\u221e");
        return;
    }
    /* %.3f rounds the exact binary value half-even, as DecimalFormat does */
    n = snprintf(buf, sizeof buf, "%.3f", d);
    if (n < 0 || (size_t)n >= sizeof buf) {
        fmt_java_double(sb, d);
        return;
    }
    dot = strchr(buf, '.');
    end = buf + n;
    while (end > dot + 1 && end[-1] == '0')
        end--;
    if (end == dot + 1)
        end = dot;
    if (buf[0] == '-') {
        /* "-0" as Java prints a negative number that rounds to zero */
        sb_putc(sb, '-');
        memmove(buf, buf + 1, (size_t)(end - buf));
        dot--;
        end--;
    }
    lead = (int)(dot - buf) % 3 ? (int)(dot - buf) % 3 : 3;
    sb_putn(sb, buf, (size_t)lead);
    for (char *p = buf + lead; p < dot; p += 3) {
        sb_putc(sb, ',');
        sb_putn(sb, p, 3);
    }
    sb_putn(sb, dot, (size_t)(end - dot));
}

/* The first precision worth trying. A normal double that some decimal of
 * at most 15 digits reads back as also reads back from its own 15-digit
 * rounding, which is that decimal padded with zeros (DBL_DIG is 15); so
 * when 15 digits read back, the shortest digits are those, trimmed, and
 * when they do not, no fewer will: 2 or 3 tries instead of up to 17. */
static int first_precision(double d, int max_prec, int is_float)
{
    return !is_float && max_prec >= DBL_DIG && fabs(d) >= DBL_MIN ? DBL_DIG : 1;
}

int fmt_shortest_digits(char *digits, int *exp10, double d, int max_prec, int is_float)
{
    char buf[64];

    for (int prec = first_precision(d, max_prec, is_float); prec <= max_prec; prec++) {
        double back;
        char *e;
        int n = 0;

        snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
        back = strtod(buf, NULL);
        if (is_float ? (float)back != (float)d : back != d)
            continue;
        for (const char *p = buf; *p && *p != 'e'; p++)
            if (*p >= '0' && *p <= '9')
                digits[n++] = *p;
        while (n > 1 && digits[n - 1] == '0')
            n--;
        digits[n] = '\0';
        e = strchr(buf, 'e');
        *exp10 = e ? atoi(e + 1) : 0;
        return n;
    }
    digits[0] = '0';
    digits[1] = '\0';
    *exp10 = 0;
    return 1;
}

static void java_decimal(strbuf *sb, double d, int max_prec, int is_float)
{
    char digits[40];
    int exp10, n;

    if (isnan(d)) {
        sb_puts(sb, "NaN");
        return;
    }
    if (isinf(d)) {
        sb_puts(sb, d > 0 ? "Infinity" : "-Infinity");
        return;
    }
    if (signbit(d)) {
        sb_putc(sb, '-');
        d = -d;
    }
    if (d == 0) {
        sb_puts(sb, "0.0");
        return;
    }
    n = fmt_shortest_digits(digits, &exp10, d, max_prec, is_float);
    if (d >= 1e-3 && d < 1e7) {
        if (exp10 >= 0) {
            for (int i = 0; i <= exp10; i++)
                sb_putc(sb, i < n ? digits[i] : '0');
            sb_putc(sb, '.');
            if (exp10 + 1 >= n)
                sb_putc(sb, '0');
            else
                sb_puts(sb, digits + exp10 + 1);
        } else {
            sb_puts(sb, "0.");
            for (int i = 0; i < -exp10 - 1; i++)
                sb_putc(sb, '0');
            sb_puts(sb, digits);
        }
        return;
    }
    sb_putc(sb, digits[0]);
    sb_putc(sb, '.');
    sb_puts(sb, n > 1 ? digits + 1 : "0");
    sb_printf(sb, "E%d", exp10);
}

void fmt_java_double(strbuf *sb, double d)
{
    java_decimal(sb, d, 17, 0);
}

void fmt_java_float(strbuf *sb, float f)
{
    java_decimal(sb, (double)f, 9, 1);
}

double float_as_decimal(float f)
{
    char digits[40], buf[64];
    int exp10;

    if (f == 0 || isnan(f) || isinf(f))
        return (double)f;
    fmt_shortest_digits(digits, &exp10, fabs((double)f), 9, 1);
    snprintf(buf, sizeof buf, "%s0.%se%d", f < 0 ? "-" : "", digits, exp10 + 1);
    return strtod(buf, NULL);
}

void fmt_java_duration(strbuf *sb, int64_t seconds, int32_t nanos)
{
    int64_t total = seconds, hours;
    int minutes, secs;
    size_t start = sb->len;

    if (seconds == 0 && nanos == 0) {
        sb_puts(sb, "PT0S");
        return;
    }
    if (seconds < 0 && nanos > 0)
        total++;
    hours = total / 3600;
    minutes = (int)((total % 3600) / 60);
    secs = (int)(total % 60);
    sb_puts(sb, "PT");
    if (hours != 0)
        sb_printf(sb, "%lldH", (long long)hours);
    if (minutes != 0)
        sb_printf(sb, "%dM", minutes);
    if (secs == 0 && nanos == 0 && sb->len - start > 2)
        return;
    if (seconds < 0 && nanos > 0 && secs == 0)
        sb_puts(sb, "-0");
    else
        sb_printf(sb, "%d", secs);
    if (nanos > 0) {
        char frac[16];
        int len =
            snprintf(frac, sizeof frac, "%09d", seconds < 0 ? 1000000000 - nanos : nanos);
        while (len > 0 && frac[len - 1] == '0')
            frac[--len] = '\0';
        sb_putc(sb, '.');
        sb_puts(sb, frac);
    }
    sb_putc(sb, 'S');
}

void split_nanos(int64_t ns, int64_t *seconds, int32_t *nanos)
{
    int64_t s = ns / 1000000000, r = ns % 1000000000;

    if (r < 0) {
        r += 1000000000;
        s--;
    }
    *seconds = s;
    *nanos = (int32_t)r;
}

void fmt_java_duration_ns(strbuf *sb, int64_t ns)
{
    int64_t s;
    int32_t n;

    split_nanos(ns, &s, &n);
    fmt_java_duration(sb, s, n);
}

void fmt_iso_instant(strbuf *sb, int64_t epoch_seconds, int32_t nanos,
                     int32_t offset_seconds)
{
    time_t t = (time_t)(epoch_seconds + offset_seconds);
    struct tm tm;

    if (!gmtime_r(&t, &tm)) {
        sb_puts(sb, "?");
        return;
    }
    sb_printf(sb, "%04d-%02d-%02dT%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
              tm.tm_mday, tm.tm_hour, tm.tm_min);
    if (tm.tm_sec || nanos) {
        sb_printf(sb, ":%02d", tm.tm_sec);
        if (nanos % 1000000 == 0 && nanos)
            sb_printf(sb, ".%03d", nanos / 1000000);
        else if (nanos % 1000 == 0 && nanos)
            sb_printf(sb, ".%06d", nanos / 1000);
        else if (nanos)
            sb_printf(sb, ".%09d", nanos);
    }
    if (offset_seconds == 0) {
        sb_putc(sb, 'Z');
    } else {
        int a = abs(offset_seconds);
        sb_printf(sb, "%c%02d:%02d", offset_seconds < 0 ? '-' : '+', a / 3600,
                  a / 60 % 60);
        if (a % 60)
            sb_printf(sb, ":%02d", a % 60);
    }
}

void fmt_utc_seconds(strbuf *sb, int64_t epoch_seconds)
{
    time_t t = (time_t)epoch_seconds;
    struct tm tm;

    if (!gmtime_r(&t, &tm)) {
        sb_puts(sb, "?");
        return;
    }
    sb_printf(sb, "%04d-%02d-%02d %02d:%02d:%02d", tm.tm_year + 1900, tm.tm_mon + 1,
              tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* Java's Formatter rounds the shortest decimal digits half-up (0.125 ->
 * "0.13"), where C's printf rounds the exact binary value. */
void fmt_java_fixed(strbuf *sb, double d, int prec)
{
    char digits[48];
    int exp10, n, point;

    if (isnan(d) || isinf(d)) {
        sb_puts(sb, isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
        return;
    }
    if (signbit(d)) {
        sb_putc(sb, '-');
        d = -d;
    }
    if (d == 0) {
        n = 0;
        point = 1;
    } else {
        n = fmt_shortest_digits(digits, &exp10, d, 17, 0);
        point = exp10 + 1; /* digits before the decimal point */
        if (point + prec < 0) {
            n = 0;
        } else if (point + prec < n) {
            int keep = point + prec;
            bool up = digits[keep] >= '5';

            n = keep;
            for (int i = keep - 1; up && i >= 0; i--) {
                up = digits[i] == '9';
                digits[i] = up ? '0' : (char)(digits[i] + 1);
            }
            if (up) { /* 9.99 -> 10.0: one more leading digit */
                memmove(digits + 1, digits, (size_t)n);
                digits[0] = '1';
                n++;
                point++;
            }
        }
    }
    if (point <= 0)
        sb_putc(sb, '0');
    for (int i = 0; i < point; i++)
        sb_putc(sb, i < n ? digits[i] : '0');
    if (prec > 0)
        sb_putc(sb, '.');
    for (int i = point; i < point + prec; i++)
        sb_putc(sb, i >= 0 && i < n ? digits[i] : '0');
}
