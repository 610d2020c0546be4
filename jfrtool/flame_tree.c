/* flame_tree.c - flame-graph trees from profiles. A differential tree is
 * the merge of two call trees whose children are sorted the same way
 * (by frame name, then line, then kind), walked in step. */
#include <stdlib.h>
#include <string.h>

#include "flame_tree.h"
#include "jfrtool.h"
#include "util.h"

const char *flame_unit(const select_result *r)
{
    if (r->weighted_ns)
        return "ns";
    if (r->weighted_bytes)
        return "bytes";
    return "samples";
}

static uint8_t kind_of(const jfr_profile_frame *f)
{
    if (!f)
        return FK_ROOT;
    if (f->synthetic)
        return FK_SYNTHETIC;
    switch (f->kind) {
    case JFR_FRAME_JIT:
    case JFR_FRAME_C1:
        return FK_JIT;
    case JFR_FRAME_INLINED:
        return FK_INLINED;
    case JFR_FRAME_INTERPRETED:
        return FK_INTERPRETED;
    case JFR_FRAME_NATIVE:
        return FK_NATIVE;
    case JFR_FRAME_CPP:
    case JFR_FRAME_KERNEL:
        return FK_CPP;
    default:
        return FK_UNKNOWN;
    }
}

static flame_node *add_node(flame_tree *t)
{
    if (t->count == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 1024;
        t->nodes = xrealloc(t->nodes, t->cap, sizeof *t->nodes);
    }
    memset(&t->nodes[t->count], 0, sizeof t->nodes[0]);
    return &t->nodes[t->count++];
}

static const jfr_profile_frame *node_frame(const jfr_profile *p, size_t node)
{
    uint32_t id = jfr_profile_node_frame(p, node);

    return id == JFR_PROFILE_ROOT ? NULL : jfr_profile_frame_at(p, id);
}

static char *frame_label(const jfr_profile_frame *f, const select_opts *s)
{
    strbuf sb = {0};
    char *label;

    if (!f)
        return xstrdup("all");
    select_frame_text(&sb, f, s, false);
    label = xstrdup(sb_str(&sb));
    sb_free(&sb);
    return label;
}

void flame_tree_from_profile(flame_tree *t, jfr_profile *p, const select_opts *s)
{
    size_t n = jfr_profile_node_count(p);

    memset(t, 0, sizeof *t);
    t->unit = "samples";
    if (!n)
        diex(EXIT_INPUT, "out of memory building the call tree");
    for (size_t i = 0; i < n; i++) {
        const jfr_profile_frame *f = node_frame(p, i);
        flame_node *fn = add_node(t);

        fn->name = frame_label(f, s);
        fn->kind = kind_of(f);
        fn->depth = (uint32_t)jfr_profile_node_depth(p, i);
        fn->value = (double)jfr_profile_node_total(p, i);
    }
}

/* ---- differential ---------------------------------------------------------------- */

typedef struct side {
    jfr_profile *p;
    double scale;
} side;

static int compare_nodes(const jfr_profile *a, size_t i, const jfr_profile *b, size_t j)
{
    const jfr_profile_frame *fa = node_frame(a, i), *fb = node_frame(b, j);
    int c = strcmp(fa->name, fb->name);

    if (c)
        return c;
    if (fa->line != fb->line)
        return fa->line < fb->line ? -1 : 1;
    if (fa->kind != fb->kind)
        return fa->kind < fb->kind ? -1 : 1;
    return 0;
}

/* Emit node `i` of `nw` and/or node `j` of `bs` (SIZE_MAX: absent) at
 * `depth`, then their children merged by order. */
static void merge(flame_tree *t, const select_opts *s, const side *nw, size_t i,
                  const side *bs, size_t j, uint32_t depth)
{
    const jfr_profile_frame *f =
        i != SIZE_MAX ? node_frame(nw->p, i) : node_frame(bs->p, j);
    flame_node *fn = add_node(t);
    size_t ci, cj, iend = 0, jend = 0;

    fn->name = frame_label(depth ? f : NULL, s);
    fn->kind = depth ? kind_of(f) : FK_ROOT;
    fn->depth = depth;
    fn->value = i != SIZE_MAX ? (double)jfr_profile_node_total(nw->p, i) : 0;
    fn->base = j != SIZE_MAX ? (double)jfr_profile_node_total(bs->p, j) * bs->scale : 0;
    if (i != SIZE_MAX) {
        ci = i + 1;
        iend = i + jfr_profile_node_size(nw->p, i);
    } else {
        ci = 0;
    }
    if (j != SIZE_MAX) {
        cj = j + 1;
        jend = j + jfr_profile_node_size(bs->p, j);
    } else {
        cj = 0;
    }
    while (ci < iend || cj < jend) {
        int c = ci >= iend ? 1 : cj >= jend ? -1 : compare_nodes(nw->p, ci, bs->p, cj);
        size_t ni = c <= 0 ? ci : SIZE_MAX, nj = c >= 0 ? cj : SIZE_MAX;

        merge(t, s, nw, ni, bs, nj, depth + 1);
        if (ni != SIZE_MAX)
            ci += jfr_profile_node_size(nw->p, ci);
        if (nj != SIZE_MAX)
            cj += jfr_profile_node_size(bs->p, cj);
    }
}

void flame_tree_diff(flame_tree *t, jfr_profile *base, jfr_profile *new_p,
                     const select_opts *s)
{
    side nw = {new_p, 1.0}, bs = {base, 1.0};
    double base_total, new_total;

    memset(t, 0, sizeof *t);
    t->unit = "samples";
    t->diff = true;
    if (!jfr_profile_node_count(new_p) || !jfr_profile_node_count(base))
        diex(EXIT_INPUT, "out of memory building the call trees");
    base_total = (double)jfr_profile_node_total(base, 0);
    new_total = (double)jfr_profile_node_total(new_p, 0);
    t->base_total = base_total;
    bs.scale = base_total > 0 ? new_total / base_total : 0;
    merge(t, s, &nw, 0, &bs, 0, 0);
}

void flame_tree_free(flame_tree *t)
{
    for (size_t i = 0; i < t->count; i++)
        free(t->nodes[i].name);
    free(t->nodes);
    memset(t, 0, sizeof *t);
}
