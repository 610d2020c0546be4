/* jfr/text.h - values as the JDK's tools write them.
 *
 * The JDK's `jfr print` and `jfr view` write numbers, durations and data
 * amounts in forms of their own: "1,234,567", "8.27 ms", "4.9 MB",
 * Double.toString's "1.0E10". These functions give the same text, locale
 * independent, so that every program on libjfr (jfrtool, the SQL views,
 * Python) writes a value one way (see jfr_text(3)).
 *
 * As jfr/names.h: each writes at most `room` bytes to `dst` (no
 * terminating NUL; `dst` may be NULL when `room` is 0) and returns the
 * length of the whole text, so a caller can measure first and write
 * second. JFR_TEXT_ROOM bytes hold every text but the longest fixed-point
 * forms of huge doubles.
 */
#ifndef JFR_TEXT_H
#define JFR_TEXT_H

#include <stdint.h>

#include "common.h"

JFR_BEGIN_DECLS

/** Room for any text of these functions whose number is below 1e30. */
#define JFR_TEXT_ROOM 64

/** The units of jfr_text_amount. */
typedef enum jfr_text_unit {
    JFR_TEXT_BYTES,            /**< "1 byte", "512 bytes", "1.2 MB" */
    JFR_TEXT_BITS,             /**< "1 bit", "7 bits", "3.0 kbit" */
    JFR_TEXT_BYTES_PER_SECOND, /**< "12 byte/s", "1.5 kB/s" */
    JFR_TEXT_BITS_PER_SECOND   /**< "100 bps", "2.0 Mbps" */
} jfr_text_unit;

/** Room for any text of jfr_text_u64: 20 digits. */
#define JFR_TEXT_U64_ROOM 20

/**
 * An unsigned integer's decimal digits, as "%llu" gives them but without
 * printf's cost: with JFR_TEXT_U64_ROOM bytes of room it writes straight
 * to `dst`, for callers that write millions of numbers.
 */
JFR_API size_t jfr_text_u64(char *dst, size_t room, uint64_t v);

/** An integer with ',' grouping: "1,234,567", "-12". */
JFR_API size_t jfr_text_grouped(char *dst, size_t room, int64_t v);

/**
 * A double as Java's NumberFormat.getNumberInstance() (English) writes it,
 * as the JDK's views write numbers without a unit: ',' grouping, at most
 * three decimals rounded half-even, no trailing zeros ("10,000", "0.125").
 */
JFR_API size_t jfr_text_number(char *dst, size_t room, double d);

/** As Java's Double.toString (the shortest text that reads back). */
JFR_API size_t jfr_text_double(char *dst, size_t room, double d);

/** As Java's Float.toString. */
JFR_API size_t jfr_text_float(char *dst, size_t room, float f);

/**
 * As Java's String.format("%.<decimals>f", d): the shortest decimal digits
 * of `d`, rounded half-up (0.125 with 2 decimals: "0.13", where C's printf
 * gives "0.12").
 */
JFR_API size_t jfr_text_fixed(char *dst, size_t room, double d, int decimals);

/**
 * The shortest decimal digits (at most `max_digits`) that read back as `d`
 * (as a float when `is_float`): into `digits` (room for max_digits + 2)
 * without a point, *exp10 the power of ten of the first digit. Returns the
 * number of digits. `d` is finite and not negative.
 */
JFR_API int jfr_text_shortest_digits(char *digits, int *exp10, double d, int max_digits,
                                     int is_float);

/**
 * A duration of `seconds` and `nanos` (0 to 999999999) as the JDK's views
 * and `jfr print` write one: three significant figures ("0 s", "77.1 ms",
 * "0.000500 ms", "1.50 s", "2 m 5 s", "1 h 3 m", "2 d 4 h"), negative
 * values with a '-'. `ms_decimals` >= 0: durations below a second with
 * that many decimals of milliseconds (the JDK's FORMAT ms-precision);
 * -1: the usual form.
 */
JFR_API size_t jfr_text_duration(char *dst, size_t room, int64_t seconds, int32_t nanos,
                                 int ms_decimals);

/**
 * A data amount or rate `v` in `unit`: small values whole ("512 bytes"),
 * others in powers of 1024 with one decimal ("4.9 MB"); INT64_MIN is
 * "N/A".
 */
JFR_API size_t jfr_text_amount(char *dst, size_t room, int64_t v, jfr_text_unit unit);

JFR_END_DECLS

#endif
