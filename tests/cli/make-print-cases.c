/* make-print-cases.c - writes print-cases.jfr, a synthetic recording whose
 * events hold one value of each form `jfr print` distinguishes: content-type
 * annotations (percent, data amounts, frequency, address, timespans in every
 * unit, timestamps, amounts in another unit), unsigned and missing values, NaN and infinities, chars,
 * times past 2262, subnormals, a lone surrogate,
 * nested objects, undefined pool keys, a zero duration. (Arrays of plain
 * objects are left out: they make the JDK's PrettyWriter fail.) Chunk 1
 * declares the annotations as the JDK does (@ContentType); chunk 2 declares
 * them without it, as async-profiler does, so the same values print bare.
 *
 * tests/cli/print-cases.sh compares `jfrtool print` of this file with
 * testdata/jdk/print-cases.print.txt, which JDK 25's `jfr print` made from it
 * (regenerate: see that script). Usage: make-print-cases OUT.jfr */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "jfrgen.h"

enum {
    T_ANNOTATION_CONTENT = 30,
    T_TIMESTAMP,
    T_TIMESPAN,
    T_PERCENTAGE,
    T_DATA_AMOUNT,
    T_FREQUENCY,
    T_MEMORY_ADDRESS,
    T_UNSIGNED,
    T_THREAD = 40,
    T_PAIR,
    T_EVENT = 50
};

/* The annotation types, with or without the @ContentType meta-annotation. */
static void declare_annotations(jg_chunk *c, bool content)
{
    static const struct {
        uint64_t id;
        const char *name;
        bool has_value;
    } a[] = {
        {T_TIMESTAMP, "jdk.jfr.Timestamp", true},
        {T_TIMESPAN, "jdk.jfr.Timespan", true},
        {T_PERCENTAGE, "jdk.jfr.Percentage", false},
        {T_DATA_AMOUNT, "jdk.jfr.DataAmount", true},
        {T_FREQUENCY, "jdk.jfr.Frequency", false},
        {T_MEMORY_ADDRESS, "jdk.jfr.MemoryAddress", false},
        {T_UNSIGNED, "jdk.jfr.Unsigned", false},
    };
    const char *ann = "java.lang.annotation.Annotation";

    jg_class(c, T_ANNOTATION_CONTENT, "jdk.jfr.ContentType", ann);
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) {
        jg_elem *t = jg_class(c, a[i].id, a[i].name, ann);

        if (a[i].has_value)
            jg_field(t, "value", JG_STRING, 0);
        if (content)
            jg_annotate(t, T_ANNOTATION_CONTENT, NULL);
    }
}

static jg_elem *field(jg_elem *cls, const char *name, uint64_t type, uint64_t ann,
                      const char *value)
{
    jg_elem *f = jg_field(cls, name, type, type == T_THREAD ? JG_POOL : 0);

    if (ann)
        jg_annotate(f, ann, value);
    return f;
}

static void declare_types(jg_chunk *c, bool content)
{
    jg_elem *t, *ev;

    jg_primitives(c);
    jg_region(c, "3600000");
    declare_annotations(c, content);
    t = jg_class(c, T_THREAD, "java.lang.Thread", NULL);
    jg_field(t, "osName", JG_STRING, 0);
    jg_field(t, "osThreadId", JG_LONG, 0);
    jg_field(t, "javaName", JG_STRING, 0);
    jg_field(t, "javaThreadId", JG_LONG, 0);
    jg_field(t, "virtual", JG_BOOLEAN, 0);
    t = jg_class(c, T_PAIR, "test.Pair", NULL);
    jg_field(t, "a", JG_INT, 0);
    jg_field(t, "b", JG_STRING, 0);

    ev = jg_class(c, T_EVENT, content ? "test.Values" : "test.BareValues",
                  "jdk.jfr.Event");
    field(ev, "startTime", JG_LONG, T_TIMESTAMP, "TICKS");
    field(ev, "duration", JG_LONG, T_TIMESPAN, "TICKS");
    field(ev, "eventThread", T_THREAD, 0, NULL);
    field(ev, "percent", JG_FLOAT, T_PERCENTAGE, NULL);
    field(ev, "percentHalf", JG_DOUBLE, T_PERCENTAGE, NULL);
    field(ev, "bytes", JG_LONG, T_DATA_AMOUNT, "BYTES");
    field(ev, "bits", JG_LONG, T_DATA_AMOUNT, "BITS");
    jg_annotate(field(ev, "rate", JG_LONG, T_DATA_AMOUNT, "BYTES"), T_FREQUENCY, NULL);
    jg_annotate(field(ev, "bitRate", JG_LONG, T_DATA_AMOUNT, "BITS"), T_FREQUENCY, NULL);
    field(ev, "hertz", JG_INT, T_FREQUENCY, NULL);
    field(ev, "hertzDouble", JG_DOUBLE, T_FREQUENCY, NULL);
    field(ev, "address", JG_LONG, T_MEMORY_ADDRESS, NULL);
    field(ev, "unsignedInt", JG_INT, T_UNSIGNED, NULL);
    field(ev, "unsignedLong", JG_LONG, T_UNSIGNED, NULL);
    field(ev, "minLong", JG_LONG, 0, NULL);
    field(ev, "minInt", JG_INT, 0, NULL);
    field(ev, "shortValue", JG_SHORT, 0, NULL);
    field(ev, "byteValue", JG_BYTE, 0, NULL);
    field(ev, "charValue", JG_CHAR, 0, NULL);
    field(ev, "flag", JG_BOOLEAN, 0, NULL);
    field(ev, "nan", JG_DOUBLE, 0, NULL);
    field(ev, "infinity", JG_DOUBLE, 0, NULL);
    field(ev, "minusInfinity", JG_DOUBLE, 0, NULL);
    field(ev, "tenth", JG_FLOAT, 0, NULL);
    field(ev, "millis", JG_LONG, T_TIMESPAN, "MILLISECONDS");
    field(ev, "micros", JG_INT, T_TIMESPAN, "MICROSECONDS");
    field(ev, "seconds", JG_LONG, T_TIMESPAN, "SECONDS");
    field(ev, "forever", JG_LONG, T_TIMESPAN, "NANOSECONDS");
    field(ev, "missingSpan", JG_LONG, T_TIMESPAN, "NANOSECONDS");
    field(ev, "zeroSpan", JG_LONG, T_TIMESPAN, "NANOSECONDS");
    field(ev, "wallClock", JG_LONG, T_TIMESTAMP, "MILLISECONDS_SINCE_EPOCH");
    field(ev, "missingTime", JG_LONG, T_TIMESTAMP, "TICKS");
    field(ev, "text", JG_STRING, 0, NULL);
    field(ev, "nullText", JG_STRING, 0, NULL);
    field(ev, "pair", T_PAIR, 0, NULL);
    field(ev, "unknownThread", T_THREAD, 0, NULL);
    /* past what 64-bit nanoseconds hold (2262), which Duration and
     * Instant hold; the smallest subnormals; a lone UTF-16 surrogate */
    field(ev, "hugeSeconds", JG_LONG, T_TIMESPAN, "SECONDS");
    field(ev, "farMillis", JG_LONG, T_TIMESTAMP, "MILLISECONDS_SINCE_EPOCH");
    field(ev, "yearPast9999", JG_LONG, T_TIMESTAMP, "MILLISECONDS_SINCE_EPOCH");
    field(ev, "tinyDouble", JG_DOUBLE, 0, NULL);
    field(ev, "tinyFloat", JG_FLOAT, 0, NULL);
    field(ev, "surrogate", JG_CHAR, 0, NULL);
    /* an amount in another unit: print shows it bare, as an address or in
     * hertz by its other annotations (jfr view shows bytes) */
    field(ev, "kilobytes", JG_LONG, T_DATA_AMOUNT, "KILOBYTES");
    jg_annotate(field(ev, "kilobyteRate", JG_LONG, T_DATA_AMOUNT, "KILOBYTES"),
                T_FREQUENCY, NULL);
    jg_annotate(field(ev, "kilobyteAddress", JG_LONG, T_DATA_AMOUNT, "KILOBYTES"),
                T_MEMORY_ADDRESS, NULL);
    /* a double amount past long's range (the JDK's view casts it, 8.0 EB),
     * Long.MIN_VALUE as a frequency and an address (N/A); print-cases.sh
     * compares the view's columns from `kilobytes` on with the JDK's */
    field(ev, "doubleBytes", JG_DOUBLE, T_DATA_AMOUNT, "BYTES");
    field(ev, "minFrequency", JG_LONG, T_FREQUENCY, NULL);
    field(ev, "minAddress", JG_LONG, T_MEMORY_ADDRESS, NULL);
    /* a char column takes no spare width in the JDK's view */
    field(ev, "letter", JG_CHAR, 0, NULL);
}

static void thread_pool(jg_chunk *c)
{
    jg_pool *p = jg_pool_new(jg_checkpoint(c), T_THREAD);
    jg_buf *e = jg_entry(p, 1);

    jg_string(e, "main-os");
    jg_i64(e, 4242);
    jg_string(e, "main");
    jg_i64(e, 1);
    jg_u8(e, 0);
    e = jg_entry(p, 2);
    jg_string(e, "VM Thread");
    jg_i64(e, 77);
    jg_string(e, NULL);
    jg_i64(e, 0);
    jg_u8(e, 0);
}

static void pair(jg_buf *e, int32_t a, const char *b)
{
    jg_i32(e, a);
    jg_string(e, b);
}

static void event(jg_chunk *c, int64_t start, int64_t duration, uint64_t thread)
{
    jg_buf *e = jg_event(c, T_EVENT);

    jg_i64(e, start);
    jg_i64(e, duration);
    jg_key(e, thread);
    jg_f32(e, 0.125f);
    jg_f64(e, 0.00125);
    jg_i64(e, 1536);
    jg_i64(e, 1);
    jg_i64(e, 3 * 1024 * 1024 + 200 * 1024);
    jg_i64(e, 999);
    jg_i32(e, 50);
    jg_f64(e, 2.5);
    jg_i64(e, 0x7f001234);
    jg_i32(e, -1);
    jg_i64(e, -1);
    jg_i64(e, INT64_MIN);
    jg_i32(e, INT32_MIN);
    jg_i16(e, -5);
    jg_u8(e, 7);
    jg_u16(e, 'x');
    jg_u8(e, 1);
    jg_f64(e, NAN);
    jg_f64(e, INFINITY);
    jg_f64(e, -INFINITY);
    jg_f32(e, 0.1f);
    jg_i64(e, 1500);
    jg_i32(e, 90000000);
    jg_i64(e, 4000);
    jg_i64(e, INT64_MAX);
    jg_i64(e, INT64_MIN);
    jg_i64(e, 0);
    jg_i64(e, INT64_C(1700000000123));
    jg_i64(e, INT64_MIN);
    jg_string(e, "hello \"world\"");
    jg_string(e, NULL);
    pair(e, 1, "one");
    jg_key(e, 99);
    jg_i64(e, INT64_C(60000000000));
    jg_i64(e, INT64_C(86400000000000));
    jg_i64(e, INT64_C(400000000000000));
    jg_f64(e, 4.9406564584124654e-324);
    jg_f32(e, 1.40129846e-45f);
    jg_u16(e, 0xD83D);
    jg_i64(e, 2048);
    jg_i64(e, 300);
    jg_i64(e, 0x1000);
    jg_f64(e, 1e26);
    jg_i64(e, INT64_MIN);
    jg_i64(e, INT64_MIN);
    jg_u16(e, 'q');
}

static void chunk(jg_buf *out, bool content, int64_t first_ticks)
{
    jg_chunk *c = jg_chunk_new();

    /* a new metadata id, or the JDK keeps the first chunk's declarations */
    c->metadata_id = content ? 1 : 2;
    declare_types(c, content);
    thread_pool(c);
    event(c, first_ticks, 2500000, 1);
    event(c, first_ticks + 1000000, 0, 2);
    jg_chunk_build(c, out);
    jg_chunk_free(c);
}

int main(int argc, char **argv)
{
    jg_buf out = {0};
    FILE *f;

    if (argc != 2) {
        fprintf(stderr, "usage: make-print-cases OUT.jfr\n");
        return 2;
    }
    chunk(&out, true, 2000);
    chunk(&out, false, 500002000);
    f = fopen(argv[1], "wb");
    if (!f || fwrite(out.data, 1, out.len, f) != out.len || fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    jg_buf_free(&out);
    return 0;
}
