/* flame_tree.h - the tree a flame graph draws: nodes in pre-order with
 * display names, frame kinds, values and (for differential graphs) the
 * base's values, built from one profile or from two. */
#ifndef JFRTOOL_FLAME_TREE_H
#define JFRTOOL_FLAME_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jfr.h>

#include "select.h"

/* Colour classes; the numbers are flame.html's "k" codes. */
enum flame_kind {
    FK_JIT = 0,
    FK_INLINED = 1,
    FK_INTERPRETED = 2,
    FK_NATIVE = 3,
    FK_CPP = 4, /* C++ and kernel frames (async-profiler) */
    FK_SYNTHETIC = 5,
    FK_ROOT = 6,
    FK_UNKNOWN = 7
};

/** A node that merges frames of one method compiled in several ways: its
 * weight by kind, for the tooltip (flame_tree_from_profile without
 * --annotate). */
typedef struct flame_mix {
    uint32_t node;
    double jit, inlined, interpreted;
} flame_mix;

/** One node, as the writers see it (flame_tree_node). */
typedef struct flame_node {
    const char *name;
    uint8_t kind;
    uint32_t depth;
    double value; /* weight in NEW (or the only profile) */
    double base;  /* diff: BASE's weight scaled to NEW's total */
} flame_node;

/* The display names of one profile's frames, made once per frame id. */
typedef struct flame_labels {
    const jfr_profile *p;
    uint32_t *by_frame; /* frame id -> index + 1 in flame_tree.names */
    size_t count;
} flame_labels;

/* Nodes in pre-order, one array per field: deep profiles have millions of
 * nodes, and 17 bytes a node (25 for a diff) keep them small. */
typedef struct flame_tree {
    size_t count, cap;
    double *value;
    double *base; /* diff only */
    uint32_t *name;
    uint32_t *depth;
    uint8_t *kind;
    char **names; /* the labels; a frame's label is shared by its nodes */
    size_t nnames, names_cap;
    flame_labels labels[2]; /* of NEW (or the only profile) and of BASE */
    flame_mix *mix;         /* by node, for nodes with frames of several kinds */
    size_t nmix, mix_cap;
    bool diff;
    const char *unit;  /* "samples", "bytes" or "ns" */
    double base_total; /* diff: BASE's total before scaling */
} flame_tree;

/** Node `i` (node 0 is the root, "all"). */
static inline flame_node flame_tree_node(const flame_tree *t, size_t i)
{
    flame_node n = {t->names[t->name[i]], t->kind[i], t->depth[i], t->value[i],
                    t->base ? t->base[i] : 0};
    return n;
}

/** The call tree of `p` (node 0: all samples). `p` is built with
 * JFR_PROFILE_FRAME_KIND: with --annotate each kind of a method is a node
 * of its own, else one node per method holds them all (flame_mix). */
void flame_tree_from_profile(flame_tree *t, jfr_profile *p, const select_opts *s);

/**
 * The union of the call trees of `base` and `new`: each node has NEW's
 * value and BASE's value scaled so that both totals are equal.
 */
void flame_tree_diff(flame_tree *t, jfr_profile *base, jfr_profile *new_p,
                     const select_opts *s);

void flame_tree_free(flame_tree *t);

/** The unit of a selection's weights: "samples", "bytes" or "ns". */
const char *flame_unit(const select_result *r);

#endif
