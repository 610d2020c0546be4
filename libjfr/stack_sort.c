/* stack_sort.c - see stack_sort.h. A multikey quicksort: a range of
 * stacks is split three ways on the keys at one depth, and only the middle
 * part, whose key there is the pivot's, goes on to the next depth. Stacks
 * share long prefixes (thread entry, frameworks), which comparing whole
 * stacks walks again at every comparison; here each depth of a range is
 * read once. The range's keys at its depth are kept beside the stacks and
 * moved with them, so the parts split off at the same depth reuse them.
 * A large middle part, whose stacks likely share many more frames, is
 * grouped in one pass by the depth where each leaves one of them. Two
 * threads take ranges from one pool. */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jfr.h"
#include "stack_sort.h"

/* Ranges this small are sorted by insertion. */
#define SMALL_RANGE 12

/* Uneven splits a range of n stacks may take, per depth, before it is heap
 * sorted: STACK_SORT_UNEVEN * log2(n) + 2. Medians of three are this uneven
 * rarely; tests/profile/test_stack_sort_heap builds with 0 to test it. */
#ifndef STACK_SORT_UNEVEN
#define STACK_SORT_UNEVEN 2
#endif

/* Key 0 is the end of a stack: before every frame. */
static inline uint32_t key_at(const stack_ref *s, uint32_t d, const stack_keys *k)
{
    uint32_t at = d;

    if (d >= s->depth)
        return 0;
    if (k->reverse && d >= k->fixed)
        at = k->fixed + (s->depth - 1 - d);
    return d + 1 < s->depth ? k->inner[s->frames[at]] : k->last[s->frames[at]];
}

static inline int compare_ids(const stack_ref *a, const stack_ref *b)
{
    return a->id < b->id ? -1 : a->id > b->id;
}

static int compare_from(const stack_ref *a, const stack_ref *b, uint32_t d,
                        const stack_keys *k)
{
    for (;; d++) {
        uint32_t x = key_at(a, d, k), y = key_at(b, d, k);

        if (x != y)
            return x < y ? -1 : 1;
        if (x == 0)
            return compare_ids(a, b);
    }
}

static int compare_refs_by_id(const void *a, const void *b)
{
    return compare_ids(a, b);
}

static void insertion_sort(stack_ref *v, size_t n, uint32_t d, const stack_keys *k)
{
    for (size_t i = 1; i < n; i++) {
        stack_ref s = v[i];
        size_t j = i;

        for (; j > 0 && compare_from(&s, &v[j - 1], d, k) < 0; j--)
            v[j] = v[j - 1];
        v[j] = s;
    }
}

static void sift_down(stack_ref *v, size_t root, size_t n, uint32_t d,
                      const stack_keys *k)
{
    stack_ref s = v[root];

    for (size_t child; (child = 2 * root + 1) < n; root = child) {
        if (child + 1 < n && compare_from(&v[child], &v[child + 1], d, k) < 0)
            child++;
        if (compare_from(&s, &v[child], d, k) >= 0)
            break;
        v[root] = v[child];
    }
    v[root] = s;
}

/* For ranges whose pivots kept coming out badly: n log n whatever the
 * input, so no recording can make the sort quadratic. */
static void heap_sort(stack_ref *v, size_t n, uint32_t d, const stack_keys *k)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(v, i, n, d, k);
    for (size_t end = n; end-- > 1;) {
        stack_ref top = v[0];

        v[0] = v[end];
        v[end] = top;
        sift_down(v, 0, end, d, k);
    }
}

static inline uint32_t median3(uint32_t a, uint32_t b, uint32_t c)
{
    if (a > b) {
        uint32_t t = a;
        a = b;
        b = t;
    }
    return c <= a ? a : c >= b ? b : c;
}

static uint32_t uneven_splits(size_t n)
{
    uint32_t log2 = 0;

    while (n >>= 1)
        log2++;
    return STACK_SORT_UNEVEN ? STACK_SORT_UNEVEN * log2 + 2 : 0;
}

/* A range still to sort: v[lo..lo+n), equal in keys before `depth`. */
typedef struct range {
    size_t lo, n;
    uint32_t depth;
    uint32_t splits_left; /* uneven splits allowed before heap_sort */
    bool cached;          /* keys[lo..lo+n) hold the keys at `depth` */
} range;

typedef struct work {
    range *v;
    size_t n, room;
} work;

/* false when there is no memory for one more range */
static bool push(work *w, range r)
{
    if (r.n < 2)
        return true;
    if (w->n == w->room) {
        size_t room = w->room ? 2 * w->room : 64;
        range *v = room <= SIZE_MAX / sizeof *v ? realloc(w->v, room * sizeof *v) : NULL;

        if (!v)
            return false;
        w->v = v;
        w->room = room;
    }
    w->v[w->n++] = r;
    return true;
}

/* A range is sorted where it is when it cannot wait on the stack: the
 * heap sort needs no memory. */
static void push_or_sort(work *w, stack_ref *all, range r, const stack_keys *k)
{
    if (!push(w, r))
        heap_sort(all + r.lo, r.n, r.depth, k);
}

static inline void swap_at(stack_ref *v, uint32_t *keys, size_t i, size_t j)
{
    stack_ref s = v[i];
    uint32_t key = keys[i];

    v[i] = v[j];
    v[j] = s;
    keys[i] = keys[j];
    keys[j] = key;
}

/* How many stacks ahead fill_keys starts loading a stack's frame. */
#define PREFETCH_AHEAD 8

/* The keys of v[0..n) at depth d. Each stack's frames are elsewhere in
 * memory, a cache miss per stack: the frame a few stacks on is loaded
 * while this one's key is looked up. */
static void fill_keys(uint32_t *keys, const stack_ref *v, size_t n, uint32_t d,
                      const stack_keys *k)
{
    for (size_t j = 0; j < n; j++) {
        if (j + PREFETCH_AHEAD < n && d < v[j + PREFETCH_AHEAD].depth)
            __builtin_prefetch(v[j + PREFETCH_AHEAD].frames + d);
        keys[j] = key_at(&v[j], d, k);
    }
}

/* The depth from `d` on where v[0..n) (n >= 2) stop having equal keys,
 * none of them ended: each stack is compared once with the first, frame
 * by frame, where a pass per depth would load every stack again. */
static uint32_t shared_from(const stack_ref *v, size_t n, uint32_t d, const stack_keys *k)
{
    uint32_t end = UINT32_MAX;

    for (size_t j = 1; j < n && end > d; j++) {
        uint32_t e = d;

        while (e < end && key_at(&v[0], e, k) != 0 &&
               key_at(&v[j], e, k) == key_at(&v[0], e, k))
            e++;
        end = e;
    }
    return end;
}

/* Ranges of at least this many stacks that share their keys before some
 * depth are grouped by where each leaves one of them (group_by_leaving);
 * tests/profile/test_stack_sort_group builds with a small number to test
 * it on small inputs. */
#ifndef STACK_SORT_GROUP_FROM
#define STACK_SORT_GROUP_FROM 2048
#endif

/* The first depth from `d` on where s's key differs from ref's, with the
 * two keys there; UINT32_MAX when the two sequences are equal. Equal frame
 * ids have equal keys but for a stack's last frame, so ids are compared
 * first where the frames are read in order. */
static uint32_t leaves_at(const stack_ref *s, const stack_ref *ref, uint32_t d,
                          const stack_keys *k, uint32_t *key, uint32_t *ref_key)
{
    if (!k->reverse)
        while (d + 1 < s->depth && d + 1 < ref->depth && s->frames[d] == ref->frames[d])
            d++;
    for (;; d++) {
        uint32_t x = key_at(s, d, k), y = key_at(ref, d, k);

        if (x != y) {
            *key = x;
            *ref_key = y;
            return d;
        }
        if (x == 0)
            return UINT32_MAX;
    }
}

/* The most depths group_by_leaving keeps a count for. */
#define MAX_GROUP_LEVELS (1u << 16)

/* Each stack's group, *levels the number of depths they leave ref at:
 * 2 * (e - d) + 1 for the stacks that leave it at depth e with a larger
 * key, 2 * (e - d) with a smaller one, UINT32_MAX for its equals. False
 * when a stack leaves it too deep to count. */
static bool find_groups(uint32_t *group, uint32_t *levels, uint32_t *keys,
                        const stack_ref *v, size_t n, const stack_ref *ref, uint32_t d,
                        const stack_keys *k)
{
    *levels = 0;
    for (size_t j = 0; j < n; j++) {
        uint32_t key = 0, ref_key = 0, e;

        if (j + PREFETCH_AHEAD < n && d < v[j + PREFETCH_AHEAD].depth)
            __builtin_prefetch(v[j + PREFETCH_AHEAD].frames + d);
        e = leaves_at(&v[j], ref, d, k, &key, &ref_key);

        if (e == UINT32_MAX) {
            group[j] = UINT32_MAX;
            continue;
        }
        if (e - d >= MAX_GROUP_LEVELS)
            return false;
        group[j] = 2 * (e - d) + (key > ref_key);
        keys[j] = key;
        if (e - d + 1 > *levels)
            *levels = e - d + 1;
    }
    return true;
}

/* find_groups over a part of the stacks, in a thread of its own. */
typedef struct group_part {
    uint32_t *group, *keys, levels;
    const stack_ref *v, *ref;
    size_t n;
    uint32_t d;
    const stack_keys *k;
    bool ok;
} group_part;

static void *find_groups_of_part(void *arg)
{
    group_part *g = arg;

    g->ok = find_groups(g->group, &g->levels, g->keys, g->v, g->n, g->ref, g->d, g->k);
    return NULL;
}

/* find_groups, the second half of the stacks in a second thread when
 * `two_threads`: reading every stack is the part of a sort's first step
 * that a second thread can halve. */
static bool find_all_groups(uint32_t *group, uint32_t *levels, uint32_t *keys,
                            const stack_ref *v, size_t n, const stack_ref *ref,
                            uint32_t d, const stack_keys *k, bool two_threads)
{
    size_t half = n / 2;
    group_part second = {.group = group + half,
                         .keys = keys + half,
                         .v = v + half,
                         .ref = ref,
                         .n = n - half,
                         .d = d,
                         .k = k};
    pthread_t th;
    bool threaded =
        two_threads && pthread_create(&th, NULL, find_groups_of_part, &second) == 0;
    bool ok = find_groups(group, levels, keys, v, threaded ? half : n, ref, d, k);

    if (!threaded)
        return ok;
    pthread_join(th, NULL);
    if (second.levels > *levels)
        *levels = second.levels;
    return ok && second.ok;
}

/* v[lo..lo+n) share their keys before depth d. A stack that leaves ref
 * (one of them) at depth e with a smaller key sorts before every stack
 * that leaves it deeper or never, and one that leaves with a larger key
 * after them; so the stacks go, in one pass that reads each once, into
 * groups by that depth and side: the smaller ones by depth from d down,
 * then ref's equals, then the larger ones by depth from the deepest up.
 * Each group shares its keys before its depth, and their keys there are
 * kept. Multikey quicksort would read every stack again at each depth
 * where a few stacks leave a prefix all the others share (the threads'
 * entry frames). False, with the order unchanged, without the memory. */
static bool group_by_leaving(work *w, stack_ref *all, uint32_t *all_keys, size_t lo,
                             size_t n, uint32_t d, const stack_keys *k, bool two_threads)
{
    stack_ref *v = all + lo, ref = v[n / 2];
    uint32_t *keys = all_keys + lo, *group = malloc(n * sizeof *group), levels;
    size_t *next = NULL, *end = NULL, slots;

    if (!group || !find_all_groups(group, &levels, keys, v, n, &ref, d, k, two_threads) ||
        !(next = calloc(2 * (size_t)levels + 1, sizeof *next)) ||
        !(end = calloc(2 * (size_t)levels + 1, sizeof *end))) {
        free(group);
        free(next);
        return false;
    }
    /* slots: the smaller ones by depth, the equals, the larger ones from
     * the deepest */
    slots = 2 * (size_t)levels + 1;
    for (size_t j = 0; j < n; j++) {
        uint32_t g = group[j];

        group[j] = g == UINT32_MAX ? levels : g % 2 ? 2 * levels - g / 2 : g / 2;
        end[group[j]]++;
    }
    for (size_t s = 0, at = 0; s < slots; s++) {
        next[s] = at;
        at += end[s];
        end[s] = at;
    }
    /* each swap puts one stack in its slot for good */
    for (size_t s = 0; s < slots; s++) {
        while (next[s] < end[s]) {
            size_t j = next[s], to;
            uint32_t g = group[j], t;

            if (g == s) {
                next[s]++;
                continue;
            }
            to = next[g]++;
            swap_at(v, keys, j, to);
            t = group[j];
            group[j] = group[to];
            group[to] = t;
        }
    }
    for (size_t s = 0, from = 0; s < slots; from = end[s++]) {
        size_t count = end[s] - from;
        uint32_t depth = d + (uint32_t)(s < levels ? s : slots - 1 - s);

        if (s == levels) /* equal sequences */
            qsort(v + from, count, sizeof *v, compare_refs_by_id);
        else
            push_or_sort(w, all,
                         (range){lo + from, count, depth, uneven_splits(count), true}, k);
    }
    free(group);
    free(next);
    free(end);
    return true;
}

/* Split r three ways on its keys; push the parts. */
static void split(work *w, stack_ref *all, uint32_t *all_keys, range r,
                  const stack_keys *k)
{
    stack_ref *v = all + r.lo;
    uint32_t *keys = all_keys + r.lo, pivot;
    size_t lt = 0, i = 0, gt = r.n;

    if (!r.cached)
        fill_keys(keys, v, r.n, r.depth, k);
    pivot = median3(keys[0], keys[r.n / 2], keys[r.n - 1]);
    while (i < gt) {
        if (keys[i] < pivot)
            swap_at(v, keys, lt++, i++);
        else if (keys[i] > pivot)
            swap_at(v, keys, i, --gt);
        else
            i++;
    }
    /* a part holding most of the range means a poor pivot */
    if (lt > r.n / 2 || r.n - gt > r.n / 2) {
        if (r.splits_left == 0) {
            heap_sort(v, r.n, r.depth, k);
            return;
        }
        r.splits_left--;
    }
    push_or_sort(w, all, (range){r.lo, lt, r.depth, r.splits_left, true}, k);
    push_or_sort(w, all, (range){r.lo + gt, r.n - gt, r.depth, r.splits_left, true}, k);
    if (pivot == 0) { /* equal sequences */
        qsort(v + lt, gt - lt, sizeof *v, compare_refs_by_id);
    } else if (gt - lt < STACK_SORT_GROUP_FROM ||
               !group_by_leaving(w, all, all_keys, r.lo + lt, gt - lt, r.depth + 1, k,
                                 false)) {
        /* all alike here: they likely share the frames below too */
        uint32_t next =
            lt == 0 && gt == r.n ? shared_from(v, r.n, r.depth + 1, k) : r.depth + 1;

        push_or_sort(w, all,
                     (range){r.lo + lt, gt - lt, next, uneven_splits(gt - lt), false}, k);
    }
}

/* Sort the ranges on w's stack, and the ones they split into, until none
 * is left. */
static void sort_ranges(work *w, stack_ref *v, uint32_t *keys, const stack_keys *k)
{
    while (w->n) {
        range r = w->v[--w->n];

        if (r.n <= SMALL_RANGE)
            insertion_sort(v + r.lo, r.n, r.depth, k);
        else
            split(w, v, keys, r, k);
    }
}

/* Ranges shared by the threads that sort: each takes the largest left,
 * splits it and gives back its parts larger than `grain`, and sorts the
 * others itself, so a thread that finishes early takes more. */
typedef struct pool {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    work w;        /* ranges larger than grain that no thread took */
    unsigned busy; /* threads splitting a range of the pool */
    size_t grain;
    stack_ref *v;
    uint32_t *keys;
    const stack_keys *k;
} pool;

/* The largest range of the pool, taken out; false when there is none and
 * none will come. */
static bool take_largest(pool *p, range *r)
{
    size_t big = 0;

    pthread_mutex_lock(&p->lock);
    while (p->w.n == 0 && p->busy > 0)
        pthread_cond_wait(&p->changed, &p->lock);
    if (p->w.n == 0) {
        pthread_mutex_unlock(&p->lock);
        return false;
    }
    for (size_t i = 1; i < p->w.n; i++)
        big = p->w.v[i].n > p->w.v[big].n ? i : big;
    *r = p->w.v[big];
    p->w.v[big] = p->w.v[--p->w.n];
    p->busy++;
    pthread_mutex_unlock(&p->lock);
    return true;
}

/* Give the pool the ranges of `mine` larger than its grain; keep the rest. */
static void give_back(pool *p, work *mine)
{
    pthread_mutex_lock(&p->lock);
    for (size_t i = 0; i < mine->n;) {
        if (mine->v[i].n > p->grain && push(&p->w, mine->v[i]))
            mine->v[i] = mine->v[--mine->n];
        else
            i++;
    }
    p->busy--;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
}

static void *sort_from_pool(void *arg)
{
    pool *p = arg;
    work mine = {0};
    range r;

    while (take_largest(p, &r)) {
        if (r.n <= SMALL_RANGE)
            insertion_sort(p->v + r.lo, r.n, r.depth, p->k);
        else
            split(&mine, p->v, p->keys, r, p->k);
        give_back(p, &mine);
        sort_ranges(&mine, p->v, p->keys, p->k);
    }
    free(mine.v);
    return NULL;
}

/* Sort the ranges of w in two threads, this one and another. */
static void sort_in_two(work *w, stack_ref *v, uint32_t *keys, size_t n,
                        const stack_keys *k)
{
    pool p = {.w = *w, .grain = n / 64, .v = v, .keys = keys, .k = k};
    pthread_t th;
    bool threaded;

    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.changed, NULL);
    threaded = pthread_create(&th, NULL, sort_from_pool, &p) == 0;
    sort_from_pool(&p);
    if (threaded)
        pthread_join(th, NULL);
    pthread_cond_destroy(&p.changed);
    pthread_mutex_destroy(&p.lock);
    *w = p.w; /* emptied; its memory is the caller's to free */
}

void jfrp_stack_sort(stack_ref *v, size_t n, const stack_keys *k, unsigned threads)
{
    work w = {0};
    uint32_t *keys;
    bool two;

    if (n < 2)
        return;
    /* without memory for the keys, the heap sort orders all in place */
    if (!(keys = calloc(n, sizeof *keys))) {
        heap_sort(v, n, 0, k);
        return;
    }
    two = threads > 1 && n >= JFRP_STACK_SORT_THREADED_FROM;
    if (n < STACK_SORT_GROUP_FROM || !group_by_leaving(&w, v, keys, 0, n, 0, k, two))
        push_or_sort(&w, v, (range){0, n, 0, uneven_splits(n), false}, k);
    if (two)
        sort_in_two(&w, v, keys, n, k);
    else
        sort_ranges(&w, v, keys, k);
    free(w.v);
    free(keys);
}

size_t jfrp_stack_keys_shared(const stack_ref *a, const stack_ref *b, const stack_keys *k)
{
    size_t d = 0;

    /* equal frame ids have equal keys, but for a stack's last frame: the
     * frames are compared first, the keys only from where they differ */
    if (!k->reverse)
        while (d + 1 < a->depth && d + 1 < b->depth && a->frames[d] == b->frames[d])
            d++;
    while (d < a->depth && d < b->depth &&
           key_at(a, (uint32_t)d, k) == key_at(b, (uint32_t)d, k))
        d++;
    return d;
}

/* A frame's text as one token of a line: followed by ';' or, as the last
 * frame, by the line's end ('\0', as strcmp sees it). Texts hold neither
 * byte, so no token starts another, and lines compare as their sequences
 * of tokens do. */
typedef struct token {
    const frame_text *t;
    uint32_t id;
    unsigned char end;
} token;

static int compare_tokens(const void *pa, const void *pb)
{
    const token *a = pa, *b = pb;
    size_t common = a->t->len < b->t->len ? a->t->len : b->t->len;
    int c = memcmp(a->t->text, b->t->text, common);

    if (c)
        return c;
    if (a->t->len == b->t->len)
        return (int)a->end - (int)b->end;
    if (a->t->len < b->t->len)
        return (int)a->end - (unsigned char)b->t->text[common];
    return (unsigned char)a->t->text[common] - (int)b->end;
}

int jfrp_stack_keys_by_text(stack_keys *k, const frame_text *texts, size_t n)
{
    token *v;
    uint32_t rank = 0;

    memset(k, 0, sizeof *k);
    if (n > SIZE_MAX / 2 / sizeof *v) /* two tokens a stack */
        return JFR_ENOMEM;
    v = calloc(n ? 2 * n : 1, sizeof *v);
    k->inner = calloc(n ? n : 1, sizeof *k->inner);
    k->last = calloc(n ? n : 1, sizeof *k->last);
    if (!v || !k->inner || !k->last) {
        free(v);
        jfrp_stack_keys_free(k);
        return JFR_ENOMEM;
    }
    for (size_t id = 0; id < n; id++) {
        v[2 * id] = (token){&texts[id], (uint32_t)id, ';'};
        v[2 * id + 1] = (token){&texts[id], (uint32_t)id, '\0'};
    }
    qsort(v, 2 * n, sizeof *v, compare_tokens);
    for (size_t i = 0; i < 2 * n; i++) {
        if (i == 0 || compare_tokens(&v[i - 1], &v[i]) != 0)
            rank++;
        (v[i].end ? k->inner : k->last)[v[i].id] = rank;
    }
    free(v);
    return JFR_OK;
}

void jfrp_stack_keys_free(stack_keys *k)
{
    free(k->inner);
    free(k->last);
    k->inner = k->last = NULL;
}

/* jfr_stack_order: the caller's keys, shifted up by one (key 0 ends a
 * path), the same for a path's last id as for the others. */
static uint32_t *shifted_keys(const uint32_t *keys, size_t nkeys)
{
    uint32_t *k = calloc(nkeys ? nkeys : 1, sizeof *k);

    for (size_t i = 0; k && i < nkeys; i++)
        k[i] = keys[i] + 1;
    return k;
}

static bool paths_valid(const uint32_t *const *paths, const uint32_t *depths, size_t n,
                        size_t nkeys)
{
    for (size_t i = 0; i < n; i++) {
        if (depths[i] && !paths[i])
            return false;
        for (uint32_t d = 0; d < depths[i]; d++)
            if (paths[i][d] >= nkeys)
                return false;
    }
    return true;
}

typedef struct paths_part {
    const uint32_t *const *paths;
    const uint32_t *depths;
    size_t n, nkeys;
    bool ok;
} paths_part;

static void *check_paths_part(void *arg)
{
    paths_part *pp = arg;

    pp->ok = paths_valid(pp->paths, pp->depths, pp->n, pp->nkeys);
    return NULL;
}

/* paths_valid, the second half of the paths in a second thread when
 * `two_threads`: it reads every id once, cold from memory, before the sort
 * can start (60 ms of a flame page's 317 k stacks of 43 frames). */
static bool all_paths_valid(const uint32_t *const *paths, const uint32_t *depths,
                            size_t n, size_t nkeys, bool two_threads)
{
    size_t half = n / 2;
    paths_part second = {paths + half, depths + half, n - half, nkeys, false};
    pthread_t th;
    bool threaded =
        two_threads && pthread_create(&th, NULL, check_paths_part, &second) == 0;
    bool ok = paths_valid(paths, depths, threaded ? half : n, nkeys);

    if (!threaded)
        return ok;
    pthread_join(th, NULL);
    return ok && second.ok;
}

int jfr_stack_order(uint32_t *order, const uint32_t *const *paths, const uint32_t *depths,
                    size_t n, const uint32_t *keys, size_t nkeys, size_t fixed,
                    unsigned flags)
{
    stack_keys k = {NULL, NULL, (flags & JFR_STACK_ORDER_REVERSE) != 0, 0};
    bool two = (flags & JFR_STACK_ORDER_TWO_THREADS) && n >= JFR_STACK_ORDER_THREADS_FROM;
    stack_ref *v;

    if (!order || (n && (!paths || !depths)) || (nkeys && !keys) || n > UINT32_MAX ||
        fixed > UINT32_MAX || !all_paths_valid(paths, depths, n, nkeys, two))
        return JFR_EINVAL;
    for (size_t i = 0; i < nkeys; i++)
        if (keys[i] == UINT32_MAX)
            return JFR_EINVAL;
    k.fixed = (uint32_t)fixed;
    v = calloc(n ? n : 1, sizeof *v);
    k.inner = k.last = shifted_keys(keys, nkeys);
    if (!v || !k.inner) {
        free(v);
        free(k.inner);
        return JFR_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        v[i] = (stack_ref){paths[i], depths[i], (uint32_t)i};
    jfrp_stack_sort(v, n, &k, flags & JFR_STACK_ORDER_TWO_THREADS ? 2 : 1);
    for (size_t i = 0; i < n; i++)
        order[i] = v[i].id;
    free(v);
    free(k.inner);
    return JFR_OK;
}
