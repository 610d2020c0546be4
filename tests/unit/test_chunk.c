/* test_chunk.c - the 68-byte chunk header: decoding, version and offset
 * checks, time conversion (libjfr/chunk.c, jfr-format.md §3, §11). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "jfr_private.h"
#include "jfrgen.h"
#include "unit_util.h"

/* A small valid chunk, built into `out`. */
static void build_chunk(jg_buf *out, void (*tweak)(jg_chunk *))
{
    jg_chunk *c = jg_chunk_new();

    jg_primitives(c);
    jg_field(jg_class(c, 20, "test.Event", "jdk.jfr.Event"), "startTime", JG_LONG, 0);
    jg_i64(jg_event(c, 20), 5);
    jg_pool_new(jg_checkpoint(c), JG_STRING);
    if (tweak)
        tweak(c);
    jg_chunk_build(c, out);
    jg_chunk_free(c);
}

Test(chunk, header_fields_decode)
{
    jg_buf b = {0};
    jg_chunk *c = jg_chunk_new();
    jfr_header h;

    c->h.minor = 7;
    c->h.start_nanos = INT64_C(1234567890123456789);
    c->h.duration_nanos = 42;
    c->h.start_ticks = -5;
    c->h.ticks_per_second = 24000000;
    c->h.state = 9;
    c->h.flags = 0x8001;
    jg_checkpoint(c);
    jg_chunk_build(c, &b);

    cr_assert_eq(jfrp_header_parse(&h, b.data, b.len), JFR_OK);
    cr_assert_eq(h.major, 2);
    cr_assert_eq(h.minor, 7);
    cr_assert_eq(h.chunk_size, b.len);
    cr_assert_eq(h.metadata_offset, 68);
    cr_assert_eq(h.metadata_offset, c->metadata_offset);
    cr_assert_eq(h.constant_pool_offset, c->cp_offset);
    cr_assert_gt(h.constant_pool_offset, 68);
    cr_assert_eq(h.start_nanos, INT64_C(1234567890123456789));
    cr_assert_eq(h.duration_nanos, 42);
    cr_assert_eq(h.start_ticks, -5);
    cr_assert_eq(h.ticks_per_second, 24000000);
    cr_assert_eq(h.state, 9);
    cr_assert_eq(h.flags, 0x8001);
    jg_chunk_free(c);
    jg_buf_free(&b);
}

typedef struct version_case {
    uint16_t major, minor;
    int rc;
} version_case;

static version_case version_cases[] = {
    {1, 0, JFR_OK},       {1, 3, JFR_OK},       {2, 0, JFR_OK},
    {2, 1, JFR_OK},       {2, 99, JFR_OK},      {0, 9, JFR_EVERSION},
    {0, 0, JFR_EVERSION}, {3, 0, JFR_EVERSION}, {0xffff, 1, JFR_EVERSION},
};

ParameterizedTestParameters(chunk, versions)
{
    return cr_make_param_array(version_case, version_cases,
                               sizeof version_cases / sizeof version_cases[0]);
}

ParameterizedTest(version_case *tc, chunk, versions)
{
    jg_buf b = {0};
    jfr_header h;
    jfr_recording *rec = NULL;
    jfr_error err;
    int rc;

    build_chunk(&b, NULL);
    jg_put_be(b.data + 4, tc->major, 2);
    jg_put_be(b.data + 6, tc->minor, 2);
    cr_assert_eq(jfrp_header_parse(&h, b.data, b.len), tc->rc);
    cr_assert_eq(h.major, tc->major);
    cr_assert_eq(h.minor, tc->minor);

    rc = jfr_recording_open_memory(&rec, b.data, b.len, NULL, &err);
    cr_assert_eq(rc, tc->rc, "open: %s", err.message);
    if (rc == JFR_OK) {
        jfr_chunk *c = unit_next_chunk(rec);
        cr_assert_eq(jfr_chunk_header(c)->major, tc->major);
    } else {
        cr_assert_null(rec);
        cr_assert_eq(err.code, JFR_EVERSION);
        cr_assert_eq(err.offset, 4);
    }
    jfr_recording_free(rec);
    jg_buf_free(&b);
}

Test(chunk, version_0_9_names_old_jdks)
{
    jg_buf b = {0};
    jfr_recording *rec = NULL;
    jfr_error err;

    build_chunk(&b, NULL);
    jg_put_be(b.data + 4, 0, 2);
    jg_put_be(b.data + 6, 9, 2);
    cr_assert_eq(jfr_recording_open_memory(&rec, b.data, b.len, NULL, &err),
                 JFR_EVERSION);
    cr_assert(strstr(err.message, "0.9") != NULL, "%s", err.message);
    cr_assert(strstr(err.message, "JDK 7/8") != NULL, "%s", err.message);
    jg_buf_free(&b);
}

Test(chunk, bad_magic_is_not_a_recording)
{
    jg_buf b = {0};
    jfr_header h;

    build_chunk(&b, NULL);
    b.data[3] = 1;
    cr_assert_eq(jfrp_header_parse(&h, b.data, b.len), JFR_EFORMAT);
    b.data[3] = 0;
    b.data[0] = 'f';
    cr_assert_eq(jfrp_header_parse(&h, b.data, b.len), JFR_EFORMAT);
    jg_buf_free(&b);
}

Test(chunk, truncated_header)
{
    jg_buf b = {0};
    jfr_header h;

    build_chunk(&b, NULL);
    for (size_t n = 0; n < 4; n++)
        cr_assert_eq(jfrp_header_parse(&h, b.data, n), JFR_EFORMAT, "%zu bytes", n);
    for (size_t n = 4; n < 68; n++)
        cr_assert_eq(jfrp_header_parse(&h, b.data, n), JFR_ETRUNCATED, "%zu bytes", n);
    cr_assert_eq(jfrp_header_parse(&h, b.data, 68), JFR_OK);
    jg_buf_free(&b);
}

Test(chunk, truncated_header_through_recording)
{
    jg_buf b = {0};
    jfr_recording *rec;
    jfr_chunk *c;
    const jfr_error *e;

    build_chunk(&b, NULL);
    rec = NULL;
    cr_assert_eq(jfr_recording_open_memory(&rec, b.data, 40, NULL, NULL), JFR_OK,
                 "truncation is reported by next_chunk");
    cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_ETRUNCATED);
    e = jfr_recording_error(rec);
    cr_assert_eq(e->code, JFR_ETRUNCATED);
    cr_assert_eq(e->chunk, 0);
    cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_DONE);
    jfr_recording_free(rec);
    jg_buf_free(&b);
}

/* A header field patched to a value and the status the header check gives. */
typedef struct offset_case {
    unsigned at;   /* header offset of the 8-byte field */
    int64_t value; /* absolute, or relative to the chunk size if rel */
    bool rel;
    int rc;
} offset_case;

static offset_case offset_cases[] = {
    {24, 0, false, JFR_ECORRUPT},  /* metadata offset 0 (never flushed) */
    {24, 67, false, JFR_ECORRUPT}, /* inside the header */
    {24, 0, true, JFR_ECORRUPT},   /* at the chunk end */
    {24, 100, true, JFR_ECORRUPT}, /* past the chunk end */
    {24, -1, true, JFR_OK},        /* last byte: structurally fine */
    {16, 0, false, JFR_OK},        /* no checkpoint */
    {16, 12, false, JFR_ECORRUPT}, {16, 0, true, JFR_ECORRUPT},
    {16, -1, false, JFR_ECORRUPT}, /* 2^64-1 */
    {8, 67, false, JFR_ECORRUPT},  /* chunk smaller than its header */
    {8, 0, false, JFR_ECORRUPT},
};

ParameterizedTestParameters(chunk, offsets_outside_chunk)
{
    return cr_make_param_array(offset_case, offset_cases,
                               sizeof offset_cases / sizeof offset_cases[0]);
}

/* Only the header check itself: what the recording makes of a bad header
 * (report it, or salvage an incomplete last chunk) is test_recording's. */
ParameterizedTest(offset_case *tc, chunk, offsets_outside_chunk)
{
    jg_buf b = {0};
    jfr_header h;

    build_chunk(&b, NULL);
    jg_put_be(b.data + tc->at,
              (uint64_t)(tc->rel ? (int64_t)b.len + tc->value : tc->value), 8);
    cr_assert_eq(jfrp_header_parse(&h, b.data, b.len), tc->rc);
    jg_buf_free(&b);
}

Test(chunk, chunk_size_limit)
{
    jg_buf b = {0};
    jfr_options o = JFR_OPTIONS_INIT;
    jfr_recording *rec;
    jfr_chunk *c;

    build_chunk(&b, NULL);
    o.max_chunk_size = b.len - 1;
    cr_assert_eq(jfr_recording_open_memory(&rec, b.data, b.len, &o, NULL), JFR_OK);
    cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_ELIMIT);
    jfr_recording_free(rec);
    o.max_chunk_size = b.len;
    cr_assert_eq(jfr_recording_open_memory(&rec, b.data, b.len, &o, NULL), JFR_OK);
    cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_OK);
    jfr_recording_free(rec);
    jg_buf_free(&b);
}

static void unfinished(jg_chunk *c)
{
    c->h.state = 3;
    c->h.flags = 1;
}

Test(chunk, state_marks_unfinished)
{
    jg_buf b = {0}, b2 = {0};
    jfr_recording *rec;
    jfr_chunk *c;

    build_chunk(&b, unfinished);
    rec = unit_open(&b);
    c = unit_next_chunk(rec);
    cr_assert(jfr_chunk_is_unfinished(c));
    cr_assert_eq(jfr_chunk_header(c)->state, 3);
    jfr_recording_free(rec);

    build_chunk(&b2, NULL);
    rec = unit_open(&b2);
    c = unit_next_chunk(rec);
    cr_assert_not(jfr_chunk_is_unfinished(c));
    cr_assert_eq(jfr_chunk_index(c), 0);
    cr_assert_eq(jfr_chunk_header(c)->file_offset, 0);
    jfr_recording_free(rec);
    jg_buf_free(&b);
    jg_buf_free(&b2);
}

static void slow_ticks(jg_chunk *c)
{
    c->h.start_ticks = 1000;
    c->h.ticks_per_second = 1000000; /* 1 tick = 1 us */
    c->h.start_nanos = INT64_C(1700000000000000000);
}

Test(chunk, ticks_convert_to_nanos)
{
    jg_buf b = {0};
    jfr_recording *rec;
    jfr_chunk *c;

    build_chunk(&b, slow_ticks);
    rec = unit_open(&b);
    c = unit_next_chunk(rec);
    cr_assert_eq(jfr_chunk_ticks_to_nanos(c, 1500), 1500000);
    cr_assert_eq(jfr_chunk_ticks_to_epoch_nanos(c, 1000), INT64_C(1700000000000000000));
    cr_assert_eq(jfr_chunk_ticks_to_epoch_nanos(c, 3000), INT64_C(1700000000002000000));
    cr_assert_eq(jfr_chunk_ticks_to_epoch_nanos(c, 999), INT64_C(1699999999999999000),
                 "ticks before the chunk start");
    jfr_recording_free(rec);
    jg_buf_free(&b);
}

static void tsc_ticks(jg_chunk *c)
{
    c->h.start_ticks = 0;
    c->h.ticks_per_second = 24000000; /* 41.66... ns per tick */
}

/* The JDK divides by ticksPerSecond / 1e9 as a double and truncates
 * (jfr-format.md §11): reproduce it to the nanosecond. */
Test(chunk, ticks_convert_like_the_jdk)
{
    jg_buf b = {0};
    jfr_recording *rec;
    jfr_chunk *c;

    build_chunk(&b, tsc_ticks);
    rec = unit_open(&b);
    c = unit_next_chunk(rec);
    cr_assert_eq(jfr_chunk_ticks_to_nanos(c, 24000001), 1000000041);
    cr_assert_eq(jfr_chunk_ticks_to_nanos(c, 1), 41);
    cr_assert_eq(jfr_chunk_ticks_to_nanos(c, -1), -41, "truncation toward zero");
    cr_assert_eq(jfr_chunk_ticks_to_nanos(c, 0), 0);
    jfr_recording_free(rec);
    jg_buf_free(&b);
}

static void nanosecond_ticks(jg_chunk *c)
{
    c->h.start_ticks = 0;
    c->h.ticks_per_second = 1000000000;
}

/* Ticks of a nanosecond go through the same double as any other: past
 * 2^53 the JDK's durations round, and so do ours. */
Test(chunk, nanosecond_ticks_round_as_the_jdk)
{
    jg_buf b = {0};
    jfr_recording *rec;
    jfr_chunk *c;

    build_chunk(&b, nanosecond_ticks);
    rec = unit_open(&b);
    c = unit_next_chunk(rec);
    cr_assert_eq(jfr_chunk_ticks_to_nanos(c, 1500), 1500);
    cr_assert_eq(jfr_chunk_ticks_to_nanos(c, (INT64_C(1) << 53) + 1), INT64_C(1) << 53);
    cr_assert_eq(jfr_chunk_ticks_to_nanos(c, (INT64_C(1) << 60) + 7), INT64_C(1) << 60);
    jfr_recording_free(rec);
    jg_buf_free(&b);
}

/* Seconds and nanoseconds of a time, split exactly for the units of a
 * fixed length (past what 64-bit nanoseconds hold), rounded down. */
Test(chunk, time_split_keeps_what_nanoseconds_cannot)
{
    jg_buf b = {0};
    jfr_recording *rec;
    jfr_chunk *c;
    int64_t s;
    int32_t ns;

    build_chunk(&b, tsc_ticks);
    rec = unit_open(&b);
    c = unit_next_chunk(rec);
    cr_assert_eq(jfr_chunk_time_split(&s, &ns, c, JFR_TIME_SECONDS, INT64_C(60000000000)),
                 JFR_OK);
    cr_assert(s == INT64_C(60000000000) && ns == 0, "%lld s %d ns", (long long)s, ns);
    cr_assert_eq(jfr_chunk_time_split(&s, &ns, NULL, JFR_TIME_EPOCH_MILLISECONDS,
                                      INT64_C(400000000000001)),
                 JFR_OK, "no chunk needed");
    cr_assert(s == INT64_C(400000000000) && ns == 1000000);
    jfr_chunk_time_split(&s, &ns, c, JFR_TIME_MICROSECONDS, -1);
    cr_assert(s == -1 && ns == 999999000, "rounded down: %lld s %d ns", (long long)s, ns);
    jfr_chunk_time_split(&s, &ns, c, JFR_TIME_NANOSECONDS, INT64_MIN);
    cr_assert(s == INT64_MIN / 1000000000 - 1 && ns == 145224192);
    jfr_chunk_time_split(&s, &ns, c, JFR_TIME_TICKS, 24000001);
    cr_assert(s == 1 && ns == 41, "ticks through the chunk's clock");
    cr_assert_eq(jfr_chunk_time_split(&s, &ns, c, JFR_TIME_NONE, 5), JFR_EINVAL);
    cr_assert(s == 0 && ns == 0);
    cr_assert_eq(jfr_chunk_time_split(&s, &ns, NULL, JFR_TIME_TICKS, 5), JFR_EINVAL);
    cr_assert_eq(jfr_chunk_time_split(NULL, &ns, c, JFR_TIME_SECONDS, 5), JFR_EINVAL);
    jfr_recording_free(rec);
    jg_buf_free(&b);
}

static void zero_ticks(jg_chunk *c)
{
    c->h.ticks_per_second = 0;
}

Test(chunk, zero_tick_rate_falls_back_to_nanoseconds)
{
    jg_buf b = {0};
    jfr_recording *rec;
    jfr_chunk *c;

    build_chunk(&b, zero_ticks);
    rec = unit_open(&b);
    c = unit_next_chunk(rec);
    cr_assert_eq(jfr_chunk_header(c)->ticks_per_second, 1000000000);
    cr_assert_eq(jfr_chunk_ticks_to_nanos(c, 77), 77);
    jfr_recording_free(rec);
    jg_buf_free(&b);
}

Test(chunk, null_arguments)
{
    cr_assert_null(jfr_chunk_header(NULL));
    cr_assert_eq(jfr_chunk_index(NULL), -1);
    cr_assert_not(jfr_chunk_is_unfinished(NULL));
    cr_assert_eq(jfr_chunk_ticks_to_nanos(NULL, 5), 0);
    cr_assert_eq(jfr_chunk_gmt_offset_ms(NULL), 0);
}
