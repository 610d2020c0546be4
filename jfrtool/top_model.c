/* top_model.c - top's data (see top_model.h): per second of event time and
 * per kind, each method's self and total weight, kept for a minute. A
 * flush's samples are read through a jfr_profile per kind with one-second
 * time buckets: each stack starts with its "[time N]" root, N the epoch
 * second, so history flushed long before (a chunk's start) lands in its
 * own second. */
#include <stdlib.h>
#include <string.h>

#include "top_model.h"
#include "util.h"

static const char *const kind_names[TOP_KINDS] = {"cpu", "exec", "alloc", "lock", "io"};
static const char *const kind_labels[TOP_KINDS] = {"CPU-time samples",
                                                   "execution samples", "allocated bytes",
                                                   "lock wait time", "I/O time"};

/* One method in one second of one kind. */
typedef struct top_cell {
    uint32_t id;
    uint64_t self, total;
} top_cell;

/* A second of one kind: its cells, found by id through a small open hash. */
typedef struct top_slice {
    top_cell *cells;
    size_t n, room;
    uint32_t *slots; /* cell index + 1; 0 free */
    size_t nslots;
    uint64_t weight, samples;
} top_slice;

typedef struct top_second {
    int64_t sec; /* INT64_MIN: unused */
    top_slice kinds[TOP_KINDS];
    uint64_t lost, gc_pauses;
    int64_t gc_pause_nanos, gc_longest_nanos;
} top_second;

struct top_model {
    strmap ids; /* method name -> id */
    char **names;
    size_t nnames, names_room;
    top_second seconds[TOP_HISTORY + 1]; /* by sec % (TOP_HISTORY + 1) */
    double jvm_user, jvm_system, machine;
    int64_t cpu_load_nanos;
    /* scratch of the queries, by id */
    uint64_t *self, *total;
    uint32_t *stamp, stamp_now;
    size_t scratch_room;
    uint32_t *touched;
    size_t ntouched, touched_room;
    top_row *rows;
    size_t rows_room;
};

const char *top_kind_name(top_kind k)
{
    return kind_names[k];
}

const char *top_kind_label(top_kind k)
{
    return kind_labels[k];
}

top_model *top_model_new(void)
{
    top_model *m = xcalloc(1, sizeof *m);

    for (size_t i = 0; i <= TOP_HISTORY; i++)
        m->seconds[i].sec = INT64_MIN;
    return m;
}

static void slice_clear(top_slice *s)
{
    free(s->cells);
    free(s->slots);
    memset(s, 0, sizeof *s);
}

static void second_clear(top_second *s)
{
    for (int k = 0; k < TOP_KINDS; k++)
        slice_clear(&s->kinds[k]);
    memset(s, 0, sizeof *s);
    s->sec = INT64_MIN;
}

void top_model_free(top_model *m)
{
    if (!m)
        return;
    for (size_t i = 0; i <= TOP_HISTORY; i++)
        second_clear(&m->seconds[i]);
    for (size_t i = 0; i < m->nnames; i++)
        free(m->names[i]);
    free(m->names);
    strmap_free(&m->ids);
    free(m->self);
    free(m->total);
    free(m->stamp);
    free(m->touched);
    free(m->rows);
    free(m);
}

static uint32_t name_id(top_model *m, const char *name)
{
    long id = strmap_get(&m->ids, name);

    if (id >= 0)
        return (uint32_t)id;
    if (m->nnames == m->names_room) {
        m->names_room = m->names_room ? m->names_room * 2 : 256;
        m->names = xrealloc(m->names, m->names_room, sizeof *m->names);
    }
    m->names[m->nnames] = xstrdup(name);
    strmap_put(&m->ids, name, m->nnames);
    return (uint32_t)m->nnames++;
}

/* The second `sec`, made (or taken over from a second a minute older);
 * NULL for a second outside the minute before `now_sec` (the flush's
 * time): a chunk's older history, or a time in the future. */
static top_second *second_of(top_model *m, int64_t sec, int64_t now_sec)
{
    top_second *s = &m->seconds[(uint64_t)sec % (TOP_HISTORY + 1)];

    if (sec < now_sec - TOP_HISTORY || sec > now_sec + 1)
        return NULL;
    if (s->sec != sec) {
        if (s->sec > sec)
            return NULL; /* its slot holds a newer second */
        second_clear(s);
        s->sec = sec;
    }
    return s;
}

static top_cell *cell_of(top_slice *s, uint32_t id)
{
    size_t i;

    if (2 * (s->n + 1) > s->nslots) {
        size_t nslots = s->nslots ? s->nslots * 2 : 64;

        free(s->slots);
        s->slots = xcalloc(nslots, sizeof *s->slots);
        s->nslots = nslots;
        for (size_t c = 0; c < s->n; c++) {
            for (i = s->cells[c].id * 2654435761u & (nslots - 1); s->slots[i];
                 i = (i + 1) & (nslots - 1))
                ;
            s->slots[i] = (uint32_t)c + 1;
        }
    }
    for (i = id * 2654435761u & (s->nslots - 1); s->slots[i];
         i = (i + 1) & (s->nslots - 1))
        if (s->cells[s->slots[i] - 1].id == id)
            return &s->cells[s->slots[i] - 1];
    if (s->n == s->room) {
        s->room = s->room ? s->room * 2 : 32;
        s->cells = xrealloc(s->cells, s->room, sizeof *s->cells);
    }
    s->cells[s->n] = (top_cell){id, 0, 0};
    s->slots[i] = (uint32_t)++s->n;
    return &s->cells[s->n - 1];
}

static void scratch_room(top_model *m)
{
    if (m->nnames <= m->scratch_room)
        return;
    m->scratch_room = m->nnames * 2;
    m->self = xrealloc(m->self, m->scratch_room, sizeof *m->self);
    m->total = xrealloc(m->total, m->scratch_room, sizeof *m->total);
    m->stamp = xrealloc(m->stamp, m->scratch_room, sizeof *m->stamp);
    memset(m->stamp, 0, m->scratch_room * sizeof *m->stamp);
    m->stamp_now = 0;
}

/* A new stamp: ids with another stamp are not counted yet. */
static uint32_t next_stamp(top_model *m)
{
    if (++m->stamp_now == 0) {
        memset(m->stamp, 0, m->scratch_room * sizeof *m->stamp);
        m->stamp_now = 1;
    }
    return m->stamp_now;
}

/* One stack of a flush's profile: its leaf gets the weight as self, each
 * method in it once as total, in the second of its time root. */
static void add_stack(top_model *m, top_kind k, const jfr_profile *p, size_t i,
                      int64_t now_sec)
{
    const uint32_t *frames;
    size_t depth, first = 0;
    uint64_t w;
    int64_t sec = INT64_MIN;
    top_second *second;
    top_slice *s;
    uint32_t ids[256], stamp;

    if (jfr_profile_stack(&w, &frames, &depth, p, i) != JFR_OK || !depth || !w)
        return;
    if (jfr_profile_frame_at(p, frames[0])->time_bucket != INT64_MIN)
        sec = jfr_profile_frame_at(p, frames[first++])->time_bucket;
    if (sec == INT64_MIN || first == depth || !(second = second_of(m, sec, now_sec)))
        return; /* no time, or not in the last minute */
    if (depth - first > sizeof ids / sizeof ids[0])
        first = depth - sizeof ids / sizeof ids[0]; /* the frames near the leaf */
    for (size_t d = first; d < depth; d++)
        ids[d - first] = name_id(m, jfr_profile_frame_at(p, frames[d])->name);
    s = &second->kinds[k];
    s->weight += w;
    s->samples += jfr_profile_stack_samples(p, i);
    scratch_room(m);
    stamp = next_stamp(m);
    cell_of(s, ids[depth - first - 1])->self += w;
    for (size_t d = 0; d < depth - first; d++) {
        if (m->stamp[ids[d]] == stamp)
            continue; /* recursion: a method counts once per stack */
        m->stamp[ids[d]] = stamp;
        cell_of(s, ids[d])->total += w;
    }
}

static bool add_kind(top_model *m, top_kind k, const jfr_flush *fl, int64_t now_sec)
{
    jfr_profile_options po = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile *p;

    po.kind = kind_names[k];
    po.bucket_nanos = 1000000000;
    if (jfr_profile_new(&p, &po, NULL) < 0)
        return false;
    if (jfr_profile_add_chunk(p, fl->chunk) < 0) {
        report_error(fl->path, fl->chunk_error);
        jfr_profile_free(p);
        return false;
    }
    for (size_t i = 0; i < jfr_profile_stack_count(p); i++)
        add_stack(m, k, p, i, now_sec);
    jfr_profile_free(p);
    return true;
}

/* The header's events: CPU load, GC pauses, lost CPU-time samples. */
static void add_events(top_model *m, const jfr_flush *fl, int64_t now_sec)
{
    static const char *const types[] = {"jdk.CPULoad", "jdk.GarbageCollection",
                                        "jdk.CPUTimeSamplesLost"};
    jfr_event_iter *it;
    const jfr_event *ev;

    if (jfr_event_iter_new(&it, fl->chunk, types, 3, 0) < 0)
        return;
    while (jfr_event_next(&ev, it) == JFR_OK) {
        const char *name = jfr_type_name(jfr_event_type(ev));
        int64_t t = jfr_chunk_ticks_to_epoch_nanos(fl->chunk, jfr_event_start_ticks(ev));
        top_second *s = second_of(m, t / 1000000000, now_sec);

        if (strcmp(name, "jdk.CPULoad") == 0 && t >= m->cpu_load_nanos) {
            m->cpu_load_nanos = t;
            m->jvm_user = jfr_event_number(ev, "jvmUser");
            m->jvm_system = jfr_event_number(ev, "jvmSystem");
            m->machine = jfr_event_number(ev, "machineTotal");
        } else if (!s) {
            continue; /* not in the last minute */
        } else if (strcmp(name, "jdk.GarbageCollection") == 0) {
            double pause = jfr_event_timespan_nanos(ev, "sumOfPauses");
            double longest = jfr_event_timespan_nanos(ev, "longestPause");

            s->gc_pauses++;
            s->gc_pause_nanos += pause == pause ? (int64_t)pause : 0;
            if (longest == longest && (int64_t)longest > s->gc_longest_nanos)
                s->gc_longest_nanos = (int64_t)longest;
        } else if (strcmp(name, "jdk.CPUTimeSamplesLost") == 0) {
            double lost = jfr_event_number(ev, "lostSamples");
            s->lost += lost == lost && lost > 0 ? (uint64_t)lost : 0;
        }
    }
    jfr_event_iter_free(it);
}

bool top_model_add(top_model *m, const jfr_flush *fl)
{
    int64_t now_sec = fl->end_nanos / 1000000000;
    bool ok = true;

    for (int k = 0; k < TOP_KINDS; k++)
        ok = add_kind(m, (top_kind)k, fl, now_sec) && ok;
    add_events(m, fl, now_sec);
    return ok;
}

void top_model_expire(top_model *m, int64_t now_sec)
{
    for (size_t i = 0; i <= TOP_HISTORY; i++)
        if (m->seconds[i].sec != INT64_MIN && m->seconds[i].sec < now_sec - TOP_HISTORY)
            second_clear(&m->seconds[i]);
}

static const top_second *at(const top_model *m, int64_t sec)
{
    const top_second *s = &m->seconds[(uint64_t)sec % (TOP_HISTORY + 1)];

    return s->sec == sec ? s : NULL;
}

top_kind top_model_effective(const top_model *m, top_kind k, int64_t now_sec)
{
    if (k != TOP_CPU)
        return k;
    for (int64_t sec = now_sec - TOP_HISTORY; sec <= now_sec; sec++)
        if (at(m, sec) && at(m, sec)->kinds[TOP_CPU].samples)
            return TOP_CPU;
    return TOP_EXEC;
}

/* qsort has no context argument: the query being sorted (one at a time) */
static int by_self;
static const top_model *sorting;

static int compare_ids(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    uint64_t wx = by_self ? sorting->self[x] : sorting->total[x];
    uint64_t wy = by_self ? sorting->self[y] : sorting->total[y];

    if (wx != wy)
        return wx > wy ? -1 : 1;
    return strcmp(sorting->names[x], sorting->names[y]);
}

/* The methods' weights over the window into the scratch arrays. */
static void sum_window(top_model *m, top_kind k, int64_t now_sec, int window,
                       top_header *hdr)
{
    uint32_t stamp;

    scratch_room(m);
    stamp = next_stamp(m);
    m->ntouched = 0;
    for (int64_t sec = now_sec - window; sec < now_sec; sec++) {
        const top_second *s = at(m, sec);

        if (!s)
            continue;
        hdr->lost += s->lost;
        hdr->gc_pauses += s->gc_pauses;
        hdr->gc_pause_nanos += s->gc_pause_nanos;
        if (s->gc_longest_nanos > hdr->gc_longest_nanos)
            hdr->gc_longest_nanos = s->gc_longest_nanos;
        hdr->samples += s->kinds[k].samples;
        hdr->weight += s->kinds[k].weight;
        for (size_t c = 0; c < s->kinds[k].n; c++) {
            const top_cell *cell = &s->kinds[k].cells[c];

            if (m->stamp[cell->id] != stamp) {
                m->stamp[cell->id] = stamp;
                m->self[cell->id] = m->total[cell->id] = 0;
                if (m->ntouched == m->touched_room) {
                    m->touched_room = m->touched_room ? m->touched_room * 2 : 256;
                    m->touched =
                        xrealloc(m->touched, m->touched_room, sizeof *m->touched);
                }
                m->touched[m->ntouched++] = cell->id;
            }
            m->self[cell->id] += cell->self;
            m->total[cell->id] += cell->total;
        }
    }
}

static void sparkline(const top_model *m, top_kind k, uint32_t id, int64_t now_sec,
                      double *out)
{
    for (int i = 0; i < TOP_HISTORY; i++) {
        const top_second *s = at(m, now_sec - TOP_HISTORY + i);
        const top_slice *sl = s ? &s->kinds[k] : NULL;

        out[i] = -1;
        if (!sl || !sl->weight)
            continue;
        out[i] = 0;
        for (size_t c = 0; c < sl->n; c++)
            if (sl->cells[c].id == id) {
                out[i] = (double)sl->cells[c].total / (double)sl->weight;
                break;
            }
    }
}

const top_row *top_model_rows(top_model *m, top_kind k, int64_t now_sec, int window,
                              bool by_total, size_t max, size_t *n, top_header *hdr)
{
    memset(hdr, 0, sizeof *hdr);
    hdr->has_cpu_load = m->cpu_load_nanos != 0;
    hdr->jvm_user = m->jvm_user;
    hdr->jvm_system = m->jvm_system;
    hdr->machine = m->machine;
    sum_window(m, k, now_sec, window, hdr);
    by_self = !by_total;
    sorting = m;
    if (m->ntouched > 1)
        qsort(m->touched, m->ntouched, sizeof *m->touched, compare_ids);
    *n = m->ntouched < max ? m->ntouched : max;
    if (*n > m->rows_room) {
        m->rows_room = *n;
        m->rows = xrealloc(m->rows, m->rows_room, sizeof *m->rows);
    }
    for (size_t i = 0; i < *n; i++) {
        uint32_t id = m->touched[i];

        m->rows[i].name = m->names[id];
        m->rows[i].self = m->self[id];
        m->rows[i].total = m->total[id];
        sparkline(m, k, id, now_sec, m->rows[i].spark);
    }
    return m->rows;
}
