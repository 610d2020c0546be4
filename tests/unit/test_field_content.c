/* test_field_content.c - jfr_field_content and its companions (jfr/types.h),
 * jfr_field_time_unit, jfr_chunk_time_nanos and jfr_nanos_between among them:
 * real fields of a JDK 25 test recording, whose units the JDK's own
 * `jfr metadata` lists, and made-up fields for the orders and the edges no
 * JDK writes (an amount in another unit, two content annotations, no
 * @ContentType as async-profiler declares them). */
#include <stdio.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "jfr.h"
#include "jfr_private.h"
#include "jfrgen.h"
#include "testdata.h"
#include "unit_util.h"
#include "unit_fixture.h"

TestSuite(field_content, .fini = unit_close);

static jfr_chunk *testdata_chunk(const char *name)
{
    rec = testdata_open(name, NULL);
    return unit_next_chunk(rec);
}

static const jfr_field *field_of(jfr_chunk *c, const char *type, const char *field)
{
    const jfr_type *t = jfr_chunk_type_by_name(c, type);
    const jfr_field *f = jfr_type_field_by_name(t, field);

    cr_assert_not_null(f, "%s.%s is not declared", type, field);
    return f;
}

static void assert_content(jfr_chunk *c, const char *type, const char *field,
                           jfr_content want, const char *unit)
{
    const jfr_field *f = field_of(c, type, field);

    cr_expect_eq(jfr_field_content(f), want, "%s.%s: %d, not %d", type, field,
                 (int)jfr_field_content(f), (int)want);
    if (unit)
        cr_expect_str_eq(jfr_field_content_unit(f), unit, "%s.%s", type, field);
    else
        cr_expect_null(jfr_field_content_unit(f), "%s.%s", type, field);
}

Test(field_content, jdk_fields)
{
    jfr_chunk *c = testdata_chunk("recordings/cpu-jdk25.jfr");

    assert_content(c, "jdk.GCHeapSummary", "heapUsed", JFR_CONTENT_BYTES, "BYTES");
    assert_content(c, "jdk.CPULoad", "jvmUser", JFR_CONTENT_PERCENTAGE, NULL);
    assert_content(c, "jdk.ThreadSleep", "time", JFR_CONTENT_TIMESPAN, "NANOSECONDS");
    assert_content(c, "jdk.ThreadSleep", "duration", JFR_CONTENT_TIMESPAN, "TICKS");
    assert_content(c, "jdk.ThreadSleep", "startTime", JFR_CONTENT_TIMESTAMP, "TICKS");
    assert_content(c, "jdk.NetworkUtilization", "readRate", JFR_CONTENT_BITS_PER_SECOND,
                   "BITS");
    assert_content(c, "jdk.NativeLibrary", "baseAddress", JFR_CONTENT_MEMORY_ADDRESS,
                   NULL);
    assert_content(c, "jdk.CPUTimeStampCounter", "osFrequency", JFR_CONTENT_FREQUENCY,
                   NULL);
    assert_content(c, "jdk.GCHeapSummary", "gcId", JFR_CONTENT_NONE, NULL);
    assert_content(c, "jdk.ExecutionSample", "sampledThread", JFR_CONTENT_NONE, NULL);
}

Test(field_content, jdk_unsigned_and_content_type)
{
    jfr_chunk *c = testdata_chunk("recordings/cpu-jdk25.jfr");

    cr_expect(jfr_field_is_unsigned(field_of(c, "jdk.UnsignedLongFlag", "value")));
    cr_expect(!jfr_field_is_unsigned(field_of(c, "jdk.LongFlag", "value")));
    cr_expect(jfr_field_has_content_type(field_of(c, "jdk.GCHeapSummary", "heapUsed")));
    cr_expect(jfr_field_has_content_type(field_of(c, "jdk.ThreadSleep", "time")));
    /* jdk.jfr.Unsigned is a content type too; a thread is not */
    cr_expect(jfr_field_has_content_type(field_of(c, "jdk.GCHeapSummary", "gcId")));
    cr_expect(
        !jfr_field_has_content_type(field_of(c, "jdk.ExecutionSample", "sampledThread")));
    cr_expect(jfr_field_has_annotation(field_of(c, "jdk.CPULoad", "jvmUser"),
                                       "jdk.jfr.Percentage"));
    cr_expect(jfr_type_has_annotation(jfr_chunk_type_by_name(c, "jdk.CPULoad"),
                                      "jdk.jfr.Label"));
}

/* profiles and rates weigh by the same classification */
Test(field_content, weight_units)
{
    jfr_chunk *c = testdata_chunk("recordings/cpu-jdk25.jfr");

    cr_expect_eq(jfrp_weight_unit(field_of(c, "jdk.ObjectAllocationSample", "weight")),
                 JFR_UNIT_BYTES);
    cr_expect_eq(jfrp_weight_unit(field_of(c, "jdk.ThreadSleep", "time")),
                 JFR_UNIT_NANOS);
    cr_expect_eq(jfrp_weight_unit(field_of(c, "jdk.ThreadSleep", "duration")),
                 JFR_UNIT_NANOS);
    cr_expect_eq(jfrp_weight_unit(field_of(c, "jdk.CPULoad", "jvmUser")),
                 JFR_UNIT_NUMBER);
    cr_expect_eq(jfrp_weight_unit(field_of(c, "jdk.NetworkUtilization", "readRate")),
                 JFR_UNIT_NUMBER);
}

Test(field_content, null_is_plain)
{
    cr_expect_eq(jfr_field_content(NULL), JFR_CONTENT_NONE);
    cr_expect_null(jfr_field_content_unit(NULL));
    cr_expect(!jfr_field_is_unsigned(NULL));
    cr_expect(!jfr_field_has_content_type(NULL));
    cr_expect(!jfr_field_has_annotation(NULL, "jdk.jfr.Unsigned"));
    cr_expect(!jfr_type_has_annotation(NULL, "jdk.jfr.Experimental"));
}

enum {
    ID_CONTENT = 30,
    ID_TIMESTAMP,
    ID_TIMESPAN,
    ID_AMOUNT,
    ID_FREQUENCY,
    ID_ADDRESS,
    ID_EVENT = 50
};

/* One event type with made-up combinations; the annotation types carry
 * @ContentType when `declared`. */
static jfr_chunk *made_up_chunk(bool declared)
{
    static const struct {
        uint64_t id;
        const char *name;
    } annotations[] = {{ID_TIMESTAMP, "jdk.jfr.Timestamp"},
                       {ID_TIMESPAN, "jdk.jfr.Timespan"},
                       {ID_AMOUNT, "jdk.jfr.DataAmount"},
                       {ID_FREQUENCY, "jdk.jfr.Frequency"},
                       {ID_ADDRESS, "jdk.jfr.MemoryAddress"}};
    jg_chunk *c = jg_chunk_new();
    jg_elem *ev, *f;

    jg_primitives(c);
    jg_class(c, ID_CONTENT, "jdk.jfr.ContentType", "java.lang.annotation.Annotation");
    for (size_t i = 0; i < sizeof annotations / sizeof annotations[0]; i++) {
        jg_elem *a = jg_class(c, annotations[i].id, annotations[i].name,
                              "java.lang.annotation.Annotation");
        if (declared)
            jg_annotate(a, ID_CONTENT, NULL);
    }
    ev = jg_class(c, ID_EVENT, "test.Made", "jdk.jfr.Event");
    jg_annotate(jg_field(ev, "kilobytes", JG_LONG, 0), ID_AMOUNT, "KILOBYTES");
    f = jg_field(ev, "kilobyteRate", JG_LONG, 0);
    jg_annotate(f, ID_AMOUNT, "KILOBYTES");
    jg_annotate(f, ID_FREQUENCY, NULL);
    f = jg_field(ev, "spanAndTime", JG_LONG, 0);
    jg_annotate(f, ID_TIMESPAN, "MILLISECONDS");
    jg_annotate(f, ID_TIMESTAMP, "TICKS");
    f = jg_field(ev, "addressAndHertz", JG_LONG, 0);
    jg_annotate(f, ID_FREQUENCY, NULL);
    jg_annotate(f, ID_ADDRESS, NULL);
    jg_annotate(jg_field(ev, "bareSpan", JG_LONG, 0), ID_TIMESPAN, NULL);
    f = jg_field(ev, "kilobyteAddress", JG_LONG, 0);
    jg_annotate(f, ID_AMOUNT, "KILOBYTES");
    jg_annotate(f, ID_ADDRESS, NULL);
    jg_chunk_build(c, &bytes);
    jg_chunk_free(c);
    rec = unit_open(&bytes);
    return unit_next_chunk(rec);
}

Test(field_content, orders_and_edges)
{
    jfr_chunk *c = made_up_chunk(true);

    /* no amount in another unit: the JDK 25 tools go on to the next ones
     * (tests/cli/print-cases.sh checks that against their output) */
    assert_content(c, "test.Made", "kilobytes", JFR_CONTENT_NONE, NULL);
    assert_content(c, "test.Made", "kilobyteRate", JFR_CONTENT_FREQUENCY, NULL);
    assert_content(c, "test.Made", "spanAndTime", JFR_CONTENT_TIMESTAMP, "TICKS");
    assert_content(c, "test.Made", "addressAndHertz", JFR_CONTENT_MEMORY_ADDRESS, NULL);
    assert_content(c, "test.Made", "bareSpan", JFR_CONTENT_TIMESPAN, "");
    assert_content(c, "test.Made", "kilobyteAddress", JFR_CONTENT_MEMORY_ADDRESS, NULL);
    cr_expect(jfr_field_has_content_type(field_of(c, "test.Made", "kilobytes")));
}

Test(field_content, undeclared_content_type)
{
    jfr_chunk *c = made_up_chunk(false);

    /* the classification is the same; only the declaration differs */
    assert_content(c, "test.Made", "spanAndTime", JFR_CONTENT_TIMESTAMP, "TICKS");
    cr_expect(!jfr_field_has_content_type(field_of(c, "test.Made", "spanAndTime")));
}

/* ---- jfr_field_time_unit and jfr_chunk_time_nanos ------------------------------ */

static void assert_time_unit(jfr_chunk *c, const char *type, const char *field,
                             jfr_time_unit want)
{
    jfr_time_unit got = jfr_field_time_unit(field_of(c, type, field));

    cr_expect_eq(got, want, "%s.%s: %d, not %d", type, field, (int)got, (int)want);
}

/* the units `jfr metadata` lists for these fields */
Test(field_content, jdk_time_units)
{
    jfr_chunk *c = testdata_chunk("recordings/cpu-jdk25.jfr");

    assert_time_unit(c, "jdk.ThreadSleep", "time", JFR_TIME_NANOSECONDS);
    assert_time_unit(c, "jdk.ThreadSleep", "duration", JFR_TIME_TICKS);
    assert_time_unit(c, "jdk.ThreadSleep", "startTime", JFR_TIME_EPOCH_TICKS);
    assert_time_unit(c, "jdk.GCConfiguration", "pauseTarget", JFR_TIME_MILLISECONDS);
    assert_time_unit(c, "jdk.ThreadPark", "until", JFR_TIME_EPOCH_MILLISECONDS);
    assert_time_unit(c, "jdk.GCHeapSummary", "heapUsed", JFR_TIME_NONE);
    cr_expect_eq(jfr_field_time_unit(NULL), JFR_TIME_NONE);
}

/* ticks through the chunk's header, other units by their scale */
Test(field_content, time_nanos)
{
    jfr_chunk *c = testdata_chunk("recordings/cpu-jdk25.jfr");
    const jfr_header *h = jfr_chunk_header(c);
    int64_t ns;

    cr_assert_eq(jfr_chunk_time_nanos(&ns, c, JFR_TIME_TICKS, h->ticks_per_second),
                 JFR_OK);
    cr_expect_eq(ns, 1000000000);
    cr_assert_eq(jfr_chunk_time_nanos(&ns, c, JFR_TIME_EPOCH_TICKS, h->start_ticks),
                 JFR_OK);
    cr_expect_eq(ns, h->start_nanos);
    cr_assert_eq(jfr_chunk_time_nanos(&ns, NULL, JFR_TIME_MICROSECONDS, -7), JFR_OK);
    cr_expect_eq(ns, -7000);
    cr_assert_eq(jfr_chunk_time_nanos(&ns, NULL, JFR_TIME_MILLISECONDS, 3), JFR_OK);
    cr_expect_eq(ns, 3000000);
    cr_assert_eq(jfr_chunk_time_nanos(&ns, NULL, JFR_TIME_SECONDS, 2), JFR_OK);
    cr_expect_eq(ns, 2000000000);
    cr_assert_eq(jfr_chunk_time_nanos(&ns, NULL, JFR_TIME_EPOCH_MILLISECONDS, 5), JFR_OK);
    cr_expect_eq(ns, 5000000);
    cr_assert_eq(jfr_chunk_time_nanos(&ns, NULL, JFR_TIME_NANOSECONDS, 9), JFR_OK);
    cr_expect_eq(ns, 9);
}

Test(field_content, time_nanos_edges)
{
    int64_t ns;

    /* a damaged value saturates instead of overflowing */
    cr_expect_eq(jfr_chunk_time_nanos(&ns, NULL, JFR_TIME_SECONDS, INT64_MAX / 10),
                 JFR_OK);
    cr_expect_eq(ns, INT64_MAX);
    cr_expect_eq(jfr_chunk_time_nanos(&ns, NULL, JFR_TIME_EPOCH_MILLISECONDS, INT64_MIN),
                 JFR_OK);
    cr_expect_eq(ns, INT64_MIN);
    /* no unit: the value as it is; ticks need a chunk */
    cr_expect_eq(jfr_chunk_time_nanos(&ns, NULL, JFR_TIME_NONE, 42), JFR_EINVAL);
    cr_expect_eq(ns, 42);
    cr_expect_eq(jfr_chunk_time_nanos(&ns, NULL, (jfr_time_unit)99, 42), JFR_EINVAL);
    cr_expect_eq(ns, 42);
    cr_expect_eq(jfr_chunk_time_nanos(&ns, NULL, JFR_TIME_TICKS, 42), JFR_EINVAL);
    cr_expect_eq(ns, 0);
    cr_expect_eq(jfr_chunk_time_nanos(NULL, NULL, JFR_TIME_SECONDS, 1), JFR_EINVAL);
}

Test(field_content, made_up_time_units)
{
    jfr_chunk *c = made_up_chunk(true);

    /* the timestamp wins, as for jfr_field_content; no unit is none */
    assert_time_unit(c, "test.Made", "spanAndTime", JFR_TIME_EPOCH_TICKS);
    assert_time_unit(c, "test.Made", "bareSpan", JFR_TIME_NONE);
    assert_time_unit(c, "test.Made", "kilobytes", JFR_TIME_NONE);
}

Test(field_content, nanos_between_saturates)
{
    /* the spans of ordinary times, both ways */
    cr_expect_eq(jfr_nanos_between(1000, 3500), 2500);
    cr_expect_eq(jfr_nanos_between(3500, 1000), -2500);
    cr_expect_eq(jfr_nanos_between(-5, 5), 10);
    /* a damaged chunk's start (before 1678) and a real end: the fuzz
     * finding of 2026-11-28, beyond int64_t */
    cr_expect_eq(jfr_nanos_between(-8784552409113296896LL, 1795000001000000000LL),
                 INT64_MAX);
    cr_expect_eq(jfr_nanos_between(1795000001000000000LL, -8784552409113296896LL),
                 INT64_MIN);
    cr_expect_eq(jfr_nanos_between(INT64_MIN, INT64_MAX), INT64_MAX);
    cr_expect_eq(jfr_nanos_between(INT64_MAX, INT64_MIN), INT64_MIN);
    /* the edges that still fit */
    cr_expect_eq(jfr_nanos_between(0, INT64_MAX), INT64_MAX);
    cr_expect_eq(jfr_nanos_between(-1, INT64_MAX - 1), INT64_MAX);
    cr_expect_eq(jfr_nanos_between(0, INT64_MIN), INT64_MIN);
}
