/* stack.c - stack traces, frames, methods and threads resolved from the
 * constant pools (jfr-format.md §10.1). Each stack trace and each method is
 * resolved once per chunk and cached. */
#include <string.h>

#include "jfr_private.h"
#include "field_plan.h"

typedef struct jfrp_frame_kind {
    jfr_frame_kind kind;
    jfr_str name;
} jfrp_frame_kind;

typedef struct raw_frame {
    uint64_t method_key;
    int32_t line;
    int32_t bci;
    uint64_t type_key;
    bool has_method;
    bool has_type;
} raw_frame;

struct jfr_stacktrace {
    jfr_chunk *chunk;
    uint64_t key;
    bool truncated;
    size_t depth;
    raw_frame *frames;
};

static int int_field(int64_t *out, const jfr_value *obj, const char *name)
{
    jfr_value v;
    int rc = jfr_value_field(&v, obj, name);

    *out = 0;
    if (rc == JFR_ENOTFOUND)
        return 0;
    if (rc < 0)
        return rc;
    if (v.kind == JFR_VALUE_INT)
        *out = v.as.i;
    else if (v.kind == JFR_VALUE_BOOLEAN)
        *out = v.as.boolean;
    return 0;
}

/* The fields the method resolver reads, as plan slots. */
enum { M_CLASS, M_NAME, M_DESCRIPTOR, M_MODIFIERS, M_HIDDEN, M_SLOTS };

/* The chunk's plan for `type`, made on first use (its slots live in the
 * chunk's arena; field_plan_free in chunk.c releases the rest). */
static const jfrp_field_plan *chunk_plan(jfr_chunk *c, jfrp_field_plan **slot,
                                         const jfr_type *type,
                                         const jfrp_field_want *want, size_t n, int *rc)
{
    if (!*slot) {
        jfrp_field_plan *plan = jfrp_arena_calloc(&c->arena, 1, sizeof *plan);
        if (!plan || (*rc = jfrp_field_plan_init(plan, &c->rec->al, type, want, n)) < 0) {
            *rc = JFR_ENOMEM;
            return NULL;
        }
        *slot = plan;
    }
    return *slot;
}

/* Read the pool entry (type, key) through a plan; false when absent. */
static bool read_entry(jfr_chunk *c, const jfrp_field_plan *plan, uint64_t key,
                       jfrp_field_at *at, int *rc)
{
    uint64_t off;
    jfrp_reader r;

    jfrp_pools_ensure(c);
    if (!(off = jfrp_pool_lookup(plan->type, key)))
        return false;
    jfrp_chunk_reader(&r, c, off);
    jfrp_field_plan_read(plan, &r, at);
    *rc = r.err;
    return !r.err;
}

/* A type whose values are one inline string (jdk.types.Symbol), as
 * jfr_value_unwrap sees through. */
static bool is_string_wrapper(const jfr_type *t)
{
    const jfr_field *f = t && t->simple && t->nfields == 1 ? &t->fields[0] : NULL;

    return f && !f->array && !f->pooled && f->type && f->type->kind == JFR_KIND_STRING;
}

/* A string field, inline or through a Symbol, read by a plan. A Symbol
 * reference is read straight from its pool entry: the generic path makes
 * an object value first, and method names are most of a small chunk's
 * name resolution. */
static int string_at(jfr_str *out, jfr_chunk *c, const jfrp_field_at *at)
{
    jfr_value v, inner;
    jfrp_reader r;
    int rc;

    out->ptr = NULL;
    out->len = 0;
    if (!at->field)
        return 0;
    if (at->field->pooled && !at->field->array && is_string_wrapper(at->field->type)) {
        uint64_t off;

        jfrp_pools_ensure(c);
        if (!(off = jfrp_pool_lookup(at->field->type, at->bits)))
            return 0; /* an undefined key: null */
        jfrp_chunk_reader(&r, c, off);
        return jfrp_read_string(out, &c->pool_ctx, &r);
    }
    jfrp_chunk_reader(&r, c, (uint64_t)(at->pos - c->data));
    if ((rc = jfrp_read_field(&v, &c->pool_ctx, &r, at->field)) < 0 ||
        (rc = jfr_value_unwrap(&inner, &v)) < 0)
        return rc;
    if (inner.kind == JFR_VALUE_STRING)
        *out = inner.as.str;
    return 0;
}

/* The name of entry `key` of `klass`, which must be the chunk's
 * java.lang.Class: the chunk keeps one plan, for that type. */
static int class_name(jfr_str *out, jfr_chunk *c, const jfr_type *klass, uint64_t key)
{
    static const jfrp_field_want want[] = {{"name", JFRP_SHAPE_REF | JFRP_SHAPE_STRING}};
    const jfrp_field_plan *plan;
    jfrp_field_at name;
    int rc = 0;

    out->ptr = NULL;
    out->len = 0;
    if (!klass || klass != c->meta.known.klass)
        return 0;
    if (!(plan = chunk_plan(c, &c->class_plan, klass, want, 1, &rc)))
        return rc;
    if (!read_entry(c, plan, key, &name, &rc))
        return rc;
    return string_at(out, c, &name);
}

int jfrp_chunk_class_name(jfr_str *out, jfr_chunk *c, const jfr_field *field,
                          uint64_t key)
{
    out->ptr = NULL;
    out->len = 0;
    if (!field || !field->pooled || field->array)
        return 0;
    return class_name(out, c, field->type, key);
}

int jfrp_chunk_class_key_name(jfr_str *out, jfr_chunk *c, uint64_t key)
{
    return class_name(out, c, c->meta.known.klass, key);
}

const jfrp_method *jfrp_chunk_method(jfr_chunk *c, uint64_t key, int *rc)
{
    static const jfrp_field_want want[M_SLOTS] = {
        [M_CLASS] = {"type", JFRP_SHAPE_REF},
        [M_NAME] = {"name", JFRP_SHAPE_REF | JFRP_SHAPE_STRING},
        [M_DESCRIPTOR] = {"descriptor", JFRP_SHAPE_REF | JFRP_SHAPE_STRING},
        [M_MODIFIERS] = {"modifiers", JFRP_SHAPE_INT | JFRP_SHAPE_BOOL},
        [M_HIDDEN] = {"hidden", JFRP_SHAPE_INT | JFRP_SHAPE_BOOL},
    };
    uint64_t hit = jfrp_map_get(&c->method_cache, key);
    const jfrp_field_plan *plan;
    jfrp_field_at at[M_SLOTS];
    jfrp_method *m;

    *rc = 0;
    if (hit)
        return (const jfrp_method *)(uintptr_t)hit;
    if (!c->meta.known.method ||
        !(plan =
              chunk_plan(c, &c->method_plan, c->meta.known.method, want, M_SLOTS, rc)) ||
        !read_entry(c, plan, key, at, rc))
        return NULL;
    m = jfrp_arena_calloc(&c->arena, 1, sizeof *m);
    if (!m) {
        *rc = JFR_ENOMEM;
        return NULL;
    }
    if ((*rc = string_at(&m->name, c, &at[M_NAME])) < 0 ||
        (*rc = string_at(&m->descriptor, c, &at[M_DESCRIPTOR])) < 0 ||
        (*rc = class_name(&m->class_name, c,
                          at[M_CLASS].field ? at[M_CLASS].field->type : NULL,
                          at[M_CLASS].bits)) < 0)
        return NULL;
    if (at[M_MODIFIERS].field)
        m->modifiers = (int32_t)at[M_MODIFIERS].bits;
    m->hidden = at[M_HIDDEN].field && at[M_HIDDEN].bits != 0;
    if ((*rc = jfrp_map_put(&c->method_cache, &c->rec->al, key, (uint64_t)(uintptr_t)m)) <
        0)
        return NULL;
    return m;
}

jfr_frame_kind jfrp_frame_kind_by_name(const char *s)
{
    static const struct {
        const char *name;
        jfr_frame_kind kind;
    } names[] = {
        {"Interpreted", JFR_FRAME_INTERPRETED},
        {"JIT compiled", JFR_FRAME_JIT},
        {"Inlined", JFR_FRAME_INLINED},
        {"Native", JFR_FRAME_NATIVE},
        {"C++", JFR_FRAME_CPP},
        {"Kernel", JFR_FRAME_KERNEL},
        {"C1 compiled", JFR_FRAME_C1},
    };
    for (size_t i = 0; s && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i].name) == 0)
            return names[i].kind;
    return JFR_FRAME_UNKNOWN;
}

static const jfrp_frame_kind *resolve_frame_kind(jfr_chunk *c, uint64_t key, int *rc)
{
    uint64_t hit = jfrp_map_get(&c->frame_kind_cache, key);
    jfrp_frame_kind *k;
    jfr_value v, inner;

    *rc = 0;
    if (hit)
        return (const jfrp_frame_kind *)(uintptr_t)hit;
    k = jfrp_arena_calloc(&c->arena, 1, sizeof *k);
    if (!k) {
        *rc = JFR_ENOMEM;
        return NULL;
    }
    memset(&v, 0, sizeof v);
    if (c->meta.known.frame_type &&
        (*rc = jfrp_pool_value(&v, c, c->meta.known.frame_type, key)) == 0 &&
        (*rc = jfr_value_unwrap(&inner, &v)) == 0 && inner.kind == JFR_VALUE_STRING)
        k->name = inner.as.str;
    if (*rc < 0)
        return NULL;
    k->kind = jfrp_frame_kind_by_name(k->name.ptr);
    if ((*rc = jfrp_map_put(&c->frame_kind_cache, &c->rec->al, key,
                            (uint64_t)(uintptr_t)k)) < 0)
        return NULL;
    return k;
}

static int decode_frame(raw_frame *f, const jfr_value *fv)
{
    jfr_cursor cur;
    jfr_value v;
    int rc;

    memset(f, 0, sizeof *f);
    f->line = -1;
    f->bci = -1;
    if (fv->kind != JFR_VALUE_OBJECT)
        return 0;
    if ((rc = jfr_value_iter(&cur, fv)) < 0)
        return rc;
    while ((rc = jfr_cursor_next(&v, &cur)) == JFR_OK) {
        const char *name = v.field->name;

        if (strcmp(name, "method") == 0 && v.pooled) {
            f->method_key = v.key;
            f->has_method = true;
        } else if (strcmp(name, "lineNumber") == 0 && v.kind == JFR_VALUE_INT) {
            f->line = (int32_t)v.as.i;
        } else if (strcmp(name, "bytecodeIndex") == 0 && v.kind == JFR_VALUE_INT) {
            f->bci = (int32_t)v.as.i;
        } else if (strcmp(name, "type") == 0 && v.pooled) {
            f->type_key = v.key;
            f->has_type = true;
        }
    }
    return rc < 0 ? rc : 0;
}

static int decode_stacktrace(jfr_stacktrace *st, const jfr_value *sv)
{
    jfr_chunk *c = st->chunk;
    jfr_value trunc, frames, fv;
    jfr_cursor cur;
    int rc;

    if (jfr_value_field(&trunc, sv, "truncated") == JFR_OK &&
        trunc.kind == JFR_VALUE_BOOLEAN)
        st->truncated = trunc.as.boolean;
    rc = jfr_value_field(&frames, sv, "frames");
    if (rc == JFR_ENOTFOUND)
        return 0;
    if (rc < 0)
        return rc;
    if (frames.kind != JFR_VALUE_ARRAY)
        return 0;
    st->frames = jfrp_arena_calloc(&c->arena, frames.as.length ? frames.as.length : 1,
                                   sizeof *st->frames);
    if (!st->frames)
        return JFR_ENOMEM;
    if ((rc = jfr_value_iter(&cur, &frames)) < 0)
        return rc;
    while ((rc = jfr_cursor_next(&fv, &cur)) == JFR_OK) {
        if ((rc = decode_frame(&st->frames[st->depth], &fv)) < 0)
            return rc;
        st->depth++;
    }
    return rc < 0 ? rc : 0;
}

int jfr_chunk_stacktrace(const jfr_stacktrace **out, jfr_chunk *chunk, uint64_t key)
{
    uint64_t hit;
    jfr_stacktrace *st;
    jfr_value sv;
    int rc;

    if (!out || !chunk)
        return JFR_EINVAL;
    *out = NULL;
    hit = jfrp_map_get(&chunk->stack_cache, key);
    if (hit) {
        *out = (const jfr_stacktrace *)(uintptr_t)hit;
        return JFR_OK;
    }
    if (!chunk->meta.known.stacktrace)
        return JFR_ENOTFOUND;
    memset(&sv, 0, sizeof sv);
    if ((rc = jfrp_pool_value(&sv, chunk, chunk->meta.known.stacktrace, key)) < 0)
        return jfrp_chunk_fail_placed(
            chunk, JFR_PLACE_CHUNK, rc, chunk->header.file_offset,
            "stack trace %llu cannot be decoded", (unsigned long long)key);
    if (sv.kind != JFR_VALUE_OBJECT)
        return JFR_ENOTFOUND;
    st = jfrp_arena_calloc(&chunk->arena, 1, sizeof *st);
    if (!st)
        return jfrp_chunk_fail(chunk, JFR_ENOMEM, 0, "out of memory");
    st->chunk = chunk;
    st->key = key;
    if ((rc = decode_stacktrace(st, &sv)) < 0)
        return rc;
    if (jfrp_map_put(&chunk->stack_cache, &chunk->rec->al, key, (uint64_t)(uintptr_t)st) <
        0)
        return jfrp_chunk_fail(chunk, JFR_ENOMEM, 0, "out of memory");
    *out = st;
    return JFR_OK;
}

int jfr_event_stacktrace(const jfr_stacktrace **out, const jfr_event *ev)
{
    jfr_value v;
    int rc;

    if (!out || !ev)
        return JFR_EINVAL;
    *out = NULL;
    rc = jfr_event_field(&v, ev, "stackTrace");
    if (rc < 0)
        return rc;
    if (!v.pooled)
        return JFR_ENOTFOUND;
    return jfr_chunk_stacktrace(out, ev->chunk, v.key);
}

size_t jfr_stacktrace_depth(const jfr_stacktrace *st)
{
    return st ? st->depth : 0;
}

bool jfr_stacktrace_truncated(const jfr_stacktrace *st)
{
    return st && st->truncated;
}

uint64_t jfr_stacktrace_key(const jfr_stacktrace *st)
{
    return st ? st->key : 0;
}

int jfr_stacktrace_frame(jfr_frame *out, const jfr_stacktrace *st, size_t i)
{
    const raw_frame *rf;
    int rc;

    if (!out || !st)
        return JFR_EINVAL;
    if (i >= st->depth)
        return JFR_ENOTFOUND;
    memset(out, 0, sizeof *out);
    rf = &st->frames[i];
    out->line = rf->line;
    out->bci = rf->bci;
    out->method_key = rf->method_key;
    if (rf->has_method) {
        const jfrp_method *m = jfrp_chunk_method(st->chunk, rf->method_key, &rc);
        if (rc < 0)
            return rc;
        if (m) {
            out->class_name = m->class_name;
            out->method_name = m->name;
            out->descriptor = m->descriptor;
            out->modifiers = m->modifiers;
            out->hidden = m->hidden;
        }
    }
    if (rf->has_type) {
        const jfrp_frame_kind *k = resolve_frame_kind(st->chunk, rf->type_key, &rc);
        if (rc < 0)
            return rc;
        if (k) {
            out->kind = k->kind;
            out->kind_name = k->name;
        }
    }
    return JFR_OK;
}

int jfr_event_thread(jfr_thread *out, const jfr_event *ev, const char *field)
{
    const jfr_field *f;
    jfr_value tv;
    int64_t n;
    int i, rc;

    if (!out || !ev)
        return JFR_EINVAL;
    memset(out, 0, sizeof *out);
    if (!field)
        field = jfr_type_field_index(ev->type, "sampledThread") >= 0 ? "sampledThread"
                                                                     : "eventThread";
    if ((i = jfr_type_field_index(ev->type, field)) < 0)
        return JFR_ENOTFOUND;
    /* a field of another type is a caller's mistake, not a missing thread */
    f = &ev->type->fields[i];
    if (!f->type || f->array || strcmp(f->type->name, "java.lang.Thread") != 0)
        return JFR_EINVAL;
    if ((rc = jfr_event_field(&tv, ev, field)) < 0)
        return rc;
    if (tv.kind != JFR_VALUE_OBJECT)
        return JFR_ENOTFOUND;
    out->key = tv.key;
    if ((rc = jfr_value_string_field(&out->os_name, &tv, "osName")) < 0 ||
        (rc = jfr_value_string_field(&out->java_name, &tv, "javaName")) < 0)
        return rc;
    if ((rc = int_field(&n, &tv, "osThreadId")) < 0)
        return rc;
    out->os_thread_id = n;
    if ((rc = int_field(&n, &tv, "javaThreadId")) < 0)
        return rc;
    out->java_thread_id = n;
    if ((rc = int_field(&n, &tv, "virtual")) < 0)
        return rc;
    out->is_virtual = n != 0;
    return JFR_OK;
}

int jfrp_method_is_application(const jfr_value *method)
{
    jfr_value cls, loader;
    jfr_str name = {NULL, 0};
    int rc;

    if (!method || method->kind != JFR_VALUE_OBJECT ||
        jfr_value_field(&cls, method, "type") != JFR_OK || cls.kind != JFR_VALUE_OBJECT ||
        jfr_value_field(&loader, &cls, "classLoader") != JFR_OK ||
        loader.kind != JFR_VALUE_OBJECT)
        return 0;
    if ((rc = jfr_value_string_field(&name, &loader, "name")) < 0)
        return rc;
    return !(name.ptr && name.len == 9 && memcmp(name.ptr, "bootstrap", 9) == 0);
}

int jfr_chunk_method_is_application(jfr_chunk *chunk, uint64_t method_key)
{
    jfr_value method;
    int rc;

    if (!chunk)
        return JFR_EINVAL;
    if (!chunk->meta.known.method)
        return 0;
    memset(&method, 0, sizeof method);
    if ((rc = jfrp_pool_value(&method, chunk, chunk->meta.known.method, method_key)) < 0)
        return rc;
    return jfrp_method_is_application(&method);
}
