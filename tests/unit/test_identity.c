/* test_identity.c - groups by identity (libjfr/identity.c, jfr/identity.h):
 * two things of one name in one run are two groups, one thing met in two
 * chunks of a run is one group, and across runs things meet by name, the
 * k-th of a name with the k-th. */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "jfr_private.h"
#include "jfrgen.h"
#include "unit_util.h"

enum {
    ID_THREAD = 50,
    ID_SYMBOL,
    ID_LOADER,
    ID_CLASS,
    ID_METHOD,
    ID_EVENT = 60,
    ID_EVENT_TWIN, /* a second event type of the same name */
};

static jfr_recording *rec;
static jg_buf bytes;
static jfr_identity *ids;

static void cleanup(void)
{
    jfr_identity_free(ids);
    ids = NULL;
    jfr_recording_free(rec);
    rec = NULL;
    jg_buf_free(&bytes);
}

TestSuite(identity, .fini = cleanup);

static void declare(jg_chunk *c)
{
    jg_elem *e;

    jg_primitives(c);
    e = jg_class(c, ID_THREAD, "java.lang.Thread", NULL);
    jg_field(e, "osName", JG_STRING, 0);
    jg_field(e, "javaName", JG_STRING, 0);
    e = jg_class(c, ID_SYMBOL, "jdk.types.Symbol", NULL);
    jg_attr(e, "simpleType", "true");
    jg_field(e, "string", JG_STRING, 0);
    e = jg_class(c, ID_LOADER, "jdk.types.ClassLoader", NULL);
    jg_field(e, "type", ID_CLASS, JG_POOL);
    jg_field(e, "name", ID_SYMBOL, JG_POOL);
    e = jg_class(c, ID_CLASS, "java.lang.Class", NULL);
    jg_field(e, "classLoader", ID_LOADER, JG_POOL);
    jg_field(e, "name", ID_SYMBOL, JG_POOL);
    e = jg_class(c, ID_METHOD, "jdk.types.Method", NULL);
    jg_field(e, "type", ID_CLASS, JG_POOL);
    jg_field(e, "name", ID_SYMBOL, JG_POOL);
    jg_field(e, "descriptor", ID_SYMBOL, JG_POOL);
    e = jg_class(c, ID_EVENT, "test.Sample", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_field(e, "thread", ID_THREAD, JG_POOL);
    jg_field(e, "loader", ID_LOADER, JG_POOL);
    jg_field(e, "method", ID_METHOD, JG_POOL);
    e = jg_class(c, ID_EVENT_TWIN, "test.Sample", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
}

/* Symbols 1.. : the strings used below. */
static const char *const symbols[] = {
    NULL,  "wl/Twin", "wl/Loader", "run", "()V", "(I)V", "()Ljava/lang/Object;",
    "app", "work"};

static void pools(jg_chunk *c)
{
    jg_cp *cp = jg_checkpoint(c);
    jg_pool *p = jg_pool_new(cp, ID_SYMBOL);
    jg_buf *b;

    for (uint64_t k = 1; k < sizeof symbols / sizeof symbols[0]; k++)
        jg_string(jg_entry(p, k), symbols[k]);
    /* threads: 1 and 2 unnamed (virtual), 3 "main" */
    p = jg_pool_new(cp, ID_THREAD);
    for (uint64_t k = 1; k <= 2; k++) {
        b = jg_entry(p, k);
        jg_string(b, "");
        jg_string(b, "");
    }
    b = jg_entry(p, 3);
    jg_string(b, "main");
    jg_string(b, "main");
    /* loaders 1 and 2: two instances of wl.Loader, named "app" */
    p = jg_pool_new(cp, ID_LOADER);
    for (uint64_t k = 1; k <= 2; k++) {
        b = jg_entry(p, k);
        jg_key(b, 2); /* class wl/Loader */
        jg_key(b, 7); /* "app" */
    }
    /* classes: 1 wl/Twin of loader 1, 2 wl/Loader, 3 wl/Twin of loader 2 */
    p = jg_pool_new(cp, ID_CLASS);
    b = jg_entry(p, 1);
    jg_key(b, 1);
    jg_key(b, 1);
    b = jg_entry(p, 2);
    jg_key(b, 1);
    jg_key(b, 2);
    b = jg_entry(p, 3);
    jg_key(b, 2);
    jg_key(b, 1);
    /* methods: 1 and 2 are Twin.run()V twice (one method, two keys);
     * 3 Twin.run(I)V; 4 the bridge Twin.run()Object; 5 the other Twin's run()V */
    p = jg_pool_new(cp, ID_METHOD);
    const uint64_t m[][3] = {{1, 3, 4}, {1, 3, 4}, {1, 3, 5}, {1, 3, 6}, {3, 3, 4}};
    for (uint64_t k = 0; k < 5; k++) {
        b = jg_entry(p, k + 1);
        jg_key(b, m[k][0]);
        jg_key(b, m[k][1]);
        jg_key(b, m[k][2]);
    }
}

/* One event per thread key (1, 2, 3), loader key (1, 2) and method key
 * (1..5), the rest of each event repeating key 1. */
static void events(jg_chunk *c)
{
    for (uint64_t i = 1; i <= 5; i++) {
        jg_buf *e = jg_event(c, ID_EVENT);
        jg_i64(e, (int64_t)i);
        jg_key(e, i <= 3 ? i : 1);
        jg_key(e, i <= 2 ? i : 1);
        jg_key(e, i);
    }
    jg_i64(jg_event(c, ID_EVENT_TWIN), 6);
}

static void add_chunk(int64_t start, int64_t duration)
{
    jg_chunk *c = jg_chunk_new();

    c->h.start_nanos = start;
    c->h.duration_nanos = duration;
    declare(c);
    pools(c);
    events(c);
    jg_chunk_build(c, &bytes);
    jg_chunk_free(c);
}

/* The groups of field `field` of the five test.Sample events of `chunk`. */
static void groups_of(jfr_chunk *chunk, uint64_t run, const char *field, uint64_t *g)
{
    jfr_event_iter *it;
    const jfr_event *ev;
    size_t n = 0;

    cr_assert_eq(jfr_event_iter_new(&it, chunk, NULL, 0, 0), JFR_OK);
    while (jfr_event_next(&ev, it) == JFR_OK) {
        jfr_value v;
        if (jfr_type_id(jfr_event_type(ev)) != ID_EVENT)
            continue;
        cr_assert_eq(jfr_event_field(&v, ev, field), JFR_OK);
        cr_assert_eq(jfr_identity_group(&g[n], ids, run, &v), JFR_OK, "%s of event %zu",
                     field, n);
        n++;
    }
    jfr_event_iter_free(it);
    cr_assert_eq(n, 5);
}

/* Three chunks: the second continues the first, the third is another run. */
static jfr_chunk *open_three(void)
{
    add_chunk(1000, 500);
    add_chunk(1500, 500);
    add_chunk(5000, 500);
    rec = unit_open(&bytes);
    cr_assert_eq(jfr_identity_new(&ids, NULL), JFR_OK);
    return unit_next_chunk(rec);
}

Test(identity, chunks_continue_only_end_to_start)
{
    jfr_header a = {.major = 2,
                    .start_nanos = 1000,
                    .duration_nanos = 500,
                    .ticks_per_second = 1000000000};
    jfr_header b = a, c = a, d = a;

    b.start_nanos = 1500;
    c.start_nanos = 1501;
    d.start_nanos = 1500;
    d.ticks_per_second = 2500000000;
    cr_assert(jfr_header_continues(&a, &b));
    cr_assert_not(jfr_header_continues(&b, &a), "not backwards");
    cr_assert_not(jfr_header_continues(&a, &c), "a gap of 1 ns is another run");
    cr_assert_not(jfr_header_continues(&a, &d), "another tick rate is another JVM");
    cr_assert_not(jfr_header_continues(NULL, &b));
    a.duration_nanos = INT64_MAX;
    cr_assert_not(jfr_header_continues(&a, &b), "no overflow");
}

Test(identity, threads_of_one_name_are_two_groups)
{
    jfr_chunk *chunk = open_three();
    uint64_t g[5], again[5], other[5];

    groups_of(chunk, 0, "thread", g);
    cr_assert_neq(g[0], g[1], "two unnamed threads are two groups");
    cr_assert_neq(g[0], g[2]);
    cr_assert_neq(g[1], g[2]);
    cr_assert_eq(g[3], g[0], "the same key again is the same thread");

    chunk = unit_next_chunk(rec);
    groups_of(chunk, 0, "thread", again);
    cr_assert_arr_eq(again, g, sizeof g, "the next chunk of the run: the same groups");

    /* another run: its keys are not looked at (the same numbers here by
     * chance), its names are; its first unnamed thread is the first of
     * the other run, its second the second */
    chunk = unit_next_chunk(rec);
    groups_of(chunk, 1, "thread", other);
    cr_assert_arr_eq(other, g, sizeof g);
}

Test(identity, loaders_and_classes)
{
    jfr_chunk *chunk = open_three();
    uint64_t g[5];
    jfr_event_iter *it;
    const jfr_event *ev;
    jfr_value m, cls;
    uint64_t classes[2];

    groups_of(chunk, 0, "loader", g);
    cr_assert_neq(g[0], g[1], "two instances of one loader class are two loaders");
    cr_assert_eq(g[2], g[0]);

    /* the classes of methods 1 and 5: one name, two loaders, two classes */
    cr_assert_eq(jfr_event_iter_new(&it, chunk, NULL, 0, 0), JFR_OK);
    for (int n = 0; n < 5 && jfr_event_next(&ev, it) == JFR_OK; n++) {
        if (n != 0 && n != 4)
            continue;
        cr_assert_eq(jfr_event_field(&m, ev, "method"), JFR_OK);
        cr_assert_eq(jfr_value_field(&cls, &m, "type"), JFR_OK);
        cr_assert_eq(jfr_identity_group(&classes[n / 4], ids, 0, &cls), JFR_OK);
    }
    jfr_event_iter_free(it);
    cr_assert_neq(classes[0], classes[1]);
}

Test(identity, methods_by_class_name_and_descriptor)
{
    jfr_chunk *chunk = open_three();
    uint64_t g[5], other[5];

    groups_of(chunk, 0, "method", g);
    cr_assert_eq(g[0], g[1], "two keys of one class, name and descriptor: one method");
    cr_assert_neq(g[0], g[2], "an overload");
    cr_assert_neq(g[0], g[3], "a bridge: same parameters, another return type");
    cr_assert_neq(g[0], g[4], "the same method of the other Twin class");
    unit_next_chunk(rec);
    chunk = unit_next_chunk(rec);
    groups_of(chunk, 1, "method", other);
    cr_assert_arr_eq(other, g, sizeof g, "matched by name across runs");
}

Test(identity, event_types_by_id)
{
    jfr_chunk *chunk = open_three();
    uint64_t a, b, a2;

    cr_assert_eq(
        jfr_identity_type_group(&a, ids, 0, jfr_chunk_type_by_id(chunk, ID_EVENT)),
        JFR_OK);
    cr_assert_eq(
        jfr_identity_type_group(&b, ids, 0, jfr_chunk_type_by_id(chunk, ID_EVENT_TWIN)),
        JFR_OK);
    cr_assert_neq(a, b, "one name, two ids: two types");
    cr_assert_eq(
        jfr_identity_type_group(&a2, ids, 3, jfr_chunk_type_by_id(chunk, ID_EVENT)),
        JFR_OK);
    cr_assert_eq(a2, a, "the first of the name in another run");
}

Test(identity, bad_arguments)
{
    jfr_chunk *chunk = open_three();
    jfr_event_iter *it;
    const jfr_event *ev;
    jfr_value v;
    uint64_t g;

    cr_assert_eq(jfr_identity_new(NULL, NULL), JFR_EINVAL);
    jfr_identity_free(NULL);
    ev = unit_first_event(chunk, &it);
    cr_assert_eq(jfr_event_field(&v, ev, "startTime"), JFR_OK);
    cr_assert_eq(jfr_identity_group(&g, ids, 0, &v), JFR_EINVAL, "a long is no thing");
    cr_assert_eq(jfr_event_value(&v, ev), JFR_OK);
    cr_assert_eq(jfr_identity_group(&g, ids, 0, &v), JFR_EINVAL, "an event is no thing");
    cr_assert_eq(jfr_identity_group(NULL, ids, 0, &v), JFR_EINVAL);
    cr_assert_eq(jfr_identity_type_group(&g, ids, 0, NULL), JFR_EINVAL);
    jfr_event_iter_free(it);
}

/* Each chunk numbered apart (as in a worker thread) and merged in chunk
 * order: the groups a sequential read gives. */
Test(identity, merged_parts_number_as_one_read)
{
    static const char *const fields[] = {"thread", "loader", "method"};
    static const uint64_t runs[] = {0, 0, 1};
    jfr_chunk *chunk = open_three();
    jfr_identity *merged;
    uint64_t want[3][3][5], got[5];

    cr_assert_eq(jfr_identity_new(&merged, NULL), JFR_OK);
    for (int c = 0; c < 3; c++) {
        jfr_identity *part, *whole = ids;
        uint64_t *map;

        if (c > 0)
            chunk = unit_next_chunk(rec);
        for (int f = 0; f < 3; f++)
            groups_of(chunk, runs[c], fields[f], want[c][f]);
        cr_assert_eq(jfr_identity_new(&part, NULL), JFR_OK);
        ids = part;
        for (int f = 0; f < 3; f++)
            groups_of(chunk, 0, fields[f], got); /* the part meets them */
        map = calloc(jfr_identity_count(part) + 1, sizeof *map);
        cr_assert_eq(jfr_identity_merge(map, merged, runs[c], part), JFR_OK);
        for (int f = 0; f < 3; f++) {
            groups_of(chunk, 0, fields[f], got);
            for (int i = 0; i < 5; i++)
                cr_assert_eq(map[got[i]], want[c][f][i], "chunk %d %s event %d", c,
                             fields[f], i);
        }
        free(map);
        jfr_identity_free(part);
        ids = whole;
    }
    cr_assert_eq(jfr_identity_count(merged), jfr_identity_count(ids));
    cr_assert_eq(jfr_identity_merge(NULL, merged, 0, merged), JFR_EINVAL);
    jfr_identity_free(merged);
}
