/* timeline.c - the thread-state timeline (jfr/timeline.h): lanes, kept
 * intervals and totals, and the order jfr_timeline_finish puts them in.
 * Reading events is timeline_chunk.c's job. */
#include <stdlib.h>
#include <string.h>

#include "timeline_private.h"

static const char *const state_names[JFR_STATE_COUNT] = {
    "running", "native",    "blocked", "waiting", "parked",   "sleeping",
    "file-io", "socket-io", "started", "ended",   "gc-pause", "safepoint"};

const char *jfr_thread_state_name(jfr_thread_state state)
{
    return (unsigned)state < JFR_STATE_COUNT ? state_names[state] : "";
}

int jfr_timeline_new(jfr_timeline **out, const jfr_timeline_options *opts, jfr_error *err)
{
    jfr_timeline *tl;
    jfrp_alloc al;

    if (!out)
        return JFR_EINVAL;
    *out = NULL;
    if (opts && (opts->version < 1 || opts->version > JFR_TIMELINE_OPTIONS_VERSION))
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "timeline: unknown options version");
    jfrp_alloc_init(&al, opts ? opts->allocator : NULL);
    if (!(tl = jfrp_calloc(&al, 1, sizeof *tl)))
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    tl->al = al;
    tl->max = opts ? opts->max_intervals : 0;
    if (opts && opts->version >= 2 && opts->sample_bin_nanos > 0) {
        tl->bin_nanos = opts->sample_bin_nanos;
        tl->bin_origin = opts->sample_bin_origin_nanos;
    }
    jfrp_intern_init(&tl->strings, &tl->al);
    jfrp_intern_init(&tl->thread_keys, &tl->al);
    *out = tl;
    return JFR_OK;
}

void jfr_timeline_free(jfr_timeline *tl)
{
    jfrp_alloc al;

    if (!tl)
        return;
    al = tl->al;
    jfrp_intern_free(&tl->strings);
    jfrp_intern_free(&tl->thread_keys);
    for (size_t i = 0; i < tl->nthreads; i++)
        for (int s = 0; s < JFRP_TL_SAMPLE_STATES; s++)
            jfrp_map_free(&tl->threads[i].bin_counts[s], &al);
    jfrp_free(&al, tl->bins);
    jfrp_free(&al, tl->threads);
    jfrp_free(&al, tl->items);
    jfrp_free(&al, tl->buf);
    jfrp_free(&al, tl);
}

/* ---- storage (timeline_private.h) ------------------------------------------------ */

int jfrp_timeline_string(jfr_timeline *tl, const char *s, size_t len, const char **out)
{
    uint32_t id;
    int rc;

    if ((rc = jfrp_intern_put(&tl->strings, s ? s : "", s ? len : 0, &id, NULL)) < 0)
        return rc;
    *out = jfrp_intern_key(&tl->strings, id, NULL);
    return 0;
}

static int new_lane(jfr_timeline *tl, const jfrp_tl_thread_desc *d)
{
    jfrp_tl_thread *t;
    int rc;

    if ((rc = jfrp_grow_array(&tl->al, (void **)&tl->threads, &tl->threads_room,
                              tl->nthreads + 1, sizeof *tl->threads)) < 0)
        return rc;
    t = &tl->threads[tl->nthreads];
    memset(t, 0, sizeof *t);
    t->pub.tid = d->tid;
    t->pub.os_thread_id = d->os_thread_id;
    t->pub.is_virtual = d->is_virtual;
    if ((rc = jfrp_timeline_string(tl, d->name.ptr, d->name.len, &t->pub.name)) < 0 ||
        (rc = jfrp_timeline_string(tl, d->group.ptr, d->group.len, &t->pub.group)) < 0)
        return rc;
    tl->nthreads++;
    return 0;
}

/* A lane is a (tid, virtual, name) triple: the profiles' "[thread NAME
 * tid=N]" plus the flag, so that a platform and a virtual thread of one id
 * in two JVMs stay apart. */
int jfrp_timeline_lane(jfr_timeline *tl, const jfrp_tl_thread_desc *d, uint32_t *lane)
{
    size_t need = 9 + d->name.len;
    int added = 0, rc;
    uint32_t id;

    if ((rc = jfrp_grow_array(&tl->al, (void **)&tl->buf, &tl->buf_room, need, 1)) < 0)
        return rc;
    memcpy(tl->buf, &d->tid, 8);
    tl->buf[8] = d->is_virtual ? 1 : 0;
    if (d->name.len)
        memcpy(tl->buf + 9, d->name.ptr, d->name.len);
    if ((rc = jfrp_intern_put(&tl->thread_keys, tl->buf, need, &id, &added)) < 0)
        return rc;
    if (added && (rc = new_lane(tl, d)) < 0)
        return rc;
    *lane = id;
    return 0;
}

static void count(jfr_timeline *tl, uint32_t lane, jfr_thread_state state, int64_t nanos,
                  uint64_t events)
{
    uint64_t *c =
        lane == JFR_TIMELINE_ALL_THREADS ? tl->all_count : tl->threads[lane].count;
    int64_t *n =
        lane == JFR_TIMELINE_ALL_THREADS ? tl->all_nanos : tl->threads[lane].nanos;

    c[state] += events;
    n[state] = nanos > 0 && n[state] > INT64_MAX - nanos ? INT64_MAX : n[state] + nanos;
    if (lane != JFR_TIMELINE_ALL_THREADS)
        tl->threads[lane].pub.events += events;
}

static bool is_sample_state(jfr_thread_state state)
{
    return state == JFR_STATE_RUNNING || state == JFR_STATE_NATIVE;
}

/* A sample counted in its lane's bin (sample_bin_nanos). */
static int add_to_bin(jfr_timeline *tl, const jfr_timeline_interval *iv)
{
    jfrp_map *m = &tl->threads[iv->thread].bin_counts[iv->state];
    uint64_t bin = 0;

    /* the difference of two int64 fits a uint64 when it is not negative */
    if (iv->start_nanos > tl->bin_origin)
        bin = ((uint64_t)iv->start_nanos - (uint64_t)tl->bin_origin) /
              (uint64_t)tl->bin_nanos;
    return jfrp_map_put(m, &tl->al, bin, jfrp_map_get(m, bin) + 1);
}

int jfrp_timeline_add(jfr_timeline *tl, const jfr_timeline_interval *iv, size_t *kept)
{
    jfrp_tl_item *it;
    int rc;

    *kept = 0;
    count(tl, iv->thread, iv->state, iv->duration_nanos, 1);
    if (tl->bin_nanos && is_sample_state(iv->state) &&
        iv->thread != JFR_TIMELINE_ALL_THREADS)
        return add_to_bin(tl, iv);
    if (tl->max && tl->nitems >= tl->max) {
        tl->dropped++;
        return 0;
    }
    if ((rc = jfrp_grow_array(&tl->al, (void **)&tl->items, &tl->items_room,
                              tl->nitems + 1, sizeof *tl->items)) < 0)
        return rc;
    it = &tl->items[tl->nitems++];
    it->pub = *iv;
    it->seq = tl->seq++;
    *kept = tl->nitems;
    return 0;
}

void jfrp_timeline_extend(jfr_timeline *tl, size_t kept, int64_t end_nanos)
{
    jfr_timeline_interval *iv = &tl->items[kept - 1].pub;
    int64_t span = jfr_nanos_between(iv->start_nanos, end_nanos), longer;

    if (end_nanos <= iv->start_nanos || span <= iv->duration_nanos)
        return;
    longer = span - iv->duration_nanos;
    iv->duration_nanos += longer;
    count(tl, iv->thread, iv->state, longer, 0);
}

/* ---- finishing: lane order, then intervals by lane and time ------------------------- */

static int cmp_lane(const void *a, const void *b)
{
    const jfr_timeline_thread *x = &((const jfrp_tl_thread *)a)->pub;
    const jfr_timeline_thread *y = &((const jfrp_tl_thread *)b)->pub;
    int c;

    if (x->is_virtual != y->is_virtual)
        return x->is_virtual ? 1 : -1;
    if (x->is_virtual && (c = strcmp(x->group, y->group)) != 0)
        return c;
    if (!x->is_virtual && x->events != y->events)
        return x->events > y->events ? -1 : 1;
    if (!x->is_virtual && (c = strcmp(x->name, y->name)) != 0)
        return c;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int cmp_item(const void *a, const void *b)
{
    const jfrp_tl_item *x = a, *y = b;

    if (x->pub.thread != y->pub.thread)
        return x->pub.thread < y->pub.thread ? -1 : 1;
    if (x->pub.start_nanos != y->pub.start_nanos)
        return x->pub.start_nanos < y->pub.start_nanos ? -1 : 1;
    if (x->pub.state != y->pub.state)
        return x->pub.state < y->pub.state ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_bin(const void *a, const void *b)
{
    uint64_t x = ((const jfr_timeline_bin *)a)->bin,
             y = ((const jfr_timeline_bin *)b)->bin;

    return x < y ? -1 : x > y;
}

/* Every lane's bin counts into tl->bins, each lane's by bin number, the
 * lane keeping where they are; the counting maps are freed. Only the
 * first allocation can fail, before anything changed. */
static int collect_bins(jfr_timeline *tl)
{
    size_t total = 0;

    if (tl->bins) /* collected by a finish that failed later */
        return JFR_OK;
    for (size_t i = 0; i < tl->nthreads; i++)
        for (int s = 0; s < JFRP_TL_SAMPLE_STATES; s++)
            total += tl->threads[i].bin_counts[s].count;
    if (total && !(tl->bins = jfrp_calloc(&tl->al, total, sizeof *tl->bins)))
        return JFR_ENOMEM;
    for (size_t i = 0; i < tl->nthreads; i++) {
        jfrp_tl_thread *t = &tl->threads[i];
        for (int s = 0; s < JFRP_TL_SAMPLE_STATES; s++) {
            jfrp_map *m = &t->bin_counts[s];
            t->first_bin[s] = tl->nbins;
            for (size_t k = 0; k < m->cap; k++)
                if (m->vals[k])
                    tl->bins[tl->nbins++] = (jfr_timeline_bin){m->keys[k], m->vals[k]};
            t->nbins[s] = tl->nbins - t->first_bin[s];
            if (t->nbins[s] > 1)
                qsort(tl->bins + t->first_bin[s], t->nbins[s], sizeof *tl->bins, cmp_bin);
            jfrp_map_free(m, &tl->al);
        }
    }
    return JFR_OK;
}

int jfr_timeline_finish(jfr_timeline *tl)
{
    uint32_t *lane_of;

    if (!tl || tl->finished)
        return JFR_EINVAL;
    /* first what can fail; a lane's bins are found through the lane */
    if (collect_bins(tl) < 0)
        return JFR_ENOMEM;
    /* each lane's index before the sort rides in first_interval through
     * it; the intervals are then renumbered */
    if (!(lane_of =
              jfrp_calloc(&tl->al, tl->nthreads ? tl->nthreads : 1, sizeof *lane_of)))
        return JFR_ENOMEM;
    for (size_t i = 0; i < tl->nthreads; i++)
        tl->threads[i].pub.first_interval = i; /* the old index, for a moment */
    if (tl->nthreads)
        qsort(tl->threads, tl->nthreads, sizeof *tl->threads, cmp_lane);
    for (size_t i = 0; i < tl->nthreads; i++) {
        lane_of[tl->threads[i].pub.first_interval] = (uint32_t)i;
        tl->threads[i].pub.first_interval = 0;
    }
    for (size_t i = 0; i < tl->nitems; i++)
        if (tl->items[i].pub.thread != JFR_TIMELINE_ALL_THREADS)
            tl->items[i].pub.thread = lane_of[tl->items[i].pub.thread];
    jfrp_free(&tl->al, lane_of);
    if (tl->nitems)
        qsort(tl->items, tl->nitems, sizeof *tl->items, cmp_item);
    for (size_t i = tl->nitems; i-- > 0;) {
        uint32_t t = tl->items[i].pub.thread;
        if (t == JFR_TIMELINE_ALL_THREADS)
            continue;
        tl->threads[t].pub.first_interval = i;
        tl->threads[t].pub.interval_count++;
    }
    tl->finished = true;
    return JFR_OK;
}

/* ---- getters ------------------------------------------------------------------------- */

size_t jfr_timeline_thread_count(const jfr_timeline *tl)
{
    return tl && tl->finished ? tl->nthreads : 0;
}

const jfr_timeline_thread *jfr_timeline_thread_at(const jfr_timeline *tl, size_t i)
{
    return tl && tl->finished && i < tl->nthreads ? &tl->threads[i].pub : NULL;
}

int jfr_timeline_thread_total(uint64_t *count_out, int64_t *nanos, const jfr_timeline *tl,
                              uint32_t thread, jfr_thread_state state)
{
    bool all = thread == JFR_TIMELINE_ALL_THREADS;

    if (!tl || !tl->finished || (unsigned)state >= JFR_STATE_COUNT ||
        (!all && thread >= tl->nthreads))
        return JFR_EINVAL;
    if (count_out)
        *count_out = all ? tl->all_count[state] : tl->threads[thread].count[state];
    if (nanos)
        *nanos = all ? tl->all_nanos[state] : tl->threads[thread].nanos[state];
    return JFR_OK;
}

size_t jfr_timeline_interval_count(const jfr_timeline *tl)
{
    return tl && tl->finished ? tl->nitems : 0;
}

const jfr_timeline_interval *jfr_timeline_interval_at(const jfr_timeline *tl, size_t i)
{
    return tl && tl->finished && i < tl->nitems ? &tl->items[i].pub : NULL;
}

int jfr_timeline_sample_bins(const jfr_timeline_bin **bins, size_t *count,
                             const jfr_timeline *tl, uint32_t thread,
                             jfr_thread_state state)
{
    const jfrp_tl_thread *t;

    if (!bins || !count || !tl || !tl->finished || thread >= tl->nthreads ||
        !is_sample_state(state))
        return JFR_EINVAL;
    t = &tl->threads[thread];
    *count = t->nbins[state];
    *bins = *count ? tl->bins + t->first_bin[state] : NULL;
    return JFR_OK;
}

uint64_t jfr_timeline_dropped(const jfr_timeline *tl)
{
    return tl ? tl->dropped : 0;
}
