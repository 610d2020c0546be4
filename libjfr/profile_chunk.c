/* profile_chunk.c - filling a profile from a chunk (design.md §2): the
 * selected events are counted by (stack-trace key, thread key) without
 * decoding their stacks; then each distinct stack is resolved once, its
 * frames interned, and its weight added to the merged stack with the same
 * frame-id sequence. Only the few fields a profile needs are read, through
 * a field plan per event type. */
#include <stdio.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "field_plan.h"
#include "profile_struct.h"

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
    SLOT_STATE,
    SLOT_CLASS,
    SLOT_CWEIGHT, /* the census's weight (samples) */
    NSLOTS
};

/* How to read the selected events of one type. */
typedef struct layout {
    const jfr_type *type;
    const jfrp_chunk_type *use;              /* its sources' groups, weight and class */
    jfrp_map state_groups;                   /* state key -> groups keeping it + 1 */
    uint8_t small_states[JFRP_SMALL_STATES]; /* the same for small keys; 0: not yet */
    jfrp_field_plan plan;
    bool is_unsigned[NSLOTS]; /* jdk.jfr.Unsigned: no sign extension */
    bool in_census;           /* the census counts these events */
    uint16_t readers[16];     /* jfrp_census_readers */
    size_t nreaders;
    bool lost_event;           /* jdk.CPUTimeSamplesLost */
    bool cpu_sample;           /* jdk.CPUTimeSample: CPU-time accounting */
    bool weighted;             /* by a field, not counted */
    jfr_time_unit weight_unit; /* a timespan's; JFR_TIME_NONE: as is */
    jfr_time_unit period_unit; /* the same for samplingPeriod */
} layout;

/* The unit of a timespan field; JFR_TIME_NONE (values as they are) for
 * other fields, instants included. */
static jfr_time_unit span_unit(const jfr_field *f)
{
    jfr_time_unit unit = jfr_field_time_unit(f);

    return unit >= JFR_TIME_EPOCH_TICKS ? JFR_TIME_NONE : unit;
}

/* The field in `slot`, or NULL when the type has none of that shape. */
static const jfr_field *slot_field(const layout *l, int which)
{
    int i = jfrp_field_plan_index(&l->plan, (size_t)which);

    return i < 0 ? NULL : &l->type->fields[i];
}

static int layout_init(jfr_profile *p, layout *l, jfr_chunk *c, const jfr_type *t,
                       const jfrp_chunk_type *use, const jfrp_census *census)
{
    jfrp_field_want want[NSLOTS] = {{NULL, 0}};
    const char *weight_field = use ? use->source->weight_field : NULL;
    const char *census_weight;
    const jfr_field *f;
    const char *thread;
    bool census_state;
    jfr_unit unit;

    memset(l, 0, sizeof *l);
    l->type = t;
    l->use = use;
    l->lost_event = strcmp(t->name, JFRP_CPU_LOST) == 0;
    l->cpu_sample = p->is_cpu && strcmp(t->name, JFRP_CPU_SAMPLE) == 0;
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
        l->in_census = jfrp_census_wants(census, t, &census_state, &census_weight);
        l->nreaders = jfrp_census_readers(census, t, l->readers, 16);
        if ((use && use->filtered) || census_state)
            want[SLOT_STATE] = (jfrp_field_want){"state", JFRP_SHAPE_REF};
        want[SLOT_CWEIGHT] = (jfrp_field_want){census_weight, JFRP_SHAPE_INT};
        if (use && use->source->class_field && (p->flags & JFR_PROFILE_CLASS_FRAMES))
            want[SLOT_CLASS] =
                (jfrp_field_want){use->source->class_field, JFRP_SHAPE_REF};
    }
    if (jfrp_field_plan_init(&l->plan, &p->al, t, want, NSLOTS) < 0)
        return jfrp_chunk_fail(c, JFR_ENOMEM, c->header.file_offset, "out of memory");
    for (int i = 0; i < NSLOTS; i++)
        l->is_unsigned[i] = jfr_field_is_unsigned(slot_field(l, i));
    l->period_unit = span_unit(slot_field(l, SLOT_PERIOD));
    if (!weight_field || l->lost_event)
        return 0;
    if (!(f = slot_field(l, SLOT_WEIGHT)))
        return jfrp_chunk_fail_placed(
            c, JFR_PLACE_CHUNK, JFR_ENOTFOUND, c->header.file_offset,
            "%s has no integer field '%s' to weigh by", t->name, weight_field);
    l->weight_unit = span_unit(f);
    l->weighted = true;
    unit = use && use->source->weight_counts ? p->count_unit : jfrp_weight_unit(f);
    if (p->unit_known && p->unit != unit)
        return jfrp_chunk_fail_placed(
            c, JFR_PLACE_CHUNK, JFR_EFORMAT, c->header.file_offset,
            "%s.%s is in %s, the profile's other "
            "weights in %s",
            t->name, weight_field, *jfr_unit_name(unit) ? jfr_unit_name(unit) : "numbers",
            *jfr_unit_name(p->unit) ? jfr_unit_name(p->unit) : "numbers");
    p->unit = unit;
    p->unit_known = true;
    return 0;
}

/* ---- one chunk ------------------------------------------------------------------ */

/* Samples of one (stack trace, thread) pair in the chunk. */
typedef struct slot {
    uint64_t stack_key;
    uint64_t thread_key;
    uint64_t class_key; /* the class frame's class, with has_class */
    int64_t bucket;     /* time bucket, INT64_MIN: none */
    uint64_t weight;
    uint64_t samples;
    const jfr_field *class_field; /* NULL: no class frame */
    uint8_t class_kind;
    uint8_t group;
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
    uint32_t added; /* plain passes: its stack in the profile, UINT32_MAX: not yet */
} stack_info;

/* A frame of the chunk by its key, as the profile tells frames apart,
 * and its id: a small table in front of the frame cache, since stacks
 * repeat a few frames over and over. */
typedef struct frame_memo {
    uint64_t method_key;
    int32_t line;
    uint32_t id;
    uint8_t kind;
    uint8_t has_method;
    bool used;
} frame_memo;

#define FRAME_MEMO_SIZE 256u

/* A frame of the JDK's stacks by its bytes in the file (four varints in at
 * most 16 bytes) and its id: most frames are found here without decoding
 * them at all. len 0: empty. The table is larger than the frame memo: a
 * chunk's stacks repeat a few hundred to a few thousand frames, and where
 * two frequent ones share an entry they push each other out stack after
 * stack (the 76 MB many-stacks input decoded 340 k of its 7.2 M frames
 * again with 256 entries, 450 with 4,096: 5 % of `folded`'s time). */
#define BYTES_MEMO_BITS 12
#define BYTES_MEMO_SIZE (1u << BYTES_MEMO_BITS)

typedef struct bytes_memo {
    uint64_t lo, hi; /* the frame's bytes, zero after len */
    uint32_t len;
    uint32_t id;
} bytes_memo;

typedef struct chunk_pass {
    jfr_profile *p;
    jfr_chunk *c;
    const char **type_names; /* the chunk's names of the types walked */
    size_t ntypes;
    jfrp_chunk_type *uses; /* the types the sources name, with their groups */
    size_t nuses;
    const jfr_type *setting; /* jdk.ActiveSetting, when groups are to choose */
    uint32_t present;        /* groups with an event in the chunk */
    uint32_t enabled;        /* groups turned on by jdk.ActiveSetting */
    jfr_cpu_accounting cpu;  /* of the chunk, added when its group is kept */
    jfrp_census *census;     /* JFR_PROFILE_KIND_SAMPLES, else NULL */
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
    uint32_t *ids; /* frame ids of the resolved stacks; plain: of the block's */
    size_t nids, ids_room;
    /* no time, thread or class frames around a stack's frames: a stack is
     * added once, then counted by its id, and its frames are kept only
     * until its block is put */
    bool plain;
    jfrp_name_cache names;
    frame_memo memo[FRAME_MEMO_SIZE];
    bytes_memo *by_bytes;   /* BYTES_MEMO_SIZE, made when first wanted */
    const uint8_t **starts; /* jdk_frame_ids: where each frame of a stack starts */
    size_t starts_room;
    size_t *pending; /* jdk_frame_ids: the frames still without an id, top first */
    size_t pending_room;
    int64_t last_bucket;     /* the time bucket whose frame is last_bucket_id */
    uint32_t last_bucket_id; /* UINT32_MAX: none yet */
    jfrp_stacks reader;
} chunk_pass;

static void pass_free(chunk_pass *ps)
{
    const jfrp_alloc *al = &ps->p->al;

    for (size_t i = 0; i < ps->nlayouts; i++) {
        jfrp_field_plan_free(&ps->layouts[i].plan, al);
        jfrp_map_free(&ps->layouts[i].state_groups, al);
    }
    jfrp_free(al, ps->layouts);
    jfrp_free(al, ps->type_names);
    jfrp_free(al, ps->uses);
    jfrp_census_free(ps->census);
    jfrp_free(al, ps->slots);
    jfrp_index_free(&ps->index, al);
    jfrp_map_free(&ps->thread_map, al);
    jfrp_free(al, ps->threads);
    jfrp_map_free(&ps->stack_map, al);
    jfrp_free(al, ps->stacks);
    jfrp_free(al, (void *)ps->starts);
    jfrp_free(al, ps->pending);
    jfrp_free(al, ps->ids);
    jfrp_free(al, ps->by_bytes);
    jfrp_name_cache_free(ps->p, &ps->names);
    jfrp_stacks_free(&ps->reader, al);
}

static layout *layout_for(chunk_pass *ps, const jfr_type *t, int *rc)
{
    const jfrp_chunk_type *use = NULL;
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
    for (size_t i = 0; i < ps->nuses; i++)
        if (ps->uses[i].type == t)
            use = &ps->uses[i];
    if ((*rc = layout_init(ps->p, l, ps->c, t, use, ps->census)) < 0) {
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
    name.len = jfrp_name_len(name.ptr, name.len);
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

static uint64_t slot_hash(const slot *k)
{
    uint64_t h = k->stack_key * 0x9e3779b97f4a7c15ULL ^
                 (k->thread_key + k->has_stack) * 0xc2b2ae3d27d4eb4fULL ^
                 (uint64_t)k->bucket * 0x165667b19e3779f9ULL ^
                 (k->class_key + k->group) * 0x27d4eb2f165667c5ULL;

    return h ^ h >> 31;
}

static uint64_t slot_rehash(const void *ctx, uint32_t entry)
{
    return slot_hash(&((const chunk_pass *)ctx)->slots[entry]);
}

static bool same_slot(const slot *a, const slot *b)
{
    return a->stack_key == b->stack_key && a->thread_key == b->thread_key &&
           a->bucket == b->bucket && a->has_stack == b->has_stack &&
           a->class_key == b->class_key && a->class_field == b->class_field &&
           a->class_kind == b->class_kind && a->group == b->group;
}

/* Add one event to the slot of its key (weight and samples of `key` are
 * what it adds). */
static int count(chunk_pass *ps, const slot *key)
{
    uint64_t h = slot_hash(key);
    size_t i;
    slot *sl;
    int rc;

    if (ps->index.cap) {
        for (i = jfrp_index_first(&ps->index, h); ps->index.slots[i];
             i = jfrp_index_next(&ps->index, i)) {
            sl = &ps->slots[ps->index.slots[i] - 1];
            if (same_slot(sl, key)) {
                sl->weight += key->weight;
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
    *sl = *key;
    sl->samples = 1;
    jfrp_index_insert(&ps->index, h, (uint32_t)ps->nslots);
    ps->nslots++;
    return 0;
}

/* The fields of one event that a profile reads. */
typedef struct sample {
    int64_t start;
    uint64_t stack, thread, state, klass;
    bool has_start, has_stack, has_thread, has_state, has_class;
    int64_t weight, period, lost, census_weight;
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
    if ((s->has_state = at[SLOT_STATE].field != NULL))
        s->state = at[SLOT_STATE].bits;
    if ((s->has_class = at[SLOT_CLASS].field != NULL))
        s->klass = at[SLOT_CLASS].bits;
    if (at[SLOT_WEIGHT].field)
        s->weight = slot_int(l, at, SLOT_WEIGHT);
    if (at[SLOT_PERIOD].field)
        s->period = slot_int(l, at, SLOT_PERIOD);
    if (at[SLOT_LOST].field)
        s->lost = slot_int(l, at, SLOT_LOST);
    if (at[SLOT_CWEIGHT].field)
        s->census_weight = slot_int(l, at, SLOT_CWEIGHT);
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

static uint64_t to_weight(jfr_chunk *c, int64_t v, jfr_time_unit unit)
{
    int64_t ns = v;

    if (v <= 0)
        return 0;
    if (unit != JFR_TIME_NONE)
        jfr_chunk_time_nanos(&ns, c, unit, v);
    return (uint64_t)ns;
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
    /* absurd times (damage) saturate: a far bucket, never one wrapped
     * back onto the axis */
    d = jfr_nanos_between(p->bucket_origin, jfr_chunk_ticks_to_epoch_nanos(c, s->start));
    /* floor division: samples before the origin get negative buckets */
    return d >= 0 ? d / p->bucket_nanos : -(-(d + 1) / p->bucket_nanos) - 1;
}

/* The groups that keep an event of layout `l` in state `s`: every group
 * of its sources, less those whose state lists leave the state out. */
static int groups_of(chunk_pass *ps, layout *l, const sample *s, uint32_t *mask)
{
    uint64_t hit;
    int rc;

    *mask = l->use ? l->use->groups : 0;
    if (!l->use || !l->use->filtered || !s->has_state)
        return 0;
    /* a state pool has a few small keys: most events take the first way */
    if (s->state < JFRP_SMALL_STATES && l->small_states[s->state]) {
        *mask = l->small_states[s->state] - 1u;
        return 0;
    }
    if ((hit = jfrp_map_get(&l->state_groups, s->state))) {
        *mask = (uint32_t)(hit - 1);
        return 0;
    }
    if ((rc = jfrp_groups_state_keep(mask, ps->p, ps->c, l->use,
                                     slot_field(l, SLOT_STATE), s->state)) < 0)
        return rc;
    if (s->state < JFRP_SMALL_STATES)
        l->small_states[s->state] = (uint8_t)(*mask + 1);
    else if ((rc = jfrp_map_put(&l->state_groups, &ps->p->al, s->state,
                                (uint64_t)*mask + 1)) < 0)
        return rc;
    return 0;
}

static void account_cpu(chunk_pass *ps, const layout *l, const sample *s)
{
    uint64_t period = to_weight(ps->c, s->period, l->period_unit);

    ps->cpu.samples++;
    ps->cpu.with_stack += !s->failed;
    ps->cpu.failed += s->failed;
    ps->cpu.biased += s->biased;
    ps->cpu.period_ns += period;
    ps->cpu.failed_period_ns += s->failed ? period : 0;
    ps->cpu.biased_period_ns += s->biased ? period : 0;
}

/* Count the event in each group that keeps it. Once a group has an event,
 * the groups after it can no longer be chosen: they count no more. */
static int count_groups(chunk_pass *ps, const layout *l, const sample *s, uint32_t mask)
{
    jfr_profile *p = ps->p;
    slot key;
    int rc;

    memset(&key, 0, sizeof key);
    key.has_stack = s->has_stack;
    key.stack_key = s->has_stack ? s->stack : 0;
    key.thread_key = thread_slot_key(p, s);
    key.bucket = time_bucket(p, ps->c, s);
    key.weight = l->weighted ? to_weight(ps->c, s->weight, l->weight_unit) : 1;
    if (s->has_class && l->use) {
        key.class_field = slot_field(l, SLOT_CLASS);
        key.class_key = s->klass;
        key.class_kind = (uint8_t)l->use->source->class_kind;
    }
    for (unsigned g = 0; g < JFRP_MAX_GROUPS && mask; g++, mask >>= 1) {
        if (!(mask & 1))
            continue;
        key.group = (uint8_t)g;
        if ((rc = count(ps, &key)) < 0)
            return rc;
    }
    return 0;
}

/* Whether the event passes the time range and the thread filter. */
static int selected(chunk_pass *ps, const sample *s, bool *yes)
{
    int rc;

    *yes = in_range(ps->p, ps->c, s);
    if (*yes && ps->p->has_thread_re) {
        const thread_info *ti = thread_of(ps, s->thread, s->has_thread, &rc);
        if (!ti)
            return rc;
        *yes = ti->pass;
    }
    return 0;
}

static int census_event(chunk_pass *ps, const layout *l, const sample *s, bool chosen)
{
    jfrp_census_event e;

    e.type = l->type;
    e.state_field = s->has_state ? slot_field(l, SLOT_STATE) : NULL;
    e.state = s->state;
    e.weight = s->census_weight > 0 ? (uint64_t)s->census_weight : 0;
    e.selected = chosen;
    e.readers = l->readers;
    e.nreaders = l->nreaders;
    return jfrp_census_count(ps->census, &e);
}

static int take_event(chunk_pass *ps, const jfr_event *ev)
{
    jfr_profile *p = ps->p;
    layout *l;
    jfrp_reader r;
    sample s;
    uint32_t mask = 0, first;
    bool yes;
    int rc;

    if (jfrp_census_setting(ps->census, ev) | (ps->setting && ev->type == ps->setting)) {
        if (ps->setting && ev->type == ps->setting)
            ps->enabled |= jfrp_groups_enabled_by(ev, ps->uses, ps->nuses);
        return 0;
    }
    if (!ev->type->decodable)
        return 0;
    if (!(l = layout_for(ps, ev->type, &rc)))
        return rc;
    jfrp_reader_init(&r, ev->payload, (size_t)(ev->end - ev->payload),
                     jfr_event_offset(ev) + (uint64_t)(ev->payload - ev->start),
                     (ps->c->header.flags & JFR_CHUNK_FLAG_COMPRESSED_INTS) != 0);
    read_sample(l, &r, &s);
    if (r.err)
        return jfrp_reader_error(ps->c, JFR_PLACE_FIELDS, &r, ev->type->name);
    if (l->use && !l->lost_event) {
        if ((rc = groups_of(ps, l, &s, &mask)) < 0)
            return rc;
        /* which group stands for the kind: before any filter of the user's */
        ps->present |= mask;
        first = ps->present & (~ps->present + 1);
        mask &= (first << 1) - 1;
    }
    if (!mask && !l->in_census && !l->lost_event)
        return 0;
    if ((rc = selected(ps, &s, &yes)) < 0 ||
        (l->in_census && (rc = census_event(ps, l, &s, yes)) < 0))
        return rc;
    if (!yes)
        return 0;
    if (l->lost_event) {
        if (p->is_cpu) {
            p->cpu.lost += s.lost > 0 ? (uint64_t)s.lost : 0;
            p->cpu.lost_events++;
        }
        return 0;
    }
    if (!mask)
        return 0;
    if (l->cpu_sample)
        account_cpu(ps, l, &s);
    if (p->flags & JFR_PROFILE_ACCOUNTING_ONLY)
        return 0;
    return count_groups(ps, l, &s, mask);
}

/* ---- resolution ---- */

/* The frame id of a raw frame: the memo's entry when it holds the frame,
 * else the frame cache's answer, kept in the memo. */
static int frame_id(chunk_pass *ps, const jfrp_raw_frame *raw, uint32_t *id)
{
    jfrp_raw_frame f = *raw;
    frame_memo *m;
    uint64_t h;
    int rc;

    jfrp_frame_as_key(ps->p, &f);
    h = (f.method_key ^ (uint64_t)(uint32_t)f.line << 40 ^ (uint64_t)f.kind << 56) *
        0x9e3779b97f4a7c15ULL;
    m = &ps->memo[h >> 56];
    if (m->used && m->method_key == f.method_key && m->line == f.line &&
        m->kind == (uint8_t)f.kind && m->has_method == f.has_method) {
        *id = m->id;
        return 0;
    }
    if ((rc = jfrp_profile_frame(ps->p, &ps->names, ps->c, raw, id)) < 0)
        return rc;
    *m = (frame_memo){f.method_key, f.line, *id, (uint8_t)f.kind, f.has_method, true};
    return 0;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FRAME_BYTES 1
#endif

#ifdef FRAME_BYTES
/* The `len` bytes at p (1 to 16; 16 readable) in *lo, *hi, zero after
 * them. */
static inline size_t frame_bytes_of(const uint8_t *p, unsigned len, uint64_t *lo,
                                    uint64_t *hi)
{
    uint64_t a, b;

    memcpy(&a, p, 8);
    memcpy(&b, p + 8, 8);
    if (len <= 8) {
        *lo = len == 8 ? a : a & (((uint64_t)1 << (8 * len)) - 1);
        *hi = 0;
    } else {
        *lo = a;
        *hi = len == 16 ? b : b & (((uint64_t)1 << (8 * (len - 8))) - 1);
    }
    return len;
}
#endif

/* Varint ends `ends` (bit i: byte i ends one) without their first three:
 * the lowest bit left is where a JDK frame's fourth varint ends. */
static inline uint64_t past_three_varints(uint64_t ends)
{
    ends &= ends - 1;
    ends &= ends - 1;
    return ends & (ends - 1);
}

/* The length of the JDK frame at p (16 bytes readable), its four
 * varints' ends found from their bytes without a continuation bit, and
 * the bytes in *lo, *hi (zero after them); 0 when longer than 16 bytes
 * or the host is not little-endian. A ninth varint byte ends a varint
 * whatever its top bit: such a frame gets a length the decoding does not
 * agree with, and is never kept (jdk_frame_ids). */
static inline size_t jdk_frame_bytes(const uint8_t *p, uint64_t *lo, uint64_t *hi)
{
#ifdef FRAME_BYTES
    unsigned ends;

    /* bit i: byte i ends a varint */
#ifdef __SSE2__
    ends =
        ~(unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)p)) &
        0xffffu;
#else
    const uint64_t tops = 0x8080808080808080ULL;
    uint64_t a, b;

    /* the top bits gathered into one byte by a multiply */
    memcpy(&a, p, 8);
    memcpy(&b, p + 8, 8);
    ends = (unsigned)((((~a & tops) >> 7) * 0x0102040810204080ULL) >> 56) |
           (unsigned)((((~b & tops) >> 7) * 0x0102040810204080ULL) >> 56) << 8;
#endif
    ends = (unsigned)past_three_varints(ends);
    if (!ends)
        return 0;
    return frame_bytes_of(p, (unsigned)__builtin_ctz(ends) + 1, lo, hi);
#else
    (void)p;
    (void)lo;
    (void)hi;
    return 0;
#endif
}

/* The varint ends of a stack's frames, 64 bytes at a time: each frame's
 * length found by jdk_frame_bytes waits for a load at the end of the frame
 * before, and a stack's frames are read one after another, so the loads
 * made a chain (14 cycles a frame). Here the bytes at `block` are loaded
 * once, and each frame's end is the fourth end bit still set. */
typedef struct frame_ends {
    const uint8_t *block;
    uint64_t ends; /* bit i: block[i] ends a varint not yet taken; 0: load */
} frame_ends;

#if defined(FRAME_BYTES) && defined(__SSE2__)
static inline uint64_t varint_ends64(const uint8_t *p)
{
    uint64_t ends = 0;

    for (unsigned i = 0; i < 4; i++)
        ends |= (uint64_t)(uint16_t)~_mm_movemask_epi8(
                    _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i)))
                << (16 * i);
    return ends;
}
#endif

/* jdk_frame_bytes of the frame at `at` (16 bytes readable before `end`),
 * the frame after the last one `fe` gave, or any when fe->ends is 0. */
static inline size_t next_frame_bytes(frame_ends *fe, const uint8_t *at,
                                      const uint8_t *end, uint64_t *lo, uint64_t *hi)
{
#if defined(FRAME_BYTES) && defined(__SSE2__)
    uint64_t e = past_three_varints(fe->ends);
    size_t len;

    if (!e) {
        if (end - at < 64) {
            fe->ends = 0;
            return jdk_frame_bytes(at, lo, hi);
        }
        fe->block = at;
        e = past_three_varints(varint_ends64(at));
        if (!e) { /* no frame end in 64 bytes */
            fe->ends = 0;
            return 0;
        }
    }
    fe->ends = e & (e - 1);
    len = (size_t)(fe->block - at) + (size_t)__builtin_ctzll(e) + 1;
    return len <= 16 ? frame_bytes_of(at, (unsigned)len, lo, hi) : 0;
#else
    (void)fe;
    (void)end;
    return jdk_frame_bytes(at, lo, hi);
#endif
}

/* The bytes memo's entry for a frame's bytes. */
static bytes_memo *bytes_entry(chunk_pass *ps, uint64_t lo, uint64_t hi, size_t len)
{
    return &ps->by_bytes[((lo ^ hi * 0xff51afd7ed558ccdULL ^ len) *
                          0x9e3779b97f4a7c15ULL) >>
                         (64 - BYTES_MEMO_BITS)];
}

/* An entry of the bytes memo for frame bytes met in the stack being
 * read, not yet numbered. */
#define PENDING UINT32_MAX

/* Room for the `n` frames of a stack in jdk_frame_ids' arrays, and its
 * bytes memo. */
static int frames_room(chunk_pass *ps, uint64_t n)
{
    const jfrp_alloc *al = &ps->p->al;
    int rc;

    if (!ps->by_bytes &&
        !(ps->by_bytes = jfrp_calloc(al, BYTES_MEMO_SIZE, sizeof *ps->by_bytes)))
        return JFR_ENOMEM;
    if ((rc = jfrp_grow_array(al, (void **)&ps->ids, &ps->ids_room, ps->nids + n,
                              sizeof *ps->ids)) < 0 ||
        (rc = jfrp_grow_array(al, (void **)&ps->starts, &ps->starts_room, n + 1,
                              sizeof *ps->starts)) < 0 ||
        (rc = jfrp_grow_array(al, (void **)&ps->pending, &ps->pending_room, n,
                              sizeof *ps->pending)) < 0)
        return rc;
    return 0;
}

/* The frame ids of stack `key` when its frames are the JDK's, into
 * ps->ids from ps->nids, root first, and what they match: 1; 0 when the
 * stack is of another shape or ends near the chunk's end (resolve_stack
 * reads it the general way); JFR_ENOTFOUND, or an error. A frame whose
 * bytes were met before takes their id without being decoded. The frames
 * come top first; new ones are numbered root first, as resolve_stack
 * numbers them, so that frames get the same ids either way. */
static int jdk_frame_ids(chunk_pass *ps, uint64_t key, size_t *depth, uint32_t *match)
{
    jfr_profile *p = ps->p;
    jfrp_raw_frame *raw;
    const uint8_t *at, *end;
    uint64_t n;
    uint32_t *ids, matched = 0;
    size_t npending = 0;
    frame_ends fe = {NULL, 0};
    int rc = jfrp_stacks_jdk_frames(&ps->reader, &p->al, key, &at, &end, &n);

    if (rc <= 0)
        return rc;
    *depth = 0;
    *match = 0;
    if (n == 0) /* no array to point into */
        return 1;
    if ((rc = frames_room(ps, n)) < 0)
        return rc;
    ids = ps->ids + ps->nids;
    raw = ps->reader.frames;
    for (uint64_t k = 0; k < n; k++) { /* top first */
        const uint8_t *from = at;
        uint64_t lo = 0, hi = 0;
        size_t len;
        bytes_memo *m;

        if (end - at < JFRP_JDK_FRAME_MAX)
            return 0;
        ps->starts[k] = at;
        len = next_frame_bytes(&fe, at, end, &lo, &hi);
        m = bytes_entry(ps, lo, hi, len);
        if (len && m->len == len && m->lo == lo && m->hi == hi) {
            raw[k].has_method = false; /* not decoded */
            at += len;
            if (m->id != PENDING) {
                ids[n - 1 - k] = m->id;
                matched |= p->frame_match[m->id];
                continue;
            }
            /* met above in this stack: numbered below */
        } else {
            if ((rc = jfrp_stacks_jdk_frame(&ps->reader, &p->al, &at, &raw[k])) < 0)
                return rc;
            fe.ends = 0; /* the next frame's ends from where the decoding stopped */
            /* a frame whose bytes the decoding reads otherwise is not kept */
            if (len && (size_t)(at - from) == len)
                *m = (bytes_memo){lo, hi, (uint32_t)len, PENDING};
        }
        ids[n - 1 - k] = PENDING;
        ps->pending[npending++] = (size_t)k;
    }
    ps->starts[n] = at;
    while (npending > 0) { /* root first */
        size_t k = ps->pending[--npending];
        uint32_t *id = &ids[n - 1 - k];
        const uint8_t *from = ps->starts[k];
        uint64_t lo = 0, hi = 0;
        size_t len = jdk_frame_bytes(from, &lo, &hi);
        bytes_memo *m = bytes_entry(ps, lo, hi, len);

        if (len && m->len == len && m->lo == lo && m->hi == hi && m->id != PENDING) {
            *id = m->id;
        } else {
            if (!raw[k].has_method &&
                (rc = jfrp_stacks_jdk_frame(&ps->reader, &p->al, &from, &raw[k])) < 0)
                return rc;
            if ((rc = frame_id(ps, &raw[k], id)) < 0)
                return rc;
            if (len && (size_t)(ps->starts[k + 1] - ps->starts[k]) == len)
                *m = (bytes_memo){lo, hi, (uint32_t)len, *id};
        }
        matched |= p->frame_match[*id];
    }
    *depth = (size_t)n;
    *match = matched;
    return 1;
}

static int resolve_stack(chunk_pass *ps, uint64_t key, stack_info **out)
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
    uint32_t match = 0;
    int found = jdk_frame_ids(ps, key, &depth, &match);

    if (found == 0) {
        found = jfrp_stacks_read(&ps->reader, &p->al, key, &depth);
        if (found < 0 && found != JFR_ENOTFOUND)
            return found;
        if ((rc = jfrp_grow_array(&p->al, (void **)&ps->ids, &ps->ids_room,
                                  ps->nids + depth, sizeof *ps->ids)) < 0)
            return rc;
        /* frame 0 is the innermost: store from the root */
        for (size_t i = 0; i < depth; i++) {
            uint32_t id;

            if ((rc = frame_id(ps, &ps->reader.frames[depth - 1 - i], &id)) < 0)
                return rc;
            ps->ids[ps->nids + i] = id;
            match |= p->frame_match[id];
        }
    } else if (found < 0 && found != JFR_ENOTFOUND) {
        return found;
    }
    if ((rc = jfrp_grow_array(&p->al, (void **)&ps->stacks, &ps->stacks_room,
                              ps->nstacks + 1, sizeof *ps->stacks)) < 0)
        return rc;
    si = &ps->stacks[ps->nstacks];
    si->off = ps->nids;
    si->depth = (uint32_t)depth;
    si->match = match;
    si->added = UINT32_MAX;
    /* key 0 is a null stack trace; any other key must be in the pools */
    si->lost = found == JFR_ENOTFOUND && key != 0;
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

/* Slots are merged in blocks of JFRP_PUT_BATCH: each slot of a block is
 * resolved to the stack it adds (frames new to the profile are made in
 * slot order, as one slot at a time made them), then the block's stacks
 * are put together (jfrp_profile_put_stacks) in slot order. */

/* What a slot of a block adds. */
typedef struct pending {
    enum { ADD_PLAIN, ADD_SEQ } what;
    size_t stack;    /* ADD_PLAIN: index in ps->stacks, not yet in the profile */
    size_t off, len; /* ADD_SEQ: frames in the block's sequences */
    const slot *sl;
} pending;

typedef struct block {
    pending v[JFRP_PUT_BATCH];
    size_t n;
    uint32_t *seq; /* the ADD_SEQ frames of the block */
    size_t seq_len, seq_room;
} block;

/* The frame "[time N]" of time bucket `bucket`: the last one's is kept,
 * as slots of one bucket mostly follow one another. */
static int bucket_frame(chunk_pass *ps, int64_t bucket, uint32_t *id)
{
    char label[40];
    int rc;

    if (ps->last_bucket_id != UINT32_MAX && ps->last_bucket == bucket) {
        *id = ps->last_bucket_id;
        return 0;
    }
    snprintf(label, sizeof label, "[time %lld]", (long long)bucket);
    if ((rc = jfrp_profile_synthetic(ps->p, label, id)) < 0)
        return rc;
    ps->last_bucket = bucket;
    ps->last_bucket_id = *id;
    return 0;
}

/* Slot `sl` counted, or resolved into the block's next entry: its frames
 * stay in ps->ids (plain) or b->seq until the block is put. */
static int prepare_slot(chunk_pass *ps, const slot *sl, block *b)
{
    jfr_profile *p = ps->p;
    stack_info *si = NULL;
    const uint32_t *frames;
    uint32_t none, klass = UINT32_MAX, *seq;
    size_t depth, n = 0;
    uint8_t match;
    int rc;

    if (sl->has_stack && (rc = resolve_stack(ps, sl->stack_key, &si)) < 0)
        return rc;
    if (si && si->lost)
        p->lost_stack_samples += sl->samples;
    if (ps->plain && si && si->depth) {
        /* a stack not kept is never added: its slots all come here */
        if (!keep_stack(p, si->match))
            return 0;
        if (si->added != UINT32_MAX) {
            jfrp_profile_count_stack(p, si->added, sl->weight, sl->samples);
            return 0;
        }
        b->v[b->n++] = (pending){ADD_PLAIN, (size_t)(si - ps->stacks), 0, 0, sl};
        return 0;
    }
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
    if (sl->class_field) {
        if ((rc = jfrp_profile_class_frame(p, ps->c, sl->class_field, sl->class_key,
                                           (jfr_frame_kind)sl->class_kind, &klass)) < 0)
            return rc;
        if (klass != UINT32_MAX)
            match |= p->frame_match[klass];
    }
    if (!keep_stack(p, match))
        return 0;
    if ((rc = jfrp_grow_array(&p->al, (void **)&b->seq, &b->seq_room,
                              b->seq_len + depth + 3, sizeof *b->seq)) < 0)
        return rc;
    seq = b->seq + b->seq_len;
    if (sl->bucket != INT64_MIN && (rc = bucket_frame(ps, sl->bucket, &seq[n++])) < 0)
        return rc;
    if (p->flags & JFR_PROFILE_THREADS) {
        const thread_info *ti =
            thread_of(ps, sl->thread_key, sl->thread_key != UINT64_MAX, &rc);
        if (!ti)
            return rc;
        seq[n++] = ti->root;
    }
    memcpy(seq + n, frames, depth * sizeof *frames);
    n += depth;
    if (klass != UINT32_MAX)
        seq[n++] = klass;
    b->v[b->n++] = (pending){ADD_SEQ, 0, b->seq_len, n, sl};
    b->seq_len += n;
    return 0;
}

/* Put the block's stacks in slot order; empty it. A plain stack in the
 * block twice is put twice: the second put finds the first. */
static int put_block(chunk_pass *ps, block *b)
{
    jfrp_stack_put put[JFRP_PUT_BATCH];
    int rc;

    for (size_t j = 0; j < b->n; j++) {
        const pending *pe = &b->v[j];
        const stack_info *si = pe->what == ADD_PLAIN ? &ps->stacks[pe->stack] : NULL;

        /* b->seq is NULL while every entry is plain: no offset from it */
        put[j] = si ? (jfrp_stack_put){ps->ids + si->off, si->depth, pe->sl->weight,
                                       pe->sl->samples, 0}
                    : (jfrp_stack_put){b->seq + pe->off, pe->len, pe->sl->weight,
                                       pe->sl->samples, 0};
    }
    rc = jfrp_profile_put_stacks(ps->p, put, b->n);
    for (size_t j = 0; j < b->n && rc >= 0; j++)
        if (b->v[j].what == ADD_PLAIN)
            ps->stacks[b->v[j].stack].added = put[j].id;
    b->n = 0;
    b->seq_len = 0;
    if (ps->plain)
        ps->nids = 0; /* a plain stack's frames are read only until it is put */
    return rc;
}

/* How many slots ahead merge_slots starts loading a stack's pool entry. */
enum { PREFETCH_AHEAD = 4 };

/* The slots of the group that stands for the profile's kind in this
 * chunk (jfrp_groups_choose), with its CPU-time accounting. What was
 * resolved before an error is still added. */
static int merge_slots(chunk_pass *ps)
{
    unsigned chosen = jfrp_groups_choose(ps->present, ps->enabled);
    block b = {0};
    int rc = 0, put;

    jfrp_census_end(ps->census);
    for (size_t i = 0; i < ps->nuses; i++)
        if (ps->p->is_cpu && chosen < JFRP_MAX_GROUPS &&
            strcmp(ps->uses[i].source->event_type, JFRP_CPU_SAMPLE) == 0 &&
            (ps->uses[i].groups & (1u << chosen)))
            jfrp_profile_add_cpu(&ps->p->cpu, &ps->cpu);
    for (size_t i = 0; i < ps->nslots && rc >= 0; i++) {
        /* where a stack a few slots on is looked up, and its pool entry,
         * are cache misses: start them */
        if (i + 2 * PREFETCH_AHEAD < ps->nslots &&
            ps->slots[i + 2 * PREFETCH_AHEAD].has_stack)
            jfrp_map_prefetch(&ps->stack_map,
                              ps->slots[i + 2 * PREFETCH_AHEAD].stack_key);
        if (i + PREFETCH_AHEAD < ps->nslots && ps->slots[i + PREFETCH_AHEAD].has_stack)
            jfrp_stacks_prefetch(&ps->reader, ps->slots[i + PREFETCH_AHEAD].stack_key);
        if (ps->slots[i].group == chosen)
            rc = prepare_slot(ps, &ps->slots[i], &b);
        if (b.n == JFRP_PUT_BATCH && (put = put_block(ps, &b)) < 0 && rc >= 0)
            rc = put;
    }
    if ((put = put_block(ps, &b)) < 0 && rc >= 0)
        rc = put;
    jfrp_free(&ps->p->al, b.seq);
    return rc;
}

/* The types of the chunk the profile walks, by the chunk's own names (JFR
 * 1.0 ones too): those its sources name, jdk.ActiveSetting when the
 * chunk's types belong to several groups, and CPU-time profiles' lost
 * samples. */
static int select_types(chunk_pass *ps)
{
    const jfr_profile *p = ps->p;
    int rc;

    const jfr_type *census[32];
    size_t ncensus;

    if ((rc = jfrp_groups_types(&ps->uses, &ps->nuses, &ps->setting, p, ps->c)) < 0 ||
        (rc = jfrp_census_begin(&ps->census, ps->p, ps->c)) < 0)
        return rc;
    ncensus = jfrp_census_types(ps->census, census, 32);
    ps->type_names = jfrp_calloc(&p->al, ps->nuses + ncensus + 2, sizeof *ps->type_names);
    if (!ps->type_names)
        return JFR_ENOMEM;
    for (size_t i = 0; i < ps->nuses; i++)
        ps->type_names[ps->ntypes++] = ps->uses[i].type->name;
    if (ps->ntypes && ps->setting)
        ps->type_names[ps->ntypes++] = ps->setting->name;
    for (size_t i = 0; i < ncensus; i++) {
        bool seen = false;
        for (size_t j = 0; j < ps->ntypes && !seen; j++)
            seen = strcmp(ps->type_names[j], census[i]->name) == 0;
        if (!seen)
            ps->type_names[ps->ntypes++] = census[i]->name;
    }
    if (p->is_cpu) {
        const jfr_type *t = jfr_chunk_event_type(ps->c, JFRP_CPU_LOST);
        if (t)
            ps->type_names[ps->ntypes++] = t->name;
    }
    return JFR_OK;
}

/* Whether no slot of the pass puts frames around its stack's: no time
 * buckets, no thread roots, no class frames (a source of the chunk has a
 * class field and the profile asks for them). */
static bool is_plain(const chunk_pass *ps)
{
    const jfr_profile *p = ps->p;

    if (p->bucket_nanos > 0 || (p->flags & JFR_PROFILE_THREADS))
        return false;
    for (size_t i = 0; i < ps->nuses; i++)
        if (ps->uses[i].source->class_field && (p->flags & JFR_PROFILE_CLASS_FRAMES))
            return false;
    return true;
}

/* Set up the pass of `p` over `chunk`: JFR_OK with ps->ntypes types to
 * walk (none: nothing to read), or an error (the pass freed). */
static int pass_begin(chunk_pass *ps, jfr_profile *p, jfr_chunk *chunk)
{
    int rc;

    memset(ps, 0, sizeof *ps);
    ps->p = p;
    ps->c = chunk;
    jfrp_stacks_init(&ps->reader, chunk);
    if ((rc = select_types(ps)) < 0) {
        pass_free(ps);
        return jfrp_chunk_fail(chunk, rc, chunk->header.file_offset, "out of memory");
    }
    if (p->flags & JFR_PROFILE_TOP_FRAME)
        ps->reader.max_frames = 1;
    ps->plain = is_plain(ps);
    ps->last_bucket_id = UINT32_MAX;
    return JFR_OK;
}

/* Add what the pass counted to the profile, free the pass: `rc` is the
 * first error of its events, `walk` the walk's end (what was counted
 * before an error still counts). */
static int pass_end(chunk_pass *ps, int rc, int walk)
{
    int mrc = merge_slots(ps);

    if (rc >= 0 && walk < 0)
        rc = walk;
    if (rc >= 0 && mrc < 0)
        rc = mrc == JFR_ENOMEM
                 ? jfrp_chunk_fail(ps->c, mrc, ps->c->header.file_offset, "out of memory")
                 : mrc;
    pass_free(ps);
    return rc < 0 ? rc : JFR_OK;
}

static int add_chunk(jfr_profile *p, jfr_chunk *chunk)
{
    jfr_event_iter *it = NULL;
    const jfr_event *ev;
    chunk_pass ps;
    int rc, walk;

    if ((rc = pass_begin(&ps, p, chunk)) < 0)
        return rc;
    if (ps.ntypes == 0) {
        pass_free(&ps);
        return JFR_OK;
    }
    if ((rc = jfr_event_iter_new(&it, chunk, ps.type_names, ps.ntypes, 0)) < 0) {
        pass_free(&ps);
        return rc;
    }
    while ((walk = jfr_event_next(&ev, it)) == JFR_OK)
        if ((rc = take_event(&ps, ev)) < 0)
            break;
    jfr_event_iter_free(it);
    return pass_end(&ps, rc, walk);
}

/* ---- a pass over events the caller walks (jfr_profile_pass) ---- */

struct jfr_profile_pass {
    chunk_pass ps;
    uint8_t *keep; /* per type index of the chunk: a type the pass reads */
    int rc;        /* the first error of an event */
};

int jfr_profile_pass_new(jfr_profile_pass **out, jfr_profile *p, jfr_chunk *chunk)
{
    jfr_profile_pass *pass;
    size_t n;
    int rc;

    if (!out)
        return JFR_EINVAL;
    *out = NULL;
    if (!p || !chunk)
        return JFR_EINVAL;
    if (!(pass = jfrp_calloc(&p->al, 1, sizeof *pass)))
        return jfrp_chunk_fail(chunk, JFR_ENOMEM, chunk->header.file_offset,
                               "out of memory");
    if ((rc = pass_begin(&pass->ps, p, chunk)) < 0) {
        jfrp_free(&p->al, pass);
        return rc;
    }
    n = chunk->meta.ntypes;
    if (!(pass->keep = jfrp_calloc(&p->al, n ? n : 1, 1))) {
        pass_free(&pass->ps);
        jfrp_free(&p->al, pass);
        return jfrp_chunk_fail(chunk, JFR_ENOMEM, chunk->header.file_offset,
                               "out of memory");
    }
    /* every type of a name, as an iterator over the names keeps them */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < pass->ps.ntypes; j++)
            if (strcmp(chunk->meta.types[i].name, pass->ps.type_names[j]) == 0)
                pass->keep[i] = 1;
    *out = pass;
    return JFR_OK;
}

size_t jfr_profile_pass_types(const char *const **names, const jfr_profile_pass *pass)
{
    if (!names || !pass)
        return 0;
    *names = pass->ps.type_names;
    return pass->ps.ntypes;
}

int jfr_profile_pass_add(jfr_profile_pass *pass, const jfr_event *ev)
{
    if (!pass || !ev)
        return JFR_EINVAL;
    if (pass->rc < 0 || !ev->type || ev->chunk != pass->ps.c ||
        !pass->keep[ev->type->index])
        return pass->rc;
    pass->rc = take_event(&pass->ps, ev);
    return pass->rc < 0 ? pass->rc : JFR_OK;
}

int jfr_profile_pass_finish(jfr_profile_pass *pass, int walk)
{
    const jfrp_alloc *al;
    int rc;

    if (!pass)
        return JFR_EINVAL;
    al = &pass->ps.p->al;
    jfrp_free(al, pass->keep);
    rc = pass_end(&pass->ps, pass->rc, walk < 0 ? walk : JFR_OK);
    jfrp_free(al, pass);
    return rc;
}

void jfr_profile_pass_free(jfr_profile_pass *pass)
{
    const jfrp_alloc *al;

    if (!pass)
        return;
    al = &pass->ps.p->al;
    jfrp_free(al, pass->keep);
    pass_free(&pass->ps);
    jfrp_free(al, pass);
}

int jfr_profile_add_chunk(jfr_profile *p, jfr_chunk *chunk)
{
    int rc;

    if (!p || !chunk)
        return JFR_EINVAL;
    rc = add_chunk(p, chunk);
    return rc;
}
