/* test_value.c - generic, metadata-driven values: primitives of every width,
 * strings, nested structs, arrays, pool references (libjfr/value.c,
 * jfr-format.md §4.3, §6.3). */
#include <math.h>

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "jfr_private.h"
#include "jfrgen.h"
#include "unit_util.h"
#include "unit_fixture.h"

enum {
    ID_EVENT = 20,
    ID_POINT = 30,
    ID_LINE = 31,
    ID_SYMBOL = 32,
    ID_NAME = 33,
    ID_EMPTY = 34,
};

TestSuite(value, .fini = unit_close);

/* Open the built chunk with `opts` and return its first event. */
static const jfr_event *first_event(jg_chunk *c, const jfr_options *opts)
{
    jfr_chunk *ch;

    unit_close();
    jg_chunk_build(c, &bytes);
    jg_chunk_free(c);
    cr_assert_eq(jfr_recording_open_memory(&rec, bytes.data, bytes.len, opts, NULL),
                 JFR_OK);
    ch = unit_next_chunk(rec);
    return unit_first_event(ch, &iter);
}

/* ---- integers ------------------------------------------------------------- */

/* A field of type `type_id` holding `raw` as written (a varint of those
 * bits, or fixed big-endian of the declared width), and what it reads as. */
typedef struct int_case {
    uint64_t type_id;
    bool fixed;
    uint64_t raw;
    int64_t want_i;
    uint64_t want_bits;
} int_case;

static int_case int_cases[] = {
    {JG_BYTE, false, 0x7f, 127, 0x7f},
    {JG_BYTE, false, 0xff, -1, 0xff},
    {JG_BYTE, false, 0x80, -128, 0x80},
    {JG_CHAR, false, 0xffff, 65535, 0xffff}, /* char is unsigned */
    {JG_CHAR, false, 0xe9, 0xe9, 0xe9},
    {JG_SHORT, false, 0xffff, -1, 0xffff}, /* ff ff 03 */
    {JG_SHORT, false, 0x8000, -32768, 0x8000},
    {JG_SHORT, false, UINT64_MAX, -1, 0xffff},   /* sign-extended by a writer */
    {JG_INT, false, 0xffffffff, -1, 0xffffffff}, /* ff ff ff ff 0f */
    {JG_INT, false, 0x80000000, INT32_MIN, 0x80000000},
    {JG_INT, false, 0x7fffffff, INT32_MAX, 0x7fffffff},
    {JG_INT, false, 0x1ffffffff, -1, 0xffffffff}, /* extra bits dropped */
    {JG_LONG, false, UINT64_MAX, -1, UINT64_MAX},
    {JG_LONG, false, (uint64_t)-8740, -8740, (uint64_t)-8740},
    {JG_LONG, false, UINT64_C(1) << 63, INT64_MIN, UINT64_C(1) << 63},
    {JG_LONG, false, 0, 0, 0},
    {JG_BYTE, true, 0xfe, -2, 0xfe},
    {JG_CHAR, true, 0x8001, 0x8001, 0x8001},
    {JG_SHORT, true, 0xfffe, -2, 0xfffe},
    {JG_INT, true, 0xfffffffe, -2, 0xfffffffe},
    {JG_LONG, true, UINT64_C(0x8000000000000001), INT64_MIN + 1,
     UINT64_C(0x8000000000000001)},
};

static unsigned width_of(uint64_t type_id)
{
    switch (type_id) {
    case JG_BYTE:
        return 1;
    case JG_CHAR:
    case JG_SHORT:
        return 2;
    case JG_INT:
        return 4;
    default:
        return 8;
    }
}

ParameterizedTestParameters(value, integers)
{
    return cr_make_param_array(int_case, int_cases,
                               sizeof int_cases / sizeof int_cases[0]);
}

ParameterizedTest(int_case *tc, value, integers)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *e;
    jg_buf *p;
    jfr_value v;
    const jfr_event *ev;

    if (tc->fixed)
        jg_chunk_fixed_ints(c);
    jg_primitives(c);
    e = jg_class(c, ID_EVENT, "test.Int", "jdk.jfr.Event");
    jg_field(e, "v", tc->type_id, 0);
    jg_field(e, "after", JG_BYTE, 0);
    p = jg_event(c, ID_EVENT);
    if (tc->type_id == JG_BYTE || tc->fixed)
        jg_be(p, tc->raw, width_of(tc->type_id));
    else
        jg_varint(p, tc->raw);
    jg_u8(p, 0x5a);
    ev = first_event(c, NULL);
    cr_assert_eq(jfr_event_field(&v, ev, "v"), JFR_OK);
    cr_assert_eq(v.kind, JFR_VALUE_INT);
    cr_assert_eq(v.as.i, tc->want_i, "as.i %lld", (long long)v.as.i);
    cr_assert_eq(v.bits, tc->want_bits, "bits %llx", (unsigned long long)v.bits);
    cr_assert_not(v.pooled);
    cr_assert_eq(jfr_type_id(v.type), tc->type_id);
    cr_assert_str_eq(jfr_field_name(v.field), "v");
    cr_assert_eq(jfr_event_field(&v, ev, "after"), JFR_OK);
    cr_assert_eq(v.as.i, 0x5a, "the next field starts right after");
}

Test(value, booleans)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *e;
    jg_buf *p;
    jfr_value v;
    const jfr_event *ev;

    jg_primitives(c);
    e = jg_class(c, ID_EVENT, "test.Bool", "jdk.jfr.Event");
    jg_field(e, "f", JG_BOOLEAN, 0);
    jg_field(e, "t", JG_BOOLEAN, 0);
    jg_field(e, "other", JG_BOOLEAN, 0);
    p = jg_event(c, ID_EVENT);
    jg_u8(p, 0);
    jg_u8(p, 1);
    jg_u8(p, 0x80); /* not a varint: one raw byte, non-zero is true */
    ev = first_event(c, NULL);
    cr_assert_eq(jfr_event_field(&v, ev, "f"), JFR_OK);
    cr_assert_eq(v.kind, JFR_VALUE_BOOLEAN);
    cr_assert_not(v.as.boolean);
    cr_assert_eq(jfr_event_field(&v, ev, "t"), JFR_OK);
    cr_assert(v.as.boolean);
    cr_assert_eq(jfr_event_field(&v, ev, "other"), JFR_OK);
    cr_assert(v.as.boolean);
    cr_assert_eq(v.bits, 0x80);
}

Test(value, floats_are_big_endian_ieee)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *e;
    jg_buf *p;
    jfr_value v;
    const jfr_event *ev;

    jg_primitives(c);
    e = jg_class(c, ID_EVENT, "test.Float", "jdk.jfr.Event");
    jg_field(e, "f", JG_FLOAT, 0);
    jg_field(e, "d", JG_DOUBLE, 0);
    jg_field(e, "nan", JG_DOUBLE, 0);
    jg_field(e, "inf", JG_FLOAT, 0);
    p = jg_event(c, ID_EVENT);
    jg_be(p, 0x3fc00000, 4);         /* 1.5f */
    jg_be(p, 0xc002000000000000, 8); /* -2.25 */
    jg_f64(p, NAN);
    jg_f32(p, -INFINITY);
    ev = first_event(c, NULL);
    cr_assert_eq(jfr_event_field(&v, ev, "f"), JFR_OK);
    cr_assert_eq(v.kind, JFR_VALUE_FLOAT);
    cr_assert(v.as.f == 1.5);
    cr_assert_eq(jfr_event_field(&v, ev, "d"), JFR_OK);
    cr_assert(v.as.f == -2.25);
    cr_assert_eq(jfr_event_field(&v, ev, "nan"), JFR_OK);
    cr_assert(isnan(v.as.f));
    cr_assert_eq(jfr_event_field(&v, ev, "inf"), JFR_OK);
    cr_assert(isinf(v.as.f) && v.as.f < 0);
}

/* ---- strings -------------------------------------------------------------- */

Test(value, strings_in_every_encoding)
{
    static const uint16_t utf16[] = {0x48, 0xe9, 0xd83d, 0xde00};
    jg_chunk *c = jg_chunk_new();
    jg_elem *e;
    jg_buf *p;
    jg_pool *pool;
    jfr_value v;
    const jfr_event *ev;
    static const char *const names[] = {"null",  "empty",  "pooled",  "utf8",
                                        "utf16", "latin1", "dangling"};

    jg_primitives(c);
    e = jg_class(c, ID_EVENT, "test.Strings", "jdk.jfr.Event");
    for (size_t i = 0; i < 7; i++)
        jg_field(e, names[i], JG_STRING, 0);
    pool = jg_pool_new(jg_checkpoint(c), JG_STRING);
    jg_string_utf16(jg_entry(pool, 12), "from the pool");
    p = jg_event(c, ID_EVENT);
    jg_str_null(p);
    jg_str_empty(p);
    jg_str_pool(p, 12);
    jg_str_utf8(p, "caf\xc3\xa9", 5);
    jg_str_utf16(p, utf16, 4);
    jg_str_latin1(p, "caf\xe9", 4);
    jg_str_pool(p, 13);
    ev = first_event(c, NULL);

    cr_assert_eq(jfr_event_field(&v, ev, "null"), JFR_OK);
    cr_assert_eq(v.kind, JFR_VALUE_NULL);
    cr_assert_eq(jfr_event_field(&v, ev, "empty"), JFR_OK);
    cr_assert_eq(v.kind, JFR_VALUE_STRING);
    cr_assert_eq(v.as.str.len, 0);
    cr_assert_str_eq(v.as.str.ptr, "");
    cr_assert_eq(jfr_event_field(&v, ev, "pooled"), JFR_OK);
    cr_assert(unit_str_eq(v.as.str, "from the pool"));
    cr_assert_eq(jfr_event_field(&v, ev, "utf8"), JFR_OK);
    cr_assert(unit_str_eq(v.as.str, "caf\xc3\xa9"));
    cr_assert_eq(jfr_event_field(&v, ev, "utf16"), JFR_OK);
    cr_assert(unit_str_eq(v.as.str, "H\xc3\xa9\xf0\x9f\x98\x80"));
    cr_assert_eq(jfr_event_field(&v, ev, "latin1"), JFR_OK);
    cr_assert(unit_str_eq(v.as.str, "caf\xc3\xa9"));
    cr_assert_eq(jfr_event_field(&v, ev, "dangling"), JFR_OK);
    cr_assert_eq(v.kind, JFR_VALUE_NULL, "an undefined string key is null");
}

Test(value, string_length_limit)
{
    jg_chunk *c = jg_chunk_new();
    jfr_options o = JFR_OPTIONS_INIT;
    jfr_value v;
    const jfr_event *ev;

    jg_elem *e;
    jg_buf *p;
    jg_pool *pool;

    jg_primitives(c);
    e = jg_class(c, ID_EVENT, "test.S", "jdk.jfr.Event");
    jg_field(e, "fits", JG_STRING, 0);
    jg_field(e, "pooled", JG_STRING, 0);
    jg_field(e, "inline", JG_STRING, 0);
    pool = jg_pool_new(jg_checkpoint(c), JG_STRING);
    jg_string(jg_entry(pool, 1), "0123456789");
    p = jg_event(c, ID_EVENT);
    jg_string(p, "012345678");
    jg_str_pool(p, 1);
    jg_string(p, "0123456789");
    o.max_string_length = 9;
    ev = first_event(c, &o);
    cr_assert_eq(jfr_event_field(&v, ev, "fits"), JFR_OK);
    cr_assert_eq(jfr_event_field(&v, ev, "pooled"), JFR_ELIMIT, "pool strings too");
    cr_assert_eq(jfr_recording_error(rec)->code, JFR_ELIMIT);
    cr_assert_eq(jfr_event_field(&v, ev, "inline"), JFR_ELIMIT);
}

/* ---- structs, arrays, pools ---------------------------------------------- */

/* test.Point {int x, int y}; test.Line {Point a, Point b inline}; the event:
 * {Line line, int[] ints, String[] strs, Point[] pts, Name pooled,
 *  Name[] names pooled, Symbol sym, Empty[] empties, byte tail} */
static jg_chunk *struct_chunk(void)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *e;

    jg_primitives(c);
    e = jg_class(c, ID_POINT, "test.Point", NULL);
    jg_field(e, "x", JG_INT, 0);
    jg_field(e, "y", JG_INT, 0);
    e = jg_class(c, ID_LINE, "test.Line", NULL);
    jg_field(e, "a", ID_POINT, 0);
    jg_field(e, "b", ID_POINT, 0);
    e = jg_class(c, ID_SYMBOL, "jdk.types.Symbol", NULL);
    jg_attr(e, "simpleType", "true");
    jg_field(e, "string", JG_STRING, 0);
    jg_field(jg_class(c, ID_NAME, "test.Name", NULL), "sym", ID_SYMBOL, JG_POOL);
    jg_class(c, ID_EMPTY, "test.Empty", NULL);
    e = jg_class(c, ID_EVENT, "test.Shapes", "jdk.jfr.Event");
    jg_field(e, "line", ID_LINE, 0);
    jg_field(e, "ints", JG_INT, JG_ARRAY);
    jg_field(e, "strs", JG_STRING, JG_ARRAY);
    jg_field(e, "pts", ID_POINT, JG_ARRAY);
    jg_field(e, "name", ID_NAME, JG_POOL);
    jg_field(e, "names", ID_NAME, JG_ARRAY | JG_POOL);
    jg_field(e, "sym", ID_SYMBOL, 0);
    jg_field(e, "empties", ID_EMPTY, JG_ARRAY);
    jg_field(e, "tail", JG_BYTE, 0);
    return c;
}

static void pools(jg_chunk *c)
{
    jg_cp *cp = jg_checkpoint(c);
    jg_pool *names = jg_pool_new(cp, ID_NAME), *syms = jg_pool_new(cp, ID_SYMBOL);

    jg_key(jg_entry(names, 1), 100);
    jg_key(jg_entry(names, 2), 200);
    jg_string(jg_entry(syms, 100), "hundred");
    jg_string(jg_entry(syms, 200), "two hundred");
}

static void shapes_event(jg_chunk *c, uint64_t nempties)
{
    jg_buf *p = jg_event(c, ID_EVENT);

    for (int i = 1; i <= 4; i++)
        jg_i32(p, i * 10); /* line */
    jg_count(p, 3);
    jg_i32(p, 1);
    jg_i32(p, -2);
    jg_i32(p, 3);
    jg_count(p, 2);
    jg_string(p, "s0");
    jg_str_null(p);
    jg_count(p, 2);
    jg_i32(p, 5), jg_i32(p, 6);
    jg_i32(p, 7), jg_i32(p, 8);
    jg_key(p, 1);
    jg_count(p, 3);
    jg_key(p, 2);
    jg_key(p, 9); /* dangling */
    jg_key(p, 1);
    jg_string(p, "inline symbol");
    jg_count(p, nempties);
    jg_u8(p, 0x33);
}

static const jfr_event *shapes(void)
{
    jg_chunk *c = struct_chunk();

    pools(c);
    shapes_event(c, 2);
    return first_event(c, NULL);
}

Test(value, nested_structs)
{
    const jfr_event *ev = shapes();
    jfr_value line, b, y, z;

    cr_assert_eq(jfr_event_field(&line, ev, "line"), JFR_OK);
    cr_assert_eq(line.kind, JFR_VALUE_OBJECT);
    cr_assert_str_eq(jfr_type_name(line.type), "test.Line");
    cr_assert_eq(jfr_value_field(&b, &line, "b"), JFR_OK);
    cr_assert_eq(b.kind, JFR_VALUE_OBJECT);
    cr_assert_eq(jfr_value_field(&y, &b, "y"), JFR_OK);
    cr_assert_eq(y.as.i, 40);
    cr_assert_eq(jfr_value_field_at(&y, &b, 0), JFR_OK);
    cr_assert_eq(y.as.i, 30);
    cr_assert_eq(jfr_value_field(&z, &y, "x"), JFR_EINVAL, "an int is not an object");
    cr_assert_eq(jfr_value_field_at(&z, &b, 2), JFR_ENOTFOUND);
    cr_assert_eq(jfr_value_field(&z, &b, "z"), JFR_ENOTFOUND);
}

/* The fields of the shapes event, in declaration order. */
static const char *const shape_fields[] = {"line",  "ints", "strs",    "pts", "name",
                                           "names", "sym",  "empties", "tail"};

Test(value, cursor_walks_fields_in_order)
{
    const jfr_event *ev = shapes();
    const char *const *want = shape_fields;
    jfr_value obj, v;
    jfr_cursor cur;
    size_t n = 0;
    int rc;

    cr_assert_eq(jfr_event_value(&obj, ev), JFR_OK);
    cr_assert_null(obj.field);
    cr_assert_eq(jfr_value_iter(&cur, &obj), JFR_OK);
    while ((rc = jfr_cursor_next(&v, &cur)) == JFR_OK) {
        cr_assert_lt(n, 9);
        cr_assert_str_eq(jfr_field_name(v.field), want[n]);
        n++;
    }
    cr_assert_eq(rc, JFR_DONE);
    cr_assert_eq(n, 9);
    cr_assert_eq(v.as.i, 0x33, "the last field, after every array");
    cr_assert_eq(jfr_value_iter(&cur, &v), JFR_EINVAL, "an int has no children");
}

/* The ABI promise of doc/internals.md: the structs callers allocate keep
 * their size, and libjfr's part of them is opaque. A change here is an
 * incompatible release (a new soname). */
Test(value, abi_sizes_and_opaque_storage)
{
    const jfr_event *ev = shapes();
    jfr_value obj, v, copy;
    jfr_cursor cur, zeroed;

    cr_assert_eq(sizeof(jfr_value), 96, "jfr_value is %zu bytes", sizeof(jfr_value));
    cr_assert_eq(sizeof(jfr_cursor), 192, "jfr_cursor is %zu bytes", sizeof(jfr_cursor));
    memset(&zeroed, 0, sizeof zeroed);
    cr_assert_eq(jfr_cursor_next(&v, &zeroed), JFR_EINVAL, "a cursor never started");
    /* a value copied by assignment iterates like the original */
    cr_assert_eq(jfr_event_value(&obj, ev), JFR_OK);
    copy = obj;
    cr_assert_eq(jfr_value_iter(&cur, &copy), JFR_OK);
    cr_assert_eq(jfr_cursor_next(&v, &cur), JFR_OK);
    cr_assert_str_eq(jfr_field_name(v.field), "line");
}

Test(value, arrays)
{
    const jfr_event *ev = shapes();
    jfr_value a, e, x;
    jfr_cursor cur;
    int64_t sum = 0;

    cr_assert_eq(jfr_event_field(&a, ev, "ints"), JFR_OK);
    cr_assert_eq(a.kind, JFR_VALUE_ARRAY);
    cr_assert_eq(a.as.length, 3);
    cr_assert_eq(jfr_type_kind(a.type), JFR_KIND_INT, "the element type");
    cr_assert_eq(jfr_value_element(&e, &a, 1), JFR_OK);
    cr_assert_eq(e.as.i, -2);
    cr_assert_eq(jfr_value_element(&e, &a, 3), JFR_ENOTFOUND);
    cr_assert_eq(jfr_value_iter(&cur, &a), JFR_OK);
    while (jfr_cursor_next(&e, &cur) == JFR_OK)
        sum += e.as.i;
    cr_assert_eq(sum, 2);

    cr_assert_eq(jfr_event_field(&a, ev, "strs"), JFR_OK);
    cr_assert_eq(jfr_value_element(&e, &a, 0), JFR_OK);
    cr_assert(unit_str_eq(e.as.str, "s0"));
    cr_assert_eq(jfr_value_element(&e, &a, 1), JFR_OK);
    cr_assert_eq(e.kind, JFR_VALUE_NULL);

    cr_assert_eq(jfr_event_field(&a, ev, "pts"), JFR_OK);
    cr_assert_eq(jfr_value_element(&e, &a, 1), JFR_OK);
    cr_assert_eq(e.kind, JFR_VALUE_OBJECT);
    cr_assert_eq(jfr_value_field(&x, &e, "x"), JFR_OK);
    cr_assert_eq(x.as.i, 7);

    cr_assert_eq(jfr_event_field(&a, ev, "empties"), JFR_OK);
    cr_assert_eq(a.as.length, 2);
    cr_assert_eq(jfr_value_element(&e, &a, 1), JFR_OK);
    cr_assert_eq(e.kind, JFR_VALUE_OBJECT);
    cr_assert_eq(jfr_value_field_at(&x, &e, 0), JFR_ENOTFOUND, "no fields");
    cr_assert_eq(jfr_value_element(&e, &x, 0), JFR_EINVAL, "not an array");
}

Test(value, pool_references)
{
    const jfr_event *ev = shapes();
    jfr_value name, sym, s, names, e;

    cr_assert_eq(jfr_event_field(&name, ev, "name"), JFR_OK);
    cr_assert_eq(name.kind, JFR_VALUE_OBJECT);
    cr_assert(name.pooled);
    cr_assert_eq(name.key, 1);
    cr_assert_eq(jfr_value_field(&sym, &name, "sym"), JFR_OK);
    cr_assert(sym.pooled);
    cr_assert_eq(sym.key, 100);
    cr_assert_eq(jfr_value_unwrap(&s, &sym), JFR_OK);
    cr_assert_eq(s.kind, JFR_VALUE_STRING);
    cr_assert(unit_str_eq(s.as.str, "hundred"));

    cr_assert_eq(jfr_event_field(&names, ev, "names"), JFR_OK);
    cr_assert_eq(names.as.length, 3);
    cr_assert_eq(jfr_value_element(&e, &names, 0), JFR_OK);
    cr_assert(e.pooled);
    cr_assert_eq(e.key, 2);
    cr_assert_eq(jfr_value_field(&sym, &e, "sym"), JFR_OK);
    cr_assert_eq(jfr_value_unwrap(&s, &sym), JFR_OK);
    cr_assert(unit_str_eq(s.as.str, "two hundred"));
    cr_assert_eq(jfr_value_element(&e, &names, 1), JFR_OK);
    cr_assert_eq(e.kind, JFR_VALUE_NULL);
    cr_assert_eq(e.key, 9);
    cr_assert_eq(jfr_value_field(&sym, &e, "sym"), JFR_ENOTFOUND, "fields of null");
}

Test(value, string_field_through_symbol)
{
    const jfr_event *ev = shapes();
    jfr_value name, line, pt, names, e;
    jfr_str s = {"junk", 4};

    cr_assert_eq(jfr_event_field(&name, ev, "name"), JFR_OK);
    cr_assert_eq(jfr_value_string_field(&s, &name, "sym"), JFR_OK);
    cr_assert(unit_str_eq(s, "hundred"), "a pooled Symbol, unwrapped");
    cr_assert_eq(jfr_value_string_field(&s, &name, "nope"), JFR_OK);
    cr_assert_null(s.ptr, "an absent field is no string, not an error");
    cr_assert_eq(jfr_event_field(&line, ev, "line"), JFR_OK);
    cr_assert_eq(jfr_value_field(&pt, &line, "a"), JFR_OK);
    s.ptr = "junk";
    cr_assert_eq(jfr_value_string_field(&s, &pt, "x"), JFR_OK);
    cr_assert_null(s.ptr, "an int field is no string");
    cr_assert_eq(jfr_event_field(&names, ev, "names"), JFR_OK);
    cr_assert_eq(jfr_value_element(&e, &names, 1), JFR_OK);
    cr_assert_eq(jfr_value_string_field(&s, &e, "sym"), JFR_OK);
    cr_assert_null(s.ptr, "fields of a null value");
    cr_assert_eq(jfr_value_string_field(NULL, &e, "sym"), JFR_EINVAL);
}

Test(value, unwrap)
{
    const jfr_event *ev = shapes();
    jfr_value sym, s, line, copy;

    cr_assert_eq(jfr_event_field(&sym, ev, "sym"), JFR_OK);
    cr_assert_not(sym.pooled);
    cr_assert_eq(jfr_value_unwrap(&s, &sym), JFR_OK);
    cr_assert(unit_str_eq(s.as.str, "inline symbol"));
    cr_assert_eq(jfr_event_field(&line, ev, "line"), JFR_OK);
    cr_assert_eq(jfr_value_unwrap(&copy, &line), JFR_OK);
    cr_assert_eq(copy.kind, JFR_VALUE_OBJECT);
    cr_assert_eq(copy.type, line.type, "not simple: unchanged");
    cr_assert_eq(jfr_value_unwrap(&copy, &s), JFR_OK);
    cr_assert(unit_str_eq(copy.as.str, "inline symbol"));
}

Test(value, array_length_limit)
{
    jg_chunk *c = struct_chunk();
    jfr_options o = JFR_OPTIONS_INIT;
    const jfr_event *ev;
    jfr_value v;

    pools(c);
    shapes_event(c, 2);
    o.max_array_length = 2; /* "strs" and "names" would fit, "ints" not */
    ev = first_event(c, &o);
    cr_assert_eq(jfr_event_field(&v, ev, "line"), JFR_OK);
    cr_assert_eq(jfr_event_field(&v, ev, "ints"), JFR_ELIMIT, "3 elements");
    cr_assert_eq(jfr_recording_error(rec)->code, JFR_ELIMIT);
}

Test(value, zero_size_elements_are_capped_by_the_limit)
{
    jg_chunk *c = struct_chunk();
    jfr_options o = JFR_OPTIONS_INIT;
    const jfr_event *ev;
    jfr_value v;

    pools(c);
    shapes_event(c, 0x7fffffff); /* more empty structs than bytes: legal */
    o.max_array_length = 1000;
    ev = first_event(c, &o);
    cr_assert_eq(jfr_event_field(&v, ev, "sym"), JFR_OK);
    cr_assert_eq(jfr_event_field(&v, ev, "empties"), JFR_ELIMIT);
}

Test(value, array_count_past_the_record_is_corrupt)
{
    jg_chunk *c = struct_chunk();
    jg_buf *p;
    const jfr_event *ev;
    jfr_value v;

    p = jg_event(c, ID_EVENT);
    for (int i = 0; i < 4; i++)
        jg_i32(p, i);
    jg_count(p, 1000); /* ints: 1000 elements in 1 byte */
    jg_i32(p, 1);
    ev = first_event(c, NULL);
    cr_assert_eq(jfr_event_field(&v, ev, "line"), JFR_OK);
    cr_assert_eq(jfr_event_field(&v, ev, "ints"), JFR_ECORRUPT);
    cr_assert_eq(jfr_recording_error(rec)->code, JFR_ECORRUPT);
    cr_assert_eq(jfr_recording_error(rec)->chunk, 0);
}

Test(value, fields_past_the_record_end_are_corrupt)
{
    jg_chunk *c = struct_chunk();
    jg_buf *p;
    const jfr_event *ev;
    jfr_value v;

    p = jg_event(c, ID_EVENT);
    jg_i32(p, 1);                     /* the line needs four ints; the record holds one */
    jg_i64(jg_event(c, ID_EVENT), 0); /* a following record must not be read */
    ev = first_event(c, NULL);
    cr_assert_eq(jfr_event_field(&v, ev, "line"), JFR_ECORRUPT);
    cr_assert(jfr_recording_error(rec)->offset < bytes.len);
}

Test(value, scratch_strings_live_until_the_next_event)
{
    jg_chunk *c = jg_chunk_new();
    const jfr_event *ev;
    jfr_value v1, v2;

    jg_primitives(c);
    jg_field(jg_class(c, ID_EVENT, "test.S", "jdk.jfr.Event"), "s", JG_STRING, 0);
    jg_string(jg_event(c, ID_EVENT), "first");
    jg_string(jg_event(c, ID_EVENT), "second");
    ev = first_event(c, NULL);
    cr_assert_eq(jfr_event_field(&v1, ev, "s"), JFR_OK);
    cr_assert_eq(jfr_event_field(&v2, ev, "s"), JFR_OK);
    cr_assert(unit_str_eq(v1.as.str, "first"), "still valid after another read");
    cr_assert_eq(jfr_event_next(&ev, iter), JFR_OK);
    cr_assert_eq(jfr_event_field(&v1, ev, "s"), JFR_OK);
    cr_assert(unit_str_eq(v1.as.str, "second"));
}

/* Arrays of structs made only of scalars and keys are skipped in one pass
 * per element: every kind must take exactly its bytes, in both modes. */
Test(value, arrays_of_scalar_structs_skip_exactly)
{
    for (int fixed = 0; fixed < 2; fixed++) {
        jg_chunk *c = jg_chunk_new();
        jg_elem *e;
        jg_buf *p;
        const jfr_event *ev;
        jfr_value v, el, f;

        if (fixed)
            jg_chunk_fixed_ints(c);
        jg_primitives(c);
        e = jg_class(c, ID_POINT, "test.AllKinds", NULL);
        jg_field(e, "z", JG_BOOLEAN, 0);
        jg_field(e, "b", JG_BYTE, 0);
        jg_field(e, "c", JG_CHAR, 0);
        jg_field(e, "s", JG_SHORT, 0);
        jg_field(e, "i", JG_INT, 0);
        jg_field(e, "j", JG_LONG, 0);
        jg_field(e, "f", JG_FLOAT, 0);
        jg_field(e, "d", JG_DOUBLE, 0);
        jg_field(e, "k", ID_NAME, JG_POOL);
        jg_field(jg_class(c, ID_NAME, "test.Name", NULL), "n", JG_INT, 0);
        e = jg_class(c, ID_EVENT, "test.Many", "jdk.jfr.Event");
        jg_field(e, "all", ID_POINT, JG_ARRAY);
        jg_field(e, "tail", JG_LONG, 0);
        p = jg_event(c, ID_EVENT);
        jg_count(p, 3);
        for (int i = 0; i < 3; i++) {
            jg_u8(p, 1);
            jg_u8(p, 0x80);
            jg_u16(p, 0xffff);
            jg_i16(p, -300);
            jg_i32(p, -70000 * i);
            jg_i64(p, INT64_MIN + i);
            jg_f32(p, 0.5f);
            jg_f64(p, -0.25);
            jg_key(p, 1000000 + (uint64_t)i);
        }
        jg_i64(p, 4242);
        ev = first_event(c, NULL);
        cr_assert_eq(jfr_event_field(&v, ev, "tail"), JFR_OK);
        cr_assert_eq(v.as.i, 4242, "fixed=%d", fixed);
        cr_assert_eq(jfr_event_field(&v, ev, "all"), JFR_OK);
        cr_assert_eq(jfr_value_element(&el, &v, 2), JFR_OK);
        cr_assert_eq(jfr_value_field(&f, &el, "i"), JFR_OK);
        cr_assert_eq(f.as.i, -140000);
        cr_assert_eq(jfr_value_field(&f, &el, "j"), JFR_OK);
        cr_assert_eq(f.as.i, INT64_MIN + 2);
        cr_assert_eq(jfr_value_field(&f, &el, "d"), JFR_OK);
        cr_assert(f.as.f == -0.25);
        cr_assert_eq(jfr_value_field(&f, &el, "k"), JFR_OK);
        cr_assert(f.pooled);
        cr_assert_eq(f.key, 1000002);
        cr_assert_eq(f.kind, JFR_VALUE_NULL);
    }
}

/* jfr_cursor_skip steps over fields (arrays, structs, pool keys) and lands
 * where jfr_cursor_next would have: every split of the walk agrees. */
Test(value, cursor_skip_lands_where_next_would)
{
    const jfr_event *ev = shapes();
    const char *const *want = shape_fields;
    jfr_value obj, v;
    jfr_cursor cur;

    cr_assert_eq(jfr_event_value(&obj, ev), JFR_OK);
    for (size_t skip = 0; skip < 9; skip++) {
        cr_assert_eq(jfr_value_iter(&cur, &obj), JFR_OK);
        cr_assert_eq(jfr_cursor_skip(&cur, skip), JFR_OK, "skip %zu", skip);
        cr_assert_eq(jfr_cursor_next(&v, &cur), JFR_OK, "after %zu", skip);
        cr_assert_str_eq(jfr_field_name(v.field), want[skip]);
        cr_assert_eq(jfr_value_field_at(&v, &obj, skip), JFR_OK);
        cr_assert_str_eq(jfr_field_name(v.field), want[skip]);
    }
    cr_assert_eq(jfr_value_field_at(&v, &obj, 8), JFR_OK);
    cr_assert_eq(v.as.i, 0x33, "the last field, after every array");
    cr_assert_eq(jfr_value_iter(&cur, &obj), JFR_OK);
    cr_assert_eq(jfr_cursor_skip(&cur, 10), JFR_DONE, "past the end");
    cr_assert_eq(jfr_cursor_next(&v, &cur), JFR_DONE);
    cr_assert_eq(jfr_cursor_skip(NULL, 1), JFR_EINVAL);
    /* elements of an array */
    cr_assert_eq(jfr_event_field(&obj, ev, "names"), JFR_OK);
    cr_assert_eq(jfr_value_iter(&cur, &obj), JFR_OK);
    cr_assert_eq(jfr_cursor_skip(&cur, 2), JFR_OK);
    cr_assert_eq(jfr_cursor_next(&v, &cur), JFR_OK);
    cr_assert_eq(v.key, 1, "the third name");
}
