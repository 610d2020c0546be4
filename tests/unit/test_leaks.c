/* test_leaks.c - the leak analysis (libjfr/leaks*.c): merging chains into
 * trees, scoring, candidate choice, the growth site, warm-up, repeated
 * samples (on hand-built samples), and decoding of damaged chains (on a
 * synthetic chunk: a cycle and an undefined reference must end a chain with
 * a count, not loop or crash). */
#include <math.h>
#include <string.h>

#include <criterion/criterion.h>

#include "jfr_private.h"
#include "leaks_private.h"
#include "jfrgen.h"
#include "unit_util.h"

/* ---- hand-built samples ------------------------------------------------------- */

/* One object of a chain, leaf first; `field`/`index`/`skip` describe the
 * reference to it from the next object. */
typedef struct obj {
    uint64_t address;
    const char *type;
    const char *description;
    const char *field;
    int32_t index;
    int64_t skip;
} obj;

static const char *str(jfr_leaks *lk, const char *s)
{
    int rc = 0;
    return s ? jfrp_leaks_intern(lk, s, strlen(s), &rc) : NULL;
}

static void add_recording(jfr_leaks *lk)
{
    cr_assert_eq(jfrp_leaks_grow(lk, (void **)&lk->recs, &lk->recs_cap, lk->nrecs + 1,
                                 sizeof *lk->recs),
                 0);
    memset(&lk->recs[lk->nrecs++], 0, sizeof lk->recs[0]);
    lk->stats.recordings = lk->nrecs;
}

static void add_class_count(jfr_leaks *lk, int64_t nanos, uint64_t loaded)
{
    jfrp_leak_recording *r = &lk->recs[lk->nrecs - 1];

    cr_assert_eq(jfrp_leaks_grow(lk, (void **)&r->counts, &r->cap, r->ncounts + 1,
                                 sizeof *r->counts),
                 0);
    r->counts[r->ncounts++] = (jfrp_class_count){nanos, loaded};
    lk->merged = false;
}

/* A sample written at `start` of an object allocated at `alloc`. */
static void add_sample(jfr_leaks *lk, int64_t start, int64_t alloc, const obj *chain,
                       size_t n)
{
    jfr_leak_sample *s;
    jfrp_leak_link *links = jfrp_arena_calloc(&lk->arena, n, sizeof *links);

    cr_assert_eq(jfrp_leaks_grow(lk, (void **)&lk->samples, &lk->samples_cap,
                                 lk->nsamples + 1, sizeof *lk->samples),
                 0);
    cr_assert_eq(jfrp_leaks_grow(lk, (void **)&lk->chains, &lk->chains_cap,
                                 lk->nsamples + 1, sizeof *lk->chains),
                 0);
    for (size_t i = 0; i < n; i++) {
        links[i].address = chain[i].address;
        links[i].type = str(lk, chain[i].type);
        links[i].description = str(lk, chain[i].description);
        links[i].field = str(lk, chain[i].field);
        links[i].array_index = chain[i].field ? -1 : chain[i].index;
        links[i].array_size = chain[i].field ? -1 : 100;
        links[i].skip = chain[i].skip;
    }
    s = &lk->samples[lk->nsamples];
    memset(s, 0, sizeof *s);
    s->recording = (uint32_t)(lk->nrecs - 1);
    s->start_nanos = s->end_nanos = start;
    s->has_allocation_time = true;
    s->allocation_nanos = alloc;
    s->object_type = links[0].type;
    s->address = links[0].address;
    s->thread = str(lk, "main");
    s->app_frame = -1;
    s->chain_length = n - 1;
    lk->chains[lk->nsamples++] = links;
    lk->recs[s->recording].warmup.samples++;
    lk->stats.samples++;
    lk->stats.with_chain += n > 1;
    lk->merged = false;
}

/*
 * Root (1) .classes -> ArrayList (2) .elementData -> Object[] (3)
 *   [0] -> Class app.Cache (4) .MAP -> HashMap (5) .table -> Node[] (6)
 *          [i] -> Node (100+i) .value -> byte[] (200+i)        six samples
 *   [1] -> Class app.Bus (7) .LISTENERS -> ArrayList (8) .elementData
 *          -> Object[] (9) [i] -> long[] (300+i)               two samples,
 *          the first with 3 references omitted before it
 * plus one sample without a chain (400).
 */
static const obj upper[] = {
    {5, "java.util.HashMap", NULL, "MAP", 0, 0},
    {4, "java.lang.Class", "Class Name: app.Cache", NULL, 0, 0},
    {3, "java.lang.Object[]", NULL, "elementData", 0, 0},
    {2, "java.util.ArrayList", NULL, "classes", 0, 0},
    {1, "app.Root", NULL, NULL, 0, 0},
};

static void add_map_sample(jfr_leaks *lk, int i, int64_t start)
{
    obj chain[4 + 5] = {
        {200 + (uint64_t)i, "byte[]", NULL, "value", 0, 0},
        {100 + (uint64_t)i, "java.util.HashMap$Node", NULL, NULL, i, 0},
        {6, "java.util.HashMap$Node[]", NULL, "table", 0, 0},
    };
    memcpy(chain + 3, upper, sizeof upper);
    add_sample(lk, start, 1000 + i, chain, 3 + 5);
}

static void add_bus_sample(jfr_leaks *lk, int i, int64_t skip, int64_t start)
{
    obj chain[] = {
        {300 + (uint64_t)i, "long[]", NULL, NULL, i, skip},
        {9, "java.lang.Object[]", NULL, "elementData", 0, 0},
        {8, "java.util.ArrayList", NULL, "LISTENERS", 0, 0},
        {7, "java.lang.Class", "Class Name: app.Bus", NULL, 1, 0},
        {3, "java.lang.Object[]", NULL, "elementData", 0, 0},
        {2, "java.util.ArrayList", NULL, "classes", 0, 0},
        {1, "app.Root", NULL, NULL, 0, 0},
    };
    add_sample(lk, start, 2000 + i, chain, sizeof chain / sizeof chain[0]);
}

static jfr_leaks *hand_built(void)
{
    jfr_leaks *lk;
    obj lonely = {400, "app.Lonely", NULL, NULL, 0, 0};

    cr_assert_eq(jfr_leaks_new(&lk, NULL, NULL), JFR_OK);
    add_recording(lk);
    for (int i = 0; i < 6; i++)
        add_map_sample(lk, i, 5000);
    add_bus_sample(lk, 0, 3, 5000);
    add_bus_sample(lk, 1, 0, 5000);
    add_sample(lk, 5000, 3000, &lonely, 1);
    cr_assert_eq(jfr_leaks_build_trees(lk), JFR_OK);
    return lk;
}

static uint32_t node_at_address(jfr_leaks *lk, uint64_t address)
{
    for (uint32_t i = 0; i < jfr_leaks_node_count(lk); i++)
        if (jfr_leaks_node_at(lk, i)->address == address)
            return i;
    cr_assert_fail("no node at address %llu", (unsigned long long)address);
    return JFR_LEAK_NONE;
}

Test(leaks, chains_merge_into_one_tree_per_root_object)
{
    jfr_leaks *lk = hand_built();
    const jfr_leak_node *root, *table, *leaf;

    /* 9 shared objects, 6 nodes + 6 leaves under the map, 2 leaves on the
     * bus, one lonely object */
    cr_assert_eq(jfr_leaks_node_count(lk), 9 + 12 + 2 + 1);
    cr_assert_eq(jfr_leaks_tree_count(lk), 2);
    root = jfr_leaks_node_at(lk, node_at_address(lk, 1));
    cr_assert_eq(root->parent, JFR_LEAK_NONE);
    cr_assert_eq(root->samples, 8);
    cr_assert_eq(jfr_leaks_tree_at(lk, root->tree)->samples, 8);
    table = jfr_leaks_node_at(lk, node_at_address(lk, 6));
    cr_assert_eq(table->samples, 6);
    cr_assert_eq(table->depth, 5);
    cr_assert_str_eq(table->field, "table");
    leaf = jfr_leaks_node_at(lk, node_at_address(lk, 101));
    cr_assert_eq(leaf->array_index, 1);
    cr_assert_null(leaf->field);
    cr_assert_eq(jfr_leaks_stats_get(lk)->used, 9);
    jfr_leaks_free(lk);
}

Test(leaks, distance_counts_omitted_references)
{
    jfr_leaks *lk = hand_built();
    const jfr_leak_node *skipped = jfr_leaks_node_at(lk, node_at_address(lk, 300));
    const jfr_leak_node *plain = jfr_leaks_node_at(lk, node_at_address(lk, 301));

    cr_assert_eq(skipped->depth, 6);
    cr_assert_eq(skipped->skip, 3);
    cr_assert_eq(skipped->distance, 9);
    cr_assert_eq(plain->distance, 6);
    jfr_leaks_free(lk);
}

Test(leaks, relevance_is_local_share_times_distance_times_global_share)
{
    jfr_leaks *lk = hand_built();
    const jfr_leak_node *table = jfr_leaks_node_at(lk, node_at_address(lk, 6));
    const jfr_leak_node *map = jfr_leaks_node_at(lk, node_at_address(lk, 5));

    /* 6 of the root's 8, 5 references away, 6 of all 9 samples */
    cr_assert_float_eq(table->relevance, (6.0 / 8) * 5 * (6.0 / 9), 1e-12);
    cr_assert_float_eq(map->relevance, (6.0 / 8) * 4 * (6.0 / 9), 1e-12);
    cr_assert_float_eq(jfr_leaks_node_at(lk, node_at_address(lk, 1))->relevance, 0, 0);
    jfr_leaks_free(lk);
}

Test(leaks, one_root_can_hold_two_candidates)
{
    jfr_leaks *lk = hand_built();
    const jfr_leak_candidate *first, *second;

    cr_assert_eq(jfr_leaks_candidate_count(lk), 2);
    first = jfr_leaks_candidate_at(lk, 0);
    second = jfr_leaks_candidate_at(lk, 1);
    /* the map's table, then (with the map's samples taken out of the
     * root) the bus's array: 2 of the 2 left, 5 away, 2 of 9 */
    cr_assert_eq(first->node, node_at_address(lk, 6));
    cr_assert_eq(first->samples, 6);
    cr_assert_eq(first->root_samples, 8);
    cr_assert_eq(second->node, node_at_address(lk, 9));
    cr_assert_eq(second->samples, 2);
    cr_assert_eq(second->root_samples, 2);
    cr_assert_float_eq(second->relevance, 1.0 * 5 * (2.0 / 9), 1e-12);
    cr_assert_float_eq(second->share_of_all, 2.0 / 9, 1e-12);
    cr_assert_eq(first->tree, second->tree);
    jfr_leaks_free(lk);
}

Test(leaks, growth_site_is_the_nearest_application_field)
{
    jfr_leaks *lk = hand_built();
    const jfr_leak_candidate *first = jfr_leaks_candidate_at(lk, 0);
    const jfr_leak_candidate *second = jfr_leaks_candidate_at(lk, 1);

    /* HashMap.table is JDK internals: the leak grows through app.Cache.MAP,
     * a static field, so the holder is the class its Class object names */
    cr_assert_eq(first->site, node_at_address(lk, 5));
    cr_assert_str_eq(jfr_leaks_node_at(lk, first->site)->field, "MAP");
    cr_assert_str_eq(jfr_leaks_holder_name(lk, first->site), "app.Cache");
    cr_assert_eq(second->site, node_at_address(lk, 8));
    cr_assert_str_eq(jfr_leaks_holder_name(lk, second->site), "app.Bus");
    cr_assert_str_eq(jfr_leaks_holder_name(lk, node_at_address(lk, 6)),
                     "java.util.HashMap");
    jfr_leaks_free(lk);
}

Test(leaks, threshold_drops_weak_candidates)
{
    jfr_leaks_options o = JFR_LEAKS_OPTIONS_INIT;
    jfr_leaks *lk = hand_built();

    /* the bus scores 10/9: above 1.1 only the map remains */
    o.threshold = 1.2;
    lk->opts.threshold = o.threshold;
    lk->merged = false;
    cr_assert_eq(jfr_leaks_build_trees(lk), JFR_OK);
    cr_assert_eq(jfr_leaks_candidate_count(lk), 1);
    cr_assert_eq(jfr_leaks_candidate_at(lk, 0)->node, node_at_address(lk, 6));
    jfr_leaks_free(lk);
}

Test(leaks, ranking_within_a_candidate)
{
    jfr_leaks *lk = hand_built();
    const jfr_leak_rank *rows;
    size_t n;

    cr_assert_eq(jfr_leaks_rank(&rows, &n, lk, JFR_LEAKS_BY_CLASS,
                                jfr_leaks_candidate_at(lk, 0)->node),
                 JFR_OK);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(rows[0].name, "byte[]");
    cr_assert_eq(rows[0].samples, 6);
    cr_assert_eq(jfr_leaks_rank(&rows, &n, lk, JFR_LEAKS_BY_CLASS, JFR_LEAK_NONE),
                 JFR_OK);
    cr_assert_eq(n, 3);
    cr_assert_str_eq(rows[0].name, "byte[]");
    cr_assert_str_eq(rows[1].name, "long[]"); /* 2 */
    cr_assert_str_eq(rows[2].name, "app.Lonely");
    /* no stacks: every sample is one N/A site */
    cr_assert_eq(jfr_leaks_rank(&rows, &n, lk, JFR_LEAKS_BY_SITE, JFR_LEAK_NONE), JFR_OK);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(rows[0].name, "N/A");
    cr_assert_eq(rows[0].samples, 9);
    jfr_leaks_free(lk);
}

Test(leaks, samples_written_during_warmup_are_left_out)
{
    jfr_leaks *lk = hand_built();
    const jfr_leaks_warmup *w;

    /* classes settle at t=4000 (95 > 90% of 100); a sample written at
     * t=3000, in an earlier batch, is left out */
    add_class_count(lk, 1000, 50);
    add_class_count(lk, 4000, 95);
    add_class_count(lk, 6000, 100);
    add_map_sample(lk, 6, 3000);
    cr_assert_eq(jfr_leaks_build_trees(lk), JFR_OK);
    w = jfr_leaks_warmup_at(lk, 0);
    cr_assert(w->measured);
    cr_assert(w->visible);
    cr_assert_eq(w->end_nanos, 4000);
    cr_assert_eq(w->skipped, 1);
    cr_assert_eq(jfr_leaks_stats_get(lk)->used, 9);
    cr_assert_eq(jfr_leaks_stats_get(lk)->warmup_skipped, 1);
    jfr_leaks_free(lk);
}

Test(leaks, an_object_sampled_in_two_batches_counts_once)
{
    jfr_leaks *lk = hand_built();

    add_map_sample(lk, 0, 9000); /* same allocation time, type, thread */
    cr_assert_eq(jfr_leaks_build_trees(lk), JFR_OK);
    cr_assert_eq(jfr_leaks_stats_get(lk)->repeated, 1);
    cr_assert_eq(jfr_leaks_stats_get(lk)->used, 9);
    cr_assert(jfr_leaks_sample_at(lk, 0)->repeated);
    cr_assert_not(jfr_leaks_sample_at(lk, 9)->repeated);
    cr_assert_eq(jfr_leaks_node_at(lk, node_at_address(lk, 6))->samples, 6);
    jfr_leaks_free(lk);
}

/* The result functions build nothing (doc/internals.md, "The ABI"): no
 * trees before jfr_leaks_build_trees, none again once samples are added. */
Test(leaks, result_functions_read_only_what_was_built)
{
    jfr_leaks *lk;

    cr_assert_eq(jfr_leaks_new(&lk, NULL, NULL), JFR_OK);
    add_recording(lk);
    for (int i = 0; i < 6; i++)
        add_map_sample(lk, i, 5000);
    cr_assert_eq(jfr_leaks_node_count(lk), 0, "a getter merged");
    cr_assert_eq(jfr_leaks_candidate_count(lk), 0);
    cr_assert_null(jfr_leaks_tree_at(lk, 0));
    cr_assert_eq(jfr_leaks_build_trees(lk), JFR_OK);
    cr_assert_gt(jfr_leaks_node_count(lk), 0);
    cr_assert_eq(jfr_leaks_candidate_count(lk), 1);
    add_bus_sample(lk, 0, 3, 5000);
    cr_assert_eq(jfr_leaks_node_count(lk), 0, "stale trees were read");
    cr_assert_eq(jfr_leaks_build_trees(lk), JFR_OK);
    cr_assert_eq(jfr_leaks_stats_get(lk)->used, 7);
    cr_assert_eq(jfr_leaks_build_trees(NULL), JFR_EINVAL);
    jfr_leaks_free(lk);
}

/* ---- decoding damaged chains --------------------------------------------------- */

enum { T_SAMPLE = 20, T_OBJECT = 30, T_CLASS, T_REF, T_FIELD = 35 };

static void put_object(jg_pool *p, uint64_t key, uint64_t address, uint64_t referrer)
{
    jg_buf *e = jg_entry(p, key);
    jg_i64(e, (int64_t)address);
    jg_key(e, 1);       /* type: class key 1 */
    jg_string(e, NULL); /* description */
    jg_key(e, referrer);
}

static void put_ref(jg_pool *p, uint64_t key, uint64_t object)
{
    jg_buf *e = jg_entry(p, key);
    jg_key(e, 0); /* array: null */
    jg_key(e, 1); /* field: key 1 */
    jg_key(e, object);
    jg_i32(e, 0);
}

static jg_chunk *damaged_chunk(void)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *k;
    jg_cp *cp;
    jg_pool *objects, *refs;

    jg_primitives(c);
    k = jg_class(c, T_SAMPLE, "jdk.OldObjectSample", "jdk.jfr.Event");
    jg_field(k, "startTime", JG_LONG, 0);
    jg_field(k, "allocationTime", JG_LONG, 0);
    jg_field(k, "object", T_OBJECT, JG_POOL);
    jg_field(k, "arrayElements", JG_INT, 0);
    k = jg_class(c, T_OBJECT, "jdk.types.OldObject", NULL);
    jg_field(k, "address", JG_LONG, 0);
    jg_field(k, "type", T_CLASS, JG_POOL);
    jg_field(k, "description", JG_STRING, 0);
    jg_field(k, "referrer", T_REF, JG_POOL);
    jg_field(jg_class(c, T_CLASS, "java.lang.Class", NULL), "name", JG_STRING, 0);
    k = jg_class(c, T_REF, "jdk.types.Reference", NULL);
    jg_field(k, "array", T_FIELD, JG_POOL); /* never set here */
    jg_field(k, "field", T_FIELD, JG_POOL);
    jg_field(k, "object", T_OBJECT, JG_POOL);
    jg_field(k, "skip", JG_INT, 0);
    k = jg_class(c, T_FIELD, "jdk.types.OldObjectField", NULL);
    jg_field(k, "name", JG_STRING, 0);
    jg_field(k, "modifiers", JG_SHORT, 0);

    cp = jg_checkpoint(c);
    jg_string(jg_entry(jg_pool_new(cp, T_CLASS), 1), "[Ljava/lang/Object;");
    {
        jg_buf *f = jg_entry(jg_pool_new(cp, T_FIELD), 1);
        jg_string(f, "next");
        jg_i16(f, 0);
    }
    objects = jg_pool_new(cp, T_OBJECT);
    refs = jg_pool_new(cp, T_REF);
    put_object(objects, 1, 0x100, 1); /* 1 <- 2 <- 1: a cycle */
    put_ref(refs, 1, 2);
    put_object(objects, 2, 0x200, 2);
    put_ref(refs, 2, 1);
    put_object(objects, 3, 0x300, 3); /* 3 <- undefined object 99 */
    put_ref(refs, 3, 99);
    put_object(objects, 4, 0x400, 0); /* no referrer */

    for (uint64_t key = 1; key <= 4; key += 1) {
        jg_buf *e = jg_event(c, T_SAMPLE);
        jg_i64(e, 100);
        jg_i64(e, 50 + (int64_t)key);
        jg_key(e, key == 2 ? 4 : key);
        jg_i32(e, 7);
    }
    return c;
}

Test(leaks, damaged_chains_end_with_a_count)
{
    jg_buf bytes = {0};
    jfr_recording *rec;
    jfr_chunk *chunk = unit_build_open(damaged_chunk(), &bytes, &rec);
    jfr_leaks *lk;
    const jfr_leaks_stats *st;
    const jfr_leak_sample *s;

    cr_assert_eq(jfr_leaks_new(&lk, NULL, NULL), JFR_OK);
    cr_assert_eq(jfr_leaks_add_chunk(lk, chunk), JFR_OK);
    cr_assert_eq(jfr_leaks_build_trees(lk), JFR_OK);
    st = jfr_leaks_stats_get(lk);
    cr_assert_eq(st->samples, 4);
    cr_assert_eq(st->cycles, 1);
    cr_assert_eq(st->dangling, 1);
    cr_assert_eq(st->broken_chains, 2);
    s = jfr_leaks_sample_at(lk, 0);
    cr_assert(s->chain_broken);
    cr_assert_eq(s->chain_length, 1); /* 0x100 <- 0x200, then 0x100 again */
    cr_assert_str_eq(s->object_type, "java.lang.Object[]");
    cr_assert_eq(s->array_elements, 7);
    cr_assert_eq(jfr_leaks_sample_at(lk, 2)->chain_length, 0);
    cr_assert_not(jfr_leaks_sample_at(lk, 3)->chain_broken);
    /* the trees are still built from what was read */
    cr_assert_eq(jfr_leaks_node_at(lk, jfr_leaks_sample_at(lk, 0)->node)->address, 0x100);
    jfr_leaks_free(lk);
    jfr_recording_free(rec);
    jg_buf_free(&bytes);
}

Test(leaks, chains_longer_than_the_bound_are_cut)
{
    jg_buf bytes = {0};
    jfr_recording *rec;
    jfr_chunk *chunk = unit_build_open(damaged_chunk(), &bytes, &rec);
    jfr_leaks_options o = JFR_LEAKS_OPTIONS_INIT;
    jfr_leaks *lk;

    o.max_chain = 1;
    cr_assert_eq(jfr_leaks_new(&lk, &o, NULL), JFR_OK);
    cr_assert_eq(jfr_leaks_add_chunk(lk, chunk), JFR_OK);
    /* only the cycle's chain goes on past its first object (the undefined
     * reference ends the other one first) */
    cr_assert_eq(jfr_leaks_stats_get(lk)->too_long, 1);
    cr_assert_eq(jfr_leaks_sample_at(lk, 0)->chain_length, 0);
    jfr_leaks_free(lk);
    jfr_recording_free(rec);
    jg_buf_free(&bytes);
}

Test(leaks, bad_options_are_refused)
{
    jfr_leaks_options o = JFR_LEAKS_OPTIONS_INIT;
    jfr_leaks *lk = NULL;
    jfr_error err;

    o.version = 99;
    cr_assert_eq(jfr_leaks_new(&lk, &o, &err), JFR_EINVAL);
    cr_assert_null(lk);
    o.version = JFR_LEAKS_OPTIONS_VERSION;
    o.threshold = -1;
    cr_assert_eq(jfr_leaks_new(&lk, &o, &err), JFR_EINVAL);
    cr_assert_eq(jfr_leaks_add_chunk(NULL, NULL), JFR_EINVAL);
    jfr_leaks_free(NULL);
}
