/* test_event.c - walking a chunk's records: framing, filtering, corrupt
 * sizes, seeking (libjfr/event.c, jfr-format.md §6). */
#include <math.h>
#include <criterion/criterion.h>

#include "jfr_private.h"
#include "jfrgen.h"
#include "testdata.h"
#include "unit_util.h"
#include "unit_fixture.h"

enum { ID_A = 20, ID_B = 21, ID_B2 = 22, ID_UNKNOWN = 999 };

TestSuite(event, .fini = unit_close);

/* test.A { long startTime, int n }, test.B { long startTime }, and a second
 * type also called test.B (several producers reuse names). */
static jg_chunk *new_chunk(void)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *e;

    jg_primitives(c);
    e = jg_class(c, ID_A, "test.A", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_field(e, "n", JG_INT, 0);
    jg_field(jg_class(c, ID_B, "test.B", "jdk.jfr.Event"), "startTime", JG_LONG, 0);
    jg_field(jg_class(c, ID_B2, "test.B", "jdk.jfr.Event"), "startTime", JG_LONG, 0);
    return c;
}

static void event_a(jg_chunk *c, int64_t start, int32_t n)
{
    jg_buf *e = jg_event(c, ID_A);

    jg_i64(e, start);
    jg_i32(e, n);
}

static void event_b(jg_chunk *c, uint64_t id, int64_t start)
{
    jg_i64(jg_event(c, id), start);
}

/* A, B, checkpoint, unknown id, B2, A */
static jfr_chunk *mixed_chunk(void)
{
    jg_chunk *c = new_chunk();

    event_a(c, 10, 1);
    event_b(c, ID_B, 20);
    jg_checkpoint(c);
    jg_i64(jg_event(c, ID_UNKNOWN), 5);
    event_b(c, ID_B2, 30);
    event_a(c, 40, 2);
    return unit_open_chunk(c);
}

/* Iterate and record the start ticks (or -type id for non-events). */
static size_t collect(jfr_chunk *c, const char *const *types, size_t ntypes,
                      unsigned flags, int64_t *out, size_t max)
{
    jfr_event_iter *it;
    const jfr_event *ev;
    size_t n = 0;
    int rc;

    cr_assert_eq(jfr_event_iter_new(&it, c, types, ntypes, flags), JFR_OK);
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
        cr_assert_lt(n, max);
        out[n++] = jfr_event_type(ev) ? jfr_event_start_ticks(ev)
                                      : -(int64_t)jfr_event_type_id(ev);
    }
    cr_assert_eq(rc, JFR_DONE);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_DONE, "DONE again after the end");
    jfr_event_iter_free(it);
    return n;
}

Test(event, iterates_events_in_file_order)
{
    jfr_chunk *c = mixed_chunk();
    int64_t got[8];

    cr_assert_eq(collect(c, NULL, 0, 0, got, 8), 4);
    cr_assert_eq(got[0], 10);
    cr_assert_eq(got[1], 20);
    cr_assert_eq(got[2], 30);
    cr_assert_eq(got[3], 40);
}

Test(event, record_framing)
{
    jfr_chunk *c = mixed_chunk();
    jfr_event_iter *it;
    const jfr_event *ev;
    jfr_value v;
    uint64_t prev_end = 0;

    cr_assert_eq(jfr_event_iter_new(&it, c, NULL, 0, JFR_ITER_ALL_RECORDS), JFR_OK);
    while (jfr_event_next(&ev, it) == JFR_OK) {
        if (prev_end)
            cr_assert_eq(jfr_event_offset(ev), prev_end, "records are contiguous");
        else
            cr_assert_eq(jfr_event_offset(ev), 68, "the first record follows the header");
        prev_end = jfr_event_offset(ev) + jfr_event_size(ev);
        cr_assert_eq(jfr_event_chunk(ev), c);
    }
    cr_assert_eq(prev_end, bytes.len, "the last record ends the chunk");
    jfr_event_iter_free(it);

    ev = unit_first_event(c, &it);
    cr_assert_eq(jfr_event_type_id(ev), ID_A);
    cr_assert_str_eq(jfr_type_name(jfr_event_type(ev)), "test.A");
    /* size: 1 (size) + 1 (type id) + 1 (startTime 10) + 1 (n 1) */
    cr_assert_eq(jfr_event_size(ev), 4);
    cr_assert_eq(jfr_event_field(&v, ev, "n"), JFR_OK);
    cr_assert_eq(v.as.i, 1);
    jfr_event_iter_free(it);
}

Test(event, filter_by_type_name)
{
    jfr_chunk *c = mixed_chunk();
    static const char *const only_a[] = {"test.A"};
    static const char *const only_b[] = {"test.B"};
    static const char *const both[] = {"test.B", NULL, "test.A"};
    static const char *const none[] = {"test.C"};
    int64_t got[8];

    cr_assert_eq(collect(c, only_a, 1, 0, got, 8), 2);
    cr_assert_eq(got[0], 10);
    cr_assert_eq(got[1], 40);
    cr_assert_eq(collect(c, only_b, 1, 0, got, 8), 2, "both types named test.B");
    cr_assert_eq(got[0], 20);
    cr_assert_eq(got[1], 30);
    cr_assert_eq(collect(c, both, 3, 0, got, 8), 4);
    cr_assert_eq(collect(c, none, 1, 0, got, 8), 0);
    cr_assert_eq(collect(c, none, 0, 0, got, 8), 0, "an empty list keeps nothing");
}

Test(event, all_records)
{
    jfr_chunk *c = mixed_chunk();
    jfr_event_iter *it;
    const jfr_event *ev;
    jfr_value v;
    int64_t got[8];

    cr_assert_eq(collect(c, NULL, 0, JFR_ITER_ALL_RECORDS, got, 8), 7);
    cr_assert_eq(got[0], 0, "the metadata record (type id 0)");
    cr_assert_eq(got[1], 10);
    cr_assert_eq(got[2], 20);
    cr_assert_eq(got[3], -1, "the checkpoint");
    cr_assert_eq(got[4], -ID_UNKNOWN, "an undeclared type id");
    cr_assert_eq(got[5], 30);

    cr_assert_eq(jfr_event_iter_new(&it, c, NULL, 0, JFR_ITER_ALL_RECORDS), JFR_OK);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_OK);
    cr_assert_null(jfr_event_type(ev));
    cr_assert_eq(jfr_event_value(&v, ev), JFR_ENOTFOUND);
    cr_assert_eq(jfr_event_start_ticks(ev), 0);
    jfr_event_iter_free(it);
}

Test(event, unknown_type_ids_are_skipped)
{
    jg_chunk *ch = new_chunk();
    int64_t got[4];

    jg_i64(jg_event(ch, ID_UNKNOWN), 1);
    jg_i64(jg_event(ch, 2), 1);
    event_a(ch, 7, 0);
    cr_assert_eq(collect(unit_open_chunk(ch), NULL, 0, 0, got, 4), 1);
    cr_assert_eq(got[0], 7);
}

/* A chunk: event A, then `junk` raw bytes, then event A again. */
static jfr_chunk *chunk_with_junk(const uint8_t *junk, size_t n)
{
    jg_chunk *c = new_chunk();

    event_a(c, 1, 0);
    jg_bytes(jg_raw(c), junk, n);
    event_a(c, 2, 0);
    return unit_open_chunk(c);
}

Test(event, size_zero_is_corrupt_and_ends_the_walk)
{
    static const uint8_t zero[] = {0x00};
    jfr_chunk *c = chunk_with_junk(zero, sizeof zero);
    jfr_event_iter *it;
    const jfr_event *ev;
    const jfr_error *e;
    uint64_t bad;

    ev = unit_first_event(c, &it);
    cr_assert_eq(jfr_event_start_ticks(ev), 1);
    bad = jfr_event_offset(ev) + jfr_event_size(ev);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_ECORRUPT);
    e = jfr_recording_error(rec);
    cr_assert_eq(e->code, JFR_ECORRUPT);
    cr_assert_eq(e->chunk, 0);
    cr_assert_eq(e->offset, bad, "at the bad record");
    cr_assert_eq(jfr_event_next(&ev, it), JFR_DONE, "no loop on the same record");
    jfr_event_iter_free(it);
}

Test(event, size_past_chunk_end_is_corrupt)
{
    static const uint8_t big[] = {0xc8, 0x01, 0x14}; /* size 200, type id 20 */
    jfr_chunk *c = chunk_with_junk(big, sizeof big);
    jfr_event_iter *it;
    const jfr_event *ev;

    ev = unit_first_event(c, &it);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_ECORRUPT);
    cr_assert(strstr(jfr_recording_error(rec)->message, "impossible size 200") != NULL,
              "%s", jfr_recording_error(rec)->message);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_DONE);
    jfr_event_iter_free(it);
}

Test(event, truncated_size_varint_is_corrupt)
{
    jg_chunk *ch = new_chunk();
    jfr_chunk *c;
    jfr_event_iter *it;
    const jfr_event *ev;

    event_a(ch, 1, 0);
    jg_u8(jg_raw(ch), 0x85); /* a size varint cut by the chunk end */
    c = unit_open_chunk(ch);
    ev = unit_first_event(c, &it);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_ECORRUPT);
    jfr_event_iter_free(it);
}

Test(event, record_too_short_for_its_type_id)
{
    static const uint8_t cut[] = {0x02, 0x80}; /* size 2: the type id is cut */
    jfr_chunk *c = chunk_with_junk(cut, sizeof cut);
    jfr_event_iter *it;
    const jfr_event *ev;

    ev = unit_first_event(c, &it);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_ECORRUPT);
    jfr_event_iter_free(it);
}

Test(event, padded_sizes_and_slack)
{
    jg_chunk *ch = new_chunk();
    jfr_chunk *c;
    jfr_event_iter *it;
    const jfr_event *ev;
    unsigned widths[] = {1, 2, 4, 5, 8, 9};
    jfr_value v;
    size_t i = 0;

    for (size_t w = 0; w < 6; w++) {
        jg_buf *e = jg_event_padded(ch, ID_A, widths[w]);
        jg_i64(e, (int64_t)w);
        jg_i32(e, -1);
    }
    {
        /* a writer may leave slack after the fields: the size rules */
        jg_buf *e = jg_event(ch, ID_A);
        jg_i64(e, 6);
        jg_i32(e, -1);
        jg_bytes(e, "slack", 5);
    }
    event_a(ch, 7, 3);
    c = unit_open_chunk(ch);
    cr_assert_eq(jfr_event_iter_new(&it, c, NULL, 0, 0), JFR_OK);
    while (jfr_event_next(&ev, it) == JFR_OK) {
        cr_assert_eq(jfr_event_start_ticks(ev), (int64_t)i);
        cr_assert_eq(jfr_event_field(&v, ev, "n"), JFR_OK);
        cr_assert_eq(v.as.i, i == 7 ? 3 : -1);
        if (i < 6)
            /* padded size + 1 (type id) + 1 (start) + 5 (int -1) */
            cr_assert_eq(jfr_event_size(ev), widths[i] + 7, "width %u", widths[i]);
        i++;
    }
    cr_assert_eq(i, 8);
    jfr_event_iter_free(it);
}

Test(event, seek)
{
    jfr_chunk *c = mixed_chunk();
    jfr_event_iter *it;
    const jfr_event *ev;
    uint64_t offsets[4];
    size_t n = 0;

    cr_assert_eq(jfr_event_iter_new(&it, c, NULL, 0, 0), JFR_OK);
    while (jfr_event_next(&ev, it) == JFR_OK)
        offsets[n++] = jfr_event_offset(ev);
    cr_assert_eq(n, 4);
    /* visit in reverse */
    for (size_t i = n; i-- > 0;) {
        cr_assert_eq(jfr_event_iter_seek(it, offsets[i]), JFR_OK);
        cr_assert_eq(jfr_event_next(&ev, it), JFR_OK);
        cr_assert_eq(jfr_event_offset(ev), offsets[i]);
        cr_assert_eq(jfr_event_start_ticks(ev), 10 * (int64_t)(i + 1));
    }
    cr_assert_eq(jfr_event_iter_seek(it, 67), JFR_EINVAL, "inside the header");
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(jfr_event_iter_seek(it, offsets[i] + 1), JFR_EINVAL,
                     "inside record %zu: refused at once, not decoded as garbage", i);
    cr_assert_eq(jfr_event_iter_seek(it, bytes.len + 1), JFR_EINVAL, "past the chunk");
    cr_assert_eq(jfr_event_iter_seek(it, bytes.len), JFR_OK, "the end is a position");
    cr_assert_eq(jfr_event_next(&ev, it), JFR_DONE);
    cr_assert_eq(jfr_event_iter_seek(NULL, 68), JFR_EINVAL);
    jfr_event_iter_free(it);
}

Test(event, seek_recovers_after_corruption)
{
    static const uint8_t zero[] = {0x00};
    jfr_chunk *c = chunk_with_junk(zero, sizeof zero);
    jfr_event_iter *it;
    const jfr_event *ev;
    uint64_t bad;

    ev = unit_first_event(c, &it);
    bad = jfr_event_offset(ev) + jfr_event_size(ev);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_ECORRUPT);
    cr_assert_eq(jfr_event_iter_seek(it, bad + 1), JFR_OK, "just past the bad byte");
    cr_assert_eq(jfr_event_next(&ev, it), JFR_OK);
    cr_assert_eq(jfr_event_start_ticks(ev), 2);
    jfr_event_iter_free(it);
}

Test(event, fixed_width_integers)
{
    jg_chunk *ch = jg_chunk_new();
    jg_elem *e;
    jfr_chunk *c;
    jfr_event_iter *it;
    const jfr_event *ev;
    jfr_value v;

    jg_chunk_fixed_ints(ch);
    jg_primitives(ch);
    e = jg_class(ch, ID_A, "test.A", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_field(e, "n", JG_INT, 0);
    event_a(ch, 0x123456789, -2);
    event_a(ch, 5, 6);
    c = unit_open_chunk(ch);
    ev = unit_first_event(c, &it);
    cr_assert_eq(jfr_event_size(ev), 4 + 8 + 8 + 4, "fixed size, type id and fields");
    cr_assert_eq(jfr_event_start_ticks(ev), 0x123456789);
    cr_assert_eq(jfr_event_field(&v, ev, "n"), JFR_OK);
    cr_assert_eq(v.as.i, -2);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_OK);
    cr_assert_eq(jfr_event_start_ticks(ev), 5);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_DONE);
    jfr_event_iter_free(it);
}

Test(event, missing_field_and_bad_arguments)
{
    jfr_chunk *c = mixed_chunk();
    jfr_event_iter *it;
    const jfr_event *ev;
    jfr_value v;

    ev = unit_first_event(c, &it);
    cr_assert_eq(jfr_event_field(&v, ev, "nope"), JFR_ENOTFOUND);
    cr_assert_eq(jfr_event_next(NULL, it), JFR_EINVAL);
    cr_assert_eq(jfr_event_iter_new(NULL, c, NULL, 0, 0), JFR_EINVAL);
    cr_assert_eq(jfr_event_iter_new(&it, c, NULL, 2, 0), JFR_EINVAL,
                 "count without names");
    cr_assert_null(jfr_event_type(NULL));
    cr_assert_eq(jfr_event_size(NULL), 0);
    jfr_event_iter_free(NULL);
    jfr_event_iter_free(it);
}

Test(event, no_start_time_field)
{
    jg_chunk *ch = jg_chunk_new();
    jfr_chunk *c;
    jfr_event_iter *it;
    const jfr_event *ev;

    jg_primitives(ch);
    jg_field(jg_class(ch, ID_A, "test.NoTime", "jdk.jfr.Event"), "n", JG_INT, 0);
    jg_class(ch, ID_B, "test.Empty", "jdk.jfr.Event");
    jg_i32(jg_event(ch, ID_A), 77);
    jg_event(ch, ID_B);
    c = unit_open_chunk(ch);
    ev = unit_first_event(c, &it);
    cr_assert_eq(jfr_event_start_ticks(ev), 0);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_OK);
    cr_assert_eq(jfr_event_size(ev), 2, "an event with no fields");
    cr_assert_eq(jfr_event_start_ticks(ev), 0);
    jfr_event_iter_free(it);
}

Test(event, numbers_and_timespans)
{
    enum { ID_TIMESPAN = 30, ID_UNSIGNED = 31 };
    jg_chunk *ch = jg_chunk_new();
    jg_elem *e;
    jg_buf *b;
    jfr_chunk *c;
    jfr_event_iter *it;
    const jfr_event *ev;

    jg_primitives(ch);
    jg_class(ch, ID_TIMESPAN, "jdk.jfr.Timespan", "java.lang.annotation.Annotation");
    jg_class(ch, ID_UNSIGNED, "jdk.jfr.Unsigned", "java.lang.annotation.Annotation");
    e = jg_class(ch, ID_A, "test.A", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_annotate(jg_field(e, "ms", JG_LONG, 0), ID_TIMESPAN, "MILLISECONDS");
    jg_annotate(jg_field(e, "ticks", JG_LONG, 0), ID_TIMESPAN, "TICKS");
    jg_annotate(jg_field(e, "u", JG_LONG, 0), ID_UNSIGNED, NULL);
    jg_field(e, "d", JG_DOUBLE, 0);
    jg_field(e, "s", JG_STRING, 0);
    b = jg_event(ch, ID_A);
    jg_i64(b, 1);
    jg_i64(b, 3);
    jg_i64(b, 5000);
    jg_i64(b, -1);
    jg_f64(b, 2.5);
    jg_string(b, "x");
    c = unit_open_chunk(ch);
    ev = unit_first_event(c, &it);
    cr_assert_float_eq(jfr_event_timespan_nanos(ev, "ms"), 3e6, 1e-9);
    cr_assert_float_eq(jfr_event_timespan_nanos(ev, "ticks"),
                       (double)jfr_chunk_ticks_to_nanos(c, 5000), 1e-9);
    cr_assert_float_eq(jfr_event_number(ev, "ms"), 3, 1e-9, "a number in its own unit");
    cr_assert_float_eq(jfr_event_number(ev, "u"), 18446744073709551615.0, 1, "unsigned");
    cr_assert_float_eq(jfr_event_number(ev, "d"), 2.5, 1e-12);
    cr_assert(isnan(jfr_event_number(ev, "s")), "a string is not a number");
    cr_assert(isnan(jfr_event_number(ev, "nope")), "no such field");
    cr_assert(isnan(jfr_event_timespan_nanos(ev, "d")), "a timespan is an integer");
    jfr_event_iter_free(it);
}

/* libjfr/record_index.c: from a chunk's second filtered walk on, the walk
 * visits only the kept records; what it returns must not change. */
Test(event, repeated_filtered_walks_agree)
{
    jfr_chunk *c = mixed_chunk();
    static const char *const only_a[] = {"test.A"};
    static const char *const only_b[] = {"test.B"};
    const uint32_t *at;
    uint32_t *owned;
    size_t n;
    int64_t got[8];
    uint8_t *keep = calloc(c->meta.ntypes, 1);

    for (int walk = 0; walk < 3; walk++) {
        cr_assert_eq(collect(c, only_a, 1, 0, got, 8), 2, "walk %d", walk);
        cr_assert_eq(got[0], 10);
        cr_assert_eq(got[1], 40);
        cr_assert_eq(collect(c, only_b, 1, 0, got, 8), 2, "walk %d", walk);
        cr_assert_eq(got[0], 20, "the two test.B types in file order");
        cr_assert_eq(got[1], 30);
    }
    /* the lists exist now: test.A's two records, by offset */
    keep[jfr_type_index(jfr_chunk_type_by_id(c, ID_A))] = 1;
    cr_assert_eq(jfrp_record_index_use(c, keep, false, &at, &n, &owned), 1);
    cr_assert_eq(n, 2);
    cr_assert_null(owned, "one type: the recording's own list");
    cr_assert_gt(at[1], at[0]);
    for (size_t i = 0; i < n; i++) {
        jfr_event_iter *it;
        const jfr_event *ev;
        cr_assert_eq(jfr_event_iter_new(&it, c, NULL, 0, 0), JFR_OK);
        cr_assert_eq(jfr_event_iter_seek(it, at[i]), JFR_OK, "a record starts there");
        cr_assert_eq(jfr_event_next(&ev, it), JFR_OK);
        cr_assert_eq(jfr_event_type_id(ev), ID_A);
        cr_assert_eq(jfr_event_start_ticks(ev), i == 0 ? 10 : 40);
        jfr_event_iter_free(it);
    }
    keep[jfr_type_index(jfr_chunk_type_by_id(c, ID_B2))] = 1;
    cr_assert_eq(jfrp_record_index_use(c, keep, false, &at, &n, &owned), 1);
    cr_assert_eq(n, 3, "test.A's two and test.B2's one");
    cr_assert_not_null(owned, "two types: merged in file order");
    for (size_t i = 1; i < n; i++)
        cr_assert_gt(at[i], at[i - 1]);
    free(owned);
    free(keep);
}

/* JFR_ITER_INDEX: the lists are made on the first walk, not the second,
 * and the walks return what they return without them. */
Test(event, index_flag_lists_on_the_first_walk)
{
    static const char *const only_a[] = {"test.A"};
    static const char *const only_b[] = {"test.B"};
    int64_t got[8];
    jfr_chunk *c = mixed_chunk();

    cr_assert_eq(collect(c, only_a, 1, 0, got, 8), 2);
    cr_assert_eq(c->rec->rindex_bytes, 0, "one plain walk lists nothing");
    c = mixed_chunk(); /* a new recording */
    cr_assert_eq(collect(c, only_a, 1, JFR_ITER_INDEX, got, 8), 2);
    cr_assert_eq(got[0], 10);
    cr_assert_eq(got[1], 40);
    cr_assert_gt(c->rec->rindex_bytes, 0, "listed on the first walk");
    cr_assert_eq(collect(c, only_b, 1, 0, got, 8), 2);
    cr_assert_eq(got[0], 20, "the two test.B types in file order");
    cr_assert_eq(got[1], 30);
}

Test(event, walks_after_rewind_use_the_lists)
{
    static const char *const only_a[] = {"test.A"};
    int64_t got[8];
    jfr_chunk *c;

    mixed_chunk();
    for (int pass = 0; pass < 3; pass++) {
        cr_assert_eq(jfr_recording_rewind(rec), JFR_OK);
        c = unit_next_chunk(rec);
        cr_assert_eq(collect(c, only_a, 1, 0, got, 8), 2, "pass %d", pass);
        cr_assert_eq(got[0], 10);
        cr_assert_eq(got[1], 40);
    }
    cr_assert_eq(rec->nrindex, 1, "one chunk listed, whatever the passes");
}

/* jfr_recording_index_records: every chunk listed ahead in two threads;
 * the walks then use those lists (they make none) and return what they
 * return without them, and a chunk with a damaged record is still walked
 * to the damage. */
Test(event, records_listed_ahead_in_threads)
{
    static const uint8_t zero[] = {0x00};
    static const char *const only_a[] = {"test.A"};
    static const char *const only_b[] = {"test.B"};
    int64_t got[8];

    unit_close();
    for (int i = 0; i < 4; i++) {
        jg_chunk *g = new_chunk();
        event_a(g, 10 + i, 1);
        event_b(g, ID_B, 20 + i);
        if (i == 2)
            jg_bytes(jg_raw(g), zero, sizeof zero);
        event_b(g, ID_B2, 30 + i);
        event_a(g, 40 + i, 2);
        jg_chunk_build(g, &bytes);
        jg_chunk_free(g);
    }
    rec = unit_open(&bytes);
    cr_assert_eq(jfr_recording_index_records(NULL, NULL, 0, 2), JFR_EINVAL);
    cr_assert_eq(jfr_recording_index_records(rec, NULL, 1, 2), JFR_EINVAL);
    cr_assert_eq(jfr_recording_index_records(rec, NULL, 0, 2), JFR_OK);
    cr_assert_eq(rec->nrindex, 4, "every chunk has its entry");
    for (int i = 0; i < 4; i++) {
        jfr_chunk *c = unit_next_chunk(rec);
        jfr_event_iter *it;
        const jfr_event *ev;
        uint8_t *keep = calloc(c->meta.ntypes, 1);
        const uint32_t *at;
        uint32_t *owned;
        size_t n;

        /* before any walk: listed, but for the damaged chunk */
        keep[jfr_type_index(jfr_chunk_type_by_id(c, ID_A))] = 1;
        cr_assert_eq(jfrp_record_index_use(c, keep, false, &at, &n, &owned), i != 2,
                     "chunk %d", i);
        free(keep);

        if (i == 2) {
            cr_assert_eq(jfr_event_iter_new(&it, c, only_a, 1, 0), JFR_OK);
            cr_assert_eq(jfr_event_next(&ev, it), JFR_OK);
            cr_assert_eq(jfr_event_start_ticks(ev), 12);
            cr_assert_eq(jfr_event_next(&ev, it), JFR_ECORRUPT, "walked to the damage");
            jfr_event_iter_free(it);
            continue;
        }
        cr_assert_eq(collect(c, only_a, 1, 0, got, 8), 2, "chunk %d", i);
        cr_assert_eq(got[0], 10 + i);
        cr_assert_eq(got[1], 40 + i);
        cr_assert_eq(collect(c, only_b, 1, 0, got, 8), 2, "chunk %d", i);
        cr_assert_eq(got[0], 20 + i, "the two test.B types in file order");
        cr_assert_eq(got[1], 30 + i);
    }
    cr_assert_eq(rec->nrindex, 4, "the walks listed nothing more");
}

/* Listed ahead for test.A only: walks for test.A use those lists; a walk
 * for test.B walks the chunk, and the next lists every type, as for a
 * chunk without lists; what each walk returns never changes. */
Test(event, records_listed_ahead_for_some_types)
{
    static const char *const only_a[] = {"test.A"};
    static const char *const only_b[] = {"test.B"};
    int64_t got[8];
    jfr_chunk *c;
    uint8_t *keep;
    const uint32_t *at;
    uint32_t *owned;
    size_t n;

    unit_close();
    for (int i = 0; i < 2; i++) { /* two chunks: the threads share them out */
        jg_chunk *g = new_chunk();
        event_a(g, 10, 1);
        event_b(g, ID_B, 20);
        event_b(g, ID_B2, 30);
        event_a(g, 40, 2);
        jg_chunk_build(g, &bytes);
        jg_chunk_free(g);
    }
    rec = unit_open(&bytes);
    cr_assert_eq(jfr_recording_index_records(rec, only_a, 1, 2), JFR_OK);
    c = unit_next_chunk(rec);
    keep = calloc(c->meta.ntypes, 1);
    keep[jfr_type_index(jfr_chunk_type_by_id(c, ID_A))] = 1;
    cr_assert_eq(jfrp_record_index_use(c, keep, false, &at, &n, &owned), 1);
    cr_assert_eq(n, 2, "test.A's records listed ahead");
    memset(keep, 0, c->meta.ntypes);
    keep[jfr_type_index(jfr_chunk_type_by_id(c, ID_B))] = 1;
    cr_assert_eq(jfrp_record_index_use(c, keep, false, &at, &n, &owned), 0,
                 "test.B was not listed: its first walk walks");
    cr_assert_eq(jfrp_record_index_use(c, keep, false, &at, &n, &owned), 1,
                 "its second lists every type");
    cr_assert_eq(n, 1);
    free(keep);
    for (int walk = 0; walk < 2; walk++) {
        cr_assert_eq(collect(c, only_a, 1, 0, got, 8), 2);
        cr_assert_eq(got[0], 10);
        cr_assert_eq(got[1], 40);
        cr_assert_eq(collect(c, only_b, 1, 0, got, 8), 2);
        cr_assert_eq(got[0], 20);
        cr_assert_eq(got[1], 30);
    }
}

/* The bytes of the first chunk's event records, walked: records other
 * than metadata (0) and checkpoints (1). */
static uint64_t walked_event_bytes(jfr_recording *r)
{
    jfr_chunk *c;
    jfr_event_iter *it;
    const jfr_event *ev;
    uint64_t sum = 0;

    cr_assert_eq(jfr_recording_rewind(r), JFR_OK);
    c = unit_next_chunk(r);
    cr_assert_eq(jfr_event_iter_new(&it, c, NULL, 0, JFR_ITER_ALL_RECORDS), JFR_OK);
    while (jfr_event_next(&ev, it) == JFR_OK)
        if (jfr_event_type_id(ev) > 1)
            sum += (uint64_t)(ev->end - ev->start);
    jfr_event_iter_free(it);
    return sum;
}

/* jfr_recording_event_bytes_estimate: from the header, the metadata record
 * and the checkpoint chain, a one-chunk recording's event bytes exactly
 * (its records walked are the oracle), generated and recorded by a JVM. */
Test(event, event_bytes_from_the_checkpoint_chain)
{
    static const char *const files[] = {"recordings/cpu-jdk25.jfr",
                                        "recordings/leak-jdk17.jfr"};

    mixed_chunk();
    cr_assert_eq(jfr_recording_event_bytes_estimate(rec), walked_event_bytes(rec));
    cr_assert_lt(jfr_recording_event_bytes_estimate(rec), jfr_recording_size(rec));
    cr_assert_eq(jfr_recording_event_bytes_estimate(NULL), 0);
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        jfr_recording *r = testdata_open(files[i], NULL);
        uint64_t est = jfr_recording_event_bytes_estimate(r);

        cr_assert_gt(est, 0, "%s", files[i]);
        cr_assert_eq(est, walked_event_bytes(r), "%s", files[i]);
        jfr_recording_free(r);
    }
}

Test(event, damaged_chunk_is_walked_each_time)
{
    static const uint8_t zero[] = {0x00};
    static const char *const only_a[] = {"test.A"};
    jfr_chunk *c = chunk_with_junk(zero, sizeof zero);

    for (int walk = 0; walk < 3; walk++) {
        jfr_event_iter *it;
        const jfr_event *ev;
        cr_assert_eq(jfr_event_iter_new(&it, c, only_a, 1, 0), JFR_OK);
        cr_assert_eq(jfr_event_next(&ev, it), JFR_OK);
        cr_assert_eq(jfr_event_start_ticks(ev), 1);
        cr_assert_eq(jfr_event_next(&ev, it), JFR_ECORRUPT,
                     "walk %d stops at the bad record as the first did", walk);
        jfr_event_iter_free(it);
    }
}

Test(event, seek_leaves_the_lists)
{
    static const char *const only_b[] = {"test.B"};
    jfr_chunk *c = mixed_chunk();
    jfr_event_iter *it;
    const jfr_event *ev;
    int64_t got[8];

    collect(c, only_b, 1, 0, got, 8);
    cr_assert_eq(jfr_event_iter_new(&it, c, only_b, 1, 0), JFR_OK);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_OK);
    cr_assert_eq(jfr_event_start_ticks(ev), 20);
    cr_assert_eq(jfr_event_iter_seek(it, 68), JFR_OK);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_OK, "from the start again");
    cr_assert_eq(jfr_event_start_ticks(ev), 20);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_OK);
    cr_assert_eq(jfr_event_start_ticks(ev), 30);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_DONE);
    jfr_event_iter_free(it);
}

/* JFR_ITER_BY_END_TIME over many events: ends never go back, and events
 * that end at the same tick come in file order (test.A's n counts them in
 * the file). The starts span 2^40 ticks and repeat, so the sort takes
 * several passes and meets ties; a second chunk in order moves nothing. */
Test(event, by_end_time_is_stable_over_many_events)
{
    enum { N = 5000 };
    jg_chunk *c = new_chunk();
    jfr_event_iter *it;
    const jfr_event *ev;
    uint64_t x = 88172645463325252u;
    int64_t last_start = INT64_MIN;
    int32_t last_n = -1;
    size_t seen = 0;

    for (int32_t i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift */
        event_a(c, (int64_t)(x % 1000) << 30, i);
    }
    cr_assert_eq(
        jfr_event_iter_new(&it, unit_open_chunk(c), NULL, 0, JFR_ITER_BY_END_TIME),
        JFR_OK);
    while (jfr_event_next(&ev, it) == JFR_OK) {
        int64_t start = jfr_event_start_ticks(ev), n;
        jfr_value v;
        cr_assert_eq(jfr_event_field(&v, ev, "n"), JFR_OK);
        n = v.as.i;
        cr_assert_geq(start, last_start, "event %zu ends before the one before it", seen);
        if (start == last_start)
            cr_assert_gt(n, last_n, "a tie out of file order at event %zu", seen);
        last_start = start;
        last_n = (int32_t)n;
        seen++;
    }
    cr_assert_eq(seen, N);
    jfr_event_iter_free(it);
}
