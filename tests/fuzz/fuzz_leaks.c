/* fuzz_leaks.c - the leak analysis (jfr/leaks.h) over every chunk.
 * Properties: every node's parent chain reaches a root within the node
 * count (no cycle survives into the trees) and that root is its tree's;
 * a node holds at least the samples of each child; candidates, samples and
 * rankings refer to nodes that exist; ranking rows add up to at most the
 * samples used. */
#include "fuzz_common.h"

static void check_leaks(jfr_leaks *lk)
{
    size_t nodes = jfr_leaks_node_count(lk), trees = jfr_leaks_tree_count(lk);
    const jfr_leaks_stats *st = jfr_leaks_stats_get(lk);
    const jfr_leak_rank *rows;
    size_t nrows;
    uint64_t sum = 0;

    for (uint32_t id = 0; id < nodes; id++) {
        const jfr_leak_node *n = jfr_leaks_node_at(lk, id);
        uint32_t at = id, steps = 0;

        FZ_CHECK(n != NULL && n->tree < trees);
        while (jfr_leaks_node_at(lk, at)->parent != JFR_LEAK_NONE) {
            const jfr_leak_node *parent =
                jfr_leaks_node_at(lk, jfr_leaks_node_at(lk, at)->parent);

            FZ_CHECK(parent != NULL && ++steps <= nodes);
            FZ_CHECK(parent->samples >= jfr_leaks_node_at(lk, at)->samples);
            at = jfr_leaks_node_at(lk, at)->parent;
        }
        FZ_CHECK(jfr_leaks_tree_at(lk, n->tree)->root == at);
        FZ_CHECK(jfr_leaks_node_within(lk, id, at));
        (void)jfr_leaks_holder_name(lk, id);
    }
    FZ_CHECK(jfr_leaks_node_at(lk, (uint32_t)nodes) == NULL);
    for (size_t i = 0; i < jfr_leaks_candidate_count(lk); i++) {
        const jfr_leak_candidate *c = jfr_leaks_candidate_at(lk, i);

        FZ_CHECK(c->node < nodes && c->site < nodes && c->tree < trees);
        FZ_CHECK(jfr_leaks_node_within(lk, c->node, c->site));
    }
    for (size_t i = 0; i < jfr_leaks_sample_count(lk); i++) {
        const jfr_leak_sample *s = jfr_leaks_sample_at(lk, i);

        FZ_CHECK(s->node == JFR_LEAK_NONE || s->node < nodes);
        FZ_CHECK(s->nframes == 0 || s->frames != NULL);
    }
    FZ_CHECK(st->used <= st->samples);
    for (int by = 0; by < 2; by++) {
        FZ_CHECK(jfr_leaks_rank(&rows, &nrows, lk, (jfr_leaks_rank_by)by,
                                JFR_LEAK_NONE) == JFR_OK);
        sum = 0;
        for (size_t i = 0; i < nrows; i++) {
            FZ_CHECK(rows[i].name != NULL);
            sum += rows[i].samples;
        }
        FZ_CHECK(sum <= st->used);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jfr_leaks_options o = JFR_LEAKS_OPTIONS_INIT;
    jfr_recording *rec;
    jfr_chunk *chunk;
    jfr_leaks *lk;
    jfr_error err;
    int rc, guard = 0;

    if (fz_open(&rec, data, size) < 0)
        return 0;
    o.keep_warmup = size & 1; /* both ways, as the input decides */
    FZ_CHECK(jfr_leaks_new(&lk, &o, &err) == JFR_OK);
    while ((rc = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE && guard++ < 1000)
        if (rc == JFR_OK)
            (void)jfr_leaks_add_chunk(lk, chunk);
    if (jfr_leaks_build_trees(lk) == JFR_OK)
        check_leaks(lk);
    jfr_leaks_free(lk);
    jfr_recording_free(rec);
    return 0;
}
