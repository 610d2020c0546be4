/* test_metadata.c - the metadata record and the type model built from it
 * (libjfr/metadata.c, libjfr/types.c, jfr-format.md §7). */
#include <stdio.h>

#include <criterion/criterion.h>

#include "jfr_private.h"
#include "jfrgen.h"
#include "unit_util.h"
#include "unit_fixture.h"

enum {
    ID_EVENT = 20,
    ID_THREAD = 21,
    ID_LABEL = 30,
    ID_TIMESTAMP = 31,
    ID_CATEGORY = 32,
    ID_SETTING = 33,
    ID_SYMBOL = 34,
};

/* The recording a test opened and the bytes it borrows. */
TestSuite(metadata, .fini = unit_close);

/* The usual declarations: an event with annotated fields and settings, a
 * pooled thread type, annotation types, a simple Symbol type. */
static void declare_model(jg_chunk *c)
{
    jg_elem *ev, *f, *a, *th, *sym;

    jg_primitives(c);
    jg_class(c, ID_LABEL, "jdk.jfr.Label", "java.lang.annotation.Annotation");
    jg_class(c, ID_TIMESTAMP, "jdk.jfr.Timestamp", "java.lang.annotation.Annotation");
    jg_class(c, ID_CATEGORY, "jdk.jfr.Category", "java.lang.annotation.Annotation");
    jg_class(c, ID_SETTING, "jdk.settings.Enabled", "jdk.jfr.SettingControl");

    ev = jg_class(c, ID_EVENT, "test.Sample", "jdk.jfr.Event");
    jg_setting(ev, "enabled", ID_SETTING, "true");
    f = jg_field(ev, "startTime", JG_LONG, 0);
    jg_annotate(f, ID_LABEL, "Start Time");
    jg_annotate(f, ID_TIMESTAMP, "TICKS");
    jg_field(ev, "thread", ID_THREAD, JG_POOL);
    jg_field(ev, "values", JG_INT, JG_ARRAY);
    jg_field(ev, "threads", ID_THREAD, JG_ARRAY | JG_POOL);
    jg_setting(ev, "threshold", ID_SETTING, "20 ms");
    jg_annotate(ev, ID_LABEL, "Sample");
    a = jg_annotate(ev, ID_CATEGORY, NULL);
    jg_attr(a, "value-0", "Java Application");
    jg_attr(a, "value-1", "Tests");

    th = jg_class(c, ID_THREAD, "java.lang.Thread", NULL);
    jg_field(th, "osName", JG_STRING, 0);
    jg_field(th, "javaThreadId", JG_LONG, 0);

    sym = jg_class(c, ID_SYMBOL, "jdk.types.Symbol", NULL);
    jg_attr(sym, "simpleType", "true");
    jg_field(sym, "string", JG_STRING, 0);
}

static jfr_chunk *model_chunk(void)
{
    jg_chunk *c = jg_chunk_new();

    declare_model(c);
    return unit_open_chunk(c);
}

Test(metadata, types_by_name_and_id)
{
    jfr_chunk *c = model_chunk();
    const jfr_type *ev = jfr_chunk_type_by_name(c, "test.Sample");

    cr_assert_eq(jfr_chunk_type_count(c), 9 + 7);
    cr_assert_not_null(ev);
    cr_assert_eq(jfr_chunk_type_by_id(c, ID_EVENT), ev);
    cr_assert_eq(jfr_type_id(ev), ID_EVENT);
    cr_assert_str_eq(jfr_type_name(ev), "test.Sample");
    cr_assert_eq(jfr_chunk_type_at(c, jfr_type_index(ev)), ev);
    cr_assert_null(jfr_chunk_type_by_id(c, 999));
    cr_assert_null(jfr_chunk_type_by_name(c, "test.Missing"));
    cr_assert_null(jfr_chunk_type_at(c, jfr_chunk_type_count(c)));
    for (size_t i = 0; i < jfr_chunk_type_count(c); i++)
        cr_assert_eq(jfr_type_index(jfr_chunk_type_at(c, i)), i);
}

Test(metadata, fields_in_declaration_order)
{
    jfr_chunk *c = model_chunk();
    const jfr_type *ev = jfr_chunk_type_by_name(c, "test.Sample");
    const jfr_type *th = jfr_chunk_type_by_id(c, ID_THREAD);
    const jfr_field *f;

    cr_assert_eq(jfr_type_field_count(ev), 4);
    cr_assert_str_eq(jfr_field_name(jfr_type_field_at(ev, 0)), "startTime");
    cr_assert_str_eq(jfr_field_name(jfr_type_field_at(ev, 3)), "threads");
    cr_assert_null(jfr_type_field_at(ev, 4));
    cr_assert_eq(jfr_type_field_index(ev, "values"), 2);
    cr_assert_eq(jfr_type_field_index(ev, "nope"), -1);

    f = jfr_type_field_by_name(ev, "startTime");
    cr_assert_eq(jfr_type_kind(jfr_field_type(f)), JFR_KIND_LONG);
    cr_assert_not(jfr_field_is_array(f));
    cr_assert_not(jfr_field_is_pooled(f));

    f = jfr_type_field_by_name(ev, "thread");
    cr_assert_eq(jfr_field_type(f), th);
    cr_assert(jfr_field_is_pooled(f));
    cr_assert_not(jfr_field_is_array(f));

    f = jfr_type_field_by_name(ev, "values");
    cr_assert(jfr_field_is_array(f));
    cr_assert_not(jfr_field_is_pooled(f));
    cr_assert_eq(jfr_type_kind(jfr_field_type(f)), JFR_KIND_INT);

    f = jfr_type_field_by_name(ev, "threads");
    cr_assert(jfr_field_is_array(f));
    cr_assert(jfr_field_is_pooled(f));
}

Test(metadata, primitive_kinds_by_name_not_id)
{
    jg_chunk *c = jg_chunk_new();
    static const char *const names[] = {"boolean", "byte",   "char",
                                        "short",   "int",    "long",
                                        "float",   "double", "java.lang.String"};
    static const jfr_kind kinds[] = {JFR_KIND_BOOLEAN, JFR_KIND_BYTE,   JFR_KIND_CHAR,
                                     JFR_KIND_SHORT,   JFR_KIND_INT,    JFR_KIND_LONG,
                                     JFR_KIND_FLOAT,   JFR_KIND_DOUBLE, JFR_KIND_STRING};
    jfr_chunk *ch;

    for (size_t i = 0; i < 9; i++)
        jg_class(c, 500 + 7 * i, names[i], NULL);
    jg_class(c, 1, "Long", NULL); /* not a primitive: case matters */
    ch = unit_open_chunk(c);
    for (size_t i = 0; i < 9; i++)
        cr_assert_eq(jfr_type_kind(jfr_chunk_type_by_id(ch, 500 + 7 * i)), kinds[i], "%s",
                     names[i]);
    cr_assert_eq(jfr_type_kind(jfr_chunk_type_by_name(ch, "Long")), JFR_KIND_STRUCT);
}

Test(metadata, annotations_and_labels)
{
    jfr_chunk *c = model_chunk();
    const jfr_type *ev = jfr_chunk_type_by_name(c, "test.Sample");
    const jfr_field *st = jfr_type_field_by_name(ev, "startTime");
    const jfr_annotation *a;

    cr_assert_str_eq(jfr_type_label(ev), "Sample");
    cr_assert_str_eq(jfr_field_label(st), "Start Time");
    cr_assert_str_eq(jfr_field_annotation_value(st, "jdk.jfr.Timestamp"), "TICKS");
    cr_assert_null(jfr_field_annotation_value(st, "jdk.jfr.Timespan"));
    cr_assert_eq(jfr_field_annotation_count(st), 2);
    cr_assert_null(jfr_type_label(jfr_chunk_type_by_id(c, ID_THREAD)));

    /* array-valued annotations: value-0 is "the" value; all elements kept */
    cr_assert_str_eq(jfr_type_annotation_value(ev, "jdk.jfr.Category"),
                     "Java Application");
    cr_assert_eq(jfr_type_annotation_count(ev), 2);
    a = jfr_type_annotation_at(ev, 1);
    cr_assert_str_eq(jfr_type_name(a->type), "jdk.jfr.Category");
    cr_assert_eq(a->count, 2, "the class attribute is not an element");
    cr_assert_str_eq(a->names[0], "value-0");
    cr_assert_str_eq(a->values[1], "Tests");
    cr_assert_null(jfr_type_annotation_at(ev, 2));
}

Test(metadata, annotation_of_undeclared_type)
{
    jg_chunk *c = jg_chunk_new();
    jfr_chunk *ch;
    const jfr_type *t;

    jg_annotate(jg_class(c, 40, "test.T", NULL), 777, "x");
    ch = unit_open_chunk(c);
    t = jfr_chunk_type_by_id(ch, 40);
    cr_assert_eq(jfr_type_annotation_count(t), 1);
    cr_assert_null(jfr_type_annotation_at(t, 0)->type);
    cr_assert_null(jfr_type_label(t));
}

Test(metadata, settings)
{
    jfr_chunk *c = model_chunk();
    const jfr_type *ev = jfr_chunk_type_by_name(c, "test.Sample");
    const jfr_setting *s;

    cr_assert_eq(jfr_type_setting_count(ev), 2);
    s = jfr_type_setting_at(ev, 1);
    cr_assert_str_eq(s->name, "threshold");
    cr_assert_str_eq(s->default_value, "20 ms");
    cr_assert_str_eq(jfr_type_name(s->type), "jdk.settings.Enabled");
    cr_assert_null(jfr_type_setting_at(ev, 2));
    cr_assert_eq(jfr_type_field_count(ev), 4, "settings are not fields");
}

Test(metadata, super_types)
{
    jfr_chunk *c = model_chunk();

    cr_assert(jfr_type_is_event(jfr_chunk_type_by_id(c, ID_EVENT)));
    cr_assert_str_eq(jfr_type_super(jfr_chunk_type_by_id(c, ID_EVENT)), "jdk.jfr.Event");
    cr_assert_not(jfr_type_is_event(jfr_chunk_type_by_id(c, ID_LABEL)));
    cr_assert_str_eq(jfr_type_super(jfr_chunk_type_by_id(c, ID_LABEL)),
                     "java.lang.annotation.Annotation");
    cr_assert_null(jfr_type_super(jfr_chunk_type_by_id(c, ID_THREAD)));
    cr_assert_not(jfr_type_is_event(jfr_chunk_type_by_id(c, ID_THREAD)));
}

Test(metadata, simple_types)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *two, *no;
    jfr_chunk *ch;

    declare_model(c);
    two = jg_class(c, 41, "test.TwoFields", NULL);
    jg_attr(two, "simpleType", "true");
    jg_field(two, "a", JG_INT, 0);
    jg_field(two, "b", JG_INT, 0);
    no = jg_class(c, 42, "test.NotSimple", NULL);
    jg_attr(no, "simpleType", "false");
    jg_field(no, "a", JG_INT, 0);
    ch = unit_open_chunk(c);
    cr_assert(jfr_type_is_simple(jfr_chunk_type_by_id(ch, ID_SYMBOL)));
    cr_assert_not(jfr_type_is_simple(jfr_chunk_type_by_id(ch, 41)), "needs one field");
    cr_assert_not(jfr_type_is_simple(jfr_chunk_type_by_id(ch, 42)));
    cr_assert_not(jfr_type_is_simple(jfr_chunk_type_by_id(ch, ID_THREAD)));
}

Test(metadata, attribute_presence_and_values)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *t, *f;
    jfr_chunk *ch;
    const jfr_type *ty;

    jg_primitives(c);
    t = jg_class(c, 40, "test.T", NULL);
    f = jg_field(t, "pooledYes", JG_LONG, 0);
    jg_attr(f, "constantPool", "yes"); /* the JDK treats presence as true */
    f = jg_field(t, "pooledFalse", JG_LONG, 0);
    jg_attr(f, "constantPool", "false");
    f = jg_field(t, "dimZero", JG_LONG, 0);
    jg_attr(f, "dimension", "0");
    ch = unit_open_chunk(c);
    ty = jfr_chunk_type_by_id(ch, 40);
    cr_assert(jfr_field_is_pooled(jfr_type_field_at(ty, 0)));
    cr_assert_not(jfr_field_is_pooled(jfr_type_field_at(ty, 1)));
    cr_assert_not(jfr_field_is_array(jfr_type_field_at(ty, 2)));
}

Test(metadata, undeclared_field_type)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *ev;
    jfr_chunk *ch;
    const jfr_type *t;
    const jfr_field *f;

    jg_primitives(c);
    ev = jg_class(c, ID_EVENT, "test.Broken", "jdk.jfr.Event");
    jg_field(ev, "startTime", JG_LONG, 0);
    jg_field(ev, "mystery", 999, 0);
    jg_i64(jg_event(c, ID_EVENT), 1);
    ch = unit_open_chunk(c);
    t = jfr_chunk_type_by_id(ch, ID_EVENT);
    f = jfr_type_field_by_name(t, "mystery");
    cr_assert_not_null(f);
    cr_assert_null(jfr_field_type(f));
    cr_assert_not(t->decodable);
}

Test(metadata, undecodable_event_reports_corrupt)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *ev;
    jfr_chunk *ch;
    jfr_event_iter *it;
    const jfr_event *e;
    jfr_value v;

    jg_primitives(c);
    ev = jg_class(c, ID_EVENT, "test.Broken", "jdk.jfr.Event");
    jg_field(ev, "mystery", 999, 0);
    jg_i64(jg_event(c, ID_EVENT), 1);
    ch = unit_open_chunk(c);
    e = unit_first_event(ch, &it);
    cr_assert_eq(jfr_event_type_id(e), ID_EVENT);
    cr_assert_eq(jfr_event_value(&v, e), JFR_ECORRUPT);
    cr_assert(strstr(jfr_recording_error(rec)->message, "test.Broken") != NULL);
    jfr_event_iter_free(it);
}

Test(metadata, inline_cycles_are_undecodable)
{
    jg_chunk *c = jg_chunk_new();
    jfr_chunk *ch;

    jg_primitives(c);
    /* A -> B -> A inline */
    jg_field(jg_class(c, 40, "test.A", NULL), "b", 41, 0);
    jg_field(jg_class(c, 41, "test.B", NULL), "a", 40, 0);
    /* S -> S inline */
    jg_field(jg_class(c, 42, "test.Self", NULL), "self", 42, 0);
    /* recursion through a pool is fine (ThreadGroup.parent) */
    jg_field(jg_class(c, 43, "test.Group", NULL), "parent", 43, JG_POOL);
    /* an inline array of itself is still a cycle */
    jg_field(jg_class(c, 44, "test.Tree", NULL), "kids", 44, JG_ARRAY);
    /* a user of a cyclic type inherits the problem */
    jg_field(jg_class(c, 45, "test.UsesA", NULL), "a", 40, 0);
    /* but a pooled reference to it does not */
    jg_field(jg_class(c, 46, "test.RefsA", NULL), "a", 40, JG_POOL);
    ch = unit_open_chunk(c);
    cr_assert_not(jfr_chunk_type_by_id(ch, 40)->decodable);
    cr_assert_not(jfr_chunk_type_by_id(ch, 41)->decodable);
    cr_assert_not(jfr_chunk_type_by_id(ch, 42)->decodable);
    cr_assert(jfr_chunk_type_by_id(ch, 43)->decodable);
    cr_assert_not(jfr_chunk_type_by_id(ch, 44)->decodable);
    cr_assert_not(jfr_chunk_type_by_id(ch, 45)->decodable);
    cr_assert(jfr_chunk_type_by_id(ch, 46)->decodable);
}

Test(metadata, inline_nesting_beyond_max_depth)
{
    jg_chunk *c = jg_chunk_new();
    jfr_options o = JFR_OPTIONS_INIT;
    jg_buf b = {0};
    jfr_chunk *ch;
    char name[32];

    jg_primitives(c);
    /* L0 holds L1 inline, ..., L5 holds an int: height 5 for L0 */
    for (int i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "test.L%d", i);
        jg_field(jg_class(c, 40 + (uint64_t)i, name, NULL), "x",
                 i < 5 ? 41 + (uint64_t)i : JG_INT, 0);
    }
    jg_chunk_build(c, &b);
    jg_chunk_free(c);
    o.max_depth = 3;
    cr_assert_eq(jfr_recording_open_memory(&rec, b.data, b.len, &o, NULL), JFR_OK);
    ch = unit_next_chunk(rec);
    cr_assert_not(jfr_chunk_type_by_id(ch, 40)->decodable, "height 5 > 3");
    cr_assert_not(jfr_chunk_type_by_id(ch, 41)->decodable, "height 4 > 3");
    cr_assert(jfr_chunk_type_by_id(ch, 42)->decodable, "height 3");
    cr_assert(jfr_chunk_type_by_id(ch, 45)->decodable);
    unit_close();
    jg_buf_free(&b);
}

Test(metadata, region_gmt_offset)
{
    static const struct {
        const char *attr;
        int64_t want;
    } cases[] = {
        {"3600000", 3600000}, {"-18000000", -18000000}, {"0", 0}, {"abc", 0}, {NULL, 0}};

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        jg_chunk *c = jg_chunk_new();
        jfr_chunk *ch;

        if (cases[i].attr)
            jg_region(c, cases[i].attr);
        ch = unit_open_chunk(c);
        cr_assert_eq(jfr_chunk_gmt_offset_ms(ch), cases[i].want, "%s",
                     cases[i].attr ? cases[i].attr : "(no region)");
        unit_close();
    }
}

/* The same model however the record is written. */
static void check_model(jfr_chunk *c)
{
    const jfr_type *ev = jfr_chunk_type_by_name(c, "test.Sample");

    cr_assert_not_null(ev);
    cr_assert_eq(jfr_type_field_count(ev), 4);
    cr_assert_str_eq(
        jfr_field_annotation_value(jfr_type_field_at(ev, 0), "jdk.jfr.Timestamp"),
        "TICKS");
    cr_assert(jfr_field_is_pooled(jfr_type_field_at(ev, 1)));
}

Test(metadata, utf16_string_table)
{
    jg_chunk *c = jg_chunk_new();

    c->meta_string_tag = 4; /* what the JDK writes */
    declare_model(c);
    check_model(unit_open_chunk(c));
}

Test(metadata, fixed_width_integers)
{
    jg_chunk *c = jg_chunk_new();

    jg_chunk_fixed_ints(c);
    declare_model(c);
    check_model(unit_open_chunk(c));
}

Test(metadata, padded_record_size_and_placement_at_end)
{
    jg_chunk *c = jg_chunk_new();
    jfr_chunk *ch;

    declare_model(c);
    c->meta_size_width = 5; /* async-profiler */
    jg_i64(jg_event(c, ID_EVENT), 1);
    jg_metadata_record(c); /* after the events, as JDK 11 wrote it */
    ch = unit_open_chunk(c);
    check_model(ch);
    cr_assert_gt(jfr_chunk_header(ch)->metadata_offset, 68);
}

/* A chunk whose header points at a hand-made metadata record. */
static int open_with_metadata_body(const jg_buf *body)
{
    jg_chunk *c = jg_chunk_new();
    jg_buf *raw = jg_raw(c);
    jfr_chunk *ch;

    jg_varint_padded(raw, body->len + 4, 4);
    jg_bytes(raw, body->data, body->len);
    jg_metadata_record(c);
    unit_close();
    jg_chunk_build(c, &bytes);
    jg_chunk_free(c);
    jg_put_be(bytes.data + 24, 68, 8);
    rec = unit_open(&bytes);
    return jfr_recording_next_chunk(&ch, rec);
}

static void body_prefix(jg_buf *body, uint64_t type_id)
{
    jg_varint(body, type_id);
    jg_varint(body, 0); /* start */
    jg_varint(body, 0); /* duration */
    jg_varint(body, 1); /* metadata id */
}

Test(metadata, record_of_wrong_type)
{
    jg_buf body = {0};

    body_prefix(&body, 5);
    jg_varint(&body, 0);
    cr_assert_eq(open_with_metadata_body(&body), JFR_ECORRUPT);
    cr_assert(strstr(jfr_recording_error(rec)->message, "not metadata") != NULL);
    jg_buf_free(&body);
}

Test(metadata, string_index_out_of_range)
{
    jg_buf body = {0};

    body_prefix(&body, 0);
    jg_varint(&body, 1);
    jg_string(&body, "root");
    jg_varint(&body, 3); /* root's name: string 3 of 1 */
    jg_varint(&body, 0);
    jg_varint(&body, 0);
    cr_assert_eq(open_with_metadata_body(&body), JFR_ECORRUPT);
    jg_buf_free(&body);
}

Test(metadata, no_metadata_element)
{
    jg_buf body = {0};

    body_prefix(&body, 0);
    jg_varint(&body, 1);
    jg_string(&body, "root");
    jg_varint(&body, 0);
    jg_varint(&body, 0);
    jg_varint(&body, 0);
    cr_assert_eq(open_with_metadata_body(&body), JFR_ECORRUPT);
    cr_assert(strstr(jfr_recording_error(rec)->message, "no type list") != NULL);
    jg_buf_free(&body);
}

Test(metadata, huge_counts_are_corrupt_not_allocated)
{
    jg_buf body = {0};

    body_prefix(&body, 0);
    jg_varint(&body, 0x7fffffff); /* strings */
    cr_assert_eq(open_with_metadata_body(&body), JFR_ECORRUPT);
    unit_close();
    jg_buf_free(&body);

    body_prefix(&body, 0);
    jg_varint(&body, 1);
    jg_string(&body, "root");
    jg_varint(&body, 0);
    jg_varint(&body, 0x7fffffff); /* attributes */
    cr_assert_eq(open_with_metadata_body(&body), JFR_ECORRUPT);
    jg_buf_free(&body);
}

Test(metadata, class_without_id)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *e = jg_elem_add(c->metadata, "class");
    jg_buf b = {0};
    jfr_chunk *ch;

    jg_attr(e, "name", "test.NoId");
    jg_chunk_build(c, &b);
    jg_chunk_free(c);
    rec = unit_open(&b);
    cr_assert_eq(jfr_recording_next_chunk(&ch, rec), JFR_ECORRUPT);
    unit_close();
    jg_buf_free(&b);
}

Test(metadata, type_count_limit)
{
    jg_chunk *c = jg_chunk_new();
    jfr_options o = JFR_OPTIONS_INIT;
    jg_buf b = {0};
    jfr_chunk *ch;

    jg_primitives(c); /* 9 types */
    jg_chunk_build(c, &b);
    jg_chunk_free(c);
    o.max_types = 8;
    cr_assert_eq(jfr_recording_open_memory(&rec, b.data, b.len, &o, NULL), JFR_OK);
    cr_assert_eq(jfr_recording_next_chunk(&ch, rec), JFR_ELIMIT);
    unit_close();
    o.max_types = 9;
    cr_assert_eq(jfr_recording_open_memory(&rec, b.data, b.len, &o, NULL), JFR_OK);
    cr_assert_eq(jfr_recording_next_chunk(&ch, rec), JFR_OK);
    unit_close();
    jg_buf_free(&b);
}

Test(metadata, element_nesting_is_bounded)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *e = jg_elem_add(c->root, "deep");
    jfr_chunk *ch;

    for (int i = 0; i < 100; i++)
        e = jg_elem_add(e, "deeper");
    unit_close();
    jg_chunk_build(c, &bytes);
    jg_chunk_free(c);
    rec = unit_open(&bytes);
    cr_assert_eq(jfr_recording_next_chunk(&ch, rec), JFR_ECORRUPT);
}
