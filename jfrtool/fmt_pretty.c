/* fmt_pretty.c - the human value forms of `jfr print` (see fmt_pretty.h).
 * The rounding rules follow what JDK 25's jdk.jfr.internal.util.ValueFormatter
 * does, so that output compares byte for byte. */
#include <math.h>
#include <string.h>

#include "fmt_pretty.h"
#include "out_text.h"

#define NANOS_PER_SECOND 1000000000

jduration jduration_of_nanos(int64_t ns)
{
    jduration d;

    split_nanos(ns, &d.seconds, &d.nanos);
    return d;
}

jduration jduration_of_millis(int64_t ms)
{
    jduration d = {ms / 1000, (int32_t)(ms % 1000) * 1000000};

    if (d.nanos < 0) {
        d.nanos += NANOS_PER_SECOND;
        d.seconds--;
    }
    return d;
}

int fmt_digit_count(int64_t v)
{
    int n = 1;

    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

int64_t fmt_pow10(int e)
{
    int64_t p = 1;

    while (e-- > 0)
        p *= 10;
    return p;
}

/* Java's Math.round for the small positive quotients used here. */
static int64_t round_half_up(double x)
{
    return (int64_t)floor(x + 0.5);
}

static jduration normalize(int64_t seconds, int64_t nanos)
{
    jduration d = {seconds + nanos / NANOS_PER_SECOND,
                   (int32_t)(nanos % NANOS_PER_SECOND)};
    return d;
}

/* Keep three significant figures below a minute, then round to whole
 * seconds, minutes or hours (half up). */
static jduration round_positive(jduration d)
{
    if (d.seconds == 0 && d.nanos < 1000)
        return d;
    if (d.seconds == 0) {
        int64_t unit = fmt_pow10(fmt_digit_count(d.nanos) - 3);
        return normalize(0, round_half_up((double)d.nanos / (double)unit) * unit);
    }
    if (d.seconds < 60) {
        int64_t unit = fmt_pow10(fmt_digit_count(d.seconds));
        int64_t millis = d.nanos / 1000000;
        return normalize(d.seconds,
                         round_half_up((double)millis / (double)unit) * unit * 1000000);
    }
    if (d.seconds < 3600)
        return normalize(d.seconds, d.nanos + 500000000LL);
    if (d.seconds < 86400) {
        int64_t s = d.seconds + 30;
        return (jduration){s - s % 60, 0};
    }
    {
        int64_t s = d.seconds > INT64_MAX - 1800 ? INT64_MAX : d.seconds + 1800;
        return (jduration){s - s % 3600, 0};
    }
}

/* `precision`: decimals of the millisecond forms, -1 for the JDK's own. */
static void format_positive(strbuf *sb, jduration d, int precision)
{
    if (d.seconds == 0 && d.nanos < 1000) {
        fmt_java_fixed(sb, (double)d.nanos / 1000000, precision < 0 ? 6 : precision);
        sb_puts(sb, " ms");
    } else if (d.seconds == 0) {
        fmt_java_fixed(sb, (double)d.nanos / 1000000,
                       precision < 0 ? 9 - fmt_digit_count(d.nanos) : precision);
        sb_puts(sb, " ms");
    } else if (d.seconds < 60) {
        double s = (double)d.seconds + (double)(d.nanos / 1000000) / 1000;
        fmt_java_fixed(sb, s, 3 - fmt_digit_count(d.seconds));
        sb_puts(sb, " s");
    } else if (d.seconds < 3600) {
        sb_printf(sb, "%d m %d s", (int)(d.seconds / 60), (int)(d.seconds % 60));
    } else if (d.seconds < 86400) {
        sb_printf(sb, "%d h %d m", (int)(d.seconds / 3600), (int)(d.seconds / 60 % 60));
    } else {
        sb_printf(sb, "%lld d %d h", (long long)(d.seconds / 86400),
                  (int)(d.seconds / 3600 % 24));
    }
}

void fmt_pretty_duration(strbuf *sb, jduration d)
{
    fmt_pretty_duration_ms(sb, d, -1);
}

void fmt_pretty_duration_ms(strbuf *sb, jduration d, int precision)
{
    bool negative = d.seconds < 0;

    if (d.seconds == 0 && d.nanos == 0) {
        sb_puts(sb, "0 s");
        return;
    }
    if (negative) { /* Duration.abs() */
        d = d.nanos ? (jduration){-(d.seconds + 1), NANOS_PER_SECOND - d.nanos}
                    : (jduration){-d.seconds, 0};
        sb_putc(sb, '-');
    }
    format_positive(sb, round_positive(d), precision);
}

void fmt_exact_duration(strbuf *sb, jduration d)
{
    /* Duration.toNanos() as a double, divided as the JDK does */
    double ns = (double)d.seconds * NANOS_PER_SECOND + (double)d.nanos;

    fmt_java_fixed(sb, ns / NANOS_PER_SECOND, 9);
    sb_puts(sb, " s");
}

/* "%.1f <k|M|G|T|P|E><unit>" of the amount in powers of 1024. */
static void data_amount(strbuf *sb, int64_t v, const char *unit)
{
    int exp;

    if (v == INT64_MIN) {
        sb_puts(sb, "N/A");
        return;
    }
    exp = (int)(log(fabs((double)v)) / log(1024));
    if (exp < 1)
        exp = 1;
    if (exp > 6)
        exp = 6;
    fmt_java_fixed(sb, (double)v / pow(1024, exp), 1);
    sb_printf(sb, " %c%s", "kMGTPE"[exp - 1], unit);
}

void fmt_pretty_bytes(strbuf *sb, int64_t v)
{
    if (v == 1 || v == -1)
        sb_printf(sb, "%lld byte", (long long)v);
    else if (v < 1024 && v > -1024)
        sb_printf(sb, "%lld bytes", (long long)v);
    else
        data_amount(sb, v, "B");
}

void fmt_pretty_bits(strbuf *sb, int64_t v)
{
    if (v == 1 || v == -1)
        sb_printf(sb, "%lld bit", (long long)v);
    else if (v < 1024 && v > -1024)
        sb_printf(sb, "%lld bits", (long long)v);
    else
        data_amount(sb, v, "bit");
}

void fmt_pretty_bytes_per_second(strbuf *sb, int64_t v)
{
    if (v < 1024 && v > -1024)
        sb_printf(sb, "%lld byte/s", (long long)v);
    else
        data_amount(sb, v, "B/s");
}

void fmt_pretty_bits_per_second(strbuf *sb, int64_t v)
{
    if (v < 1024 && v > -1024)
        sb_printf(sb, "%lld bps", (long long)v);
    else
        data_amount(sb, v, "bps");
}
