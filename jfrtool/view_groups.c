/* view_groups.c - the rows of a view and their order.
 *
 * Rows with equal values are ordered by their text (design.md §3), unless
 * --jdk-order asks for the JDK's own order: `jfr view` collects rows in a java.util.HashMap and sorts them with a
 * stable sort, so rows with equal values come out in the map's iteration
 * order. That order is a pure function of the keys' hash codes, the order
 * in which keys were first seen and the table's final capacity; it is
 * reproduced here (doc/views.md §4.2) so that ties print as the JDK prints
 * them. Within a bucket the map puts a new key in front and keeps the
 * relative order when it grows, so iteration is "buckets in order, later
 * keys first"; only the final capacity needs a simulation. */
#include <stdlib.h>
#include <string.h>

#include "views.h"

/* ---- groups by identity ----------------------------------------------------- */

size_t view_group_find(view_groups *g, const char *key, size_t key_len, bool *created)
{
    long found = strmap_get_n(&g->index, key, key_len);

    if (found >= 0) {
        *created = false;
        return (size_t)found;
    }
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 64;
        g->v = xrealloc(g->v, g->cap, sizeof *g->v);
    }
    g->v[g->n] = (view_group){0};
    g->v[g->n].key = xmalloc(key_len + 1);
    memcpy(g->v[g->n].key, key, key_len);
    g->v[g->n].key[key_len] = '\0';
    g->v[g->n].key_len = key_len;
    g->v[g->n].first_chunk = UINT64_MAX;
    strmap_put_n(&g->index, key, key_len, g->n);
    *created = true;
    return g->n++;
}

/* (c1, e1, s1) < (c2, e2, s2): dispatch order (chunk, end time, file order) */
static bool before(uint64_t c1, int64_t e1, uint64_t s1, uint64_t c2, int64_t e2,
                   uint64_t s2)
{
    if (c1 != c2)
        return c1 < c2;
    if (e1 != e2)
        return e1 < e2;
    return s1 < s2;
}

void view_group_add_many(view_groups *g, size_t gi, uint64_t count, uint64_t weight)
{
    g->v[gi].count += count;
    g->v[gi].weight += weight;
    g->total_count += count;
    g->total_weight += weight;
}

void view_group_add(view_groups *g, size_t gi, uint64_t weight, uint64_t chunk,
                    int64_t end_ticks, uint64_t seq)
{
    view_group *v = &g->v[gi];

    v->count++;
    v->weight += weight;
    g->total_count++;
    g->total_weight += weight;
    if (v->first_chunk == UINT64_MAX ||
        before(chunk, end_ticks, seq, v->first_chunk, v->first_end, v->first_seq)) {
        v->first_chunk = chunk;
        v->first_end = end_ticks;
        v->first_seq = seq;
    }
    if (!g->any ||
        before(g->last_chunk, g->last_end, g->last_seq, chunk, end_ticks, seq)) {
        g->any = true;
        g->last_chunk = chunk;
        g->last_end = end_ticks;
        g->last_seq = seq;
        g->last_group = gi;
    }
}

void view_groups_free(view_groups *g)
{
    for (size_t i = 0; i < g->n; i++) {
        free(g->v[i].key);
        free(g->v[i].text);
        free(g->v[i].compact);
    }
    free(g->v);
    strmap_free(&g->index);
    *g = (view_groups){0};
}

/* ---- the JDK's order -------------------------------------------------------- */

/* java.util.HashMap.hash(): the high half folded into the low half. */
static uint32_t spread(int32_t h)
{
    uint32_t u = (uint32_t)h;
    return u ^ (u >> 16);
}

typedef struct order_item {
    size_t group;
    size_t inserted; /* position in first-seen order */
    size_t bucket;   /* in the final table */
    uint64_t value;
} order_item;

static const view_groups *sort_groups; /* for the qsort comparators */

static int by_first_seen(const void *a, const void *b)
{
    const view_group *x = &sort_groups->v[*(const size_t *)a];
    const view_group *y = &sort_groups->v[*(const size_t *)b];

    if (before(x->first_chunk, x->first_end, x->first_seq, y->first_chunk, y->first_end,
               y->first_seq))
        return -1;
    return before(y->first_chunk, y->first_end, y->first_seq, x->first_chunk,
                  x->first_end, x->first_seq);
}

/* Map iteration order: buckets ascending, later keys first within one. */
static int by_iteration(const void *a, const void *b)
{
    const order_item *x = a, *y = b;

    if (x->bucket != y->bucket)
        return x->bucket < y->bucket ? -1 : 1;
    return x->inserted > y->inserted ? -1 : x->inserted < y->inserted;
}

/* Value descending; the stable sort keeps iteration order among equals. */
static int by_value(const void *a, const void *b)
{
    const order_item *x = a, *y = b;

    if (x->value != y->value)
        return x->value > y->value ? -1 : 1;
    return x->bucket < y->bucket ? -1
                                 : x->bucket > y->bucket; /* bucket holds the rank here */
}

/* The capacity of the JDK's table after inserting the keys in `seq`
 * (first-seen order), one computeIfAbsent per event. */
static size_t final_capacity(const view_groups *g, const size_t *seq, size_t n)
{
    size_t cap = 16, threshold = 12, size = 0;
    size_t *bins = xcalloc(cap, sizeof *bins);

    for (size_t i = 0; i < n; i++) {
        bool grow_now = size > threshold; /* checked at the start of each call */
        size_t b;

        for (int pass = 0; pass < 2; pass++) {
            if (grow_now) {
                cap *= 2;
                threshold *= 2;
                free(bins);
                bins = xcalloc(cap, sizeof *bins);
                for (size_t k = 0; k < size; k++)
                    bins[spread(g->v[seq[k]].hash) & (cap - 1)]++;
            }
            if (pass == 1)
                break;
            b = spread(g->v[seq[i]].hash) & (cap - 1);
            /* a bin that already held 7 keys is turned into a tree, which
             * first grows a small table instead */
            grow_now = bins[b] >= 7 && cap < 64;
            bins[b]++;
            size++;
        }
    }
    /* a call after the last new key grows the table once more */
    if (n > 0 && size > threshold) {
        const view_group *lastkey = &g->v[seq[n - 1]];
        bool last_event_was_insertion = lastkey->first_chunk == g->last_chunk &&
                                        lastkey->first_end == g->last_end &&
                                        lastkey->first_seq == g->last_seq;
        if (!last_event_was_insertion)
            cap *= 2;
    }
    free(bins);
    return cap;
}

/* Value descending, then text, then identity (byte order). */
static bool order_by_weight;

static int by_value_then_text(const void *a, const void *b)
{
    const view_group *x = &sort_groups->v[*(const size_t *)a];
    const view_group *y = &sort_groups->v[*(const size_t *)b];
    uint64_t vx = order_by_weight ? x->weight : x->count;
    uint64_t vy = order_by_weight ? y->weight : y->count;
    int c;

    if (vx != vy)
        return vx > vy ? -1 : 1;
    c = strcmp(x->text ? x->text : "", y->text ? y->text : "");
    if (c)
        return c;
    c = memcmp(x->key, y->key, x->key_len < y->key_len ? x->key_len : y->key_len);
    return c ? c : x->key_len < y->key_len ? -1 : x->key_len > y->key_len;
}

size_t *view_groups_order(const view_groups *g, bool by_weight, bool jdk_order)
{
    size_t n = g->n, cap;
    size_t *seq = xmalloc((n ? n : 1) * sizeof *seq);
    order_item *items;

    for (size_t i = 0; i < n; i++)
        seq[i] = i;
    sort_groups = g;
    if (!jdk_order) {
        order_by_weight = by_weight;
        qsort(seq, n, sizeof *seq, by_value_then_text);
        return seq;
    }
    items = xmalloc((n ? n : 1) * sizeof *items);
    qsort(seq, n, sizeof *seq, by_first_seen);
    cap = final_capacity(g, seq, n);
    for (size_t i = 0; i < n; i++) {
        const view_group *v = &g->v[seq[i]];
        items[i] = (order_item){seq[i], i, spread(v->hash) & (cap - 1),
                                by_weight ? v->weight : v->count};
    }
    qsort(items, n, sizeof *items, by_iteration);
    for (size_t i = 0; i < n; i++)
        items[i].bucket = i; /* rank in iteration order, the tie-breaker */
    qsort(items, n, sizeof *items, by_value);
    for (size_t i = 0; i < n; i++)
        seq[i] = items[i].group;
    free(items);
    return seq;
}

/* ---- chunk-local key map ------------------------------------------------------ */

static size_t key_slot(uint64_t key, size_t cap)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdu;
    key ^= key >> 33;
    return (size_t)key & (cap - 1);
}

size_t view_keymap_get(const view_keymap *m, uint64_t key)
{
    if (!m->cap)
        return SIZE_MAX;
    for (size_t s = key_slot(key, m->cap);; s = (s + 1) & (m->cap - 1)) {
        if (m->vals[s] == SIZE_MAX)
            return SIZE_MAX;
        if (m->keys[s] == key)
            return m->vals[s];
    }
}

void view_keymap_put(view_keymap *m, uint64_t key, size_t val)
{
    size_t s;

    if (2 * (m->n + 1) > m->cap) {
        view_keymap old = *m;
        m->cap = m->cap ? m->cap * 2 : 256;
        m->keys = xmalloc(m->cap * sizeof *m->keys);
        m->vals = xmalloc(m->cap * sizeof *m->vals);
        for (size_t i = 0; i < m->cap; i++)
            m->vals[i] = SIZE_MAX;
        m->n = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.vals[i] != SIZE_MAX)
                view_keymap_put(m, old.keys[i], old.vals[i]);
        free(old.keys);
        free(old.vals);
    }
    for (s = key_slot(key, m->cap); m->vals[s] != SIZE_MAX; s = (s + 1) & (m->cap - 1))
        if (m->keys[s] == key) {
            m->vals[s] = val;
            return;
        }
    m->keys[s] = key;
    m->vals[s] = val;
    m->n++;
}

void view_keymap_clear(view_keymap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        m->vals[i] = SIZE_MAX;
    m->n = 0;
}

void view_keymap_free(view_keymap *m)
{
    free(m->keys);
    free(m->vals);
    *m = (view_keymap){0};
}
