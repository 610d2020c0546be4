/* rate.c - a profile kind's weight over time buckets (jfr/rate.h): weights
 * that stand for an interval (jdk.ObjectAllocationSample: the bytes its
 * thread allocated since that thread's previous sample) are spread evenly
 * over it, per thread; the others stay in the bucket of their time. Chunks
 * come in recording order, so a thread's previous sample may be in an
 * earlier chunk: the last sample time of each thread is kept across
 * chunks. */
#include <stdlib.h>
#include <string.h>

#include "jfr/rate.h"
#include "map.h"
#include "profile_struct.h"

/* Events whose weight stands for the time since the same thread's previous
 * event of that type. */
static const char *const interval_types[] = {"jdk.ObjectAllocationSample"};

#define NONE       INT64_MIN
/* buckets are kept within this many of the origin, whatever the times */
#define FAR_BUCKET ((int64_t)1 << 40)

typedef struct thread_state {
    int64_t last;    /* the thread's previous interval sample, NONE */
    int64_t started; /* its jdk.ThreadStart, NONE */
} thread_state;

/* One weighted event of a chunk. */
typedef struct sample {
    uint64_t thread; /* constant-pool key; UINT64_MAX: none */
    int64_t time;
    double weight;
    uint32_t groups; /* the kind's groups that read it (profile_groups.c) */
    bool interval;
} sample;

struct jfr_rate {
    jfrp_alloc al;
    jfr_profile *kind; /* the kind's sources: jfrp_groups_types */
    int64_t bucket_ns, origin;
    /* buckets first .. first+count-1 at store[lo ..]; room before and after */
    double *store;
    size_t room, lo, count;
    int64_t first;
    uint64_t total, events, spread;
    jfr_unit unit;
    bool unit_known;
    /* threads of the current recording */
    const jfr_recording *rec;
    int64_t run_start, last_chunk_end;
    jfrp_map thread_map; /* key -> index + 1 */
    thread_state *threads;
    size_t nthreads, threads_room;
    /* the chunk being read */
    sample *samples;
    size_t nsamples, samples_room;
    uint32_t present, enabled; /* groups with an event, or turned on */
};

int jfr_rate_new(jfr_rate **out, const jfr_rate_options *opts, jfr_error *err)
{
    jfr_profile_options po = JFR_PROFILE_OPTIONS_INIT;
    jfr_rate *r;
    jfrp_alloc al;
    int rc;

    if (!out)
        return JFR_EINVAL;
    *out = NULL;
    if (!opts || opts->version != JFR_RATE_OPTIONS_VERSION)
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "rate: unknown options version");
    if (!opts->kind || opts->bucket_nanos <= 0)
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "rate: no kind, or no bucket width");
    po.kind = opts->kind;
    po.allocator = opts->allocator;
    jfrp_alloc_init(&al, opts->allocator);
    if (!(r = jfrp_calloc(&al, 1, sizeof *r)))
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    r->al = al;
    r->bucket_ns = opts->bucket_nanos;
    r->origin = opts->bucket_origin_nanos;
    if ((rc = jfr_profile_new(&r->kind, &po, err)) < 0) {
        jfr_rate_free(r);
        return rc;
    }
    for (size_t i = 0; i < r->kind->nsources; i++)
        if (!r->kind->sources[i].weight_field) {
            jfr_rate_free(r);
            return jfrp_fail(err, JFR_EINVAL, -1, 0, "rate: kind %s counts events",
                             opts->kind);
        }
    *out = r;
    return JFR_OK;
}

/* ---- buckets -------------------------------------------------------------------- */

/* Time `t` in ns after the origin, kept within FAR_BUCKET buckets of it
 * (times from a damaged file can be anything). */
static int64_t since_origin(const jfr_rate *r, int64_t t)
{
    int64_t rel, far;

    if (__builtin_mul_overflow(FAR_BUCKET, r->bucket_ns, &far) || far > INT64_MAX / 4)
        far = INT64_MAX / 4;
    if (__builtin_sub_overflow(t, r->origin, &rel))
        return t < 0 ? -far : far;
    return rel < -far ? -far : rel > far ? far : rel;
}

/* The bucket of `rel` ns after the origin (floor division). */
static int64_t bucket_of(const jfr_rate *r, int64_t rel)
{
    return rel >= 0 ? rel / r->bucket_ns : -((-(rel + 1)) / r->bucket_ns) - 1;
}

/* Make room for bucket `b`, or move it to the nearest bucket kept when the
 * span would pass JFR_RATE_MAX_BUCKETS. */
static int reach(jfr_rate *r, int64_t *b)
{
    int64_t lo = r->count ? r->first : *b,
            hi = r->count ? r->first + (int64_t)r->count : *b + 1;
    size_t span, before, room;
    double *store;

    if (*b < lo)
        lo = *b;
    if (*b >= hi)
        hi = *b + 1;
    span = (size_t)(hi - lo);
    if (span > JFR_RATE_MAX_BUCKETS) {
        *b = *b < r->first ? r->first : r->first + (int64_t)r->count - 1;
        return JFR_OK;
    }
    before = r->count ? (size_t)(r->first - lo) : 0;
    if (r->count && before <= r->lo && r->lo + span - before <= r->room) {
        r->lo -= before;
        r->first = lo;
        r->count = span;
        return JFR_OK;
    }
    /* grow with as much room again on both sides: times mostly grow, but a
     * thread's first sample reaches back */
    room = 3 * span + 16;
    if (!(store = jfrp_calloc(&r->al, room, sizeof *store)))
        return JFR_ENOMEM;
    if (r->count)
        memcpy(store + span + before, r->store + r->lo, r->count * sizeof *store);
    jfrp_free(&r->al, r->store);
    r->store = store;
    r->room = room;
    r->lo = span;
    r->first = lo;
    r->count = span;
    return JFR_OK;
}

static int add_at(jfr_rate *r, int64_t b, double w)
{
    int rc = reach(r, &b);

    if (rc < 0)
        return rc;
    r->store[r->lo + (size_t)(b - r->first)] += w;
    return JFR_OK;
}

/* Weight `w` evenly over [from, to) (epoch ns): each bucket gets the
 * share of the interval it holds; the shares add up to `w`. */
static int spread(jfr_rate *r, int64_t from, int64_t to, double w)
{
    int64_t lo = since_origin(r, from), hi = since_origin(r, to), b0, b1;
    int rc = 0;

    if (hi <= lo)
        return add_at(r, bucket_of(r, hi), w);
    b0 = bucket_of(r, lo);
    b1 = bucket_of(r, hi - 1);
    if (b1 - b0 >= (int64_t)JFR_RATE_MAX_BUCKETS) {
        b0 = b1 - (int64_t)JFR_RATE_MAX_BUCKETS + 1;
        lo = b0 * r->bucket_ns;
    }
    r->spread++;
    for (int64_t b = b0; b <= b1 && rc >= 0; b++) {
        int64_t start = b * r->bucket_ns, end = start + r->bucket_ns;
        int64_t piece = (hi < end ? hi : end) - (lo > start ? lo : start);
        rc = add_at(r, b, w * (double)piece / (double)(hi - lo));
    }
    return rc;
}

/* ---- threads -------------------------------------------------------------------- */

static thread_state *thread_of(jfr_rate *r, uint64_t key)
{
    uint64_t i = jfrp_map_get(&r->thread_map, key);

    if (i)
        return &r->threads[i - 1];
    if (r->nthreads == r->threads_room) {
        size_t room = r->threads_room ? 2 * r->threads_room : 64;
        thread_state *t = jfrp_reallocarray(&r->al, r->threads, room, sizeof *t);
        if (!t)
            return NULL;
        r->threads = t;
        r->threads_room = room;
    }
    if (jfrp_map_put(&r->thread_map, &r->al, key, r->nthreads + 1) < 0)
        return NULL;
    r->threads[r->nthreads] = (thread_state){NONE, NONE};
    return &r->threads[r->nthreads++];
}

/* How far apart the end of a chunk and the start of the next of the same
 * JVM may be: a JVM starts its next chunk as it ends one. */
#define RUN_GAP_NS 1000000000LL

/* A chunk of another input, or one that does not start where the chunk
 * before it ended (a concatenation of recordings of several JVMs), starts
 * the threads afresh: keys of another JVM are other threads. */
static void enter_chunk(jfr_rate *r, jfr_chunk *c)
{
    int64_t start = c->header.start_nanos, gap;

    if (c->rec != r->rec || __builtin_sub_overflow(start, r->last_chunk_end, &gap) ||
        gap < -RUN_GAP_NS || gap > RUN_GAP_NS) {
        jfrp_map_free(&r->thread_map, &r->al);
        r->nthreads = 0;
        r->rec = c->rec;
        r->run_start = start;
    }
    if (__builtin_add_overflow(start, c->header.duration_nanos, &r->last_chunk_end))
        r->last_chunk_end = start;
}

/* ---- one chunk ------------------------------------------------------------------ */

static bool is_interval(const char *type)
{
    for (size_t i = 0; i < sizeof interval_types / sizeof *interval_types; i++)
        if (strcmp(type, interval_types[i]) == 0)
            return true;
    return false;
}

static uint64_t thread_key(const jfr_event *ev, const char *field)
{
    jfr_value v;

    if (jfr_event_field(&v, ev, field) < 0 || !v.pooled)
        return UINT64_MAX;
    return v.key;
}

static int check_unit(jfr_rate *r, jfr_chunk *c, const jfr_field *f)
{
    jfr_unit unit = jfrp_weight_unit(f);

    if (r->unit_known && r->unit != unit)
        return jfrp_chunk_fail_placed(c, JFR_PLACE_CHUNK, JFR_EFORMAT,
                                      c->header.file_offset, "weights in %s and in %s",
                                      jfr_unit_name(unit), jfr_unit_name(r->unit));
    r->unit = unit;
    r->unit_known = true;
    return JFR_OK;
}

/* The weight field of a type and its thread, read in one pass over each
 * event (jfr_field_reader) where the weight is an inline integer; NULL
 * `rd`: read by name, as for any other shape. */
typedef struct weight_reader {
    jfr_field_reader *rd;
    const jfr_field *weight;
} weight_reader;

static int weight_reader_new(weight_reader *w, const jfr_rate *r, const jfr_type *type,
                             const char *field)
{
    const char *names[2] = {field, "eventThread"};
    const jfr_field *f = jfr_type_field_by_name(type, field);
    jfr_kind k = f && f->type ? f->type->kind : JFR_KIND_STRUCT;

    w->rd = NULL;
    w->weight = f;
    if (!f || f->pooled || f->array || k < JFR_KIND_BYTE || k > JFR_KIND_LONG)
        return JFR_OK;
    return jfr_field_reader_new(&w->rd, type, names, 2, &r->al.hooks);
}

/* The weight of `ev` (a value of `w`'s field) and its thread's key
 * (UINT64_MAX: none); false when the event has no integer weight. */
static bool weight_of(const weight_reader *w, const char *field, const jfr_event *ev,
                      int64_t *weight, uint64_t *thread)
{
    jfr_field_bits b[2];
    jfr_value v;

    if (w->rd) {
        (void)jfr_field_reader_read(b, w->rd, ev);
        *weight = b[0].i;
        *thread = b[1].read && b[1].pooled ? b[1].bits : UINT64_MAX;
        return b[0].read;
    }
    if (jfr_event_field(&v, ev, field) < 0 || v.kind != JFR_VALUE_INT)
        return false;
    *weight = v.as.i;
    *thread = thread_key(ev, "eventThread");
    return true;
}

/* The weight of `ev` in `field`, as a sample of the chunk. */
static int take(jfr_rate *r, jfr_chunk *c, const jfr_event *ev, const char *field,
                const weight_reader *w, uint32_t groups)
{
    const jfr_field *f = w->weight;
    uint64_t thread;
    int64_t weight, ns;
    sample *s;
    int rc;

    if (!weight_of(w, field, ev, &weight, &thread))
        return JFR_OK;
    if ((rc = check_unit(r, c, f)) < 0)
        return rc;
    if (r->nsamples == r->samples_room) {
        size_t room = r->samples_room ? 2 * r->samples_room : 1024;
        if (!(s = jfrp_reallocarray(&r->al, r->samples, room, sizeof *s)))
            return JFR_ENOMEM;
        r->samples = s;
        r->samples_room = room;
    }
    s = &r->samples[r->nsamples];
    /* a timespan in ns whatever its unit, as jfr_event_timespan_nanos */
    if (r->unit != JFR_UNIT_NANOS)
        s->weight = (double)weight;
    else if (jfr_chunk_time_nanos(
                 &ns, c, jfr_field_time_unit(f) ? jfr_field_time_unit(f) : JFR_TIME_TICKS,
                 weight) == JFR_OK)
        s->weight = (double)ns;
    else
        return JFR_OK;
    if (!(s->weight > 0))
        return JFR_OK;
    s->time = jfr_chunk_ticks_to_epoch_nanos(c, jfr_event_start_ticks(ev));
    s->interval = is_interval(jfr_event_type(ev)->name);
    s->thread = s->interval ? thread : UINT64_MAX;
    s->groups = groups;
    r->nsamples++;
    return JFR_OK;
}

static int by_thread_then_time(const void *a, const void *b)
{
    const sample *x = a, *y = b;

    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    return x->time < y->time ? -1 : x->time > y->time;
}

/* Where the interval of a thread's sample at `t` starts. */
static int64_t interval_start(const jfr_rate *r, const thread_state *ts, int64_t t)
{
    int64_t from = r->run_start;

    if (ts->last != NONE && ts->last <= t)
        return ts->last;
    if (ts->started != NONE && ts->started > from && ts->started <= t)
        from = ts->started;
    return from;
}

/* The chunk's samples of the group that stands for the kind into the
 * buckets, each thread's in time order. */
static int place_samples(jfr_rate *r)
{
    unsigned chosen = jfrp_groups_choose(r->present, r->enabled);
    int rc = JFR_OK;

    if (r->nsamples > 1) /* qsort takes no NULL, even for none */
        qsort(r->samples, r->nsamples, sizeof *r->samples, by_thread_then_time);
    for (size_t i = 0; i < r->nsamples && rc >= 0; i++) {
        const sample *s = &r->samples[i];
        thread_state *ts;

        if (chosen >= JFRP_MAX_GROUPS || !(s->groups & (1u << chosen)))
            continue;
        r->total += (uint64_t)s->weight;
        r->events++;
        if (!s->interval || s->thread == UINT64_MAX) {
            rc = add_at(r, bucket_of(r, since_origin(r, s->time)), s->weight);
            continue;
        }
        if (!(ts = thread_of(r, s->thread)))
            return JFR_ENOMEM;
        rc = spread(r, interval_start(r, ts, s->time), s->time, s->weight);
        ts->last = s->time;
    }
    return rc;
}

/* The weights of the kind's `n` types of the chunk (`uses`), the settings
 * that turn them on (`setting`), and the thread starts (`start`); `names`
 * lists the `nnames` types walked. */
static int read_events(jfr_rate *r, jfr_chunk *c, const char **names, size_t nnames,
                       const jfrp_chunk_type *uses, size_t n, const jfr_type *setting)
{
    jfr_event_iter *it = NULL;
    const jfr_event *ev;
    weight_reader *weights = jfrp_calloc(&r->al, n, sizeof *weights);
    int rc = weights ? JFR_OK : JFR_ENOMEM, walk = JFR_OK;

    for (size_t k = 0; rc >= 0 && k < n; k++)
        rc =
            weight_reader_new(&weights[k], r, uses[k].type, uses[k].source->weight_field);
    if (rc >= 0 && (walk = jfr_event_iter_new(&it, c, names, nnames, 0)) < 0)
        rc = walk;
    while (rc >= 0 && (walk = jfr_event_next(&ev, it)) == JFR_OK) {
        const jfr_type *type = jfr_event_type(ev);
        size_t k = 0;

        while (k < n && uses[k].type != type)
            k++;
        if (type == setting) {
            r->enabled |= jfrp_groups_enabled_by(ev, uses, n);
        } else if (k < n) {
            /* counted apart per group, before any filter */
            r->present |= uses[k].groups;
            rc =
                take(r, c, ev, uses[k].source->weight_field, &weights[k], uses[k].groups);
        } else {
            uint64_t key = thread_key(ev, "thread");
            thread_state *ts = key == UINT64_MAX ? NULL : thread_of(r, key);
            if (ts)
                ts->started =
                    jfr_chunk_ticks_to_epoch_nanos(c, jfr_event_start_ticks(ev));
            else if (key != UINT64_MAX)
                rc = JFR_ENOMEM;
        }
    }
    jfr_event_iter_free(it);
    for (size_t k = 0; weights && k < n; k++)
        jfr_field_reader_free(weights[k].rd);
    jfrp_free(&r->al, weights);
    return rc < 0 ? rc : walk < 0 ? walk : JFR_OK;
}

int jfr_rate_add_chunk(jfr_rate *r, jfr_chunk *chunk)
{
    jfrp_chunk_type *uses = NULL;
    const jfr_type *start, *setting = NULL;
    const char **names = NULL;
    size_t n = 0, nnames = 0;
    int rc, placed;

    if (!r || !chunk)
        return JFR_EINVAL;
    enter_chunk(r, chunk);
    if ((rc = jfrp_groups_types(&uses, &n, &setting, r->kind, chunk)) < 0 ||
        !(names = jfrp_calloc(&r->al, n + 2, sizeof *names))) {
        jfrp_free(&r->al, uses);
        return jfrp_chunk_fail(chunk, JFR_ENOMEM, chunk->header.file_offset,
                               "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        names[nnames++] = uses[i].type->name;
    if (setting)
        names[nnames++] = setting->name;
    start = jfr_chunk_event_type(chunk, "jdk.ThreadStart");
    if (start)
        names[nnames++] = start->name;
    r->nsamples = 0;
    r->present = r->enabled = 0;
    rc = n ? read_events(r, chunk, names, nnames, uses, n, setting) : JFR_OK;
    placed = place_samples(r);
    jfrp_free(&r->al, names);
    jfrp_free(&r->al, uses);
    if (rc >= 0 && placed < 0)
        rc = placed;
    return rc == JFR_ENOMEM
               ? jfrp_chunk_fail(chunk, rc, chunk->header.file_offset, "out of memory")
               : rc;
}

/* ---- results -------------------------------------------------------------------- */

int64_t jfr_rate_first_bucket(const jfr_rate *r)
{
    return r && r->count ? r->first : 0;
}

size_t jfr_rate_bucket_count(const jfr_rate *r)
{
    return r ? r->count : 0;
}

double jfr_rate_bucket(const jfr_rate *r, int64_t bucket)
{
    if (!r || !r->count || bucket < r->first || bucket - r->first >= (int64_t)r->count)
        return 0;
    return r->store[r->lo + (size_t)(bucket - r->first)];
}

uint64_t jfr_rate_total(const jfr_rate *r)
{
    return r ? r->total : 0;
}

uint64_t jfr_rate_events(const jfr_rate *r)
{
    return r ? r->events : 0;
}

uint64_t jfr_rate_spread_events(const jfr_rate *r)
{
    return r ? r->spread : 0;
}

jfr_unit jfr_rate_unit(const jfr_rate *r)
{
    return r ? r->unit : JFR_UNIT_NUMBER;
}

int64_t jfr_rate_bucket_nanos(const jfr_rate *r)
{
    return r ? r->bucket_ns : 0;
}

int64_t jfr_rate_origin_nanos(const jfr_rate *r)
{
    return r ? r->origin : 0;
}

int64_t jfr_rate_bucket_width(int64_t span_nanos, unsigned max_buckets)
{
    static const int64_t steps[] = {1, 2, 5};
    int64_t ms = 1;

    if (max_buckets == 0)
        max_buckets = 1;
    for (int i = 0;; i = (i + 1) % 3) {
        int64_t w = steps[i] * ms * 1000000;
        if (span_nanos / w < (int64_t)max_buckets || w >= INT64_MAX / 100)
            return w;
        if (i == 2)
            ms *= 10;
    }
}

void jfr_rate_free(jfr_rate *r)
{
    if (!r)
        return;
    jfr_profile_free(r->kind);
    jfrp_free(&r->al, r->store);
    jfrp_map_free(&r->thread_map, &r->al);
    jfrp_free(&r->al, r->threads);
    jfrp_free(&r->al, r->samples);
    jfrp_free(&r->al, r);
}
