/* flame_tree.c - flame-graph trees from profiles, and reading them node by
 * node. A tree of one profile is walked from its stacks (flame_stacks.c).
 * A differential tree is the merge of two call trees whose children are
 * sorted the same way (by frame name, then line, then kind), walked in
 * step, and kept in arrays. */
#include <stdlib.h>
#include <string.h>

#include "flame_stacks.h"
#include "flame_tree.h"
#include "jfrtool.h"
#include "util.h"

static void reserve(flame_tree *t, size_t need)
{
    size_t cap = t->cap ? t->cap : 1024;

    if (need <= t->cap)
        return;
    while (cap < need)
        cap *= 2;
    t->value = xrealloc(t->value, cap, sizeof *t->value);
    t->name = xrealloc(t->name, cap, sizeof *t->name);
    t->depth = xrealloc(t->depth, cap, sizeof *t->depth);
    t->kind = xrealloc(t->kind, cap, sizeof *t->kind);
    if (t->diff)
        t->base = xrealloc(t->base, cap, sizeof *t->base);
    t->cap = cap;
}

/* Append a node; returns its index. */
static size_t add_node(flame_tree *t, uint32_t name, uint8_t kind, uint32_t depth,
                       double value, double base)
{
    size_t i = t->count++;

    reserve(t, t->count);
    t->name[i] = name;
    t->kind[i] = kind;
    t->depth[i] = depth;
    if (depth > t->max_depth)
        t->max_depth = depth;
    t->value[i] = value;
    if (t->diff)
        t->base[i] = base;
    return i;
}

static const jfr_profile_frame *node_frame(const jfr_profile *p, size_t node)
{
    uint32_t id = jfr_profile_node_frame(p, node);

    return id == JFR_PROFILE_ROOT ? NULL : jfr_profile_frame_at(p, id);
}

static void labels_init(flame_tree *t, flame_labels *l, const jfr_profile *p)
{
    l->p = p;
    l->count = jfr_profile_frame_count(p);
    l->by_frame = xcalloc(l->count ? l->count : 1, sizeof *l->by_frame);
    if (!t->nnames)
        flame_tree_add_name(t, xstrdup("all")); /* name 0: the root */
}

/* The name of node `node` of the labels' profile: deep trees repeat the
 * same frames in millions of nodes, so each frame's text is made once. */
static uint32_t node_label(flame_tree *t, flame_labels *l, size_t node,
                           const select_opts *s)
{
    uint32_t id = jfr_profile_node_frame(l->p, node);
    strbuf sb = {0};

    if (id == JFR_PROFILE_ROOT || id >= l->count)
        return 0;
    if (!l->by_frame[id]) {
        select_frame_text(&sb, jfr_profile_frame_at(l->p, id), s, false);
        l->by_frame[id] = flame_tree_add_name(t, xstrdup(sb_str(&sb))) + 1;
        sb_free(&sb);
    }
    return l->by_frame[id] - 1;
}

/* ---- reading ------------------------------------------------------------------- */

void flame_tree_from_profile(flame_tree *t, jfr_profile *p, const select_opts *s,
                             bool reverse)
{
    memset(t, 0, sizeof *t);
    t->unit = "samples";
    flame_tree_add_name(t, xstrdup("all")); /* name 0: the root */
    t->stacks = flame_stacks_new(t, p, s, reverse);
}

void flame_iter_init(flame_iter *it, const flame_tree *t, unsigned need)
{
    memset(it, 0, sizeof *it);
    it->t = t;
    it->need = need;
}

size_t flame_iter_read(flame_iter *it, flame_batch *b)
{
    const flame_tree *t = it->t;

    b->first = it->index;
    b->count = 0;
    b->nmixed = 0;
    if (!t->stacks) {
        for (size_t i = it->index; b->count < FLAME_BATCH && i < t->count; i++) {
            b->name[b->count] = t->name[i];
            b->kind[b->count] = t->kind[i];
            b->depth[b->count] = t->depth[i];
            b->value[b->count] = t->value[i];
            b->base[b->count++] = t->base ? t->base[i] : 0;
        }
    } else {
        if (it->index == 0) {
            b->name[0] = 0;
            b->kind[0] = FK_ROOT;
            b->depth[0] = 0;
            b->value[0] = (double)flame_stacks_total(t->stacks);
            b->count = 1;
        }
        /* a pruned root leaves out every other node */
        if (b->count && b->value[0] * it->prune_scale < it->prune_below) {
            it->index = t->count;
            return b->count;
        }
        flame_stacks_read(t->stacks, it, b);
        return b->count;
    }
    it->index += b->count;
    return b->count;
}

void flame_iter_seek(flame_iter *it, size_t node)
{
    if (it->t->stacks)
        flame_stacks_seek(it->t->stacks, it, node);
    else
        it->index = node < it->t->count ? node : it->t->count;
}

void flame_iter_prune(flame_iter *it, double scale, double below)
{
    it->prune_scale = scale;
    it->prune_below = below;
}

const flame_mixed *flame_tree_mixed(const flame_tree *t, size_t *count)
{
    *count = 0;
    return t->stacks ? flame_stacks_mixed(t->stacks, count) : NULL;
}

flame_node flame_batch_node(const flame_tree *t, const flame_batch *b, size_t j,
                            size_t *mixes)
{
    flame_node n = {t->names[b->name[j]],     b->kind[j], b->depth[j], b->value[j],
                    t->diff ? b->base[j] : 0, NULL};

    while (*mixes < b->nmixed && b->mixed_at[*mixes] < j)
        ++*mixes;
    if (*mixes < b->nmixed && b->mixed_at[*mixes] == j)
        n.mix = &b->mix[*mixes];
    return n;
}

/* ---- differential ---------------------------------------------------------------- */

typedef struct side {
    jfr_profile *p;
    double scale;
    flame_labels *labels;
} side;

/* Without --annotate a method is one node whatever its kind on each side. */
static int compare_nodes(const jfr_profile *a, size_t i, const jfr_profile *b, size_t j,
                         bool by_kind)
{
    const jfr_profile_frame *fa = node_frame(a, i), *fb = node_frame(b, j);
    int c = strcmp(fa->name, fb->name);

    if (c)
        return c;
    if (fa->line != fb->line)
        return fa->line < fb->line ? -1 : 1;
    if (by_kind && fa->kind != fb->kind)
        return fa->kind < fb->kind ? -1 : 1;
    return 0;
}

/* A node being merged: the children of each side still to merge. */
typedef struct merging {
    size_t ci, iend, cj, jend;
    uint32_t depth;
} merging;

/* Emit node `i` of `nw` and/or node `j` of `bs` (SIZE_MAX: absent) at
 * `depth`; *m gets their children to merge. */
static void emit(flame_tree *t, const select_opts *s, const side *nw, size_t i,
                 const side *bs, size_t j, uint32_t depth, merging *m)
{
    const jfr_profile_frame *f =
        i != SIZE_MAX ? node_frame(nw->p, i) : node_frame(bs->p, j);

    add_node(t,
             !depth          ? 0
             : i != SIZE_MAX ? node_label(t, nw->labels, i, s)
                             : node_label(t, bs->labels, j, s),
             depth ? flame_kind_of(f) : FK_ROOT, depth,
             i != SIZE_MAX ? (double)jfr_profile_node_total(nw->p, i) : 0,
             j != SIZE_MAX ? (double)jfr_profile_node_total(bs->p, j) * bs->scale : 0);
    m->ci = m->iend = m->cj = m->jend = 0;
    m->depth = depth;
    if (i != SIZE_MAX) {
        m->ci = i + 1;
        m->iend = i + jfr_profile_node_size(nw->p, i);
    }
    if (j != SIZE_MAX) {
        m->cj = j + 1;
        m->jend = j + jfr_profile_node_size(bs->p, j);
    }
}

/* Both trees in pre-order, children merged by order, nodes emitted in
 * pre-order. Iterative: a stack trace may be a million frames deep. */
static void merge(flame_tree *t, const select_opts *s, const side *nw, const side *bs)
{
    size_t n = 1, cap = 64;
    merging *stack = xcalloc(cap, sizeof *stack);

    emit(t, s, nw, 0, bs, 0, 0, &stack[0]);
    while (n) {
        merging *m = &stack[n - 1];
        size_t ni, nj;
        int c;

        if (m->ci >= m->iend && m->cj >= m->jend) {
            n--;
            continue;
        }
        c = m->ci >= m->iend   ? 1
            : m->cj >= m->jend ? -1
                               : compare_nodes(nw->p, m->ci, bs->p, m->cj, s->annotate);
        ni = c <= 0 ? m->ci : SIZE_MAX;
        nj = c >= 0 ? m->cj : SIZE_MAX;
        if (ni != SIZE_MAX)
            m->ci += jfr_profile_node_size(nw->p, ni);
        if (nj != SIZE_MAX)
            m->cj += jfr_profile_node_size(bs->p, nj);
        if (n == cap)
            stack = xrealloc(stack, cap *= 2, sizeof *stack);
        emit(t, s, nw, ni, bs, nj, stack[n - 1].depth + 1, &stack[n]);
        n++;
    }
    free(stack);
}

void flame_tree_diff(flame_tree *t, jfr_profile *base, jfr_profile *new_p,
                     const select_opts *s)
{
    side nw = {new_p, 1.0, &t->labels[0]}, bs = {base, 1.0, &t->labels[1]};
    double base_total, new_total;

    memset(t, 0, sizeof *t);
    t->unit = "samples";
    t->diff = true;
    labels_init(t, &t->labels[0], new_p);
    labels_init(t, &t->labels[1], base);
    if (jfr_profile_build_tree(new_p) < 0 || jfr_profile_build_tree(base) < 0)
        diex(EXIT_INPUT, "out of memory building the call trees");
    base_total = (double)jfr_profile_node_total(base, 0);
    new_total = (double)jfr_profile_node_total(new_p, 0);
    t->base_total = base_total;
    bs.scale = base_total > 0 ? new_total / base_total : 0;
    merge(t, s, &nw, &bs);
}

void flame_tree_free(flame_tree *t)
{
    for (size_t i = 0; i < t->nnames; i++)
        free(t->names[i]);
    free(t->names);
    free(t->labels[0].by_frame);
    free(t->labels[1].by_frame);
    free(t->value);
    free(t->base);
    free(t->name);
    free(t->depth);
    free(t->kind);
    flame_stacks_free(t->stacks);
    memset(t, 0, sizeof *t);
}
