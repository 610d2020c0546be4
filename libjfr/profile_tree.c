/* profile_tree.c - the call tree, built on demand from the merged stacks:
 * stacks sorted by their frames (name, then line, kind, id) put every
 * prefix's stacks next to each other, in the order of the children, so one
 * walk emits the nodes in pre-order with sorted children. */
#include <stdlib.h>
#include <string.h>

#include "profile_struct.h"

#define ROOT_FRAME JFR_PROFILE_ROOT

typedef struct stack_ref {
    const uint32_t *frames;
    size_t depth;
    size_t id;
} stack_ref;

/* What the comparison needs besides the two stacks (C11's qsort has no
 * context argument, hence the small merge sort below). */
typedef struct sort_ctx {
    const jfr_profile *p;
    bool reverse;
    size_t fixed; /* leading frames never reversed (thread roots) */
} sort_ctx;

static size_t frame_pos(const sort_ctx *ctx, const stack_ref *s, size_t k)
{
    if (!ctx->reverse || k < ctx->fixed)
        return k;
    return ctx->fixed + (s->depth - 1 - k);
}

static int compare_frames(const jfr_profile *p, uint32_t a, uint32_t b)
{
    const jfr_profile_frame *fa = &p->frames[a], *fb = &p->frames[b];
    int c;

    if (a == b)
        return 0;
    if ((c = strcmp(fa->name, fb->name)) != 0)
        return c;
    if (fa->line != fb->line)
        return fa->line < fb->line ? -1 : 1;
    if (fa->kind != fb->kind)
        return fa->kind < fb->kind ? -1 : 1;
    return a < b ? -1 : 1;
}

static int compare_stacks(const sort_ctx *ctx, const stack_ref *a, const stack_ref *b)
{
    size_t n = a->depth < b->depth ? a->depth : b->depth;

    for (size_t k = 0; k < n; k++) {
        int c = compare_frames(ctx->p, a->frames[frame_pos(ctx, a, k)],
                               b->frames[frame_pos(ctx, b, k)]);
        if (c)
            return c;
    }
    if (a->depth != b->depth)
        return a->depth < b->depth ? -1 : 1;
    return 0;
}

/* A merge sort with a context (stable, no global state). */
static void sort_refs(const sort_ctx *ctx, stack_ref *v, stack_ref *tmp, size_t n)
{
    size_t mid = n / 2, i = 0, j = mid, k = 0;

    if (n < 2)
        return;
    sort_refs(ctx, v, tmp, mid);
    sort_refs(ctx, v + mid, tmp, n - mid);
    while (i < mid && j < n)
        tmp[k++] = compare_stacks(ctx, &v[j], &v[i]) < 0 ? v[j++] : v[i++];
    while (i < mid)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

void jfrp_tree_free(jfr_profile *p)
{
    jfrp_tree *t = &p->tree;

    jfrp_free(&p->al, t->frame);
    jfrp_free(&p->al, t->total);
    jfrp_free(&p->al, t->self);
    jfrp_free(&p->al, t->depth);
    jfrp_free(&p->al, t->size);
    memset(t, 0, sizeof *t);
    p->tree_valid = false;
}

static int tree_alloc(jfr_profile *p, size_t n)
{
    jfrp_tree *t = &p->tree;

    t->frame = jfrp_calloc(&p->al, n, sizeof *t->frame);
    t->total = jfrp_calloc(&p->al, n, sizeof *t->total);
    t->self = jfrp_calloc(&p->al, n, sizeof *t->self);
    t->depth = jfrp_calloc(&p->al, n, sizeof *t->depth);
    t->size = jfrp_calloc(&p->al, n, sizeof *t->size);
    if (!t->frame || !t->total || !t->self || !t->depth || !t->size)
        return JFR_ENOMEM;
    return 0;
}

/* Every node's subtree size, from the depths of the pre-order. */
static int compute_sizes(jfr_profile *p)
{
    jfrp_tree *t = &p->tree;
    size_t *open, nopen = 0;

    open = jfrp_calloc(&p->al, t->count + 1, sizeof *open);
    if (!open)
        return JFR_ENOMEM;
    for (size_t i = 0; i < t->count; i++) {
        while (nopen && t->depth[open[nopen - 1]] >= t->depth[i]) {
            size_t o = open[--nopen];
            t->size[o] = (uint32_t)(i - o);
        }
        open[nopen++] = i;
    }
    while (nopen) {
        size_t o = open[--nopen];
        t->size[o] = (uint32_t)(t->count - o);
    }
    jfrp_free(&p->al, open);
    return 0;
}

int jfrp_tree_build(jfr_profile *p)
{
    size_t n = jfrp_intern_count(&p->stacks), max_nodes = 1, max_depth = 0;
    stack_ref *refs = NULL, *tmp = NULL;
    size_t *path = NULL; /* node index per depth of the previous stack */
    sort_ctx ctx;
    jfrp_tree *t = &p->tree;
    int rc = JFR_ENOMEM;

    if (p->tree_valid)
        return 0;
    jfrp_tree_free(p);
    /* the tree's sort reads stacks as 4-byte ids */
    if ((rc = jfrp_profile_widen(p, 4)) < 0)
        return rc;
    rc = JFR_ENOMEM; /* what a failed allocation below returns */
    ctx.p = p;
    ctx.reverse = (p->flags & JFR_PROFILE_REVERSE) != 0;
    ctx.fixed = (p->flags & JFR_PROFILE_THREADS) ? 1 : 0;
    refs = jfrp_calloc(&p->al, n ? n : 1, sizeof *refs);
    tmp = jfrp_calloc(&p->al, n ? n : 1, sizeof *tmp);
    if (!refs || !tmp)
        goto done;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        refs[i].frames = jfrp_intern_key(&p->stacks, (uint32_t)i, &len);
        refs[i].depth = len / sizeof(uint32_t);
        refs[i].id = i;
        max_nodes += refs[i].depth;
        if (refs[i].depth > max_depth)
            max_depth = refs[i].depth;
    }
    if (max_nodes > UINT32_MAX) {
        rc = JFR_ELIMIT;
        goto done;
    }
    sort_refs(&ctx, refs, tmp, n);
    path = jfrp_calloc(&p->al, max_depth + 1, sizeof *path);
    if (!path || tree_alloc(p, max_nodes) < 0)
        goto done;
    t->frame[0] = ROOT_FRAME;
    t->count = 1;
    for (size_t s = 0; s < n; s++) {
        const stack_ref *r = &refs[s];
        uint64_t w = p->stack_weight[r->id];
        size_t same = 0;

        /* how much of the previous stack's path this one shares */
        if (s > 0) {
            const stack_ref *q = &refs[s - 1];
            while (same < r->depth && same < q->depth &&
                   r->frames[frame_pos(&ctx, r, same)] ==
                       q->frames[frame_pos(&ctx, q, same)])
                same++;
        }
        for (size_t k = same; k < r->depth; k++) {
            size_t node = t->count++;
            t->frame[node] = r->frames[frame_pos(&ctx, r, k)];
            t->depth[node] = (uint32_t)(k + 1);
            path[k] = node;
        }
        t->total[0] += w;
        for (size_t k = 0; k < r->depth; k++)
            t->total[path[k]] += w;
        t->self[r->depth ? path[r->depth - 1] : 0] += w;
    }
    if ((rc = compute_sizes(p)) < 0)
        goto done;
    p->tree_valid = true;
    rc = 0;
done:
    jfrp_free(&p->al, refs);
    jfrp_free(&p->al, tmp);
    jfrp_free(&p->al, path);
    if (rc < 0)
        jfrp_tree_free(p);
    return rc;
}

int jfr_profile_build_tree(jfr_profile *p)
{
    return p ? jfrp_tree_build(p) : JFR_EINVAL;
}

size_t jfr_profile_node_count(const jfr_profile *p)
{
    return p && p->tree_valid ? p->tree.count : 0;
}

uint32_t jfr_profile_node_frame(const jfr_profile *p, size_t node)
{
    return p && p->tree_valid && node < p->tree.count ? p->tree.frame[node] : ROOT_FRAME;
}

uint64_t jfr_profile_node_total(const jfr_profile *p, size_t node)
{
    return p && p->tree_valid && node < p->tree.count ? p->tree.total[node] : 0;
}

uint64_t jfr_profile_node_self(const jfr_profile *p, size_t node)
{
    return p && p->tree_valid && node < p->tree.count ? p->tree.self[node] : 0;
}

size_t jfr_profile_node_depth(const jfr_profile *p, size_t node)
{
    return p && p->tree_valid && node < p->tree.count ? p->tree.depth[node] : 0;
}

size_t jfr_profile_node_size(const jfr_profile *p, size_t node)
{
    return p && p->tree_valid && node < p->tree.count ? p->tree.size[node] : 0;
}
