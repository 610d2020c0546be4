/* leaks_tree.c - merging the samples' reference chains into trees and
 * scoring them (doc/leaks.md). Nodes are created parent first, so node ids
 * grow from a root downwards and parent links can never form a cycle: every
 * walk up a tree ends at its root. */
#include <stdlib.h>
#include <string.h>

#include "jfr_private.h"
#include "leaks_private.h"

/* Candidates taken from one tree at most (each needs a pass over it). */
#define MAX_CANDIDATES_PER_TREE 64

/* ---- warm-up ------------------------------------------------------------------ */

static int by_time(const void *a, const void *b)
{
    const jfrp_class_count *x = a, *y = b;

    return (x->nanos > y->nanos) - (x->nanos < y->nanos);
}

/* JMC's rule (IncreasingLiveSetRule): warm-up ends at the first
 * class-loading observation above 90% of the largest loaded-class count.
 * `visible` tells whether an earlier observation was below that level,
 * i.e. whether the recording saw class loading settle. */
static void find_warmup(jfrp_leak_recording *r)
{
    jfr_leaks_warmup *w = &r->warmup;
    uint64_t max = 0;
    double limit;

    w->measured = r->ncounts > 0;
    w->visible = false;
    w->end_nanos = 0;
    w->skipped = 0;
    w->used = 0;
    if (!r->ncounts)
        return;
    qsort(r->counts, r->ncounts, sizeof *r->counts, by_time);
    for (size_t i = 0; i < r->ncounts; i++)
        if (r->counts[i].loaded > max)
            max = r->counts[i].loaded;
    w->max_classes = max;
    limit = (double)max * 0.9;
    for (size_t i = 0; i < r->ncounts; i++) {
        if ((double)r->counts[i].loaded > limit) {
            w->visible = i > 0;
            w->end_nanos = r->counts[i].nanos;
            return;
        }
    }
}

/* ---- building the trees ------------------------------------------------------- */

static int new_tree(jfr_leaks *lk, uint32_t root, const jfr_leak_sample *s)
{
    jfr_leak_tree *t;
    int rc = jfrp_leaks_grow(lk, (void **)&lk->trees, &lk->trees_cap, lk->ntrees + 1,
                             sizeof *lk->trees);

    if (rc < 0)
        return rc;
    t = &lk->trees[lk->ntrees++];
    memset(t, 0, sizeof *t);
    t->root = root;
    t->recording = s->recording;
    t->system = s->root_system;
    t->type = s->root_type;
    t->description = s->root_description;
    return 0;
}

static int new_node(jfr_leaks *lk, uint32_t *out, uint32_t parent,
                    const jfrp_leak_link *link, const jfr_leak_sample *s)
{
    jfr_leak_node *n;
    int rc;

    if (lk->nnodes >= JFR_LEAK_NONE - 1)
        return JFR_ELIMIT;
    if ((rc = jfrp_leaks_grow(lk, (void **)&lk->nodes, &lk->nodes_cap, lk->nnodes + 1,
                              sizeof *lk->nodes)) < 0)
        return rc;
    *out = (uint32_t)lk->nnodes;
    n = &lk->nodes[lk->nnodes++];
    memset(n, 0, sizeof *n);
    n->address = link->address;
    n->type = link->type;
    n->description = link->description;
    n->parent = parent;
    n->array_index = -1;
    n->array_size = -1;
    if (parent == JFR_LEAK_NONE) {
        n->tree = (uint32_t)lk->ntrees;
        return new_tree(lk, *out, s);
    }
    /* the reference parent -> this object, as recorded on the link */
    n->field = link->field;
    n->modifiers = link->modifiers;
    n->array_index = link->array_index;
    n->array_size = link->array_size;
    n->skip = link->skip;
    n->tree = lk->nodes[parent].tree;
    n->depth = lk->nodes[parent].depth + 1;
    n->distance = lk->nodes[parent].distance + 1 + (uint64_t)link->skip;
    return 0;
}

/* Insert one sample's chain from its root-most object down to the sampled
 * object. An object already in a tree keeps its place (first chain wins):
 * the rest of the chain continues below it. */
static int insert_chain(jfr_leaks *lk, size_t si)
{
    jfr_leak_sample *s = &lk->samples[si];
    const jfrp_leak_link *links = lk->chains[si];
    size_t n = links ? s->chain_length + 1 : 0;
    jfrp_leak_recording *r = &lk->recs[s->recording];
    uint32_t parent = JFR_LEAK_NONE, id = JFR_LEAK_NONE;
    int rc;

    for (size_t i = n; i-- > 0;) {
        uint64_t hit = links[i].address ? jfrp_map_get(&r->nodes, links[i].address) : 0;

        if (hit) {
            id = (uint32_t)(hit - 1);
        } else {
            if ((rc = new_node(lk, &id, parent, &links[i], s)) < 0)
                return rc;
            if (links[i].address &&
                (rc = jfrp_map_put(&r->nodes, &lk->al, links[i].address,
                                   (uint64_t)id + 1)) < 0)
                return rc;
        }
        parent = id;
    }
    s->node = id;
    if (id == JFR_LEAK_NONE)
        return 0;
    lk->nodes[id].sampled = true;
    for (uint32_t k = id; k != JFR_LEAK_NONE; k = lk->nodes[k].parent)
        lk->nodes[k].samples++;
    return 0;
}

/* ---- scoring -------------------------------------------------------------------- */

static double relevance(uint64_t kept, uint64_t root_kept, uint64_t distance,
                        uint64_t all)
{
    if (!kept || !root_kept || !all)
        return 0;
    return ((double)kept / (double)root_kept) * (double)distance *
           ((double)kept / (double)all);
}

static int add_candidate(jfr_leaks *lk, uint32_t node, uint64_t root_left, double rel)
{
    jfr_leak_candidate *c;
    int rc = jfrp_leaks_grow(lk, (void **)&lk->cands, &lk->cands_cap, lk->ncands + 1,
                             sizeof *lk->cands);

    if (rc < 0)
        return rc;
    c = &lk->cands[lk->ncands++];
    c->node = node;
    c->site = node;
    c->tree = lk->nodes[node].tree;
    c->recording = lk->trees[c->tree].recording;
    c->samples = lk->left[node];
    c->root_samples = root_left;
    c->share_of_root = (double)c->samples / (double)root_left;
    c->share_of_all = (double)c->samples / (double)lk->recs[c->recording].warmup.used;
    c->relevance = rel;
    return 0;
}

/* Pick candidates in one tree: the best node above the threshold, then
 * take its samples out of its ancestors and look again. `ids` lists the
 * tree's nodes in ascending order (parents before children). */
static int score_tree(jfr_leaks *lk, const uint32_t *ids, size_t n)
{
    uint32_t root = ids[0];
    uint64_t all = lk->recs[lk->trees[lk->nodes[root].tree].recording].warmup.used;

    for (size_t i = 0; i < n; i++) {
        jfr_leak_node *x = &lk->nodes[ids[i]];
        lk->left[ids[i]] = x->samples;
        lk->taken[ids[i]] = false;
        x->relevance = ids[i] == root ? 0
                                      : relevance(x->samples, lk->nodes[root].samples,
                                                  x->distance, all);
    }
    for (int round = 0; round < MAX_CANDIDATES_PER_TREE && lk->left[root]; round++) {
        uint32_t best = JFR_LEAK_NONE;
        double best_rel = 0;
        int rc;

        for (size_t i = 1; i < n; i++) {
            const jfr_leak_node *x = &lk->nodes[ids[i]];
            double rel;

            if (lk->taken[ids[i]] || !lk->left[ids[i]])
                continue;
            rel = relevance(lk->left[ids[i]], lk->left[root], x->distance, all);
            if (rel > best_rel) {
                best_rel = rel;
                best = ids[i];
            }
        }
        if (best == JFR_LEAK_NONE || !(best_rel > lk->opts.threshold))
            break;
        if ((rc = add_candidate(lk, best, lk->left[root], best_rel)) < 0)
            return rc;
        for (uint32_t k = lk->nodes[best].parent; k != JFR_LEAK_NONE;
             k = lk->nodes[k].parent)
            lk->left[k] -= lk->left[best];
        lk->taken[best] = true;
        for (size_t i = 1; i < n; i++)
            if (lk->taken[lk->nodes[ids[i]].parent])
                lk->taken[ids[i]] = true;
    }
    return 0;
}

static int by_relevance(const void *a, const void *b)
{
    const jfr_leak_candidate *x = a, *y = b;

    if (x->relevance != y->relevance)
        return x->relevance < y->relevance ? 1 : -1;
    if (x->samples != y->samples)
        return x->samples < y->samples ? 1 : -1;
    return (x->node > y->node) - (x->node < y->node);
}

static bool jdk_class(const char *name)
{
    static const char *const prefixes[] = {"java.", "javax.", "jdk.", "sun.", "com.sun."};

    if (!name)
        return true;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
            return true;
    return false;
}

/* The holder of `node`'s incoming reference (jfr_leaks_holder_name): the
 * class a java.lang.Class's description names, the tail of that interned
 * string, else the parent's type. */
static const char *holder_name(const jfr_leaks *lk, uint32_t node)
{
    static const char prefix[] = "Class Name: ";
    const jfr_leak_node *p;

    if (node >= lk->nnodes || lk->nodes[node].parent == JFR_LEAK_NONE)
        return NULL;
    p = &lk->nodes[lk->nodes[node].parent];
    if (p->type && strcmp(p->type, "java.lang.Class") == 0 && p->description &&
        strncmp(p->description, prefix, sizeof prefix - 1) == 0)
        return p->description + sizeof prefix - 1;
    return p->type;
}

/* The nearest field reference at or above `node` held by a class outside
 * the JDK: where application code keeps the growing structure. */
static uint32_t growth_site(jfr_leaks *lk, uint32_t node)
{
    for (uint32_t k = node; k != JFR_LEAK_NONE && lk->nodes[k].parent != JFR_LEAK_NONE;
         k = lk->nodes[k].parent)
        if (lk->nodes[k].field && !jdk_class(holder_name(lk, k)))
            return k;
    return node;
}

static int score_all(jfr_leaks *lk)
{
    uint32_t *ids = NULL;
    size_t *start = NULL;
    int rc = JFR_ENOMEM;

    if (!lk->nnodes)
        return 0;
    lk->left = jfrp_reallocarray(&lk->al, lk->left, lk->nnodes, sizeof *lk->left);
    lk->taken = jfrp_reallocarray(&lk->al, lk->taken, lk->nnodes, sizeof *lk->taken);
    ids = jfrp_malloc(&lk->al, lk->nnodes * sizeof *ids);
    start = jfrp_calloc(&lk->al, lk->ntrees + 1, sizeof *start);
    if (!lk->left || !lk->taken || !ids || !start)
        goto done;
    /* group node ids by tree, keeping ascending order inside each */
    for (size_t i = 0; i < lk->nnodes; i++)
        start[lk->nodes[i].tree + 1]++;
    for (size_t t = 0; t < lk->ntrees; t++)
        start[t + 1] += start[t];
    for (size_t i = 0; i < lk->nnodes; i++)
        ids[start[lk->nodes[i].tree]++] = (uint32_t)i;
    for (size_t t = lk->ntrees; t > 0; t--)
        start[t] = start[t - 1];
    start[0] = 0;
    for (size_t t = 0; t < lk->ntrees; t++) {
        lk->trees[t].samples = lk->nodes[lk->trees[t].root].samples;
        if ((rc = score_tree(lk, ids + start[t], start[t + 1] - start[t])) < 0)
            goto done;
    }
    if (lk->ncands)
        qsort(lk->cands, lk->ncands, sizeof *lk->cands, by_relevance);
    for (size_t i = 0; i < lk->ncands; i++)
        lk->cands[i].site = growth_site(lk, lk->cands[i].node);
    rc = 0;
done:
    jfrp_free(&lk->al, ids);
    jfrp_free(&lk->al, start);
    return rc;
}

/* Identity of a sampled object across batches: it may have moved, so not
 * its address but when, by which thread and of which type it was made. */
static uint64_t sample_identity(const jfr_leak_sample *s)
{
    uint64_t h = (uint64_t)s->allocation_nanos * 0x9e3779b97f4a7c15ULL;

    h ^= (uint64_t)(uintptr_t)s->object_type * 0xff51afd7ed558ccdULL;
    h ^= (uint64_t)(uintptr_t)s->thread * 0xc4ceb9fe1a85ec53ULL;
    h ^= (uint64_t)s->recording << 48;
    return h | 1;
}

int jfrp_leaks_merge(jfr_leaks *lk)
{
    jfrp_map seen = {0};
    int rc = 0;

    if (lk->merged)
        return 0;
    lk->nnodes = lk->ntrees = lk->ncands = 0;
    lk->stats.used = lk->stats.warmup_skipped = lk->stats.repeated = 0;
    for (size_t r = 0; r < lk->nrecs; r++) {
        jfrp_map_free(&lk->recs[r].nodes, &lk->al);
        find_warmup(&lk->recs[r]);
    }
    /* latest first, so a repeated object keeps its latest chain */
    for (size_t i = lk->nsamples; i-- > 0;) {
        jfr_leak_sample *s = &lk->samples[i];
        jfrp_leak_recording *r = &lk->recs[s->recording];

        s->node = JFR_LEAK_NONE;
        s->repeated = false;
        /* as JMC: keep samples written after warm-up (old-object samples
         * are written in a batch when a chunk ends) */
        s->after_warmup = lk->opts.keep_warmup || !r->warmup.measured ||
                          s->start_nanos > r->warmup.end_nanos;
        if (!s->after_warmup) {
            r->warmup.skipped++;
            lk->stats.warmup_skipped++;
            continue;
        }
        if (s->has_allocation_time) {
            uint64_t id = sample_identity(s);
            if (jfrp_map_get(&seen, id)) {
                s->repeated = true;
                lk->stats.repeated++;
                continue;
            }
            if ((rc = jfrp_map_put(&seen, &lk->al, id, 1)) < 0)
                goto done;
        }
        lk->stats.used++;
        r->warmup.used++;
        if ((rc = insert_chain(lk, i)) < 0)
            goto done;
    }
    if ((rc = score_all(lk)) < 0)
        goto done;
    lk->merged = true;
done:
    jfrp_map_free(&seen, &lk->al);
    return rc;
}

/* ---- accessors: they read what jfr_leaks_build_trees built --------------------------- */

int jfr_leaks_build_trees(jfr_leaks *lk)
{
    return lk ? jfrp_leaks_merge(lk) : JFR_EINVAL;
}

size_t jfr_leaks_node_count(const jfr_leaks *lk)
{
    return lk && lk->merged ? lk->nnodes : 0;
}

const jfr_leak_node *jfr_leaks_node_at(const jfr_leaks *lk, uint32_t id)
{
    return lk && lk->merged && id < lk->nnodes ? &lk->nodes[id] : NULL;
}

bool jfr_leaks_node_within(const jfr_leaks *lk, uint32_t node, uint32_t ancestor)
{
    if (!lk || !lk->merged || node >= lk->nnodes)
        return false;
    for (uint32_t k = node; k != JFR_LEAK_NONE; k = lk->nodes[k].parent)
        if (k == ancestor)
            return true;
    return false;
}

size_t jfr_leaks_tree_count(const jfr_leaks *lk)
{
    return lk && lk->merged ? lk->ntrees : 0;
}

const jfr_leak_tree *jfr_leaks_tree_at(const jfr_leaks *lk, size_t i)
{
    return lk && lk->merged && i < lk->ntrees ? &lk->trees[i] : NULL;
}

size_t jfr_leaks_candidate_count(const jfr_leaks *lk)
{
    return lk && lk->merged ? lk->ncands : 0;
}

const jfr_leak_candidate *jfr_leaks_candidate_at(const jfr_leaks *lk, size_t i)
{
    return lk && lk->merged && i < lk->ncands ? &lk->cands[i] : NULL;
}

const char *jfr_leaks_holder_name(const jfr_leaks *lk, uint32_t node)
{
    return lk && lk->merged ? holder_name(lk, node) : NULL;
}
