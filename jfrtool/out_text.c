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
    SB_PUT_TEXT(sb, jfr_text_grouped, v);
}

void fmt_java_number(strbuf *sb, double d)
{
    SB_PUT_TEXT(sb, jfr_text_number, d);
}

int fmt_shortest_digits(char *digits, int *exp10, double d, int max_prec, int is_float)
{
    return jfr_text_shortest_digits(digits, exp10, d, max_prec, is_float);
}

void fmt_java_double(strbuf *sb, double d)
{
    SB_PUT_TEXT(sb, jfr_text_double, d);
}

void fmt_java_float(strbuf *sb, float f)
{
    SB_PUT_TEXT(sb, jfr_text_float, f);
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

void fmt_iso_year(strbuf *sb, long year)
{
    if (year > 9999)
        sb_printf(sb, "+%ld", year);
    else if (year < 0)
        sb_printf(sb, "-%04ld", -year);
    else
        sb_printf(sb, "%04ld", year);
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
    fmt_iso_year(sb, tm.tm_year + 1900L);
    sb_printf(sb, "-%02d-%02dT%02d:%02d", tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
              tm.tm_min);
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

void fmt_java_fixed(strbuf *sb, double d, int prec)
{
    SB_PUT_TEXT(sb, jfr_text_fixed, d, prec);
}
