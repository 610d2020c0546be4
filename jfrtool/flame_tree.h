/* flame_tree.h - the tree a flame graph draws: nodes in pre-order with
 * display names, frame kinds, values and (for differential graphs) the
 * base's values, built from one profile or from two. Writers read the
 * nodes in order through a flame_iter, as many times as they need. */
#ifndef JFRTOOL_FLAME_TREE_H
#define JFRTOOL_FLAME_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jfr.h>

#include "select.h"

/* Colour classes; the numbers are flame.html's and report.html's "k"
 * codes (the Java palette of FlameGraph and async-profiler: doc/profiles.md). */
enum flame_kind {
    FK_JIT = 0,         /* green */
    FK_INLINED = 1,     /* aqua */
    FK_INTERPRETED = 2, /* light green */
    FK_NATIVE = 3,      /* red: user-level native code */
    FK_CPP = 4,         /* yellow: the JVM's C++ (async-profiler) */
    FK_SYNTHETIC = 5,
    FK_ROOT = 6,
    FK_UNKNOWN = 7,
    FK_KERNEL = 8, /* orange (async-profiler) */
    FK_COUNT = 9
};

/** The weight by kind of a node that merges frames of one method compiled
 * in several ways, for the tooltip. */
typedef struct flame_mix {
    double jit, inlined, interpreted;
} flame_mix;

/** A node of several kinds: its index in the tree, the kind of most
 * weight and the weights by kind. */
typedef struct flame_mixed {
    size_t node;
    uint8_t kind;
    flame_mix mix;
} flame_mixed;

/** One node, as the SVG writer sees it (flame_batch_node). */
typedef struct flame_node {
    const char *name;
    uint8_t kind;
    uint32_t depth;
    double value;         /* weight in NEW (or the only profile) */
    double base;          /* diff: BASE's weight scaled to NEW's total */
    const flame_mix *mix; /* frames of several kinds: their weights, else NULL */
} flame_node;

/** How many nodes a reader takes at a time (flame_iter_read). */
#define FLAME_BATCH 256

/** Consecutive nodes, a field to an array: readers take the fields they
 * need, and deep trees have millions of nodes. */
typedef struct flame_batch {
    size_t first; /* index of node 0 of the batch in the tree */
    size_t count;
    uint32_t name[FLAME_BATCH]; /* index in flame_tree.names */
    uint32_t depth[FLAME_BATCH];
    uint8_t kind[FLAME_BATCH];
    double value[FLAME_BATCH];
    double base[FLAME_BATCH];
    /* the nodes with frames of several kinds: their index in the batch,
     * in order, and their weights by kind */
    size_t nmixed;
    uint32_t mixed_at[FLAME_BATCH];
    flame_mix mix[FLAME_BATCH];
} flame_batch;

/* The display names of one profile's frames, made once per frame id. */
typedef struct flame_labels {
    const jfr_profile *p;
    uint32_t *by_frame; /* frame id -> index + 1 in flame_tree.names */
    size_t count;
} flame_labels;

typedef struct flame_stacks flame_stacks; /* flame_stacks.h */

/* A tree of one profile is walked from the profile's sorted stacks each
 * time it is read (deep profiles have millions of nodes: only each node's
 * frame id is kept, which keeps the page's memory near the profile's). A
 * differential tree keeps its nodes in pre-order, one array per field. */
typedef struct flame_tree {
    size_t count;
    uint32_t max_depth;
    flame_stacks *stacks; /* one profile: the walk (the profile must live on) */
    size_t cap;           /* diff: the node arrays */
    double *value;
    double *base;
    uint32_t *name;
    uint32_t *depth;
    uint8_t *kind;
    char **names; /* the labels; a frame's label is shared by its nodes */
    size_t nnames, names_cap;
    flame_labels labels[2]; /* diff: of NEW and of BASE */
    bool diff;
    const char *unit;  /* "samples", "bytes" or "ns" */
    const char *hint;  /* select_result.hint, shown on the page; NULL: none */
    double base_total; /* diff: BASE's total before scaling */
    bool two_threads;  /* a writer may take a second thread (--jobs, idle CPUs) */
} flame_tree;

/** Fewer nodes than this are written in one thread whatever two_threads
 * says: asking for an idle CPU and a thread cost more than they save. */
#define FLAME_TWO_THREADS_FROM 65536u

/** What a reader needs of each node besides its depth: what is not asked
 * for may be left out of the flame_node (it costs time to work out). */
#define FLAME_NEED_NAME  0x1u
#define FLAME_NEED_KIND  0x2u
#define FLAME_NEED_VALUE 0x4u /* value, and base in a diff */
#define FLAME_NEED_MIX   0x8u /* the mixed nodes, and the kind */
#define FLAME_NEED_ALL   0xfu

/** A reader's place in the tree: the nodes come in pre-order. */
typedef struct flame_iter {
    const flame_tree *t;
    unsigned need;
    size_t index;    /* of the next node */
    size_t at, next; /* one profile: the stack and frame of the next node, */
    size_t mixed;    /*   and the next of its nodes of several kinds */
    double prune_scale, prune_below; /* flame_iter_prune's */
} flame_iter;

void flame_iter_init(flame_iter *it, const flame_tree *t, unsigned need);
/** Move `it` to node `node`: the next read starts there, as the read
 * that reached it from the root would have gone on. Reads from the root
 * fill batches of FLAME_BATCH nodes: from a multiple of it, the batches
 * end where theirs do. Not with flame_iter_prune. */
void flame_iter_seek(flame_iter *it, size_t node);
/** Leave out the nodes under each node whose value * `scale` is less
 * than `below` (their values are no larger): a writer that draws no node
 * that narrow need not walk them. A batch then ends after such a node, so
 * its nodes stay consecutive. Only a tree of one profile is pruned; it
 * needs FLAME_NEED_VALUE. */
void flame_iter_prune(flame_iter *it, double scale, double below);
/** The next nodes (up to FLAME_BATCH) into *b; returns their number, 0
 * after the last. Node 0 is the root, "all". */
size_t flame_iter_read(flame_iter *it, flame_batch *b);

/** The nodes of several kinds, by index (none in a differential tree);
 * *count gets their number. */
const flame_mixed *flame_tree_mixed(const flame_tree *t, size_t *count);

/** Node `j` of batch `b` of tree `t`; *mixes is the next of b's mixed
 * nodes (start at 0). */
flame_node flame_batch_node(const flame_tree *t, const flame_batch *b, size_t j,
                            size_t *mixes);

/** The call tree of `p`, from the root or, with `reverse`, from the leaves
 * (node 0: all samples). `p` is built with JFR_PROFILE_FRAME_KIND: with
 * --annotate each kind of a method is a node of its own, else one node per
 * method holds them all (flame_node.mix). `p` must outlive the tree. */
void flame_tree_from_profile(flame_tree *t, jfr_profile *p, const select_opts *s,
                             bool reverse);

/**
 * The union of the call trees of `base` and `new`: each node has NEW's
 * value and BASE's value scaled so that both totals are equal. The tree
 * keeps copies: the profiles may go before it.
 */
void flame_tree_diff(flame_tree *t, jfr_profile *base, jfr_profile *new_p,
                     const select_opts *s);

void flame_tree_free(flame_tree *t);

/** Add a label to t->names (which owns it); returns its index. */
uint32_t flame_tree_add_name(flame_tree *t, char *name);

/** The colour class of a profile frame (NULL: the root). */
uint8_t flame_kind_of(const jfr_profile_frame *f);

/** The unit of a selection's weights: "samples", "bytes" or "ns". */
const char *flame_unit(const select_result *r);

#endif
