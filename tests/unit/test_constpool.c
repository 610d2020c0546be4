/* test_constpool.c - checkpoints and constant pools: the delta chain, the
 * scanning fallback, merge order, missing keys (libjfr/constpool.c,
 * jfr-format.md §8). */
#include <criterion/criterion.h>
#include <stdio.h>

#include "jfr_private.h"
#include "jfrgen.h"
#include "unit_util.h"
#include "unit_fixture.h"

enum { ID_EVENT = 20, ID_NAME = 40, ID_FRAMETYPE = 41, ID_PAIR = 42 };

TestSuite(constpool, .fini = unit_close);

/* test.Name { String name }, test.Pair { Name first (pooled), Name second
 * (pooled) }, a FrameType enum pool, and an event that refers to a Name. */
static jg_chunk *new_chunk(void)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *e, *ft;

    jg_primitives(c);
    jg_field(jg_class(c, ID_NAME, "test.Name", NULL), "name", JG_STRING, 0);
    e = jg_class(c, ID_PAIR, "test.Pair", NULL);
    jg_field(e, "first", ID_NAME, JG_POOL);
    jg_field(e, "second", ID_NAME, JG_POOL);
    ft = jg_class(c, ID_FRAMETYPE, "jdk.types.FrameType", NULL);
    jg_attr(ft, "simpleType", "true");
    jg_field(ft, "description", JG_STRING, 0);
    e = jg_class(c, ID_EVENT, "test.Event", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_field(e, "who", ID_NAME, JG_POOL);
    return c;
}

static void name_entry(jg_pool *p, uint64_t key, const char *name)
{
    jg_string(jg_entry(p, key), name);
}

/* The `name` of Name entry `key`, or NULL when the key reads as null. */
static const char *name_of(jfr_chunk *c, uint64_t key)
{
    jfr_value v, f;

    memset(&v, 0, sizeof v);
    cr_assert_eq(jfrp_pool_value(&v, c, jfr_chunk_type_by_id(c, ID_NAME), key), JFR_OK);
    cr_assert(v.pooled);
    cr_assert_eq(v.key, key);
    if (v.kind == JFR_VALUE_NULL)
        return NULL;
    cr_assert_eq(v.kind, JFR_VALUE_OBJECT);
    cr_assert_eq(jfr_value_field(&f, &v, "name"), JFR_OK);
    cr_assert_eq(f.kind, JFR_VALUE_STRING);
    return f.as.str.ptr;
}

/* Three checkpoints, each adding names; key 5 is redefined. */
static jg_chunk *three_checkpoints(jg_cp **cps)
{
    jg_chunk *c = new_chunk();
    jg_pool *p;
    jg_buf *e;

    cps[0] = jg_checkpoint(c);
    p = jg_pool_new(cps[0], ID_NAME);
    name_entry(p, 1, "one");
    name_entry(p, 5, "five-old");
    e = jg_event(c, ID_EVENT); /* records between the checkpoints */
    jg_i64(e, 1);
    jg_key(e, 1);
    cps[1] = jg_checkpoint(c);
    name_entry(jg_pool_new(cps[1], ID_NAME), 2, "two");
    cps[2] = jg_checkpoint(c);
    p = jg_pool_new(cps[2], ID_NAME);
    name_entry(p, 3, "three");
    name_entry(p, 5, "five-new");
    return c;
}

Test(constpool, entries_from_every_checkpoint_on_the_chain)
{
    jg_cp *cps[3];
    jfr_chunk *c = unit_open_chunk(three_checkpoints(cps));

    cr_assert_str_eq(name_of(c, 1), "one");
    cr_assert_str_eq(name_of(c, 2), "two");
    cr_assert_str_eq(name_of(c, 3), "three");
    cr_assert_null(jfr_chunk_warning(c));
}

/* Across checkpoints the earliest definition wins, as in the JDK's reader,
 * which walks the chain from the newest checkpoint and keeps what it met
 * last (jfr-format.md §8.3: a renamed thread keeps its first name). */
Test(constpool, earliest_checkpoint_definition_wins)
{
    jg_cp *cps[3];
    jfr_chunk *c = unit_open_chunk(three_checkpoints(cps));

    cr_assert_str_eq(name_of(c, 5), "five-old");
}

Test(constpool, last_definition_wins_inside_one_checkpoint)
{
    jg_chunk *ch = new_chunk();
    jg_cp *cp = jg_checkpoint(ch);
    jfr_chunk *c;

    /* async-profiler writes two pools of one type in a checkpoint */
    name_entry(jg_pool_new(cp, ID_NAME), 9, "first");
    name_entry(jg_pool_new(cp, ID_NAME), 9, "second");
    c = unit_open_chunk(ch);
    cr_assert_str_eq(name_of(c, 9), "second");
}

/* Keys close together are indexed by an array, keys far apart by a hash
 * map: both keep the same definitions and find nothing outside them. */
Test(constpool, dense_and_sparse_keys_keep_the_same_definitions)
{
    static const struct {
        uint64_t base, step;
    } layouts[] = {
        {1000, 1},                 /* an array */
        {1000, UINT64_C(1) << 40}, /* a map */
        {UINT64_MAX - 99, 1},      /* an array at the top of the key range */
    };

    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
        uint64_t base = layouts[l].base, step = layouts[l].step;
        jg_chunk *ch = new_chunk();
        jg_cp *old = jg_checkpoint(ch), *cp;
        jg_pool *p;
        jfr_chunk *c;
        char name[16];

        name_entry(jg_pool_new(old, ID_NAME), base + 3 * step, "three-old");
        cp = jg_checkpoint(ch);
        p = jg_pool_new(cp, ID_NAME);
        for (int k = 0; k < 100; k++) {
            snprintf(name, sizeof name, "n%d", k);
            name_entry(p, base + (uint64_t)k * step, name);
        }
        name_entry(jg_pool_new(cp, ID_NAME), base + 7 * step, "seven-again");
        c = unit_open_chunk(ch);
        cr_assert_str_eq(name_of(c, base), "n0", "layout %zu", l);
        cr_assert_str_eq(name_of(c, base + 99 * step), "n99", "layout %zu", l);
        cr_assert_str_eq(name_of(c, base + 3 * step), "three-old", "layout %zu", l);
        cr_assert_str_eq(name_of(c, base + 7 * step), "seven-again", "layout %zu", l);
        cr_assert_null(name_of(c, base - 1), "layout %zu", l);
        cr_assert_null(name_of(c, 0), "layout %zu", l);
        if (step > 1)
            cr_assert_null(name_of(c, base + step / 2), "layout %zu", l);
        if (base + 100 * step > base)
            cr_assert_null(name_of(c, base + 100 * step), "layout %zu", l);
    }
}

Test(constpool, chain_is_followed_not_file_order)
{
    jg_cp *cps[3];
    jg_chunk *ch = three_checkpoints(cps);
    jfr_chunk *c;

    /* cp 1 claims to be the first: cp 0 is not on the chain, as for the JDK */
    cps[1]->set_delta = true;
    cps[1]->delta = 0;
    c = unit_open_chunk(ch);
    cr_assert_null(name_of(c, 1));
    cr_assert_str_eq(name_of(c, 2), "two");
    cr_assert_str_eq(name_of(c, 5), "five-new");
}

Test(constpool, broken_chain_falls_back_to_scanning)
{
    static const int64_t bad_deltas[] = {5, -1, -100000, INT64_MIN};

    for (size_t i = 0; i < sizeof bad_deltas / sizeof bad_deltas[0]; i++) {
        jg_cp *cps[3];
        jg_chunk *ch = three_checkpoints(cps);
        jfr_chunk *c;

        cps[2]->set_delta = true;
        cps[2]->delta = bad_deltas[i];
        c = unit_open_chunk(ch);
        cr_assert_str_eq(name_of(c, 1), "one", "delta %lld", (long long)bad_deltas[i]);
        cr_assert_str_eq(name_of(c, 2), "two");
        cr_assert_str_eq(name_of(c, 5), "five-old", "scanning keeps the chain's rule");
    }
}

Test(constpool, header_offset_not_at_a_checkpoint)
{
    jg_cp *cps[3];
    jg_chunk *ch = three_checkpoints(cps);
    jfr_chunk *c;
    uint64_t meta;

    jg_chunk_build(ch, &bytes);
    meta = ch->metadata_offset;
    jg_chunk_free(ch);
    /* point the chain head at the metadata record (type 0) */
    jg_put_be(bytes.data + 16, meta, 8);
    rec = unit_open(&bytes);
    c = unit_next_chunk(rec);
    cr_assert_str_eq(name_of(c, 1), "one");
    cr_assert_str_eq(name_of(c, 3), "three");
}

Test(constpool, no_chain_head_scans)
{
    jg_cp *cps[3];
    jg_chunk *ch = three_checkpoints(cps);
    jfr_chunk *c;

    jg_chunk_build(ch, &bytes);
    jg_chunk_free(ch);
    jg_put_be(bytes.data + 16, 0, 8); /* JDK 14+ before the first flush */
    rec = unit_open(&bytes);
    c = unit_next_chunk(rec);
    cr_assert_str_eq(name_of(c, 2), "two");
}

Test(constpool, forward_references_resolve)
{
    jg_chunk *ch = new_chunk();
    jg_buf *e;
    jfr_chunk *c;
    jfr_event_iter *it;
    const jfr_event *ev;
    jfr_value who, name;

    /* the event comes first, its pool entry in a later checkpoint */
    e = jg_event(ch, ID_EVENT);
    jg_i64(e, 100);
    jg_key(e, 77);
    name_entry(jg_pool_new(jg_checkpoint(ch), ID_NAME), 77, "later");
    c = unit_open_chunk(ch);
    ev = unit_first_event(c, &it);
    cr_assert_eq(jfr_event_field(&who, ev, "who"), JFR_OK);
    cr_assert_eq(who.kind, JFR_VALUE_OBJECT);
    cr_assert(who.pooled);
    cr_assert_eq(who.key, 77);
    cr_assert_eq(jfr_value_field(&name, &who, "name"), JFR_OK);
    cr_assert(unit_str_eq(name.as.str, "later"));
    jfr_event_iter_free(it);
}

Test(constpool, undefined_key_is_null)
{
    jg_chunk *ch = new_chunk();
    jg_buf *e;
    jfr_chunk *c;
    jfr_event_iter *it;
    const jfr_event *ev;
    jfr_value who;

    name_entry(jg_pool_new(jg_checkpoint(ch), ID_NAME), 1, "one");
    e = jg_event(ch, ID_EVENT);
    jg_i64(e, 100);
    jg_key(e, 24); /* never defined (JDK 17's shutdown thread) */
    c = unit_open_chunk(ch);
    ev = unit_first_event(c, &it);
    cr_assert_eq(jfr_event_field(&who, ev, "who"), JFR_OK);
    cr_assert_eq(who.kind, JFR_VALUE_NULL);
    cr_assert(who.pooled);
    cr_assert_eq(who.key, 24);
    cr_assert_null(name_of(c, 0), "key 0 is just another key: absent here");
    cr_assert_null(jfr_chunk_warning(c));
    jfr_event_iter_free(it);
}

Test(constpool, no_pool_at_all_is_null)
{
    jfr_chunk *c = unit_open_chunk(new_chunk());

    cr_assert_null(name_of(c, 1));
}

Test(constpool, key_zero_is_real_in_enum_pools)
{
    jg_chunk *ch = new_chunk();
    jg_pool *p = jg_pool_new(jg_checkpoint(ch), ID_FRAMETYPE);
    jfr_chunk *c;
    jfr_value v, s;

    jg_string(jg_entry(p, 0), "Interpreted");
    jg_string(jg_entry(p, 1), "JIT compiled");
    c = unit_open_chunk(ch);
    memset(&v, 0, sizeof v);
    cr_assert_eq(jfrp_pool_value(&v, c, jfr_chunk_type_by_id(c, ID_FRAMETYPE), 0),
                 JFR_OK);
    cr_assert_eq(v.kind, JFR_VALUE_OBJECT);
    cr_assert_eq(jfr_value_unwrap(&s, &v), JFR_OK);
    cr_assert_eq(s.kind, JFR_VALUE_STRING);
    cr_assert(unit_str_eq(s.as.str, "Interpreted"));
}

Test(constpool, pools_refer_to_pools)
{
    jg_chunk *ch = new_chunk();
    jg_cp *cp1 = jg_checkpoint(ch), *cp2;
    jg_buf *pair;
    jfr_chunk *c;
    jfr_value v, first, second, name;

    pair = jg_entry(jg_pool_new(cp1, ID_PAIR), 1);
    jg_key(pair, 10);
    jg_key(pair, 11);
    cp2 = jg_checkpoint(ch);
    name_entry(jg_pool_new(cp2, ID_NAME), 10, "ten");
    c = unit_open_chunk(ch);
    memset(&v, 0, sizeof v);
    cr_assert_eq(jfrp_pool_value(&v, c, jfr_chunk_type_by_id(c, ID_PAIR), 1), JFR_OK);
    cr_assert_eq(jfr_value_field(&first, &v, "first"), JFR_OK);
    cr_assert_eq(jfr_value_field(&name, &first, "name"), JFR_OK);
    cr_assert(unit_str_eq(name.as.str, "ten"));
    cr_assert_eq(jfr_value_field(&second, &v, "second"), JFR_OK);
    cr_assert_eq(second.kind, JFR_VALUE_NULL, "key 11 is dangling");
    cr_assert_eq(second.key, 11);
}

Test(constpool, empty_pool_is_accepted)
{
    jg_chunk *ch = new_chunk();
    jg_cp *cp = jg_checkpoint(ch);
    jfr_chunk *c;

    jg_pool_new(cp, ID_PAIR);
    name_entry(jg_pool_new(cp, ID_NAME), 4, "four");
    c = unit_open_chunk(ch);
    cr_assert_str_eq(name_of(c, 4), "four");
    cr_assert_null(jfr_chunk_warning(c));
}

Test(constpool, fixed_width_integers)
{
    jg_chunk *ch = jg_chunk_new();
    jg_cp *cps[2];
    jfr_chunk *c;

    jg_chunk_fixed_ints(ch);
    jg_primitives(ch);
    jg_field(jg_class(ch, ID_NAME, "test.Name", NULL), "name", JG_STRING, 0);
    cps[0] = jg_checkpoint(ch);
    name_entry(jg_pool_new(cps[0], ID_NAME), 0x0102030405, "big key");
    cps[1] = jg_checkpoint(ch);
    name_entry(jg_pool_new(cps[1], ID_NAME), 2, "two");
    c = unit_open_chunk(ch);
    cr_assert_str_eq(name_of(c, 0x0102030405), "big key");
    cr_assert_str_eq(name_of(c, 2), "two");
}

Test(constpool, pool_of_undeclared_type_is_a_warning)
{
    jg_chunk *ch = new_chunk();
    jg_cp *cp1 = jg_checkpoint(ch), *cp2;
    jfr_chunk *c;
    const jfr_error *w;

    name_entry(jg_pool_new(cp1, ID_NAME), 1, "one");
    cp2 = jg_checkpoint(ch);
    jg_string(jg_entry(jg_pool_new(cp2, 999), 1), "x");
    c = unit_open_chunk(ch);
    cr_assert_null(jfr_chunk_warning(c), "pools are read on first use");
    cr_assert_str_eq(name_of(c, 1), "one", "earlier checkpoints stay indexed");
    w = jfr_chunk_warning(c);
    cr_assert_not_null(w);
    cr_assert_eq(w->code, JFR_ECORRUPT);
    cr_assert(strstr(w->message, "999") != NULL, "%s", w->message);
    cr_assert_eq(jfr_recording_error(rec)->code, 0,
                 "a warning is not the recording's error");
}

Test(constpool, truncated_checkpoint_keeps_earlier_entries)
{
    jg_chunk *ch = new_chunk();
    jg_cp *cp1 = jg_checkpoint(ch), *cp2;
    jg_pool *p;
    jfr_chunk *c;
    const jfr_error *w;

    name_entry(jg_pool_new(cp1, ID_NAME), 1, "one");
    cp2 = jg_checkpoint(ch);
    p = jg_pool_new(cp2, ID_NAME);
    name_entry(p, 2, "two");
    p->count = 3; /* claims one more entry than it holds */
    jg_raw(ch);   /* nothing after it */
    c = unit_open_chunk(ch);
    cr_assert_str_eq(name_of(c, 1), "one");
    cr_assert_str_eq(name_of(c, 2), "two", "entries before the damage are kept");
    w = jfr_chunk_warning(c);
    cr_assert_not_null(w);
    cr_assert_eq(w->code, JFR_ECORRUPT);
}

/* A last checkpoint whose Name pool (key 2, "two") claims one more entry
 * than it holds: damage that shows only when that pool is read. */
static void damaged_names_last(jg_chunk *ch)
{
    jg_pool *p = jg_pool_new(jg_checkpoint(ch), ID_NAME);

    name_entry(p, 2, "two");
    p->count = 3;
    jg_raw(ch); /* nothing after it */
}

/* Frame type 0 looked up: the pools that lookup needs are read. */
static void look_up_frame_type(jfr_chunk *c)
{
    jfr_value v;

    memset(&v, 0, sizeof v);
    cr_assert_eq(jfrp_pool_value(&v, c, jfr_chunk_type_by_id(c, ID_FRAMETYPE), 0),
                 JFR_OK);
    cr_assert_eq(v.kind, JFR_VALUE_OBJECT);
}

/* A pool that ends its checkpoint is read on its type's first lookup (a
 * JDK's stack-trace pools, most of a file): damage in it is no warning
 * until then, and a reader that never needs the type never walks it. */
Test(constpool, pool_ending_its_checkpoint_is_read_on_first_lookup)
{
    jg_chunk *ch = new_chunk();
    jfr_chunk *c;

    jg_string(jg_entry(jg_pool_new(jg_checkpoint(ch), ID_FRAMETYPE), 0), "Interpreted");
    damaged_names_last(ch);
    c = unit_open_chunk(ch);
    look_up_frame_type(c);
    cr_assert_null(jfr_chunk_warning(c), "the names were not read");
    cr_assert_str_eq(name_of(c, 2), "two");
    cr_assert_not_null(jfr_chunk_warning(c), "read on the first lookup of a name");
    cr_assert_eq(jfr_chunk_warning(c)->code, JFR_ECORRUPT);
}

/* Waiting parts read because an older checkpoint's pools of their types
 * are walked: the first damage among them is the chunk's warning at once,
 * whatever the parts read after it. */
Test(constpool, waiting_part_read_early_still_warns)
{
    jg_chunk *ch = new_chunk();
    jg_cp *old_cp = jg_checkpoint(ch);
    jg_buf *pair;
    jfr_chunk *c;

    name_entry(jg_pool_new(old_cp, ID_NAME), 1, "one");
    pair = jg_entry(jg_pool_new(old_cp, ID_PAIR), 5);
    jg_key(pair, 1);
    jg_key(pair, 1);
    jg_string(jg_entry(jg_pool_new(old_cp, ID_FRAMETYPE), 0), "Inlined");
    pair = jg_entry(jg_pool_new(jg_checkpoint(ch), ID_PAIR), 6); /* sound */
    jg_key(pair, 1);
    jg_key(pair, 1);
    damaged_names_last(ch);
    c = unit_open_chunk(ch);
    look_up_frame_type(c);
    cr_assert_not_null(jfr_chunk_warning(c),
                       "the names were read to reach the frame types");
    cr_assert_eq(jfr_chunk_warning(c)->code, JFR_ECORRUPT);
    cr_assert_str_eq(name_of(c, 1), "one");
    cr_assert_str_eq(name_of(c, 2), "two", "entries before the damage are kept");
}

/* A type whose pool ends one checkpoint and not another keeps the
 * earliest definition, whichever of the two is read first. */
Test(constpool, waiting_and_walked_pools_keep_the_reading_order)
{
    for (int older_walked = 0; older_walked < 2; older_walked++) {
        jg_chunk *ch = new_chunk();
        jg_cp *old_cp = jg_checkpoint(ch), *new_cp;
        jfr_chunk *c;

        name_entry(jg_pool_new(old_cp, ID_NAME), 5, "five-old");
        if (older_walked) /* its names are walked to reach this pool */
            jg_string(jg_entry(jg_pool_new(old_cp, ID_FRAMETYPE), 0), "Inlined");
        new_cp = jg_checkpoint(ch);
        if (!older_walked)
            jg_string(jg_entry(jg_pool_new(new_cp, ID_FRAMETYPE), 1), "JIT compiled");
        name_entry(jg_pool_new(new_cp, ID_NAME), 5, "five-new");
        name_entry(jg_pool_new(new_cp, ID_NAME), 6, "six");
        c = unit_open_chunk(ch);
        cr_assert_str_eq(name_of(c, 5), "five-old", "older_walked %d", older_walked);
        cr_assert_str_eq(name_of(c, 6), "six");
        cr_assert_null(jfr_chunk_warning(c));
        unit_close();
    }
}

Test(constpool, entry_limit)
{
    jg_chunk *ch = new_chunk();
    jg_pool *p = jg_pool_new(jg_checkpoint(ch), ID_NAME);
    jfr_options o = JFR_OPTIONS_INIT;
    jfr_chunk *c;

    for (uint64_t k = 1; k <= 10; k++)
        name_entry(p, k, "n");
    unit_close();
    jg_chunk_build(ch, &bytes);
    jg_chunk_free(ch);
    o.max_pool_entries = 9;
    cr_assert_eq(jfr_recording_open_memory(&rec, bytes.data, bytes.len, &o, NULL),
                 JFR_OK);
    c = unit_next_chunk(rec);
    (void)name_of(c, 1);
    cr_assert_not_null(jfr_chunk_warning(c));
    cr_assert_eq(jfr_chunk_warning(c)->code, JFR_ELIMIT);
}

Test(constpool, string_pool_references)
{
    jg_chunk *ch = new_chunk();
    jg_pool *strings, *names;
    jfr_chunk *c;

    strings = jg_pool_new(jg_checkpoint(ch), JG_STRING);
    jg_string(jg_entry(strings, 3), "from the string pool");
    jg_str_pool(jg_entry(strings, 4), 3); /* a pool string pointing into the pool */
    jg_str_empty(jg_entry(strings, 5));
    names = jg_pool_new(jg_checkpoint(ch), ID_NAME);
    jg_str_pool(jg_entry(names, 1), 3);
    jg_str_pool(jg_entry(names, 2), 4);
    jg_str_pool(jg_entry(names, 3), 99);
    jg_str_pool(jg_entry(names, 4), 5);
    c = unit_open_chunk(ch);
    cr_assert_str_eq(name_of(c, 1), "from the string pool");
    cr_assert_str_eq(name_of(c, 4), "");
    {
        jfr_value v, f;

        for (uint64_t k = 2; k <= 3; k++) {
            memset(&v, 0, sizeof v);
            cr_assert_eq(jfrp_pool_value(&v, c, jfr_chunk_type_by_id(c, ID_NAME), k),
                         JFR_OK);
            cr_assert_eq(jfr_value_field(&f, &v, "name"), JFR_OK);
            cr_assert_eq(f.kind, JFR_VALUE_NULL, "key %llu", (unsigned long long)k);
        }
    }
}

/* A chunk whose metadata repeats the previous chunk's takes its types
 * (metadata.c): its own pools must still be the ones read (the second has
 * none), and a chunk with other metadata must get its own types. */
Test(constpool, repeated_metadata_keeps_each_chunks_pools)
{
    static const char *const names[] = {"first", NULL, "third"};
    jg_buf one = {0};
    jfr_chunk *c;
    const jfr_type *types[3];

    unit_close();
    for (int i = 0; i < 3; i++) {
        jg_chunk *ch = new_chunk();
        jg_buf part = {0};

        if (i == 2) /* the third declares one type more */
            jg_field(jg_class(ch, 50, "test.Extra", NULL), "x", JG_LONG, 0);
        if (names[i])
            name_entry(jg_pool_new(jg_checkpoint(ch), ID_NAME), 1, names[i]);
        else
            jg_checkpoint(ch);
        jg_chunk_build(ch, &part);
        jg_chunk_free(ch);
        jg_bytes(&one, part.data, part.len);
        jg_buf_free(&part);
    }
    bytes = one;
    rec = unit_open(&bytes);
    for (int i = 0; i < 3; i++) {
        c = unit_next_chunk(rec);
        types[i] = jfr_chunk_type_by_id(c, ID_NAME);
        if (names[i])
            cr_assert_str_eq(name_of(c, 1), names[i], "chunk %d", i);
        else
            cr_assert_null(name_of(c, 1), "chunk %d has no names", i);
        cr_assert_eq(jfr_chunk_type_by_name(c, "test.Extra") != NULL, i == 2);
    }
    cr_assert_eq(types[1], types[0], "the second chunk took the first one's types");
    cr_assert_neq(types[2], types[1], "the third chunk has types of its own");
}
