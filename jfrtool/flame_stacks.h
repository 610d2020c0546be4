/* flame_stacks.h - a flame graph's tree read straight from a profile's
 * distinct stacks, without the profile's call tree: the stacks sorted by
 * their frames give every node's stacks as one run, so a walk emits the
 * nodes in pre-order and works out each node's weight from its run. Used
 * through flame_tree.h. */
#ifndef JFRTOOL_FLAME_STACKS_H
#define JFRTOOL_FLAME_STACKS_H

#include "flame_tree.h"

/** Sort the stacks of `p` for the walk; labels go into t->names, and
 * t->count and t->max_depth are set. The profile must outlive the result.
 * `reverse` walks from the leaves (thread roots, with --threads, first). */
flame_stacks *flame_stacks_new(flame_tree *t, const jfr_profile *p, const select_opts *s,
                               bool reverse);

/** The nodes after the root from it's place (it->at, it->next) on into b,
 * after its b->count nodes and up to FLAME_BATCH, leaving out the nodes
 * under a node it prunes (flame_iter_prune); moves the place on, it->mixed
 * past the nodes of several kinds read or left out, and it->index to the
 * next node's index; returns how many were added (0 after the last node).
 * Start with it->at = it->next = it->mixed = 0. */
size_t flame_stacks_read(const flame_stacks *fs, flame_iter *it, flame_batch *b);

/** Put `it` at node `node` as a read from the root would
 * have it there: its place, frame and next node of several kinds; past
 * the last node, at the end. */
void flame_stacks_seek(const flame_stacks *fs, flame_iter *it, size_t node);

/** The nodes of several kinds (flame_node.mix), by node index; *count
 * gets their number. */
const flame_mixed *flame_stacks_mixed(const flame_stacks *fs, size_t *count);

/** The root's value: every stack's weight. */
uint64_t flame_stacks_total(const flame_stacks *fs);

void flame_stacks_free(flame_stacks *fs);

#endif
