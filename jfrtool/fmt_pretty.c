/* fmt_pretty.c - the human value forms of `jfr print` (see fmt_pretty.h).
 * The rounding rules follow what JDK 25's jdk.jfr.internal.util.ValueFormatter
 * does, so that output compares byte for byte. */

#include "fmt_pretty.h"
#include "out_text.h"

#define NANOS_PER_SECOND 1000000000

jduration jduration_of_nanos(int64_t ns)
{
    jduration d;

    split_nanos(ns, &d.seconds, &d.nanos);
    return d;
}

void fmt_pretty_duration(strbuf *sb, jduration d)
{
    fmt_pretty_duration_ms(sb, d, -1);
}

void fmt_pretty_duration_ms(strbuf *sb, jduration d, int precision)
{
    SB_PUT_TEXT(sb, jfr_text_duration, d.seconds, d.nanos, precision);
}

void fmt_exact_duration(strbuf *sb, jduration d)
{
    /* Duration.toNanos() as a double, divided as the JDK does */
    double ns = (double)d.seconds * NANOS_PER_SECOND + (double)d.nanos;

    fmt_java_fixed(sb, ns / NANOS_PER_SECOND, 9);
    sb_puts(sb, " s");
}

void fmt_pretty_bytes(strbuf *sb, int64_t v)
{
    SB_PUT_TEXT(sb, jfr_text_amount, v, JFR_TEXT_BYTES);
}

void fmt_pretty_bits(strbuf *sb, int64_t v)
{
    SB_PUT_TEXT(sb, jfr_text_amount, v, JFR_TEXT_BITS);
}

void fmt_pretty_bytes_per_second(strbuf *sb, int64_t v)
{
    SB_PUT_TEXT(sb, jfr_text_amount, v, JFR_TEXT_BYTES_PER_SECOND);
}

void fmt_pretty_bits_per_second(strbuf *sb, int64_t v)
{
    SB_PUT_TEXT(sb, jfr_text_amount, v, JFR_TEXT_BITS_PER_SECOND);
}
