/* text_units.c - durations and data amounts as the JDK writes them
 * (jfr/text.h). The rounding follows JDK 25's
 * jdk.jfr.internal.util.ValueFormatter, so that output compares byte for
 * byte with `jfr print` and `jfr view`. */
#include <math.h>
#include <stdbool.h>

#include "jfr/text.h"
#include "text_out.h"

#define NANOS_PER_SECOND 1000000000

typedef struct span {
    int64_t seconds;
    int32_t nanos;
} span;

static int digit_count(int64_t v)
{
    int n = 1;

    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

static int64_t pow10_of(int e)
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

static span normalize(int64_t seconds, int64_t nanos)
{
    span d = {seconds + nanos / NANOS_PER_SECOND, (int32_t)(nanos % NANOS_PER_SECOND)};
    return d;
}

/* Keep three significant figures below a minute, then round to whole
 * seconds, minutes or hours (half up). */
static span round_positive(span d)
{
    if (d.seconds == 0 && d.nanos < 1000)
        return d;
    if (d.seconds == 0) {
        int64_t unit = pow10_of(digit_count(d.nanos) - 3);
        return normalize(0, round_half_up((double)d.nanos / (double)unit) * unit);
    }
    if (d.seconds < 60) {
        int64_t unit = pow10_of(digit_count(d.seconds));
        int64_t millis = d.nanos / 1000000;
        return normalize(d.seconds,
                         round_half_up((double)millis / (double)unit) * unit * 1000000);
    }
    if (d.seconds < 3600)
        return normalize(d.seconds, d.nanos + 500000000LL);
    if (d.seconds < 86400) {
        int64_t s = d.seconds + 30;
        return (span){s - s % 60, 0};
    }
    {
        int64_t s = d.seconds > INT64_MAX - 1800 ? INT64_MAX : d.seconds + 1800;
        return (span){s - s % 3600, 0};
    }
}

/* `precision`: decimals of the millisecond forms, -1 for the JDK's own. */
static void format_positive(text_out *t, span d, int precision)
{
    if (d.seconds == 0 && d.nanos < 1000) {
        jfrp_text_fixed(t, (double)d.nanos / 1000000, precision < 0 ? 6 : precision);
        text_puts(t, " ms");
    } else if (d.seconds == 0) {
        jfrp_text_fixed(t, (double)d.nanos / 1000000,
                        precision < 0 ? 9 - digit_count(d.nanos) : precision);
        text_puts(t, " ms");
    } else if (d.seconds < 60) {
        double s = (double)d.seconds + (double)(d.nanos / 1000000) / 1000;
        jfrp_text_fixed(t, s, 3 - digit_count(d.seconds));
        text_puts(t, " s");
    } else if (d.seconds < 3600) {
        jfrp_text_printf(t, "%d m %d s", (int)(d.seconds / 60), (int)(d.seconds % 60));
    } else if (d.seconds < 86400) {
        jfrp_text_printf(t, "%d h %d m", (int)(d.seconds / 3600),
                         (int)(d.seconds / 60 % 60));
    } else {
        jfrp_text_printf(t, "%lld d %d h", (long long)(d.seconds / 86400),
                         (int)(d.seconds / 3600 % 24));
    }
}

size_t jfr_text_duration(char *dst, size_t room, int64_t seconds, int32_t nanos,
                         int ms_decimals)
{
    text_out t = {dst, room, 0};
    span d = {seconds, nanos};

    if (d.seconds == 0 && d.nanos == 0) {
        text_puts(&t, "0 s");
        return t.len;
    }
    if (d.seconds < 0) { /* Duration.abs() */
        d = d.nanos ? (span){-(d.seconds + 1), NANOS_PER_SECOND - d.nanos}
                    : (span){-d.seconds, 0};
        text_putc(&t, '-');
    }
    format_positive(&t, round_positive(d), ms_decimals);
    return t.len;
}

/* "%.1f <k|M|G|T|P|E><unit>" of the amount in powers of 1024. */
static void scaled_amount(text_out *t, int64_t v, const char *unit)
{
    int exp = (int)(log(fabs((double)v)) / log(1024));

    if (exp < 1)
        exp = 1;
    if (exp > 6)
        exp = 6;
    jfrp_text_fixed(t, (double)v / pow(1024, exp), 1);
    jfrp_text_printf(t, " %c%s", "kMGTPE"[exp - 1], unit);
}

size_t jfr_text_amount(char *dst, size_t room, int64_t v, jfr_text_unit unit)
{
    static const char *const one[] = {"byte", "bit", "byte/s", "bps"};
    static const char *const many[] = {"bytes", "bits", "byte/s", "bps"};
    static const char *const scaled[] = {"B", "bit", "B/s", "bps"};
    text_out t = {dst, room, 0};
    unsigned u = (unsigned)unit < 4 ? (unsigned)unit : 0;

    if (v == INT64_MIN)
        text_puts(&t, "N/A");
    else if (v < 1024 && v > -1024)
        jfrp_text_printf(&t, "%lld %s", (long long)v,
                         v == 1 || v == -1 ? one[u] : many[u]);
    else
        scaled_amount(&t, v, scaled[u]);
    return t.len;
}
