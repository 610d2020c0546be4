/* profile_chunk.c - filling a profile from a chunk (design.md §2): the
 * selected events are counted by (stack-trace key, thread key) without
 * decoding their stacks; then each distinct stack is resolved once, its
 * frames interned, and its weight added to the merged stack with the same
 * frame-id sequence. Only the few fields a profile needs are read, through
 * a field plan per event type. */
#include <stdio.h>
#include <string.h>

#include "field_plan.h"
#include "profile_private.h"

/* ---- per-type field layout ---------------------------------------------------- */

/* The fields a profile reads, as slots of the type's field plan. */
enum {
    SLOT_START,
    SLOT_THREAD,
    SLOT_STACK,
    SLOT_WEIGHT,
    SLOT_FAILED,
    SLOT_BIASED,
    SLOT_PERIOD,
    SLOT_LOST,
    NSLOTS
};

/* How to read the selected events of one type. */
typedef struct layout {
    const jfr_type *type;
    jfrp_field_plan plan;
    bool is_unsigned[NSLOTS]; /* jdk.jfr.Unsigned: no sign extension */
    bool lost_event;          /* jdk.CPUTimeSamplesLost */
    bool weighted;            /* by a field, not counted */
    int64_t weight_mul;       /* timespans: ns per unit; 0: ticks; 1: as is */
    int64_t period_mul;       /* the same for samplingPeriod */
} layout;

/* The unit of a weight field, from its annotations. */
static jfr_unit field_unit(const jfr_field *f)
{
    const char *amount = jfr_field_annotation_value(f, "jdk.jfr.DataAmount");

    if (jfr_field_annotation_value(f, "jdk.jfr.Timespan"))
        return JFR_UNIT_NANOS;
    if (amount && strcmp(amount, "BYTES") == 0)
        return JFR_UNIT_BYTES;
    return JFR_UNIT_NUMBER;
}

/* ns per unit of a jdk.jfr.Timespan field (0 for TICKS), 1 for others. */
static int64_t timespan_mul(const jfr_field *f)
{
    const char *unit = jfr_field_annotation_value(f, "jdk.jfr.Timespan");

    if (!unit)
        return 1;
    if (strcmp(unit, "TICKS") == 0)
        return 0;
    if (strcmp(unit, "MICROSECONDS") == 0)
        return 1000;
    if (strcmp(unit, "MILLISECONDS") == 0)
        return 1000000;
    if (strcmp(unit, "SECONDS") == 0)
        return 1000000000;
    return 1;
}

/* The field in `slot`, or NULL when the type has none of that shape. */
static const jfr_field *slot_field(const layout *l, int which)
{
    int i = jfrp_field_plan_index(&l->plan, (size_t)which);

    return i < 0 ? NULL : &l->type->fields[i];
}

static int layout_init(jfr_profile *p, layout *l, jfr_chunk *c, const jfr_type *t,
                       const char *weight_field)
{
    jfrp_field_want want[NSLOTS] = {{NULL, 0}};
    const jfr_field *f;
    const char *thread;
    jfr_unit unit;

    memset(l, 0, sizeof *l);
    l->type = t;
    l->lost_event = strcmp(t->name, JFRP_CPU_LOST) == 0;
    thread = p->thread_field;
    if (!thread)
        thread = jfr_type_field_index(t, "sampledThread") >= 0 ? "sampledThread"
                                                               : "eventThread";
    want[SLOT_START] = (jfrp_field_want){"startTime", JFRP_SHAPE_INT};
    want[SLOT_THREAD] = (jfrp_field_want){thread, JFRP_SHAPE_REF};
    if (l->lost_event) {
        want[SLOT_LOST] = (jfrp_field_want){"lostSamples", JFRP_SHAPE_INT};
    } else {
        want[SLOT_STACK] = (jfrp_field_want){"stackTrace", JFRP_SHAPE_REF};
        if (p->is_cpu) {
            want[SLOT_FAILED] = (jfrp_field_want){"failed", JFRP_SHAPE_BOOL};
            want[SLOT_BIASED] = (jfrp_field_want){"biased", JFRP_SHAPE_BOOL};
            want[SLOT_PERIOD] = (jfrp_field_want){"samplingPeriod", JFRP_SHAPE_INT};
        }
        want[SLOT_WEIGHT] = (jfrp_field_want){weight_field, JFRP_SHAPE_INT};
    }
    if (jfrp_field_plan_init(&l->plan, &p->al, t, want, NSLOTS) < 0)
        return jfrp_chunk_fail(c, JFR_ENOMEM, c->header.file_offset, "out of memory");
    for (int i = 0; i < NSLOTS; i++)
        l->is_unsigned[i] =
            (f = slot_field(l, i)) && jfr_field_annotation_value(f, "jdk.jfr.Unsigned");
    l->period_mul = (f = slot_field(l, SLOT_PERIOD)) ? timespan_mul(f) : 1;
    if (!weight_field || l->lost_event)
        return 0;
    if (!(f = slot_field(l, SLOT_WEIGHT)))
        return jfrp_chunk_fail(c, JFR_ENOTFOUND, c->header.file_offset,
                               "chunk %lld: %s has no integer field '%s' to weigh by",
                               (long long)c->index, t->name, weight_field);
    l->weight_mul = timespan_mul(f);
    l->weighted = true;
    unit = field_unit(f);
    if (p->unit_known && p->unit != unit)
        return jfrp_chunk_fail(c, JFR_EFORMAT, c->header.file_offset,
                               "chunk %lld: %s.%s is in %s, the profile's other "
                               "weights in %s",
                               (long long)c->index, t->name, weight_field,
                               *jfr_unit_name(unit) ? jfr_unit_name(unit) : "numbers",
                               *jfr_unit_name(p->unit) ? jfr_unit_name(p->unit)
                                                       : "numbers");
    p->unit = unit;
    p->unit_known = true;
    return 0;
}

/* ---- one chunk ------------------------------------------------------------------ */

/* Samples of one (stack trace, thread) pair in the chunk. */
typedef struct slot {
    uint64_t stack_key;
    uint64_t thread_key;
    int64_t bucket; /* time bucket, INT64_MIN: none */
    uint64_t weight;
    uint64_t samples;
    bool has_stack;
} slot;

/* A thread of the chunk, resolved once. */
typedef struct thread_info {
    bool pass;     /* matches the thread regex */
    uint32_t root; /* frame id of "[thread NAME tid=N]" when JFR_PROFILE_THREADS */
} thread_info;

/* A stack trace of the chunk, resolved once: frame ids, root first. */
typedef struct stack_info {
    size_t off;     /* in pass.ids */
    uint32_t depth; /* 0: no stack trace */
    uint8_t match;  /* JFRP_MATCH_* of any frame */
    bool lost;      /* a key no constant pool of the chunk defines */
} stack_info;

typedef struct chunk_pass {
    jfr_profile *p;
    jfr_chunk *c;
    const char **type_names; /* the chunk's names of the types read */
    const char **weights;    /* the weight field of each, NULL: counted */
    size_t ntypes;
    layout *layouts;
    size_t nlayouts;
    slot *slots;
    size_t nslots, slots_room;
    jfrp_index index;    /* slots by (stack, thread) */
    jfrp_map thread_map; /* thread key -> index + 1 in threads */
    thread_info *threads;
    size_t nthreads, threads_room;
    jfrp_map stack_map; /* stack key -> index + 1 in stacks */
    stack_info *stacks;
    size_t nstacks, stacks_room;
    uint32_t *ids; /* frame ids of the resolved stacks */
    size_t nids, ids_room;
    jfrp_name_cache names;
    jfrp_stacks reader;
} chunk_pass;

static void pass_free(chunk_pass *ps)
{
    const jfrp_alloc *al = &ps->p->al;

    for (size_t i = 0; i < ps->nlayouts; i++)
        jfrp_field_plan_free(&ps->layouts[i].plan, al);
    jfrp_free(al, ps->layouts);
    jfrp_free(al, ps->type_names);
    jfrp_free(al, ps->weights);
    jfrp_free(al, ps->slots);
    jfrp_index_free(&ps->index, al);
    jfrp_map_free(&ps->thread_map, al);
    jfrp_free(al, ps->threads);
    jfrp_map_free(&ps->stack_map, al);
    jfrp_free(al, ps->stacks);
    jfrp_free(al, ps->ids);
    jfrp_name_cache_free(ps->p, &ps->names);
    jfrp_stacks_free(&ps->reader, al);
}

static const layout *layout_for(chunk_pass *ps, const jfr_type *t, int *rc)
{
    const char *weight = NULL;
    layout *l;

    *rc = 0;
    for (size_t i = 0; i < ps->nlayouts; i++)
        if (ps->layouts[i].type == t)
            return &ps->layouts[i];
    l = jfrp_reallocarray(&ps->p->al, ps->layouts, ps->nlayouts + 1, sizeof *l);
    if (!l) {
        *rc = jfrp_chunk_fail(ps->c, JFR_ENOMEM, ps->c->header.file_offset,
                              "out of memory");
        return NULL;
    }
    ps->layouts = l;
    l = &ps->layouts[ps->nlayouts];
    for (size_t i = 0; i < ps->ntypes; i++)
        if (strcmp(ps->type_names[i], t->name) == 0)
            weight = ps->weights[i];
    if ((*rc = layout_init(ps->p, l, ps->c, t, weight)) < 0) {
        jfrp_field_plan_free(&l->plan, &ps->p->al);
        return NULL;
    }
    ps->nlayouts++;
    return l;
}

static int64_t thread_long(const jfr_value *obj, const char *name)
{
    jfr_value v;

    if (jfr_value_field(&v, obj, name) < 0 || v.kind != JFR_VALUE_INT)
        return 0;
    return v.as.i;
}

/* "[thread NAME tid=N]": the Java name and id, else the OS ones. */
static int thread_resolve(chunk_pass *ps, uint64_t key, bool has_key, thread_info *ti)
{
    jfr_profile *p = ps->p;
    jfr_value tv;
    jfr_str name = {NULL, 0};
    int64_t tid = 0;
    char *label;
    size_t need;
    int rc;

    memset(&tv, 0, sizeof tv);
    if (has_key && ps->c->meta.known.thread &&
        jfrp_pool_value(&tv, ps->c, ps->c->meta.known.thread, key) == 0 &&
        tv.kind == JFR_VALUE_OBJECT) {
        (void)jfr_value_string_field(&name, &tv, "javaName");
        tid = thread_long(&tv, "javaThreadId");
        if (!name.ptr || tid == 0) {
            jfr_str os;
            (void)jfr_value_string_field(&os, &tv, "osName");
            if (!name.ptr)
                name = os;
            if (tid == 0)
                tid = thread_long(&tv, "osThreadId");
        }
    }
    if (!name.ptr) {
        name.ptr = "unknown";
        name.len = strlen(name.ptr);
    }
    ti->pass = !p->has_thread_re || regexec(&p->thread_re, name.ptr, 0, NULL, 0) == 0;
    ti->root = 0;
    if (!(p->flags & JFR_PROFILE_THREADS))
        return 0;
    need = name.len + 48;
    if ((rc = jfrp_grow_array(&p->al, (void **)&p->buf, &p->buf_room, need, 1)) < 0)
        return rc;
    label = p->buf;
    memcpy(label, "[thread ", 8);
    memcpy(label + 8, name.ptr, name.len);
    snprintf(label + 8 + name.len, 40, " tid=%lld]", (long long)tid);
    return jfrp_profile_synthetic(p, label, &ti->root);
}

static const thread_info *thread_of(chunk_pass *ps, uint64_t key, bool has_key, int *rc)
{
    /* keys are any 64-bit value; "no thread" gets a key of its own */
    uint64_t mkey = has_key ? key : UINT64_MAX;
    uint64_t hit = jfrp_map_get(&ps->thread_map, mkey);
    thread_info *ti;

    *rc = 0;
    if (hit)
        return &ps->threads[hit - 1];
    if ((*rc = jfrp_grow_array(&ps->p->al, (void **)&ps->threads, &ps->threads_room,
                               ps->nthreads + 1, sizeof *ps->threads)) < 0)
        return NULL;
    ti = &ps->threads[ps->nthreads];
    if ((*rc = thread_resolve(ps, key, has_key, ti)) < 0)
        return NULL;
    ps->nthreads++;
    if ((*rc = jfrp_map_put(&ps->thread_map, &ps->p->al, mkey, ps->nthreads)) < 0)
        return NULL;
    return ti;
}

/* ---- counting ---- */

static uint64_t slot_hash(uint64_t stack, uint64_t thread, int64_t bucket, bool has_stack)
{
    uint64_t h = stack * 0x9e3779b97f4a7c15ULL ^
                 (thread + has_stack) * 0xc2b2ae3d27d4eb4fULL ^
                 (uint64_t)bucket * 0x165667b19e3779f9ULL;

    return h ^ h >> 31;
}

static uint64_t slot_rehash(const void *ctx, uint32_t entry)
{
    const slot *sl = &((const chunk_pass *)ctx)->slots[entry];

    return slot_hash(sl->stack_key, sl->thread_key, sl->bucket, sl->has_stack);
}

static int count(chunk_pass *ps, uint64_t stack, bool has_stack, uint64_t thread,
                 int64_t bucket, uint64_t weight)
{
    uint64_t h;
    size_t i;
    slot *sl;
    int rc;

    if (!has_stack)
        stack = 0;
    h = slot_hash(stack, thread, bucket, has_stack);
    if (ps->index.cap) {
        for (i = jfrp_index_first(&ps->index, h); ps->index.slots[i];
             i = jfrp_index_next(&ps->index, i)) {
            sl = &ps->slots[ps->index.slots[i] - 1];
            if (sl->stack_key == stack && sl->thread_key == thread &&
                sl->bucket == bucket && sl->has_stack == has_stack) {
                sl->weight += weight;
                sl->samples++;
                return 0;
            }
        }
    }
    if ((rc = jfrp_index_reserve(&ps->index, &ps->p->al, 1024, slot_rehash, ps)) < 0)
        return rc;
    if ((rc = jfrp_grow_array(&ps->p->al, (void **)&ps->slots, &ps->slots_room,
                              ps->nslots + 1, sizeof *ps->slots)) < 0)
        return rc;
    sl = &ps->slots[ps->nslots];
    sl->stack_key = stack;
    sl->thread_key = thread;
    sl->bucket = bucket;
    sl->has_stack = has_stack;
    sl->weight = weight;
    sl->samples = 1;
    jfrp_index_insert(&ps->index, h, (uint32_t)ps->nslots);
    ps->nslots++;
    return 0;
}

/* The fields of one event that a profile reads. */
typedef struct sample {
    int64_t start;
    uint64_t stack, thread;
    bool has_start, has_stack, has_thread;
    int64_t weight, period, lost;
    bool failed, biased;
} sample;

static int64_t slot_int(const layout *l, const jfrp_field_at *at, int which)
{
    return jfrp_int_of_bits(at[which].field->type->kind, at[which].bits,
                            l->is_unsigned[which]);
}

static void read_sample(const layout *l, jfrp_reader *r, sample *s)
{
    jfrp_field_at at[NSLOTS];

    jfrp_field_plan_read(&l->plan, r, at);
    memset(s, 0, sizeof *s);
    if ((s->has_start = at[SLOT_START].field != NULL))
        s->start = slot_int(l, at, SLOT_START);
    if ((s->has_stack = at[SLOT_STACK].field != NULL))
        s->stack = at[SLOT_STACK].bits;
    if ((s->has_thread = at[SLOT_THREAD].field != NULL))
        s->thread = at[SLOT_THREAD].bits;
    if (at[SLOT_WEIGHT].field)
        s->weight = slot_int(l, at, SLOT_WEIGHT);
    if (at[SLOT_PERIOD].field)
        s->period = slot_int(l, at, SLOT_PERIOD);
    if (at[SLOT_LOST].field)
        s->lost = slot_int(l, at, SLOT_LOST);
    s->failed = at[SLOT_FAILED].field && at[SLOT_FAILED].bits != 0;
    s->biased = at[SLOT_BIASED].field && at[SLOT_BIASED].bits != 0;
}

static bool in_range(const jfr_profile *p, jfr_chunk *c, const sample *s)
{
    int64_t t;

    if (!p->from_nanos && !p->to_nanos)
        return true;
    if (!s->has_start)
        return false;
    t = jfr_chunk_ticks_to_epoch_nanos(c, s->start);
    if (p->from_nanos && t < p->from_nanos)
        return false;
    if (p->to_nanos && t >= p->to_nanos)
        return false;
    return true;
}

static uint64_t to_weight(jfr_chunk *c, int64_t v, int64_t mul)
{
    if (v <= 0)
        return 0;
    if (mul == 0)
        return (uint64_t)jfr_chunk_ticks_to_nanos(c, v);
    return (uint64_t)v * (uint64_t)mul;
}

/* Samples are told apart by thread only for thread roots; UINT64_MAX stands
 * for "no thread" (pool keys are never that large in practice, and a
 * collision would only merge two root labels). */
static uint64_t thread_slot_key(const jfr_profile *p, const sample *s)
{
    if (!(p->flags & JFR_PROFILE_THREADS))
        return 0;
    return s->has_thread ? s->thread : UINT64_MAX;
}

/* The sample's time bucket, or INT64_MIN (no buckets, or no start time). */
static int64_t time_bucket(const jfr_profile *p, jfr_chunk *c, const sample *s)
{
    int64_t d;

    if (p->bucket_nanos <= 0 || !s->has_start)
        return INT64_MIN;
    /* wraps instead of overflowing on absurd times (still some bucket) */
    d = (int64_t)((uint64_t)jfr_chunk_ticks_to_epoch_nanos(c, s->start) -
                  (uint64_t)p->bucket_origin);
    /* floor division: samples before the origin get negative buckets */
    return d >= 0 ? d / p->bucket_nanos : -(-(d + 1) / p->bucket_nanos) - 1;
}

static int take_event(chunk_pass *ps, const jfr_event *ev)
{
    jfr_profile *p = ps->p;
    const layout *l;
    jfrp_reader r;
    sample s;
    uint64_t weight;
    int rc;

    if (!ev->type->decodable)
        return 0;
    if (!(l = layout_for(ps, ev->type, &rc)))
        return rc;
    jfrp_reader_init(&r, ev->payload, (size_t)(ev->end - ev->payload),
                     jfr_event_offset(ev) + (uint64_t)(ev->payload - ev->start),
                     (ps->c->header.flags & JFR_CHUNK_FLAG_COMPRESSED_INTS) != 0);
    read_sample(l, &r, &s);
    if (r.err)
        return jfrp_reader_error(ps->c, &r, ev->type->name);
    if (!in_range(p, ps->c, &s))
        return 0;
    if (p->has_thread_re) {
        const thread_info *ti = thread_of(ps, s.thread, s.has_thread, &rc);
        if (!ti)
            return rc;
        if (!ti->pass)
            return 0;
    }
    if (l->lost_event) {
        if (p->is_cpu) {
            p->cpu.lost += s.lost > 0 ? (uint64_t)s.lost : 0;
            p->cpu.lost_events++;
        }
        return 0;
    }
    if (p->is_cpu) {
        uint64_t period = to_weight(ps->c, s.period, l->period_mul);
        p->cpu.samples++;
        p->cpu.with_stack += !s.failed;
        p->cpu.failed += s.failed;
        p->cpu.biased += s.biased;
        p->cpu.period_ns += period;
        p->cpu.failed_period_ns += s.failed ? period : 0;
        p->cpu.biased_period_ns += s.biased ? period : 0;
    }
    weight = l->weighted ? to_weight(ps->c, s.weight, l->weight_mul) : 1;
    return count(ps, s.stack, s.has_stack, thread_slot_key(p, &s),
                 time_bucket(p, ps->c, &s), weight);
}

/* ---- resolution ---- */

static int resolve_stack(chunk_pass *ps, uint64_t key, const stack_info **out)
{
    jfr_profile *p = ps->p;
    uint64_t hit = jfrp_map_get(&ps->stack_map, key);
    stack_info *si;
    size_t depth = 0;
    int rc;

    if (hit) {
        *out = &ps->stacks[hit - 1];
        return 0;
    }
    int found = jfrp_stacks_read(&ps->reader, &p->al, key, &depth);
    if (found < 0 && found != JFR_ENOTFOUND)
        return found;
    if ((rc = jfrp_grow_array(&p->al, (void **)&ps->stacks, &ps->stacks_room,
                              ps->nstacks + 1, sizeof *ps->stacks)) < 0 ||
        (rc = jfrp_grow_array(&p->al, (void **)&ps->ids, &ps->ids_room, ps->nids + depth,
                              sizeof *ps->ids)) < 0)
        return rc;
    si = &ps->stacks[ps->nstacks];
    si->off = ps->nids;
    si->depth = (uint32_t)depth;
    si->match = 0;
    /* key 0 is a null stack trace; any other key must be in the pools */
    si->lost = found == JFR_ENOTFOUND && key != 0;
    /* frame 0 is the innermost: store from the root */
    for (size_t i = 0; i < depth; i++) {
        uint32_t id;

        rc = jfrp_profile_frame(p, &ps->names, ps->c, &ps->reader.frames[depth - 1 - i],
                                &id);
        if (rc < 0)
            return rc;
        ps->ids[si->off + i] = id;
        si->match |= p->frame_match[id];
    }
    ps->nids += depth;
    ps->nstacks++;
    if ((rc = jfrp_map_put(&ps->stack_map, &p->al, key, ps->nstacks)) < 0)
        return rc;
    *out = si;
    return 0;
}

static bool keep_stack(const jfr_profile *p, uint8_t match)
{
    if (p->has_include && !(match & JFRP_MATCH_INCLUDE))
        return false;
    if (p->has_exclude && (match & JFRP_MATCH_EXCLUDE))
        return false;
    return true;
}

static int merge_slot(chunk_pass *ps, const slot *sl, uint32_t **seq, size_t *seq_room)
{
    jfr_profile *p = ps->p;
    const stack_info *si = NULL;
    const uint32_t *frames;
    uint32_t none;
    size_t depth, n = 0;
    uint8_t match;
    int rc;

    if (sl->has_stack && (rc = resolve_stack(ps, sl->stack_key, &si)) < 0)
        return rc;
    if (si && si->lost)
        p->lost_stack_samples += sl->samples;
    if (si && si->depth) {
        frames = ps->ids + si->off;
        depth = si->depth;
        match = si->match;
    } else {
        if ((rc = jfrp_profile_synthetic(p, "[no stack trace]", &none)) < 0)
            return rc;
        frames = &none;
        depth = 1;
        match = p->frame_match[none];
    }
    if (!keep_stack(p, match))
        return 0;
    if ((rc = jfrp_grow_array(&p->al, (void **)seq, seq_room, depth + 2, sizeof **seq)) <
        0)
        return rc;
    if (sl->bucket != INT64_MIN) {
        char label[40];
        snprintf(label, sizeof label, "[time %lld]", (long long)sl->bucket);
        if ((rc = jfrp_profile_synthetic(p, label, &(*seq)[n++])) < 0)
            return rc;
    }
    if (p->flags & JFR_PROFILE_THREADS) {
        const thread_info *ti =
            thread_of(ps, sl->thread_key, sl->thread_key != UINT64_MAX, &rc);
        if (!ti)
            return rc;
        (*seq)[n++] = ti->root;
    }
    memcpy(*seq + n, frames, depth * sizeof *frames);
    return jfrp_profile_add_stack(p, *seq, n + depth, sl->weight, sl->samples);
}

static int merge_slots(chunk_pass *ps)
{
    uint32_t *seq = NULL;
    size_t room = 0;
    int rc = 0;

    for (size_t i = 0; i < ps->nslots && rc >= 0; i++)
        rc = merge_slot(ps, &ps->slots[i], &seq, &room);
    jfrp_free(&ps->p->al, seq);
    return rc;
}

size_t jfrp_profile_chunk_types(const jfr_profile *p, jfr_chunk *c, const char **names,
                                const char **weights)
{
    size_t n = 0;

    for (int fallback = 0; fallback < 2 && n == 0; fallback++)
        for (size_t i = 0; i < p->nsources; i++) {
            const jfr_type *t;
            if (p->sources[i].fallback != (fallback == 1) ||
                !(t = jfr_chunk_event_type(c, p->sources[i].event_type)))
                continue;
            names[n] = t->name;
            weights[n++] = p->sources[i].weight_field;
        }
    if (p->is_cpu) {
        const jfr_type *t = jfr_chunk_event_type(c, JFRP_CPU_LOST);
        if (t) {
            names[n] = t->name;
            weights[n++] = NULL;
        }
    }
    return n;
}

/* The types of the chunk the profile reads (jfrp_profile_chunk_types). */
static int select_types(chunk_pass *ps)
{
    const jfr_profile *p = ps->p;
    size_t room = p->nsources + 1;

    ps->type_names = jfrp_calloc(&p->al, room, sizeof *ps->type_names);
    ps->weights = jfrp_calloc(&p->al, room, sizeof *ps->weights);
    if (!ps->type_names || !ps->weights)
        return JFR_ENOMEM;
    ps->ntypes = jfrp_profile_chunk_types(p, ps->c, ps->type_names, ps->weights);
    return JFR_OK;
}

int jfr_profile_add_chunk(jfr_profile *p, jfr_chunk *chunk)
{
    jfr_event_iter *it = NULL;
    const jfr_event *ev;
    chunk_pass ps;
    int rc, walk;

    if (!p || !chunk)
        return JFR_EINVAL;
    memset(&ps, 0, sizeof ps);
    ps.p = p;
    ps.c = chunk;
    jfrp_stacks_init(&ps.reader, chunk);
    if ((rc = select_types(&ps)) < 0 || ps.ntypes == 0) {
        pass_free(&ps);
        return rc < 0 ? jfrp_chunk_fail(chunk, rc, chunk->header.file_offset,
                                        "out of memory")
                      : JFR_OK;
    }
    if (p->flags & JFR_PROFILE_TOP_FRAME)
        ps.reader.max_frames = 1;
    if ((rc = jfr_event_iter_new(&it, chunk, ps.type_names, ps.ntypes, 0)) < 0) {
        pass_free(&ps);
        return rc;
    }
    while ((walk = jfr_event_next(&ev, it)) == JFR_OK)
        if ((rc = take_event(&ps, ev)) < 0)
            break;
    jfr_event_iter_free(it);
    /* what was counted before an error still counts */
    {
        int mrc = merge_slots(&ps);
        if (rc >= 0 && walk < 0)
            rc = walk;
        if (rc >= 0 && mrc < 0)
            rc = mrc == JFR_ENOMEM
                     ? jfrp_chunk_fail(chunk, mrc, chunk->header.file_offset,
                                       "out of memory")
                     : mrc;
    }
    pass_free(&ps);
    return rc < 0 ? rc : JFR_OK;
}
