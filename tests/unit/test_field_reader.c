/* test_field_reader.c - chosen fields of events in one pass
 * (jfr_field_reader, jfr/event.h): each field as the generic read
 * (jfr_event_field) gives it, fields of other shapes not read, a short
 * event's error. */
#include <criterion/criterion.h>

#include "jfr.h"
#include "jfrgen.h"
#include "unit_util.h"
#include "unit_fixture.h"

enum { ID_R = 20, ID_WHO = 21, ID_OTHER = 22 };

TestSuite(field_reader, .fini = unit_close);

/* test.R { long startTime, String note, byte b, short s, char ch,
 * test.Who who (pooled), int[] arr, boolean flag, int n } */
static jg_chunk *new_chunk(void)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *e;

    jg_primitives(c);
    e = jg_class(c, ID_R, "test.R", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_field(e, "note", JG_STRING, 0);
    jg_field(e, "b", JG_BYTE, 0);
    jg_field(e, "s", JG_SHORT, 0);
    jg_field(e, "ch", JG_CHAR, 0);
    jg_field(e, "who", ID_WHO, JG_POOL);
    jg_field(e, "arr", JG_INT, JG_ARRAY);
    jg_field(e, "flag", JG_BOOLEAN, 0);
    jg_field(e, "n", JG_INT, 0);
    jg_field(jg_class(c, ID_WHO, "test.Who", NULL), "name", JG_STRING, 0);
    jg_field(jg_class(c, ID_OTHER, "test.Other", "jdk.jfr.Event"), "startTime", JG_LONG,
             0);
    jg_string(jg_entry(jg_pool_new(jg_checkpoint(c), ID_WHO), 7), "seven");
    return c;
}

static void event_r(jg_chunk *c, int8_t b, int16_t s, uint16_t ch, uint64_t who,
                    int32_t n)
{
    jg_buf *e = jg_event(c, ID_R);

    jg_i64(e, 100);
    jg_string(e, "a note");
    jg_u8(e, (uint8_t)b);
    jg_i16(e, s);
    jg_u16(e, ch);
    jg_varint(e, who);
    jg_i32(e, 2);
    jg_i32(e, 5);
    jg_i32(e, 6);
    jg_u8(e, 1);
    jg_i32(e, n);
}

static const jfr_event *first_event(jfr_chunk *chunk, const char *type)
{
    const jfr_event *ev;

    cr_assert_eq(jfr_event_iter_new(&iter, chunk, &type, 1, 0), JFR_OK);
    cr_assert_eq(jfr_event_next(&ev, iter), JFR_OK);
    return ev;
}

Test(field_reader, fields_as_the_generic_read_gives_them)
{
    static const char *const names[] = {"n", "who", "s", "b", "ch", "flag", "missing"};
    jg_chunk *c = new_chunk();
    jfr_field_reader *rd;
    jfr_field_bits out[7];
    const jfr_event *ev;
    jfr_chunk *chunk;

    event_r(c, -3, -1234, 0xfffe, 7, -42);
    chunk = unit_open_chunk(c);
    ev = first_event(chunk, "test.R");
    cr_assert_eq(jfr_field_reader_new(&rd, jfr_event_type(ev), names, 7, NULL), JFR_OK);
    cr_assert_eq(jfr_field_reader_read(out, rd, ev), JFR_OK);
    for (size_t i = 0; i < 6; i++) {
        jfr_value v;
        cr_assert_eq(jfr_event_field(&v, ev, names[i]), JFR_OK);
        cr_assert(out[i].read, "%s not read", names[i]);
        cr_assert_eq(out[i].pooled, v.pooled, "%s", names[i]);
        if (v.pooled) {
            cr_assert_eq(out[i].bits, v.key);
            cr_assert_eq(out[i].bits, 7);
        } else if (v.kind == JFR_VALUE_INT) {
            cr_assert_eq(out[i].i, v.as.i, "%s: %lld, not %lld", names[i],
                         (long long)out[i].i, (long long)v.as.i);
            cr_assert_eq(out[i].bits, v.bits, "%s", names[i]);
        } else {
            cr_assert_eq(v.kind, JFR_VALUE_BOOLEAN);
            cr_assert_eq(out[i].bits, 1);
        }
    }
    cr_assert_eq(out[0].i, -42);
    cr_assert_eq(out[2].i, -1234);
    cr_assert_eq(out[3].i, -3);
    cr_assert_eq(out[4].i, 0xfffe); /* char is unsigned */
    cr_assert_not(out[6].read);
    cr_assert_eq(out[6].bits, 0);
    jfr_field_reader_free(rd);
}

Test(field_reader, other_shapes_are_not_read)
{
    static const char *const names[] = {"note", "arr", "n"};
    jg_chunk *c = new_chunk();
    jfr_field_reader *rd;
    jfr_field_bits out[3];
    const jfr_event *ev;

    event_r(c, 1, 2, 3, 7, 99);
    ev = first_event(unit_open_chunk(c), "test.R");
    cr_assert_eq(jfr_field_reader_new(&rd, jfr_event_type(ev), names, 3, NULL), JFR_OK);
    cr_assert_eq(jfr_field_reader_read(out, rd, ev), JFR_OK);
    cr_assert_not(out[0].read); /* an inline string */
    cr_assert_not(out[1].read); /* an array */
    cr_assert(out[2].read);     /* the fields before it were skipped */
    cr_assert_eq(out[2].i, 99);
    jfr_field_reader_free(rd);
}

Test(field_reader, a_short_event_is_corrupt_after_what_it_holds)
{
    static const char *const names[] = {"startTime", "who"};
    jg_chunk *c = new_chunk();
    jfr_field_reader *rd;
    jfr_field_bits out[2];
    const jfr_event *ev;

    jg_i64(jg_event(c, ID_R), 100); /* ends after its first field */
    ev = first_event(unit_open_chunk(c), "test.R");
    cr_assert_eq(jfr_field_reader_new(&rd, jfr_event_type(ev), names, 2, NULL), JFR_OK);
    cr_assert_eq(jfr_field_reader_read(out, rd, ev), JFR_ECORRUPT);
    cr_assert(out[0].read);
    cr_assert_eq(out[0].i, 100);
    cr_assert_not(out[1].read);
    jfr_field_reader_free(rd);
}

Test(field_reader, arguments_are_checked)
{
    static const char *const names[JFR_FIELD_READER_MAX + 1] = {"n"};
    jg_chunk *c = new_chunk();
    jfr_field_reader *rd;
    jfr_field_bits out[1];
    const jfr_event *ev;
    jfr_chunk *chunk;

    jg_i64(jg_event(c, ID_OTHER), 5);
    chunk = unit_open_chunk(c);
    ev = first_event(chunk, "test.Other");
    cr_assert_eq(jfr_field_reader_new(NULL, jfr_event_type(ev), names, 1, NULL),
                 JFR_EINVAL);
    cr_assert_eq(jfr_field_reader_new(&rd, NULL, names, 1, NULL), JFR_EINVAL);
    cr_assert_null(rd);
    cr_assert_eq(jfr_field_reader_new(&rd, jfr_event_type(ev), names,
                                      JFR_FIELD_READER_MAX + 1, NULL),
                 JFR_EINVAL);
    /* a reader of test.R does not read a test.Other */
    cr_assert_eq(jfr_field_reader_new(&rd, jfr_chunk_type_by_name(chunk, "test.R"), names,
                                      1, NULL),
                 JFR_OK);
    cr_assert_eq(jfr_field_reader_read(out, rd, ev), JFR_EINVAL);
    cr_assert_not(out[0].read);
    cr_assert_eq(jfr_field_reader_read(NULL, rd, ev), JFR_EINVAL);
    jfr_field_reader_free(rd);
    jfr_field_reader_free(NULL);
}
