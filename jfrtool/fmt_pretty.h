/* fmt_pretty.h - values in the human form of the JDK's `jfr print`: rounded
 * durations ("20.5 ms"), data amounts ("1.2 MB"), Java type names decoded
 * from JVM descriptors. Locale-independent. */
#ifndef JFRTOOL_FMT_PRETTY_H
#define JFRTOOL_FMT_PRETTY_H

#include <stdbool.h>
#include <stdint.h>

#include "util.h"

/** A java.time.Duration: seconds and 0..999999999 nanoseconds. */
typedef struct jduration {
    int64_t seconds;
    int32_t nanos;
} jduration;

jduration jduration_of_nanos(int64_t ns);

/** Three significant figures: "0 s", "77.1 ms", "0.000500 ms", "1.50 s",
 * "2 m 5 s", "1 h 3 m", "2 d 4 h"; negative values get a '-'. */
void fmt_pretty_duration(strbuf *sb, jduration d);
/** The same with `precision` decimals below a second ("7.500000 ms": the
 * JDK's FORMAT ms-precision:N); -1: as fmt_pretty_duration. */
void fmt_pretty_duration_ms(strbuf *sb, jduration d, int precision);
/** As %.9f of the seconds, then " s" (the --exact form). */
void fmt_exact_duration(strbuf *sb, jduration d);

/** Data amounts: "1 byte", "512 bytes", "1.2 MB"; "7 bits", "3.0 kbit";
 * per second: "12 byte/s", "1.5 kB/s"; "100 bps", "2.0 Mbps". */
void fmt_pretty_bytes(strbuf *sb, int64_t v);
void fmt_pretty_bits(strbuf *sb, int64_t v);
void fmt_pretty_bytes_per_second(strbuf *sb, int64_t v);
void fmt_pretty_bits_per_second(strbuf *sb, int64_t v);

#endif
