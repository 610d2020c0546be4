/* out_text.h - number, time and duration formatting shared by the
 * renderers: locale-independent, and where the JDK's tool prints a value,
 * in the same form as java.time and Double.toString do. */
#ifndef JFRTOOL_OUT_TEXT_H
#define JFRTOOL_OUT_TEXT_H

#include <stdint.h>

#include "util.h"

/** Append the text of a jfr/text.h function `fn` (its arguments after
 * dst and room): most texts fit JFR_TEXT_ROOM, a longer one is written
 * again into room made for it. */
#define SB_PUT_TEXT(sb, fn, ...)                                                         \
    do {                                                                                 \
        char text_[JFR_TEXT_ROOM];                                                       \
        size_t n_ = fn(text_, sizeof text_, __VA_ARGS__);                                \
        if (n_ <= sizeof text_)                                                          \
            sb_putn((sb), text_, n_);                                                    \
        else                                                                             \
            fn(sb_extend((sb), n_), n_, __VA_ARGS__);                                    \
    } while (0)

/** 1234567 -> "1,234,567". */
void fmt_grouped(strbuf *sb, int64_t v);
/** The shortest decimal digits (at most `max_prec`) that read back as `d`
 * (as a float when `is_float`): into `digits` without a point, *exp10 the
 * power of ten of the first digit. Returns the number of digits. */
int fmt_shortest_digits(char *digits, int *exp10, double d, int max_prec, int is_float);
/** As Java's Double.toString / Float.toString (shortest round trip). */
void fmt_java_double(strbuf *sb, double d);
/** A double as Java's NumberFormat.getNumberInstance() (English) prints it,
 * which the JDK's views use for numbers without a unit: ',' grouping, at
 * most three decimals rounded half-even, no trailing zeros ("10,000",
 * "0.125", "1.235"). */
void fmt_java_number(strbuf *sb, double d);
void fmt_java_float(strbuf *sb, float f);
/** As Java's String.format("%.<prec>f", d): the shortest decimal digits
 * rounded half-up (0.125 -> "0.13" with prec 2). */
void fmt_java_fixed(strbuf *sb, double d, int prec);
/** The double nearest to the shortest decimal of `f` (0.1f -> 0.1), so a
 * float printed as a double reads as Float.toString would show it. */
double float_as_decimal(float f);
/** As java.time.Duration.toString, e.g. "PT1.5S", "PT0S". */
void fmt_java_duration(strbuf *sb, int64_t seconds, int32_t nanos);
/** A year as LocalDate.toString writes it: four digits at least, '+'
 * before a year past 9999. */
void fmt_iso_year(strbuf *sb, long year);
/** As OffsetDateTime.toString: "2026-11-22T02:04:17.929233565Z" or
 * "...+02:00" for a non-zero offset (in seconds). */
void fmt_iso_instant(strbuf *sb, int64_t epoch_seconds, int32_t nanos,
                     int32_t offset_seconds);
/** "yyyy-MM-dd HH:mm:ss" in UTC. */
void fmt_utc_seconds(strbuf *sb, int64_t epoch_seconds);

/** Split nanoseconds since the epoch into seconds and nanos (floor). */
void split_nanos(int64_t ns, int64_t *seconds, int32_t *nanos);

#endif
