/* flame_stacks.c - see flame_stacks.h. Frames are ranked once, in the
 * order the profile's call tree gives siblings (name, line, kind, id). A
 * node stands for a class of frames: one method (name and line) whatever
 * its kind, or with --annotate one frame. Stacks are sorted by the classes
 * of their frames, so a node's stacks are one run of places, and the run's
 * weights are a difference of prefix sums. */
#include <stdlib.h>
#include <string.h>

#include "flame_stacks.h"
#include "jfrtool.h"
#include "stack_sort.h"
#include "util.h"

struct flame_stacks {
    size_t n;                /* distinct stacks, by place in walk order: */
    const uint32_t **frames; /*   frame ids, root first */
    uint32_t *depth;
    uint32_t *shared;     /*   leading classes shared with the stack before */
    uint32_t *next_lower; /* the next place that shares fewer, or n */
    uint64_t *before;     /*   weight of the stacks before (n + 1 of them) */
    uint32_t *class_of;   /* by frame id: what a node stands for */
    uint32_t *rank;       /* by frame id: place in the frames' order */
    uint32_t *label;      /* by frame id: index in flame_tree.names */
    uint8_t *kind;        /* by frame id: flame_kind */
    uint8_t *mixable;     /* by frame id: its class has frames of several kinds */
    size_t fixed;         /* leading frames never reversed (thread roots) */
    size_t nframes;       /* the profile's */
    bool reverse;
    /* by place, made when first needed: the place of the stack in the
     * order of the profile's call tree (frames by rank, not class) */
    uint32_t *tree_place;
};

/* Frame `k` of the path of the stack at `place`. */
static inline uint32_t frame_at(const flame_stacks *fs, size_t place, size_t k)
{
    if (fs->reverse && k >= fs->fixed)
        k = fs->fixed + (fs->depth[place] - 1 - k);
    return fs->frames[place][k];
}

static inline uint64_t weight_at(const flame_stacks *fs, size_t place)
{
    return fs->before[place + 1] - fs->before[place];
}

/* ---- sorting -------------------------------------------------------------------- */

typedef int (*compare_fn)(const void *ctx, uint32_t a, uint32_t b);

/* A stable merge sort with a context (qsort has none). */
static void sort_ids(uint32_t *v, uint32_t *tmp, size_t n, compare_fn cmp,
                     const void *ctx)
{
    size_t mid = n / 2, i = 0, j = mid, k = 0;

    if (n < 2)
        return;
    sort_ids(v, tmp, mid, cmp, ctx);
    sort_ids(v + mid, tmp, n - mid, cmp, ctx);
    while (i < mid && j < n)
        tmp[k++] = cmp(ctx, v[j], v[i]) < 0 ? v[j++] : v[i++];
    while (i < mid)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

/* As the profile's call tree orders sibling frames. */
static int compare_frames(const void *ctx, uint32_t a, uint32_t b)
{
    const jfr_profile *p = ctx;
    const jfr_profile_frame *fa = jfr_profile_frame_at(p, a),
                            *fb = jfr_profile_frame_at(p, b);
    int c = strcmp(fa->name, fb->name);

    if (c)
        return c;
    if (fa->line != fb->line)
        return fa->line < fb->line ? -1 : 1;
    if (fa->kind != fb->kind)
        return fa->kind < fb->kind ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* Places 0..n-1 sorted by their paths through `key` (class or rank), a
 * path before the longer ones it starts, equal paths in place order. */
static uint32_t *sorted_places(const flame_stacks *fs, const uint32_t *key)
{
    size_t room = fs->n ? fs->n : 1;
    uint32_t *order = xcalloc(room, sizeof *order);
    uint32_t *key1 = xcalloc(fs->nframes ? fs->nframes : 1, sizeof *key1);
    stack_ref *v = xcalloc(room, sizeof *v);
    stack_keys k = {key1, key1, fs->reverse, (uint32_t)fs->fixed};

    /* stack_sort keeps 0 for the end of a path */
    for (size_t f = 0; f < fs->nframes; f++)
        key1[f] = key[f] + 1;
    for (size_t i = 0; i < fs->n; i++)
        v[i] = (stack_ref){fs->frames[i], fs->depth[i], (uint32_t)i};
    stack_sort(v, fs->n, &k);
    for (size_t i = 0; i < fs->n; i++)
        order[i] = v[i].id;
    free(v);
    free(key1);
    return order;
}

/* ---- building --------------------------------------------------------------------- */

static bool same_class(const jfr_profile *p, const select_opts *s, uint32_t a, uint32_t b)
{
    const jfr_profile_frame *fa = jfr_profile_frame_at(p, a),
                            *fb = jfr_profile_frame_at(p, b);

    return !s->annotate && fa->line == fb->line && strcmp(fa->name, fb->name) == 0;
}

/* Rank the frames; give each its class (the rank of the class's first
 * frame), kind and label (the class's: its frames have the same text). */
static void classify_frames(flame_stacks *fs, flame_tree *t, const jfr_profile *p,
                            const select_opts *s)
{
    size_t nframes = jfr_profile_frame_count(p), room = nframes ? nframes : 1;
    uint32_t *order = xcalloc(room, sizeof *order), *tmp = xcalloc(room, sizeof *tmp);
    strbuf sb = {0};

    fs->class_of = xcalloc(room, sizeof *fs->class_of);
    fs->rank = xcalloc(room, sizeof *fs->rank);
    fs->label = xcalloc(room, sizeof *fs->label);
    fs->kind = xcalloc(room, 1);
    fs->mixable = xcalloc(room, 1);
    for (size_t i = 0; i < nframes; i++)
        order[i] = (uint32_t)i;
    sort_ids(order, tmp, nframes, compare_frames, p);
    for (size_t first = 0, end; first < nframes; first = end) {
        bool several = false;

        for (end = first + 1; end < nframes && same_class(p, s, order[first], order[end]);
             end++)
            ;
        sb.len = 0;
        select_frame_text(&sb, jfr_profile_frame_at(p, order[first]), s, false);
        fs->label[order[first]] = flame_tree_add_name(t, xstrdup(sb_str(&sb)));
        for (size_t r = first; r < end; r++) {
            uint32_t id = order[r];

            fs->rank[id] = (uint32_t)r;
            fs->class_of[id] = (uint32_t)first;
            fs->label[id] = fs->label[order[first]];
            fs->kind[id] = flame_kind_of(jfr_profile_frame_at(p, id));
            several |= fs->kind[id] != fs->kind[order[first]];
        }
        for (size_t r = first; r < end; r++)
            fs->mixable[order[r]] = several;
    }
    sb_free(&sb);
    free(order);
    free(tmp);
}

/* next_lower of every place, from the last: a stack of the places after
 * it that share less than every place before them. */
static void link_lower(flame_stacks *fs)
{
    size_t n = fs->n, top = 0;
    uint32_t *stack = xcalloc(n ? n : 1, sizeof *stack);

    fs->next_lower = xcalloc(n ? n : 1, sizeof *fs->next_lower);
    for (size_t i = n; i-- > 0;) {
        while (top && fs->shared[stack[top - 1]] >= fs->shared[i])
            top--;
        fs->next_lower[i] = top ? stack[top - 1] : (uint32_t)n;
        stack[top++] = (uint32_t)i;
    }
    free(stack);
}

/* Put the stacks in walk order and note what each shares with the last. */
static void order_stacks(flame_stacks *fs, const jfr_profile *p)
{
    size_t n = fs->n, room = n ? n : 1;
    const uint32_t **frames = xcalloc(room, sizeof *frames);
    uint32_t *depth = xcalloc(room, sizeof *depth), *order;
    uint64_t *weight = xcalloc(room, sizeof *weight);

    fs->frames = xcalloc(room, sizeof *fs->frames);
    fs->depth = xcalloc(room, sizeof *fs->depth);
    for (size_t i = 0; i < n; i++) {
        size_t d;

        jfr_profile_stack(p, i, &weight[i], &fs->frames[i], &d);
        fs->depth[i] = (uint32_t)d;
    }
    order = sorted_places(fs, fs->class_of);
    memcpy(frames, fs->frames, n * sizeof *frames);
    memcpy(depth, fs->depth, n * sizeof *depth);
    fs->before = xcalloc(n + 1, sizeof *fs->before);
    fs->shared = xcalloc(room, sizeof *fs->shared);
    for (size_t i = 0; i < n; i++) {
        fs->frames[i] = frames[order[i]];
        fs->depth[i] = depth[order[i]];
        fs->before[i + 1] = fs->before[i] + weight[order[i]];
    }
    for (size_t i = 1; i < n; i++) {
        size_t k = 0;

        while (k < fs->depth[i] && k < fs->depth[i - 1] &&
               fs->class_of[frame_at(fs, i, k)] == fs->class_of[frame_at(fs, i - 1, k)])
            k++;
        fs->shared[i] = (uint32_t)k;
    }
    link_lower(fs);
    free(frames);
    free(depth);
    free(weight);
    free(order);
}

flame_stacks *flame_stacks_new(flame_tree *t, const jfr_profile *p, const select_opts *s,
                               bool reverse)
{
    flame_stacks *fs = xcalloc(1, sizeof *fs);

    fs->n = jfr_profile_stack_count(p);
    fs->reverse = reverse;
    fs->fixed = s->threads ? 1 : 0;
    fs->nframes = jfr_profile_frame_count(p);
    classify_frames(fs, t, p, s);
    order_stacks(fs, p);
    t->count = 1;
    for (size_t i = 0; i < fs->n; i++) {
        if (fs->depth[i] > fs->shared[i])
            t->count += fs->depth[i] - fs->shared[i];
        if (fs->depth[i] > t->max_depth)
            t->max_depth = fs->depth[i];
    }
    return fs;
}

void flame_stacks_free(flame_stacks *fs)
{
    if (!fs)
        return;
    free(fs->frames);
    free(fs->depth);
    free(fs->shared);
    free(fs->next_lower);
    free(fs->before);
    free(fs->class_of);
    free(fs->rank);
    free(fs->label);
    free(fs->kind);
    free(fs->mixable);
    free(fs->tree_place);
    free(fs);
}

uint64_t flame_stacks_total(const flame_stacks *fs)
{
    return fs->before[fs->n];
}

/* ---- the kind of a node of several kinds ----------------------------------------- */

/* The call tree drew one box per method by visiting the tree's nodes of
 * that method in the tree's order, summing weights by kind and keeping
 * the kind with the most weight; on a tie the kind that got there first.
 * That is the tied kind whose last node with weight comes first, or with
 * no weight at all the kind of the first node. A tree node is a run of
 * stacks in the tree's order, so a stack's place in that order stands for
 * its node's. */
static const uint32_t *tree_places(flame_stacks *fs)
{
    uint32_t *order;

    if (fs->tree_place)
        return fs->tree_place;
    order = sorted_places(fs, fs->rank);
    fs->tree_place = xcalloc(fs->n ? fs->n : 1, sizeof *fs->tree_place);
    for (size_t i = 0; i < fs->n; i++)
        fs->tree_place[order[i]] = (uint32_t)i;
    free(order);
    return fs->tree_place;
}

static uint8_t break_tie(flame_stacks *fs, size_t from, size_t to, size_t k,
                         unsigned tied, bool weighed)
{
    const uint32_t *place = tree_places(fs);
    uint32_t last[FK_UNKNOWN + 1] = {0}, first = UINT32_MAX, earliest = UINT32_MAX;
    uint8_t kind = FK_UNKNOWN;

    for (size_t j = from; j < to; j++) {
        uint8_t kj = fs->kind[frame_at(fs, j, k)];

        if (!weighed && place[j] < first) {
            first = place[j];
            kind = kj;
        }
        if (weighed && (tied >> kj & 1) && weight_at(fs, j) > 0 && place[j] >= last[kj])
            last[kj] = place[j];
    }
    if (!weighed)
        return kind;
    for (uint8_t kk = 0; kk <= FK_UNKNOWN; kk++)
        if ((tied >> kk & 1) && last[kk] < earliest) {
            earliest = last[kk];
            kind = kk;
        }
    return kind;
}

/* The kind of the node at frame `k` of places from..to-1 into *kind, which
 * holds the first place's; true when it has frames of several kinds, with
 * their weights in *mix. */
static bool mix_kinds(flame_stacks *fs, size_t from, size_t to, size_t k, uint8_t *kind,
                      flame_mix *mix)
{
    uint64_t by[FK_UNKNOWN + 1] = {0}, top = 0;
    unsigned seen = 0, tied = 0;

    for (size_t j = from + 1; j < to && !(seen & (seen - 1)); j++)
        seen = 1u << *kind | 1u << fs->kind[frame_at(fs, j, k)];
    if (!(seen & (seen - 1)))
        return false; /* one kind after all */
    seen = 0;
    for (size_t j = from; j < to; j++) {
        uint8_t kj = fs->kind[frame_at(fs, j, k)];

        seen |= 1u << kj;
        by[kj] += weight_at(fs, j);
    }
    *mix = (flame_mix){(double)by[FK_JIT], (double)by[FK_INLINED],
                       (double)by[FK_INTERPRETED]};
    for (unsigned kk = 0; kk <= FK_UNKNOWN; kk++) {
        if (!(seen >> kk & 1) || by[kk] < top)
            continue;
        tied = by[kk] > top ? 0 : tied;
        tied |= 1u << kk;
        top = by[kk];
    }
    if (!(tied & (tied - 1))) {
        for (*kind = 0; !(tied >> *kind & 1); ++*kind)
            ;
        return true;
    }
    *kind = break_tie(fs, from, to, k, tied, top > 0);
    return true;
}

/* ---- the walk --------------------------------------------------------------------- */

static inline void prefetch(const void *p)
{
#if defined(__GNUC__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

/* The first cache lines of the frames the walk will read of the stack at
 * `place`: those after what it shares with the stack before, which come
 * first in the array unless the walk starts from the leaves. */
static void prefetch_new_frames(const flame_stacks *fs, size_t place)
{
    const uint32_t *frames = fs->frames[place];
    size_t depth = fs->depth[place], shared = fs->shared[place], from = shared,
           to = depth;

    if (fs->reverse && shared >= fs->fixed) {
        from = fs->fixed;
        to = fs->fixed + (depth - shared);
    }
    for (int line = 0; line < 4 && from < to; line++, from += 64 / sizeof *frames)
        prefetch(frames + from);
}

/* The places after `at` whose stacks go through the node at frame k of
 * `at`: those that share more than k classes with the one before. Places
 * between one and its next_lower share at least as much as it does, so
 * they are passed over at once: a few steps, not one per stack under the
 * node (the page walks its nodes six times). */
static size_t run_end(const flame_stacks *fs, size_t at, size_t k)
{
    size_t end = at + 1;

    while (end < fs->n && fs->shared[end] > k)
        end = fs->next_lower[end];
    return end;
}

/* Nodes k..stop-1 of the stack at `at` into b. */
static void read_path(flame_stacks *fs, size_t at, size_t k, size_t stop, unsigned need,
                      flame_batch *b)
{
    bool values = need & FLAME_NEED_VALUE, names = need & FLAME_NEED_NAME,
         kinds = need & (FLAME_NEED_KIND | FLAME_NEED_MIX);
    /* deeper nodes than the next stack shares hold this stack alone */
    size_t alone = at + 1 < fs->n ? fs->shared[at + 1] : 0;
    double weight = (double)weight_at(fs, at);
    size_t got = b->count;

    for (b->count += stop - k; k < stop; k++, got++) {
        uint32_t f = 0;
        size_t end;

        b->depth[got] = (uint32_t)k + 1;
        /* the depths and the values do not need the frame */
        if (names || kinds) {
            f = frame_at(fs, at, k);
            b->name[got] = fs->label[f];
            b->kind[got] = fs->kind[f];
        }
        if (k >= alone) {
            b->value[got] = weight;
            continue;
        }
        if (!values && !(kinds && fs->mixable[f]))
            continue;
        end = run_end(fs, at, k);
        b->value[got] = (double)(fs->before[end] - fs->before[at]);
        if (kinds && fs->mixable[f] &&
            mix_kinds(fs, at, end, k, &b->kind[got], &b->mix[b->nmixed]))
            b->mixed_at[b->nmixed++] = (uint32_t)got;
    }
}

size_t flame_stacks_read(flame_stacks *fs, size_t *at, size_t *next, unsigned need,
                         flame_batch *b)
{
    size_t i = *at, k = *next, start = b->count;

    while (b->count < FLAME_BATCH && i < fs->n) {
        size_t stop = fs->depth[i];

        /* a stack's own nodes start after what it shares with the one before */
        if (k >= stop) {
            i++;
            k = i < fs->n ? fs->shared[i] : 0;
            /* the profile keeps stacks in the order first met, not this
             * one: each stack's frames are a cache miss unless asked for
             * ahead */
            if (i + 4 < fs->n)
                prefetch_new_frames(fs, i + 4);
            continue;
        }
        if (stop - k > FLAME_BATCH - b->count)
            stop = k + (FLAME_BATCH - b->count);
        read_path(fs, i, k, stop, need, b);
        k = stop;
    }
    *at = i;
    *next = k;
    return b->count - start;
}
