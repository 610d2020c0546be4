/* test_field_plan.c - reading chosen fields in one pass (libjfr/field_plan.c),
 * the integer widths (jfrp_int_of_bits), the hash index (libjfr/index.c) and
 * arenas kept from chunk to chunk (libjfr/alloc.c). */
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "field_plan.h"
#include "index.h"
#include "jfrgen.h"
#include "unit_util.h"
#include "unit_fixture.h"

enum { ID_WHO = 30, ID_EVENT = 31 };

TestSuite(field_plan, .fini = unit_close);

/* One event of every field shape, in both integer encodings. */
static const jfr_event *one_event(bool fixed_ints)
{
    jg_chunk *c = jg_chunk_new();
    const jfr_event *ev;
    jg_elem *e;
    jg_buf *b;
    jfr_chunk *ch;

    if (fixed_ints)
        jg_chunk_fixed_ints(c);
    jg_primitives(c);
    jg_field(jg_class(c, ID_WHO, "test.Who", NULL), "name", JG_STRING, 0);
    e = jg_class(c, ID_EVENT, "test.Shapes", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_field(e, "small", JG_BYTE, 0);
    jg_field(e, "flag", JG_BOOLEAN, 0);
    jg_field(e, "text", JG_STRING, 0);
    jg_field(e, "many", JG_LONG, JG_ARRAY);
    jg_field(e, "who", ID_WHO, JG_POOL);
    jg_field(e, "count", JG_INT, 0);
    jg_field(e, "last", JG_SHORT, 0);
    b = jg_event(c, ID_EVENT);
    jg_i64(b, 123456789);
    jg_u8(b, 0xfe);
    jg_u8(b, 1);
    jg_string(b, "skipped over");
    jg_count(b, 3);
    jg_i64(b, 1), jg_i64(b, 2), jg_i64(b, 3);
    jg_key(b, 42);
    jg_i32(b, -5);
    jg_i16(b, -300);
    unit_close();
    ch = unit_build_open(c, &bytes, &rec);
    cr_assert_eq(jfr_event_iter_new(&iter, ch, NULL, 0, 0), JFR_OK);
    cr_assert_eq(jfr_event_next(&ev, iter), JFR_OK);
    return ev;
}

static void reads_wanted_fields(bool fixed_ints)
{
    static const jfrp_field_want want[] = {
        {"count", JFRP_SHAPE_INT},   {"who", JFRP_SHAPE_REF},
        {"small", JFRP_SHAPE_INT},   {"flag", JFRP_SHAPE_BOOL},
        {"count", JFRP_SHAPE_INT}, /* twice: both slots filled */
        {"text", JFRP_SHAPE_INT},  /* the wrong shape: left unread */
        {"absent", JFRP_SHAPE_ANY},  {NULL, 0},
        {"text", JFRP_SHAPE_STRING},
    };
    enum { N = sizeof want / sizeof want[0] };
    const jfr_event *ev = one_event(fixed_ints);
    jfrp_field_plan plan;
    jfrp_field_at at[N];
    jfrp_reader r;
    jfr_str text;

    cr_assert_eq(jfrp_field_plan_init(&plan, &rec->al, ev->type, want, N), 0);
    cr_assert_eq(plan.nread, 7, "the walk stops after 'count', field 6");
    cr_assert_eq(jfrp_field_plan_index(&plan, 0), 6);
    cr_assert_eq(jfrp_field_plan_index(&plan, 5), -1);
    cr_assert_eq(jfrp_field_plan_index(&plan, 6), -1);
    jfrp_reader_init(&r, ev->payload, (size_t)(ev->end - ev->payload), 0, !fixed_ints);
    jfrp_field_plan_read(&plan, &r, at);
    cr_assert_eq(r.err, 0);
    cr_assert_eq(jfrp_int_of_bits(JFR_KIND_INT, at[0].bits, false), -5);
    cr_assert_eq(at[1].bits, 42);
    cr_assert_eq(jfrp_int_of_bits(JFR_KIND_BYTE, at[2].bits, false), -2);
    cr_assert_eq(jfrp_int_of_bits(JFR_KIND_BYTE, at[2].bits, true), 254);
    cr_assert_eq(at[3].bits, 1);
    cr_assert_eq(at[4].field, at[0].field);
    cr_assert_eq(at[4].bits, at[0].bits);
    cr_assert_null(at[5].field);
    cr_assert_null(at[6].field);
    cr_assert_null(at[7].field);
    cr_assert_not_null(at[8].field);
    /* a string slot keeps its position for the caller to decode */
    jfrp_reader_init(&r, at[8].pos, (size_t)(ev->end - at[8].pos), 0, !fixed_ints);
    cr_assert_eq(jfrp_read_string(&text, ev->vctx, &r), 0);
    cr_assert(unit_str_eq(text, "skipped over"));
    jfrp_field_plan_free(&plan, &rec->al);
}

Test(field_plan, reads_wanted_fields_compressed)
{
    reads_wanted_fields(false);
}

Test(field_plan, reads_wanted_fields_fixed)
{
    reads_wanted_fields(true);
}

Test(field_plan, damage_stops_the_walk)
{
    static const jfrp_field_want want[] = {{"last", JFRP_SHAPE_INT},
                                           {"startTime", JFRP_SHAPE_INT}};
    const jfr_event *ev = one_event(false);
    jfrp_field_plan plan;
    jfrp_field_at at[2];
    jfrp_reader r;

    cr_assert_eq(jfrp_field_plan_init(&plan, &rec->al, ev->type, want, 2), 0);
    /* cut inside the string, before the array */
    jfrp_reader_init(&r, ev->payload, 12, 0, true);
    jfrp_field_plan_read(&plan, &r, at);
    cr_assert_neq(r.err, 0);
    cr_assert_not_null(at[1].field, "read before the damage");
    cr_assert_null(at[0].field, "not reached");
    jfrp_field_plan_free(&plan, &rec->al);
}

Test(field_plan, integer_widths)
{
    cr_assert_eq(jfrp_int_of_bits(JFR_KIND_SHORT, 0xfffe, false), -2);
    cr_assert_eq(jfrp_int_of_bits(JFR_KIND_SHORT, 0xfffe, true), 0xfffe);
    cr_assert_eq(jfrp_int_of_bits(JFR_KIND_CHAR, 0x1fffe, false), 0xfffe);
    cr_assert_eq(jfrp_int_of_bits(JFR_KIND_INT, 0xffffffffu, false), -1);
    cr_assert_eq(jfrp_int_of_bits(JFR_KIND_INT, 0xffffffffu, true), 0xffffffffLL);
    cr_assert_eq(jfrp_int_of_bits(JFR_KIND_LONG, UINT64_MAX, true), -1);
}

/* ---- the hash index ---- */

typedef struct entries {
    uint64_t *keys;
} entries;

/* Few distinct hashes, so that probing and growth meet collisions. */
static uint64_t hash_key(uint64_t key)
{
    return key % 61;
}

static uint64_t rehash(const void *ctx, uint32_t entry)
{
    return hash_key(((const entries *)ctx)->keys[entry]);
}

static long find(const jfrp_index *x, const entries *e, uint64_t key)
{
    for (size_t i = jfrp_index_first(x, hash_key(key)); x->slots[i];
         i = jfrp_index_next(x, i))
        if (e->keys[x->slots[i] - 1] == key)
            return (long)x->slots[i] - 1;
    return -1;
}

Test(field_plan, index_finds_every_entry_through_growth)
{
    enum { N = 5000 };
    jfrp_alloc al;
    jfrp_index x = {0};
    entries e = {calloc(N, sizeof(uint64_t))};

    jfrp_alloc_init(&al, NULL);
    cr_assert_not_null(e.keys);
    for (uint32_t n = 0; n < N; n++) {
        e.keys[n] = (uint64_t)n * 7919;
        cr_assert_eq(jfrp_index_reserve(&x, &al, 16, rehash, &e), 0);
        jfrp_index_insert(&x, hash_key(e.keys[n]), n);
    }
    cr_assert_eq(x.count, N);
    cr_assert_geq(x.cap, 2 * N, "the load stays at most one half");
    cr_assert_eq(x.cap & (x.cap - 1), 0);
    for (uint32_t n = 0; n < N; n++)
        cr_assert_eq(find(&x, &e, e.keys[n]), n);
    cr_assert_eq(find(&x, &e, 1), -1);
    jfrp_index_free(&x, &al);
    cr_assert_null(x.slots);
    free(e.keys);
}

/* ---- arenas kept from chunk to chunk ---- */

static size_t mallocs;

static void *counting_malloc(size_t size, void *ctx)
{
    (void)ctx;
    mallocs++;
    return malloc(size);
}

static void *counting_realloc(void *p, size_t size, void *ctx)
{
    (void)ctx;
    return realloc(p, size);
}

static void counting_free(void *p, void *ctx)
{
    (void)ctx;
    free(p);
}

Test(field_plan, recycled_arena_allocates_nothing_new)
{
    static const jfr_allocator hooks = {counting_malloc, counting_realloc, counting_free,
                                        NULL};
    jfrp_alloc al;
    jfrp_arena a;
    size_t first;

    jfrp_alloc_init(&al, &hooks);
    jfrp_arena_init(&a, &al);
    for (int i = 0; i < 5000; i++)
        cr_assert_not_null(jfrp_arena_alloc(&a, 100 + (size_t)i % 300));
    first = mallocs;
    cr_assert_gt(first, 3, "several blocks");
    jfrp_arena_recycle(&a);
    cr_assert_eq(a.total, 0);
    cr_assert_geq(jfrp_arena_held(&a), 5000 * 100);
    for (int i = 0; i < 5000; i++)
        cr_assert_not_null(jfrp_arena_alloc(&a, 100 + (size_t)i % 300));
    cr_assert_eq(mallocs, first, "the same work again takes the kept blocks");
    jfrp_arena_free(&a);
    cr_assert_eq(jfrp_arena_held(&a), 0);
}

/* ---- seeded hash tables ---- */

/* The inverse of the map's mixing step without a seed (x ^= x >> 33;
 * x *= C; x ^= x >> 33): keys made with it land where their argument says. */
static uint64_t unmix(uint64_t h)
{
    const uint64_t c = 0xff51afd7ed558ccdULL;
    uint64_t inv = c;

    for (int i = 0; i < 6; i++) /* Newton: c * inv == 1 mod 2^64 */
        inv *= 2 - c * inv;
    h ^= h >> 33;
    h *= inv;
    return h ^ h >> 33;
}

/* 300,000 pool keys that an unseeded table puts in one slot (all low 24
 * bits of their mixed value zero): 4.5e10 probes, minutes, without the
 * seed (30,000 took 0.41 s); the timeout fails the test if the seed stops
 * working. */
Test(field_plan, crafted_keys_do_not_collide, .timeout = 10)
{
    enum { N = 300000 };
    jfrp_alloc al;
    jfrp_map m = {0};

    jfrp_alloc_init(&al, NULL);
    cr_assert_neq(unmix((uint64_t)1 << 24), unmix((uint64_t)2 << 24), "distinct keys");
    for (uint64_t i = 1; i <= N; i++)
        cr_assert_eq(jfrp_map_put(&m, &al, unmix(i << 24), i), 0);
    cr_assert_neq(m.seed, 0, "the table has a seed");
    for (uint64_t i = 1; i <= N; i++)
        cr_assert_eq(jfrp_map_get(&m, unmix(i << 24)), i);
    jfrp_map_free(&m, &al);
}
