/* flame_stacks.c - see flame_stacks.h. Frames are ranked once, in the
 * order the profile's call tree gives siblings (name, line, kind, id). A
 * node stands for a class of frames: one method (name and line) whatever
 * its kind, or with --annotate one frame. Stacks are sorted by the classes
 * of their frames, so a node's stacks are one run of places, and the run's
 * weights are a difference of prefix sums. One pass after the sort keeps
 * each node's frame (4 bytes a node: the page's walks then read frames in
 * order, not a stack here and a stack there) and works out the kinds of
 * the nodes whose frames have several. */
#include <stdlib.h>
#include <string.h>

#include "flame_stacks.h"
#include "jfrtool.h"
#include "two_parts.h"
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
    uint32_t *node_frame; /* by node after the root, in walk order: its frame */
    size_t *node_start;   /* by place: the index of the stack's first own node */
    flame_mixed *mixed;   /* the nodes of several kinds, by node */
    size_t nmixed;
    size_t fixed;   /* leading frames never reversed (thread roots) */
    size_t nframes; /* the profile's */
    bool reverse;
    bool two_threads; /* the sorts may take a second thread */
    /* by place, made when first needed: the place of the stack in the
     * order of the profile's call tree (frames by rank, not class) */
    uint32_t *tree_place;
    size_t tie_places; /* places the ties of kinds have passed so far */
};

/* Where frame `k` of the path of the stack at `place` is in its frames. */
static inline size_t frame_index(const flame_stacks *fs, size_t place, size_t k)
{
    return fs->reverse && k >= fs->fixed ? fs->fixed + (fs->depth[place] - 1 - k) : k;
}

/* Frame `k` of the path of the stack at `place`. */
static inline uint32_t frame_at(const flame_stacks *fs, size_t place, size_t k)
{
    return fs->frames[place][frame_index(fs, place, k)];
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
    uint32_t *order = xcalloc(fs->n ? fs->n : 1, sizeof *order);
    unsigned flags = (fs->reverse ? JFR_STACK_ORDER_REVERSE : 0) |
                     (fs->two_threads ? JFR_STACK_ORDER_TWO_THREADS : 0);
    int rc = jfr_stack_order(order, fs->frames, fs->depth, fs->n, key, fs->nframes,
                             fs->fixed, flags);

    if (rc != JFR_OK) /* the ids and keys are the profile's: only memory fails */
        diex(EXIT_INPUT, "out of memory");
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

/* Put the stacks in walk order. */
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

        jfr_profile_stack(&weight[i], &fs->frames[i], &d, p, i);
        fs->depth[i] = (uint32_t)d;
    }
    order = sorted_places(fs, fs->class_of);
    memcpy(frames, fs->frames, n * sizeof *frames);
    memcpy(depth, fs->depth, n * sizeof *depth);
    fs->before = xcalloc(n + 1, sizeof *fs->before);
    for (size_t i = 0; i < n; i++) {
        fs->frames[i] = frames[order[i]];
        fs->depth[i] = depth[order[i]];
        fs->before[i + 1] = fs->before[i] + weight[order[i]];
    }
    free(frames);
    free(depth);
    free(weight);
    free(order);
}

/* A function that only prefetches has no effect GCC can see: it drops a
 * call to one that it did not inline, prefetches and all. These are
 * always inlined. */
#if defined(__GNUC__)
#define PREFETCHES  inline __attribute__((always_inline))
#define prefetch(p) __builtin_prefetch(p)
#else
#define PREFETCHES  inline
#define prefetch(p) ((void)(p))
#endif

/* The first cache lines of the frames of the stack at `place`, from the
 * root (the end of the array when the walk starts from the leaves). */
static PREFETCHES void prefetch_frames(const flame_stacks *fs, size_t place)
{
    const uint32_t *frames = fs->frames[place];
    size_t depth = fs->depth[place], from = 0, per_line = 64 / sizeof *frames;

    if (fs->reverse && depth > fs->fixed) {
        prefetch(frames);
        from = depth > 4 * per_line ? depth - 4 * per_line : 0;
    }
    for (int line = 0; line < 4 && from < depth; line++, from += per_line)
        prefetch(frames + from);
}

/* ---- the kind of a node of several kinds ----------------------------------------- */

/* The call tree drew one box per method by visiting the tree's nodes of
 * that method in the tree's order, summing weights by kind and keeping
 * the kind with the most weight; on a tie the kind that got there first.
 * That is the tied kind whose last node with weight comes first, or with
 * no weight at all the kind of the first node. A tree node is a run of
 * stacks in the tree's order, so a stack's place in that order stands for
 * its node's. */

/* Whether the stack at place `a` comes before the one at `b` in the order
 * of the profile's call tree: sorted_places by rank, one pair at a time. */
static bool tree_before(const flame_stacks *fs, size_t a, size_t b)
{
    size_t da = fs->depth[a], db = fs->depth[b], both = da < db ? da : db;

    for (size_t k = 0; k < both; k++) {
        uint32_t ra = fs->rank[frame_at(fs, a, k)], rb = fs->rank[frame_at(fs, b, k)];

        if (ra != rb)
            return ra < rb;
    }
    return da != db ? da < db : a < b;
}

/* Every place's place in the tree's order, made when first needed. */
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

/* Whether `a` comes before `b` in the tree's order: pair by pair while
 * the ties have passed fewer places than there are stacks (most ties are
 * of a few light stacks), then from a sort of every stack, made once,
 * which costs as much as the flame's own sort. */
static bool before_in_tree(flame_stacks *fs, size_t a, size_t b)
{
    if (fs->tree_place)
        return fs->tree_place[a] < fs->tree_place[b];
    return tree_before(fs, a, b);
}

static uint8_t break_tie(flame_stacks *fs, size_t from, size_t to, size_t k,
                         unsigned tied, bool weighed)
{
    size_t last[FK_COUNT], first = SIZE_MAX, earliest = SIZE_MAX;
    bool has_last[FK_COUNT] = {false};
    uint8_t kind = FK_UNKNOWN;

    fs->tie_places += to - from;
    if (fs->tie_places > fs->n)
        (void)tree_places(fs);
    for (size_t j = from; j < to; j++) {
        uint8_t kj = fs->kind[frame_at(fs, j, k)];

        if (!weighed && (first == SIZE_MAX || before_in_tree(fs, j, first))) {
            first = j;
            kind = kj;
        }
        if (weighed && (tied >> kj & 1) && weight_at(fs, j) > 0 &&
            (!has_last[kj] || before_in_tree(fs, last[kj], j))) {
            last[kj] = j;
            has_last[kj] = true;
        }
    }
    if (!weighed)
        return kind;
    for (uint8_t kk = 0; kk < FK_COUNT; kk++)
        if ((tied >> kk & 1) && has_last[kk] &&
            (earliest == SIZE_MAX || before_in_tree(fs, last[kk], earliest))) {
            earliest = last[kk];
            kind = kk;
        }
    return kind;
}

/* A node of a mixable class while its stacks are being passed: its
 * weights by kind so far. Its stacks come in runs of one kind. */
typedef struct open_node {
    size_t node, from, k;  /* the node, its first place, its frame's depth */
    size_t run;            /* the first place of the current run */
    uint8_t kind;          /* the current run's kind */
    unsigned seen;         /* kinds of the runs before, a bit each */
    uint64_t by[FK_COUNT]; /* their weights by kind */
} open_node;

static void end_run(const flame_stacks *fs, open_node *o, size_t to)
{
    /* most nodes have one run: their weights need no clearing */
    if (!o->seen)
        memset(o->by, 0, sizeof o->by);
    o->seen |= 1u << o->kind;
    o->by[o->kind] += fs->before[to] - fs->before[o->run];
}

/* The node's stacks end before place `to`: with frames of several kinds
 * it joins fs->mixed, with the kind of the most weight. */
static void close_node(flame_stacks *fs, open_node *o, size_t to, size_t *room)
{
    uint64_t top = 0;
    unsigned tied = 0;
    flame_mixed *m;

    if (o->seen == 0)
        return; /* one run: one kind */
    end_run(fs, o, to);
    if (fs->nmixed == *room) {
        *room = *room ? *room * 2 : 64;
        fs->mixed = xrealloc(fs->mixed, *room, sizeof *fs->mixed);
    }
    m = &fs->mixed[fs->nmixed++];
    m->node = o->node;
    m->mix = (flame_mix){(double)o->by[FK_JIT], (double)o->by[FK_INLINED],
                         (double)o->by[FK_INTERPRETED]};
    for (unsigned kk = 0; kk < FK_COUNT; kk++) {
        if (!(o->seen >> kk & 1) || o->by[kk] < top)
            continue;
        tied = o->by[kk] > top ? 0 : tied;
        tied |= 1u << kk;
        top = o->by[kk];
    }
    if (!(tied & (tied - 1))) {
        for (m->kind = 0; !(tied >> m->kind & 1); m->kind++)
            ;
        return;
    }
    m->kind = break_tie(fs, o->from, to, o->k, tied, top > 0);
}

static int compare_mixed(const void *a, const void *b)
{
    const flame_mixed *x = a, *y = b;

    return x->node < y->node ? -1 : x->node > y->node;
}

/* The first of the open nodes (ordered by depth) at depth `k` or deeper. */
static size_t first_open_from(const open_node *open, size_t nopen, size_t k)
{
    size_t lo = 0, hi = nopen;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (open[mid].k < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* How many leading frames the stack at `place` has in common with the
 * one before: the same frames into *same, frames of the same classes
 * (what fs->shared holds) returned. */
static size_t compare_with_last(const flame_stacks *fs, size_t place, size_t *same)
{
    size_t k = 0, both;

    *same = 0;
    if (place == 0)
        return 0;
    both =
        fs->depth[place] < fs->depth[place - 1] ? fs->depth[place] : fs->depth[place - 1];
    while (k < both && frame_at(fs, place, k) == frame_at(fs, place - 1, k))
        k++;
    *same = k;
    while (k < both && fs->class_of[frame_at(fs, place, k)] ==
                           fs->class_of[frame_at(fs, place - 1, k)])
        k++;
    return k;
}

/* Frames from..to-1 of the path of the stack at `place` into out. */
static void copy_path(const flame_stacks *fs, size_t place, size_t from, size_t to,
                      uint32_t *out)
{
    if (!fs->reverse) {
        memcpy(out, fs->frames[place] + from, (to - from) * sizeof *out);
        return;
    }
    for (size_t k = from; k < to; k++)
        *out++ = frame_at(fs, place, k);
}

/* ---- the nodes ----------------------------------------------------------------------- */

/* A part of the places, passed by a thread of its own: what each shares
 * with the one before (fs->shared), has the same frames as it (same),
 * and its deepest stack; with `copy`, also where its own nodes start
 * (fs->node_start, from node 1) and their frames (node_frame). */
typedef struct index_part {
    flame_stacks *fs;
    uint32_t *same;
    uint8_t *mixable_next; /* by place: 0 if no node the next stack goes
                              through has a frame of a mixable class */
    size_t from, to;
    bool copy;
    size_t end_node; /* with `copy`: the node after the part's last */
    size_t max_depth;
} index_part;

static void *index_places(void *arg)
{
    index_part *ip = arg;
    flame_stacks *fs = ip->fs;
    size_t node = 1;

    for (size_t i = ip->from; i < ip->to; i++) {
        size_t same, shared, depth = fs->depth[i];

        /* the stacks are in the profile's order, not this one: a stack's
         * frames are a cache miss unless asked for ahead */
        if (i + 4 < ip->to)
            prefetch_frames(fs, i + 4);
        shared = compare_with_last(fs, i, &same);
        fs->shared[i] = (uint32_t)shared;
        ip->same[i] = (uint32_t)same;
        /* the frames of the place before that this one goes through were
         * just compared: in the cache */
        if (i > ip->from) {
            bool any = false;

            for (size_t k = fs->shared[i - 1]; k < shared && !any; k++)
                any = fs->mixable[frame_at(fs, i - 1, k)];
            ip->mixable_next[i - 1] = any;
        }
        if (ip->copy) {
            fs->node_start[i] = node;
            copy_path(fs, i, shared, depth, fs->node_frame + node - 1);
            node += depth - shared;
        }
        if (depth > ip->max_depth)
            ip->max_depth = depth;
    }
    ip->end_node = node;
    return NULL;
}

/* A part of the places whose own nodes' frames a thread copies, once
 * fs->node_start is known. */
typedef struct copy_part {
    flame_stacks *fs;
    size_t from, to;
} copy_part;

static void *copy_own_nodes(void *arg)
{
    copy_part *cp = arg;
    flame_stacks *fs = cp->fs;

    for (size_t i = cp->from; i < cp->to; i++) {
        if (i + 4 < cp->to)
            prefetch_frames(fs, i + 4);
        copy_path(fs, i, fs->shared[i], fs->depth[i],
                  fs->node_frame + fs->node_start[i] - 1);
    }
    return NULL;
}

/* The nodes of several kinds (fs->mixed), in one pass over the places in
 * order: a stack's frames are the last one's up to `same`, so only the
 * open nodes deeper than that can start a run of another kind, and only
 * nodes that the next stack goes through can have several. */
static void find_mixed(flame_stacks *fs, const uint32_t *same,
                       const uint8_t *mixable_next)
{
    open_node *open = xcalloc(64, sizeof *open);
    size_t nopen = 0, open_room = 64, mixed_room = 0;

    for (size_t i = 0; i < fs->n; i++) {
        size_t shared = fs->shared[i], next = i + 1 < fs->n ? fs->shared[i + 1] : 0;
        const uint32_t *frame = fs->node_frame + fs->node_start[i] - 1;
        open_node *o;

        while (nopen && open[nopen - 1].k >= shared)
            close_node(fs, &open[--nopen], i, &mixed_room);
        for (o = open + first_open_from(open, nopen, same[i]); o < open + nopen; o++) {
            uint8_t kind = fs->kind[frame_at(fs, i, o->k)];

            if (kind != o->kind) {
                end_run(fs, o, i);
                o->run = i;
                o->kind = kind;
            }
        }
        /* nodes the next stack goes through */
        for (size_t k = shared; k < next && mixable_next[i]; k++, frame++) {
            if (!fs->mixable[*frame])
                continue;
            if (nopen == open_room)
                open = xrealloc(open, open_room *= 2, sizeof *open);
            o = &open[nopen++];
            o->node = fs->node_start[i] + (k - shared);
            o->from = o->run = i;
            o->k = k;
            o->kind = fs->kind[*frame];
            o->seen = 0;
        }
    }
    while (nopen)
        close_node(fs, &open[--nopen], fs->n, &mixed_room);
    if (fs->nmixed > 1)
        qsort(fs->mixed, fs->nmixed, sizeof *fs->mixed, compare_mixed);
    free(open);
}

/* What each stack shares with the one before (fs->shared), every node's
 * frame in walk order (node_frame: the page's walks read them in order),
 * the nodes of several kinds (fs->mixed), and t's node count and depth.
 * The stacks are read in an order that is not their frames' in memory:
 * one thread reads each once, comparing and copying; with two, each
 * compares half of the places, and once every stack's node count and so
 * its first node is known, copies them. */
static void index_nodes(flame_stacks *fs, flame_tree *t)
{
    size_t n = fs->n, half = fs->two_threads ? n / 2 : n, frames = 0, node = 1;
    uint32_t *same = xcalloc(n ? n : 1, sizeof *same);
    /* a part's last place is not known to go through none: 1 */
    uint8_t *mixable_next = xmalloc(n ? n : 1);
    index_part part[2];
    copy_part copy[2] = {{fs, 0, half}, {fs, half, n}};

    for (size_t i = 0; i < n; i++)
        frames += fs->depth[i];
    fs->shared = xcalloc(n ? n : 1, sizeof *fs->shared);
    /* room for every frame: the pages past the nodes are never touched */
    fs->node_frame = xcalloc(frames ? frames : 1, sizeof *fs->node_frame);
    fs->node_start = xcalloc(n ? n : 1, sizeof *fs->node_start);
    memset(mixable_next, 1, n ? n : 1);
    part[0] = (index_part){fs, same, mixable_next, 0, half, !fs->two_threads, 0, 0};
    part[1] = (index_part){fs, same, mixable_next, half, n, false, 0, 0};
    run_in_two(index_places, &part[0], &part[1], fs->two_threads);
    if (fs->two_threads) {
        for (size_t i = 0; i < n; i++) {
            fs->node_start[i] = node;
            node += fs->depth[i] - fs->shared[i];
        }
        run_in_two(copy_own_nodes, &copy[0], &copy[1], true);
    } else {
        node = part[0].end_node;
    }
    find_mixed(fs, same, mixable_next);
    free(same);
    free(mixable_next);
    t->count = node;
    for (int k = 0; k < 2; k++)
        if (part[k].max_depth > t->max_depth)
            t->max_depth = (uint32_t)part[k].max_depth;
}

flame_stacks *flame_stacks_new(flame_tree *t, const jfr_profile *p, const select_opts *s,
                               bool reverse)
{
    flame_stacks *fs = xcalloc(1, sizeof *fs);

    fs->n = jfr_profile_stack_count(p);
    fs->reverse = reverse;
    /* asking whether a CPU is idle costs up to a millisecond: only a sort
     * big enough to share asks */
    fs->two_threads = fs->n >= JFR_STACK_ORDER_THREADS_FROM && select_second_thread(s);
    fs->fixed = s->threads ? 1 : 0;
    fs->nframes = jfr_profile_frame_count(p);
    classify_frames(fs, t, p, s);
    order_stacks(fs, p);
    index_nodes(fs, t);
    link_lower(fs);
    /* whether a CPU is idle was asked already for a sort as large */
    t->two_threads = t->count >= FLAME_TWO_THREADS_FROM &&
                     (fs->two_threads || select_second_thread(s));
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
    free(fs->node_frame);
    free(fs->node_start);
    free(fs->mixed);
    free(fs->tree_place);
    free(fs);
}

uint64_t flame_stacks_total(const flame_stacks *fs)
{
    return fs->before[fs->n];
}

const flame_mixed *flame_stacks_mixed(const flame_stacks *fs, size_t *count)
{
    *count = fs->nmixed;
    return fs->mixed;
}

/* ---- the walk --------------------------------------------------------------------- */

/* The places after `at` whose stacks go through the node at frame k of
 * `at`: those that share more than k classes with the one before. Places
 * between one and its next_lower share at least as much as it does, so
 * they are passed over at once: a few steps, not one per stack under the
 * node. */
static size_t run_end(const flame_stacks *fs, size_t at, size_t k)
{
    size_t end = at + 1;

    while (end < fs->n && fs->shared[end] > k)
        end = fs->next_lower[end];
    return end;
}

/* Nodes k..stop-1 of the stack at `at` into b, with their frame's kind;
 * returns the depth after the last node added: stop, or after the first
 * node that `it` prunes. */
static size_t read_path(const flame_stacks *fs, const flame_iter *it, size_t at, size_t k,
                        size_t stop, flame_batch *b)
{
    unsigned need = it->need;
    bool values = need & FLAME_NEED_VALUE, frames = need & ~FLAME_NEED_VALUE;
    /* deeper nodes than the next stack shares hold this stack alone */
    size_t alone = at + 1 < fs->n ? fs->shared[at + 1] : 0;
    double weight = (double)weight_at(fs, at);
    size_t got = b->count;
    /* node 0, the root, has no frame; batches after the first start later */
    const uint32_t *frame = fs->node_frame + (b->first + got - 1);

    for (; k < stop; k++, got++, frame++) {
        size_t end;

        b->depth[got] = (uint32_t)k + 1;
        if (frames) {
            b->name[got] = fs->label[*frame];
            b->kind[got] = fs->kind[*frame];
        }
        if (!values)
            continue;
        if (k >= alone) {
            b->value[got] = weight;
        } else {
            end = run_end(fs, at, k);
            b->value[got] = (double)(fs->before[end] - fs->before[at]);
        }
        if (b->value[got] * it->prune_scale < it->prune_below) {
            b->count = got + 1;
            return k + 1;
        }
    }
    b->count = got;
    return stop;
}

/* The nodes of several kinds among b's, from fs->mixed[*mixed] on: their
 * kind and weights by kind. */
static void read_mixed(const flame_stacks *fs, size_t *mixed, flame_batch *b)
{
    size_t end = b->first + b->count;

    for (; *mixed < fs->nmixed && fs->mixed[*mixed].node < end; ++*mixed) {
        const flame_mixed *m = &fs->mixed[*mixed];
        size_t j = m->node - b->first;

        b->kind[j] = m->kind;
        b->mixed_at[b->nmixed] = (uint32_t)j;
        b->mix[b->nmixed++] = m->mix;
    }
}

/* Past the nodes under the node at depth k - 1 of the stack at `i`, which
 * was pruned: on to the first stack outside it. */
static void skip_under(const flame_stacks *fs, flame_iter *it, size_t i, size_t k)
{
    size_t end = run_end(fs, i, k - 1);

    it->at = end;
    it->next = end < fs->n ? fs->shared[end] : 0;
    it->index = end < fs->n ? fs->node_start[end] : it->t->count;
    while (it->mixed < fs->nmixed && fs->mixed[it->mixed].node < it->index)
        it->mixed++;
}

void flame_stacks_seek(const flame_stacks *fs, flame_iter *it, size_t node)
{
    size_t lo = 0, hi = fs->n, count = it->t->count;

    it->index = node < count ? node : count;
    if (node == 0 || node >= count) {
        it->at = node == 0 ? 0 : fs->n;
        it->next = 0;
        it->mixed = node == 0 ? 0 : fs->nmixed;
        return;
    }
    /* the last place whose own nodes start at or before `node`: they hold
     * it (a place without nodes of its own starts where the next does) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;

        if (fs->node_start[mid] <= node)
            lo = mid;
        else
            hi = mid;
    }
    it->at = lo;
    it->next = fs->shared[lo] + (node - fs->node_start[lo]);
    for (lo = 0, hi = fs->nmixed; lo < hi;) {
        size_t mid = lo + (hi - lo) / 2;

        if (fs->mixed[mid].node < node)
            lo = mid + 1;
        else
            hi = mid;
    }
    it->mixed = lo;
}

size_t flame_stacks_read(const flame_stacks *fs, flame_iter *it, flame_batch *b)
{
    size_t i = it->at, k = it->next, start = b->count;
    bool pruned = false;

    while (b->count < FLAME_BATCH && i < fs->n) {
        size_t stop = fs->depth[i], got;

        /* a stack's own nodes start after what it shares with the one before */
        if (k >= stop) {
            i++;
            k = i < fs->n ? fs->shared[i] : 0;
            continue;
        }
        if (stop - k > FLAME_BATCH - b->count)
            stop = k + (FLAME_BATCH - b->count);
        got = read_path(fs, it, i, k, stop, b);
        pruned = got < stop;
        k = got;
        if (pruned)
            break;
    }
    /* the node's own frame gave its kind; several kinds, the list's */
    if (it->need & (FLAME_NEED_KIND | FLAME_NEED_MIX))
        read_mixed(fs, &it->mixed, b);
    it->at = i;
    it->next = k;
    it->index = b->first + b->count;
    if (pruned)
        skip_under(fs, it, i, k);
    return b->count - start;
}
