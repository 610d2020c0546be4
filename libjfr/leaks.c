/* leaks.c - the leak analysis object and the decoding of
 * jdk.OldObjectSample events with their reference chains (jfr-format.md
 * §10.5). Fields are found by name, so JDK 11 to 25 layouts all work (JDK 25
 * added objectSize). Everything kept is copied into the analysis: strings
 * are interned, chains and frames live in its arena. */
#include <string.h>

#include "jfr_private.h"
#include "leaks_private.h"

#define DEFAULT_THRESHOLD  0.5
#define DEFAULT_MAX_CHAIN  1024
#define DEFAULT_MAX_FRAMES 64

/* ---- small helpers ------------------------------------------------------------ */

static const char *intern_str(jfr_leaks *lk, const jfr_str *s, int *rc)
{
    return s->ptr ? jfrp_leaks_intern(lk, s->ptr, jfrp_name_len(s->ptr, s->len), rc)
                  : NULL;
}

static int scratch_reserve(jfr_leaks *lk, size_t need)
{
    return jfrp_leaks_grow(lk, (void **)&lk->scratch, &lk->scratch_cap, need, 1);
}

/* A class name as stored ("java/util/HashMap", "[Ljava/lang/Object;", "[B")
 * in Java form ("java.util.HashMap", "java.lang.Object[]", "byte[]"), the
 * way jfr print and jfr view show it. Interned. */
static const char *java_type_name(jfr_leaks *lk, const jfr_str *s, int *rc)
{
    size_t n, len;

    if (!s->ptr)
        return NULL;
    len = jfrp_name_len(s->ptr, s->len);
    n = jfr_name_of_class(NULL, 0, s->ptr, len, 0);
    if ((*rc = scratch_reserve(lk, n + 1)) < 0)
        return NULL;
    jfr_name_of_class(lk->scratch, n, s->ptr, len, 0);
    return jfrp_leaks_intern(lk, lk->scratch, n, rc);
}

/* ---- field access -------------------------------------------------------------- */

/* An integer field of `obj`; `*present` false when absent or not an int. */
static int int_field(int64_t *out, bool *present, const jfr_value *obj, const char *name)
{
    jfr_value v;
    int rc;

    *out = 0;
    *present = false;
    if (obj->kind != JFR_VALUE_OBJECT)
        return 0;
    rc = jfr_value_field(&v, obj, name);
    if (rc == JFR_ENOTFOUND)
        return 0;
    if (rc < 0)
        return rc;
    if (v.kind == JFR_VALUE_INT) {
        *out = v.as.i;
        *present = true;
    }
    return 0;
}

/* A time field in nanoseconds; `ticks` is the unit when the field names
 * none it knows (a timespan or a timestamp in ticks, as the JDK writes). */
static int64_t time_nanos(jfr_chunk *c, const jfr_value *v, jfr_time_unit ticks)
{
    jfr_time_unit unit = jfr_field_time_unit(v->field);
    int64_t ns;

    jfr_chunk_time_nanos(&ns, c, unit ? unit : ticks, v->as.i);
    return ns;
}

/* ---- the allocation stack -------------------------------------------------------- */

/* Per chunk: what the frames' methods say about their classes. */
typedef struct method_info {
    uint64_t class_key;
    bool application;
} method_info;

typedef struct chunk_ctx {
    jfr_leaks *lk;
    jfr_chunk *chunk;
    uint32_t rec;
    jfrp_arena scratch; /* method_info entries, reset per chunk */
    jfrp_map methods;   /* method key -> method_info * */
    jfrp_map seen;      /* addresses of the chain being walked */
} chunk_ctx;

/* The class of a method and whether it is application code
 * (jfr_chunk_method_is_application), as the JDK's memory-leaks-by-site view
 * decides. */
static const method_info *method_class(chunk_ctx *cx, uint64_t key, int *rc)
{
    jfr_chunk *c = cx->chunk;
    uint64_t hit = jfrp_map_get(&cx->methods, key);
    method_info *mi;
    jfr_value mv, cv;

    if (hit)
        return (const method_info *)(uintptr_t)hit;
    if (!(mi = jfrp_arena_calloc(&cx->scratch, 1, sizeof *mi))) {
        *rc = JFR_ENOMEM;
        return NULL;
    }
    memset(&mv, 0, sizeof mv);
    if (c->meta.known.method &&
        (*rc = jfrp_pool_value(&mv, c, c->meta.known.method, key)) < 0)
        return NULL;
    if (mv.kind == JFR_VALUE_OBJECT && jfr_value_field(&cv, &mv, "type") == JFR_OK &&
        cv.kind == JFR_VALUE_OBJECT)
        mi->class_key = cv.pooled ? cv.key : 0;
    if ((*rc = jfrp_method_is_application(&mv)) < 0)
        return NULL;
    mi->application = *rc == 1;
    *rc = 0;
    if ((*rc = jfrp_map_put(&cx->methods, &cx->lk->al, key, (uint64_t)(uintptr_t)mi)) < 0)
        return NULL;
    return mi;
}

static int decode_stack(chunk_ctx *cx, jfr_leak_sample *s, const jfr_event *ev)
{
    jfr_leaks *lk = cx->lk;
    const jfr_stacktrace *st;
    jfr_leak_frame *frames;
    size_t depth, keep;
    int rc = jfr_event_stacktrace(&st, ev);

    s->app_frame = -1;
    if (rc == JFR_ENOTFOUND)
        return 0;
    if (rc < 0)
        return rc;
    depth = jfr_stacktrace_depth(st);
    keep = depth < lk->opts.max_frames ? depth : lk->opts.max_frames;
    s->frames_truncated = jfr_stacktrace_truncated(st) || keep < depth;
    if (!keep)
        return 0;
    if (!(frames = jfrp_arena_calloc(&lk->arena, keep, sizeof *frames)))
        return JFR_ENOMEM;
    for (size_t i = 0; i < keep; i++) {
        jfr_frame f;
        const method_info *mi;

        if ((rc = jfr_stacktrace_frame(&f, st, i)) < 0)
            return rc;
        rc = 0;
        frames[i].class_name = intern_str(lk, &f.class_name, &rc);
        frames[i].method = intern_str(lk, &f.method_name, &rc);
        frames[i].descriptor = intern_str(lk, &f.descriptor, &rc);
        frames[i].line = f.line;
        if (rc < 0 || !(mi = method_class(cx, f.method_key, &rc)))
            return rc < 0 ? rc : JFR_ENOMEM;
        frames[i].class_key = mi->class_key;
        frames[i].application = mi->application;
        if (mi->application && s->app_frame < 0)
            s->app_frame = (int32_t)i;
    }
    s->frames = frames;
    s->nframes = keep;
    return 0;
}

/* ---- the reference chain ---------------------------------------------------------- */

/* Type, address and description of an OldObject value into `link`. */
static int read_object(jfr_leaks *lk, jfrp_leak_link *link, const jfr_value *o)
{
    jfr_value av, tv;
    jfr_str name, desc;
    int rc = 0;

    memset(link, 0, sizeof *link);
    link->array_index = -1;
    link->array_size = -1;
    if (jfr_value_field(&av, o, "address") == JFR_OK && av.kind == JFR_VALUE_INT)
        link->address = av.bits;
    if (jfr_value_field(&tv, o, "type") == JFR_OK && tv.kind == JFR_VALUE_OBJECT) {
        if ((rc = jfr_value_string_field(&name, &tv, "name")) < 0)
            return rc;
        link->type = java_type_name(lk, &name, &rc);
    }
    if (rc < 0 || (rc = jfr_value_string_field(&desc, o, "description")) < 0)
        return rc;
    link->description = intern_str(lk, &desc, &rc);
    return rc;
}

/* The reference `r` (jdk.types.Reference) into link: field or array slot
 * and the number of objects skipped. */
static int read_reference(jfr_leaks *lk, jfrp_leak_link *link, const jfr_value *r)
{
    jfr_value fv, av;
    jfr_str fname;
    int64_t v;
    bool present;
    int rc = 0;

    if (jfr_value_field(&fv, r, "field") == JFR_OK && fv.kind == JFR_VALUE_OBJECT) {
        if ((rc = jfr_value_string_field(&fname, &fv, "name")) < 0)
            return rc;
        link->field = intern_str(lk, &fname, &rc);
        if (rc < 0 || (rc = int_field(&v, &present, &fv, "modifiers")) < 0)
            return rc;
        link->modifiers = (int32_t)v;
    }
    if (jfr_value_field(&av, r, "array") == JFR_OK && av.kind == JFR_VALUE_OBJECT) {
        if ((rc = int_field(&v, &present, &av, "index")) < 0)
            return rc;
        link->array_index = present ? (int32_t)v : -1;
        if ((rc = int_field(&v, &present, &av, "size")) < 0)
            return rc;
        link->array_size = present ? (int32_t)v : -1;
    }
    if ((rc = int_field(&v, &present, r, "skip")) < 0)
        return rc;
    link->skip = v > 0 ? v : 0;
    return 0;
}

/* A pool reference that names an entry the chunk does not define. */
static bool dangling(const jfr_value *v)
{
    return v->kind == JFR_VALUE_NULL && v->pooled && v->key != 0;
}

enum chain_end { CHAIN_DONE, CHAIN_CYCLE, CHAIN_DANGLING, CHAIN_TOO_LONG };

/* Follow object -> referrer -> object ... iteratively, at most max_chain
 * objects, stopping at a repeated address (a cycle) or an undefined entry. */
static int walk_chain(chunk_ctx *cx, const jfr_value *first, jfrp_leak_link **out,
                      size_t *nout, enum chain_end *end)
{
    jfr_leaks *lk = cx->lk;
    jfrp_leak_link *links = NULL;
    size_t n = 0, cap = 0;
    jfr_value o = *first, r;
    int rc = 0;

    *end = CHAIN_DONE;
    cx->seen.count = 0;
    if (cx->seen.cap)
        memset(cx->seen.vals, 0, cx->seen.cap * sizeof *cx->seen.vals);
    while (o.kind == JFR_VALUE_OBJECT) {
        jfrp_leak_link link;
        uint64_t ident;

        if (n >= lk->opts.max_chain) {
            *end = CHAIN_TOO_LONG;
            break;
        }
        if ((rc = read_object(lk, &link, &o)) < 0)
            goto fail;
        /* an object without address is identified by its pool key */
        ident = link.address ? link.address : (o.key | (1ULL << 63));
        if (jfrp_map_get(&cx->seen, ident)) {
            *end = CHAIN_CYCLE;
            break;
        }
        if ((rc = jfrp_map_put(&cx->seen, &lk->al, ident, 1)) < 0 ||
            (rc = jfrp_leaks_grow(lk, (void **)&links, &cap, n + 1, sizeof *links)) < 0)
            goto fail;
        memset(&r, 0, sizeof r);
        if (jfr_value_field(&r, &o, "referrer") != JFR_OK || r.kind != JFR_VALUE_OBJECT) {
            if (dangling(&r))
                *end = CHAIN_DANGLING;
            links[n++] = link;
            break;
        }
        if ((rc = read_reference(lk, &link, &r)) < 0)
            goto fail;
        links[n++] = link;
        if (jfr_value_field(&o, &r, "object") != JFR_OK) {
            o.kind = JFR_VALUE_NULL;
            o.pooled = false;
        }
        if (dangling(&o)) {
            *end = CHAIN_DANGLING;
            break;
        }
    }
    if (n) {
        jfrp_leak_link *copy = jfrp_arena_alloc(&lk->arena, n * sizeof *copy);
        if (!copy) {
            rc = JFR_ENOMEM;
            goto fail;
        }
        memcpy(copy, links, n * sizeof *copy);
        *out = copy;
    }
    *nout = n;
    jfrp_free(&lk->al, links);
    return 0;
fail:
    jfrp_free(&lk->al, links);
    return rc;
}

/* ---- one event ----------------------------------------------------------------- */

static int read_root(jfr_leaks *lk, jfr_leak_sample *s, const jfr_value *root)
{
    jfr_value sys, typ;
    jfr_str str;
    int rc = 0;

    if (root->kind != JFR_VALUE_OBJECT)
        return 0;
    if ((rc = jfr_value_string_field(&str, root, "description")) < 0)
        return rc;
    s->root_description = intern_str(lk, &str, &rc);
    if (rc == 0 && jfr_value_field(&sys, root, "system") == JFR_OK) {
        if ((rc = jfr_value_string_field(&str, &sys, "system")) < 0)
            return rc;
        if (!str.ptr && jfr_value_unwrap(&sys, &sys) == JFR_OK &&
            sys.kind == JFR_VALUE_STRING)
            str = sys.as.str;
        s->root_system = intern_str(lk, &str, &rc);
    }
    if (rc == 0 && jfr_value_field(&typ, root, "type") == JFR_OK) {
        if ((rc = jfr_value_string_field(&str, &typ, "type")) < 0)
            return rc;
        if (!str.ptr && jfr_value_unwrap(&typ, &typ) == JFR_OK &&
            typ.kind == JFR_VALUE_STRING)
            str = typ.as.str;
        s->root_type = intern_str(lk, &str, &rc);
    }
    return rc;
}

static int read_thread(jfr_leaks *lk, jfr_leak_sample *s, const jfr_event *ev)
{
    jfr_thread th;
    int rc = 0;

    if (jfr_event_thread(&th, ev, "eventThread") != JFR_OK)
        return 0;
    s->thread = th.java_name.ptr ? intern_str(lk, &th.java_name, &rc)
                                 : intern_str(lk, &th.os_name, &rc);
    return rc;
}

/* The scalar fields, by name. */
static void read_scalar(jfr_chunk *c, jfr_leak_sample *s, const jfr_value *v,
                        int64_t *duration)
{
    const char *name = jfr_field_name(v->field);

    if (v->kind != JFR_VALUE_INT || !name)
        return;
    if (strcmp(name, "duration") == 0)
        *duration = time_nanos(c, v, JFR_TIME_TICKS);
    else if (strcmp(name, "allocationTime") == 0) {
        s->has_allocation_time = true;
        s->allocation_nanos = time_nanos(c, v, JFR_TIME_EPOCH_TICKS);
    } else if (strcmp(name, "objectAge") == 0)
        s->age_nanos = time_nanos(c, v, JFR_TIME_TICKS);
    else if (strcmp(name, "lastKnownHeapUsage") == 0)
        s->heap_usage = (int64_t)v->bits;
    else if (strcmp(name, "objectSize") == 0)
        s->object_size = (int64_t)v->bits;
    else if (strcmp(name, "arrayElements") == 0) {
        s->has_array_elements = true;
        s->array_elements = (int32_t)v->as.i;
    }
}

static int add_sample(chunk_ctx *cx, const jfr_event *ev)
{
    jfr_leaks *lk = cx->lk;
    jfr_chunk *c = cx->chunk;
    jfr_leak_sample *s;
    jfr_value whole, v, object, root;
    jfr_cursor cur;
    jfrp_leak_link *chain = NULL;
    size_t nchain = 0;
    enum chain_end end;
    int64_t duration = 0;
    int rc;

    if ((rc = jfrp_leaks_grow(lk, (void **)&lk->samples, &lk->samples_cap,
                              lk->nsamples + 1, sizeof *lk->samples)) < 0)
        return rc;
    if ((rc = jfrp_leaks_grow(lk, (void **)&lk->chains, &lk->chains_cap, lk->nsamples + 1,
                              sizeof *lk->chains)) < 0)
        return rc;
    s = &lk->samples[lk->nsamples];
    memset(s, 0, sizeof *s);
    s->recording = cx->rec;
    s->age_nanos = -1;
    s->heap_usage = -1;
    s->object_size = -1;
    s->array_elements = INT32_MIN;
    s->node = JFR_LEAK_NONE;
    s->start_nanos = jfr_chunk_ticks_to_epoch_nanos(c, jfr_event_start_ticks(ev));
    object.kind = JFR_VALUE_NULL;
    root.kind = JFR_VALUE_NULL;
    if ((rc = jfr_event_value(&whole, ev)) < 0 || (rc = jfr_value_iter(&cur, &whole)) < 0)
        return rc;
    while ((rc = jfr_cursor_next(&v, &cur)) == JFR_OK) {
        const char *name = jfr_field_name(v.field);
        if (name && strcmp(name, "object") == 0)
            object = v;
        else if (name && strcmp(name, "root") == 0)
            root = v;
        else
            read_scalar(c, s, &v, &duration);
    }
    if (rc < 0)
        return rc;
    /* damaged times saturate instead of overflowing */
    if (__builtin_add_overflow(s->start_nanos, duration, &s->end_nanos))
        s->end_nanos = duration > 0 ? INT64_MAX : INT64_MIN;
    if ((rc = read_thread(lk, s, ev)) < 0 || (rc = decode_stack(cx, s, ev)) < 0 ||
        (rc = read_root(lk, s, &root)) < 0)
        return rc;
    if ((rc = walk_chain(cx, &object, &chain, &nchain, &end)) < 0)
        return rc;
    if (nchain) {
        s->address = chain[0].address;
        s->object_type = chain[0].type;
        s->description = chain[0].description;
        s->chain_length = nchain - 1;
    }
    if (object.kind == JFR_VALUE_OBJECT) {
        jfr_value tv;
        if (jfr_value_field(&tv, &object, "type") == JFR_OK && tv.pooled)
            s->object_class_key = tv.key;
    }
    if (end != CHAIN_DONE) {
        s->chain_broken = true;
        lk->stats.broken_chains++;
        lk->stats.cycles += end == CHAIN_CYCLE;
        lk->stats.dangling += end == CHAIN_DANGLING;
        lk->stats.too_long += end == CHAIN_TOO_LONG;
    }
    lk->stats.samples++;
    lk->stats.with_chain += s->chain_length > 0;
    lk->recs[cx->rec].warmup.samples++;
    lk->chains[lk->nsamples] = chain;
    lk->nsamples++;
    lk->merged = false;
    return 0;
}

static int add_class_count(chunk_ctx *cx, const jfr_event *ev)
{
    jfr_leaks *lk = cx->lk;
    jfrp_leak_recording *r = &lk->recs[cx->rec];
    jfr_value v;
    int rc;

    if (jfr_event_field(&v, ev, "loadedClassCount") != JFR_OK || v.kind != JFR_VALUE_INT)
        return 0;
    if ((rc = jfrp_leaks_grow(lk, (void **)&r->counts, &r->cap, r->ncounts + 1,
                              sizeof *r->counts)) < 0)
        return rc;
    r->counts[r->ncounts].nanos =
        jfr_chunk_ticks_to_epoch_nanos(cx->chunk, jfr_event_start_ticks(ev));
    r->counts[r->ncounts].loaded = (uint64_t)v.as.i;
    r->ncounts++;
    lk->merged = false;
    return 0;
}

/* ---- the public surface ------------------------------------------------------------ */

int jfr_leaks_new(jfr_leaks **out, const jfr_leaks_options *opts, jfr_error *err)
{
    jfr_leaks_options o = JFR_LEAKS_OPTIONS_INIT;
    jfrp_alloc al;
    jfr_leaks *lk;

    if (!out)
        return JFR_EINVAL;
    *out = NULL;
    if (opts) {
        if (opts->version != JFR_LEAKS_OPTIONS_VERSION)
            return jfrp_fail(err, JFR_EINVAL, -1, 0,
                             "leak options version %u, expected %d", opts->version,
                             JFR_LEAKS_OPTIONS_VERSION);
        if (!(opts->threshold >= 0))
            return jfrp_fail(err, JFR_EINVAL, -1, 0, "negative leak threshold");
        o = *opts;
    }
    if (o.threshold == 0)
        o.threshold = DEFAULT_THRESHOLD;
    if (o.max_chain == 0)
        o.max_chain = DEFAULT_MAX_CHAIN;
    if (o.max_frames == 0)
        o.max_frames = DEFAULT_MAX_FRAMES;
    jfrp_alloc_init(&al, o.allocator);
    if (!(lk = jfrp_calloc(&al, 1, sizeof *lk)))
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    lk->al = al;
    lk->opts = o;
    jfrp_arena_init(&lk->arena, &lk->al);
    jfrp_intern_init(&lk->strings, &lk->al);
    *out = lk;
    return JFR_OK;
}

static int start_recording(jfr_leaks *lk)
{
    int rc = jfrp_leaks_grow(lk, (void **)&lk->recs, &lk->recs_cap, lk->nrecs + 1,
                             sizeof *lk->recs);

    if (rc < 0)
        return rc;
    memset(&lk->recs[lk->nrecs], 0, sizeof lk->recs[0]);
    lk->nrecs++;
    lk->stats.recordings = lk->nrecs;
    return 0;
}

int jfr_leaks_add_chunk(jfr_leaks *lk, jfr_chunk *chunk)
{
    static const char *const types[] = {"jdk.OldObjectSample",
                                        "jdk.ClassLoadingStatistics"};
    jfr_event_iter *it = NULL;
    const jfr_event *ev;
    chunk_ctx cx;
    int rc;

    if (!lk || !chunk)
        return JFR_EINVAL;
    if ((jfr_chunk_index(chunk) == 0 || lk->nrecs == 0) && (rc = start_recording(lk)) < 0)
        return jfrp_chunk_fail(chunk, rc, chunk->header.file_offset, "out of memory");
    memset(&cx, 0, sizeof cx);
    cx.lk = lk;
    cx.chunk = chunk;
    cx.rec = (uint32_t)(lk->nrecs - 1);
    jfrp_arena_init(&cx.scratch, &lk->al);
    if ((rc = jfr_event_iter_new(&it, chunk, types, 2, 0)) < 0)
        goto done;
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
        const char *name = jfr_type_name(jfr_event_type(ev));
        if (strcmp(name, types[0]) == 0)
            rc = add_sample(&cx, ev);
        else
            rc = add_class_count(&cx, ev);
        if (rc < 0)
            break;
    }
    if (rc == JFR_DONE)
        rc = JFR_OK;
    else if (rc == JFR_ENOMEM && jfr_recording_error(chunk->rec)->code != JFR_ENOMEM)
        rc = jfrp_chunk_fail(chunk, rc, chunk->header.file_offset,
                             "out of memory reading old-object samples");
done:
    jfr_event_iter_free(it);
    jfrp_map_free(&cx.methods, &lk->al);
    jfrp_map_free(&cx.seen, &lk->al);
    jfrp_arena_free(&cx.scratch);
    return rc;
}

size_t jfr_leaks_sample_count(const jfr_leaks *lk)
{
    return lk ? lk->nsamples : 0;
}

const jfr_leak_sample *jfr_leaks_sample_at(const jfr_leaks *lk, size_t i)
{
    return lk && i < lk->nsamples ? &lk->samples[i] : NULL;
}

size_t jfr_leaks_recording_count(const jfr_leaks *lk)
{
    return lk ? lk->nrecs : 0;
}

const jfr_leaks_warmup *jfr_leaks_warmup_at(const jfr_leaks *lk, size_t i)
{
    return lk && i < lk->nrecs ? &lk->recs[i].warmup : NULL;
}

const jfr_leaks_stats *jfr_leaks_stats_get(const jfr_leaks *lk)
{
    return lk ? &lk->stats : NULL;
}

void jfr_leaks_free(jfr_leaks *lk)
{
    if (!lk)
        return;
    for (size_t i = 0; i < lk->nrecs; i++) {
        jfrp_free(&lk->al, lk->recs[i].counts);
        jfrp_map_free(&lk->recs[i].nodes, &lk->al);
    }
    jfrp_free(&lk->al, lk->recs);
    jfrp_free(&lk->al, lk->samples);
    jfrp_free(&lk->al, lk->chains);
    jfrp_free(&lk->al, lk->nodes);
    jfrp_free(&lk->al, lk->trees);
    jfrp_free(&lk->al, lk->cands);
    jfrp_free(&lk->al, lk->left);
    jfrp_free(&lk->al, lk->taken);
    jfrp_free(&lk->al, lk->rank_rows);
    jfrp_free(&lk->al, lk->scratch);
    jfrp_intern_free(&lk->strings);
    jfrp_arena_free(&lk->arena);
    jfrp_free(&lk->al, lk);
}
