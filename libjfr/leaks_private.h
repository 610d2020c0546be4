/* leaks_private.h - the leak analysis object shared by leaks.c (decoding
 * samples), leaks_tree.c (merging and scoring) and leaks_rank.c. */
#ifndef JFRP_LEAKS_PRIVATE_H
#define JFRP_LEAKS_PRIVATE_H

#include "jfr_private.h"
#include "intern.h"

/** One object of a sample's reference chain (the sampled object first),
 * with the reference that leads to it from the next link. */
typedef struct jfrp_leak_link {
    uint64_t address;
    const char *type;
    const char *description;
    const char *field; /* NULL for an array element or no reference */
    int32_t modifiers;
    int32_t array_index; /* -1 when not an array element */
    int32_t array_size;
    int64_t skip;
} jfrp_leak_link;

/** A jdk.ClassLoadingStatistics observation, for the warm-up rule. */
typedef struct jfrp_class_count {
    int64_t nanos;
    uint64_t loaded;
} jfrp_class_count;

typedef struct jfrp_leak_recording {
    jfr_leaks_warmup warmup;
    jfrp_class_count *counts;
    size_t ncounts, cap;
    jfrp_map nodes; /* address -> node id + 1, rebuilt by each merge */
} jfrp_leak_recording;

struct jfr_leaks {
    jfrp_alloc al;
    jfr_leaks_options opts;
    jfrp_arena arena;    /* strings, chains and frames: live as long as lk */
    jfrp_intern strings; /* every name kept; the copies never move */

    jfr_leak_sample *samples;
    jfrp_leak_link **chains; /* per sample, chain_length + 1 links (or 0) */
    size_t nsamples, samples_cap, chains_cap;

    jfrp_leak_recording *recs;
    size_t nrecs, recs_cap;

    jfr_leaks_stats stats;
    bool merged;

    jfr_leak_node *nodes;
    size_t nnodes, nodes_cap;
    jfr_leak_tree *trees;
    size_t ntrees, trees_cap;
    jfr_leak_candidate *cands;
    size_t ncands, cands_cap;
    uint64_t *left; /* per node: samples not yet given to a candidate */
    bool *taken;    /* per node: inside a chosen candidate */

    jfr_leak_rank *rank_rows;
    size_t nrank, rank_cap;

    char *scratch; /* for building names */
    size_t scratch_cap;
};

/** The interned copy of `len` bytes at `s` (NULL when s is NULL). */
static inline const char *jfrp_leaks_intern(jfr_leaks *lk, const char *s, size_t len,
                                            int *rc)
{
    uint32_t id;

    if (!s)
        return NULL;
    if ((*rc = jfrp_intern_put(&lk->strings, s, len, &id, NULL)) < 0)
        return NULL;
    return jfrp_intern_key(&lk->strings, id, NULL);
}

/** Grow `*arr` (of `*cap` elements of `size` bytes) to hold `need`. */
static inline int jfrp_leaks_grow(jfr_leaks *lk, void **arr, size_t *cap, size_t need,
                                  size_t size)
{
    return jfrp_grow_array(&lk->al, arr, cap, need, size);
}

/* leaks_tree.c */
/** Merge all samples into trees and pick candidates, when not done yet. */
int jfrp_leaks_merge(jfr_leaks *lk);

#endif
