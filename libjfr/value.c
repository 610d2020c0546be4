/* value.c - generic, metadata-driven decoding of values (jfr-format.md
 * §6.3): primitives, strings, inline structs, arrays and pool references.
 * Objects and arrays are decoded lazily: a value records where its bytes
 * start, and its children are read when a cursor walks them. */
#include <stdio.h>
#include <string.h>

#include "jfr_private.h"
#include "skip.h"

/* ---- strings -------------------------------------------------------------- */

static const char empty_string[1] = "";

static int convert_into(jfr_str *out, jfrp_arena *arena, const jfrp_raw_string *s,
                        bool compressed)
{
    char *buf = jfrp_arena_alloc(arena, jfrp_utf8_bound(s));

    if (!buf)
        return JFR_ENOMEM;
    out->len = jfrp_utf8_convert(buf, s, compressed);
    out->ptr = buf;
    return 0;
}

/* Decode a pool string (or the payload of a String pool entry): converted
 * once, cached by its offset for the life of the chunk. */
static int cached_string(jfr_str *out, jfr_chunk *c, const jfrp_raw_string *s,
                         uint64_t offset, bool compressed)
{
    uint64_t hit = jfrp_map_get(&c->string_cache, offset);
    jfr_str *slot;

    if (hit) {
        *out = *(const jfr_str *)(uintptr_t)hit;
        return 0;
    }
    slot = jfrp_arena_alloc(&c->arena, sizeof *slot);
    if (!slot || convert_into(slot, &c->arena, s, compressed) < 0)
        return JFR_ENOMEM;
    if (jfrp_map_put(&c->string_cache, &c->rec->al, offset, (uint64_t)(uintptr_t)slot) <
        0)
        return JFR_ENOMEM;
    *out = *slot;
    return 0;
}

static int string_from_pool(jfr_str *out, jfr_chunk *c, uint64_t key)
{
    uint64_t off;
    jfrp_raw_string s;
    jfrp_reader r;

    out->ptr = NULL;
    out->len = 0;
    jfrp_pools_ensure(c);
    off = jfrp_pool_lookup(c->meta.known.string, key);
    if (!off)
        return 0; /* undefined key: null */
    jfrp_chunk_reader(&r, c, off);
    jfrp_raw_string_read(&r, &s);
    if (r.err)
        return r.err;
    switch (s.tag) {
    case JFRP_STR_NULL:
    case JFRP_STR_POOL: /* a pool string pointing into the pool: null */
        return 0;
    case JFRP_STR_EMPTY:
        out->ptr = empty_string;
        return 0;
    default:
        if (s.count > c->rec->opts.max_string_length)
            return JFR_ELIMIT;
        return cached_string(out, c, &s, off, r.compressed);
    }
}

int jfrp_read_string(jfr_str *out, jfrp_vctx *ctx, jfrp_reader *r)
{
    jfr_chunk *c = ctx->chunk;
    uint64_t offset = (uint64_t)(r->p - c->data);
    jfrp_raw_string s;

    out->ptr = NULL;
    out->len = 0;
    jfrp_raw_string_read(r, &s);
    if (r->err)
        return r->err;
    switch (s.tag) {
    case JFRP_STR_NULL:
        return 0;
    case JFRP_STR_EMPTY:
        out->ptr = empty_string;
        return 0;
    case JFRP_STR_POOL:
        return string_from_pool(out, c, s.count);
    default:
        if (s.count > c->rec->opts.max_string_length)
            return JFR_ELIMIT;
        if (ctx->scratch)
            return convert_into(out, ctx->scratch, &s, r->compressed);
        return cached_string(out, c, &s, offset, r->compressed);
    }
}

/* ---- values ------------------------------------------------------------ */

static void set_position(jfr_value *out, jfrp_vctx *ctx, const jfrp_reader *r)
{
    jfrp_value_where_set(out, ctx, (uint64_t)(r->p - ctx->chunk->data),
                         (uint64_t)(r->end - ctx->chunk->data));
}

int jfrp_value_of_type(jfr_value *out, jfrp_vctx *ctx, jfrp_reader *r,
                       const jfr_type *type, const jfr_field *f)
{
    int rc;

    out->type = type;
    out->field = f;
    switch (type->kind) {
    case JFR_KIND_BOOLEAN:
        out->kind = JFR_VALUE_BOOLEAN;
        out->bits = jfrp_u8(r);
        out->as.boolean = out->bits != 0;
        break;
    case JFR_KIND_BYTE:
    case JFR_KIND_CHAR:
    case JFR_KIND_SHORT:
    case JFR_KIND_INT:
    case JFR_KIND_LONG:
        out->kind = JFR_VALUE_INT;
        out->bits = jfrp_read_scalar_bits(r, type->kind);
        out->as.i = jfrp_int_of_bits(type->kind, out->bits, false);
        break;
    case JFR_KIND_FLOAT:
        out->kind = JFR_VALUE_FLOAT;
        out->as.f = jfrp_float(r);
        break;
    case JFR_KIND_DOUBLE:
        out->kind = JFR_VALUE_FLOAT;
        out->as.f = jfrp_double(r);
        break;
    case JFR_KIND_STRING:
        rc = jfrp_read_string(&out->as.str, ctx, r);
        if (rc < 0)
            return rc;
        out->kind = out->as.str.ptr ? JFR_VALUE_STRING : JFR_VALUE_NULL;
        break;
    case JFR_KIND_STRUCT:
        if (!type->decodable)
            return type->too_deep ? JFR_ELIMIT : JFR_ECORRUPT;
        out->kind = JFR_VALUE_OBJECT;
        set_position(out, ctx, r);
        jfrp_skip_inline(r, type);
        break;
    }
    return r->err ? r->err : 0;
}

int jfrp_pool_value(jfr_value *out, jfr_chunk *c, const jfr_type *type, uint64_t key)
{
    uint64_t off;
    const jfr_field *f = out->field;
    jfrp_reader r;

    out->kind = JFR_VALUE_NULL;
    out->type = type;
    out->pooled = true;
    out->key = key;
    jfrp_pools_ensure(c);
    off = jfrp_pool_lookup(type, key);
    if (!off)
        return 0; /* dangling references are normal: null */
    jfrp_chunk_reader(&r, c, off);
    if (type->kind == JFR_KIND_STRUCT && type->decodable) {
        /* the entry was skipped whole when its checkpoint was indexed
         * (constpool.c): its end is known sound and nothing reads on after
         * it, so it is not looked for again (a stack trace's frames) */
        out->kind = JFR_VALUE_OBJECT;
        out->field = f;
        set_position(out, &c->pool_ctx, &r);
        return 0;
    }
    return jfrp_value_of_type(out, &c->pool_ctx, &r, type, f);
}

static int read_element(jfr_value *out, jfrp_vctx *ctx, jfrp_reader *r,
                        const jfr_field *f)
{
    memset(out, 0, sizeof *out);
    out->field = f;
    if (f->pooled) {
        uint64_t key = jfrp_int(r, 8);
        if (r->err)
            return r->err;
        return jfrp_pool_value(out, ctx->chunk, f->type, key);
    }
    return jfrp_value_of_type(out, ctx, r, f->type, f);
}

/* Field `f` at `r`. `step_over`: leave `r` past the value, as a walk over
 * the fields needs; a caller that reads nothing after it (one field or
 * element looked up) does not pay for stepping over an array's elements. */
static int read_field(jfr_value *out, jfrp_vctx *ctx, jfrp_reader *r, const jfr_field *f,
                      bool step_over)
{
    uint64_t n;

    if (!f->type) {
        jfrp_reader_fail(r, JFR_ECORRUPT);
        return JFR_ECORRUPT;
    }
    if (!f->array)
        return read_element(out, ctx, r, f);
    memset(out, 0, sizeof *out);
    out->field = f;
    out->type = f->type;
    n = jfrp_array_count(r, f, ctx->chunk->rec->opts.max_array_length);
    if (r->err)
        return r->err;
    out->kind = JFR_VALUE_ARRAY;
    out->as.length = n;
    set_position(out, ctx, r);
    if (step_over && (f->pooled || !f->type->zero_size))
        for (uint64_t i = 0; i < n && !r->err; i++)
            jfrp_skip_element(r, f);
    return r->err ? r->err : 0;
}

int jfrp_read_field(jfr_value *out, jfrp_vctx *ctx, jfrp_reader *r, const jfr_field *f)
{
    return read_field(out, ctx, r, f, true);
}

/* ---- public API ----------------------------------------------------------- */

static void value_reader(jfrp_reader *r, const jfrp_value_where *w, uint64_t pos)
{
    jfr_chunk *c = w->ctx->chunk;

    jfrp_chunk_reader(r, c, pos);
    r->end = c->data + w->end;
}

static int value_error(const jfr_value *v, const jfrp_reader *r, int rc)
{
    const jfrp_vctx *ctx = jfrp_value_where_get(v).ctx;
    char what[128];

    if (rc == JFR_ENOMEM)
        return jfrp_chunk_fail(ctx->chunk, rc, jfrp_reader_offset(r), "out of memory");
    if (rc == JFR_ELIMIT || r->err == JFR_ELIMIT)
        return jfrp_chunk_fail_placed(
            ctx->chunk, JFR_PLACE_CHUNK, JFR_ELIMIT, jfrp_reader_offset(r),
            "value of type %s exceeds a size limit", v->type ? v->type->name : "?");
    snprintf(what, sizeof what, "value of type %s", v->type ? v->type->name : "?");
    return jfrp_reader_error(ctx->chunk, JFR_PLACE_CHUNK, r, what);
}

int jfr_value_iter(jfr_cursor *out, const jfr_value *v)
{
    jfrp_cursor_state *st;

    if (!out || !v || (v->kind != JFR_VALUE_OBJECT && v->kind != JFR_VALUE_ARRAY) ||
        !jfrp_value_where_get(v).ctx)
        return JFR_EINVAL;
    st = (jfrp_cursor_state *)(void *)out->reserved_;
    st->parent = *v;
    st->pos = jfrp_value_where_get(v).pos;
    st->index = 0;
    return JFR_OK;
}

static int cursor_read(jfr_value *out, jfr_cursor *cur, bool step_over)
{
    jfrp_cursor_state *st;
    const jfr_value *parent;
    jfrp_value_where where;
    jfrp_vctx *ctx;
    jfrp_reader r;
    int rc;

    if (!out || !cur)
        return JFR_EINVAL;
    st = (jfrp_cursor_state *)(void *)cur->reserved_;
    parent = &st->parent;
    where = jfrp_value_where_get(parent);
    ctx = (jfrp_vctx *)(uintptr_t)where.ctx;
    if (!ctx)
        return JFR_EINVAL; /* never started by jfr_value_iter */
    if (parent->kind == JFR_VALUE_OBJECT) {
        if (st->index >= parent->type->nfields)
            return JFR_DONE;
        value_reader(&r, &where, st->pos);
        rc = read_field(out, ctx, &r, &parent->type->fields[st->index], step_over);
    } else {
        if (st->index >= parent->as.length)
            return JFR_DONE;
        value_reader(&r, &where, st->pos);
        rc = read_element(out, ctx, &r, parent->field);
    }
    if (rc < 0 || r.err)
        return value_error(parent, &r, rc < 0 ? rc : r.err);
    st->pos = (uint64_t)(r.p - ctx->chunk->data);
    st->index++;
    return JFR_OK;
}

int jfr_cursor_next(jfr_value *out, jfr_cursor *cur)
{
    return cursor_read(out, cur, true);
}

/* A pool key is skipped, not looked up, and an inline value stepped over by
 * its metadata: reading field 4 of an event read the stack trace of field 2,
 * all its frames, and indexed the chunk's pools to find it. */
int jfr_cursor_skip(jfr_cursor *cur, size_t n)
{
    jfrp_cursor_state *st;
    const jfr_value *parent;
    jfrp_value_where where;
    size_t count;
    jfrp_reader r;

    if (!cur)
        return JFR_EINVAL;
    st = (jfrp_cursor_state *)(void *)cur->reserved_;
    parent = &st->parent;
    where = jfrp_value_where_get(parent);
    if (!where.ctx)
        return JFR_EINVAL; /* never started by jfr_value_iter */
    count = parent->kind == JFR_VALUE_OBJECT ? parent->type->nfields : parent->as.length;
    value_reader(&r, &where, st->pos);
    for (size_t i = 0; i < n && !r.err; i++, st->index++) {
        if (st->index >= count)
            return JFR_DONE;
        if (parent->kind == JFR_VALUE_OBJECT)
            jfrp_skip_field(&r, &parent->type->fields[st->index]);
        else
            jfrp_skip_element(&r, parent->field);
    }
    if (r.err)
        return value_error(parent, &r, r.err);
    st->pos = (uint64_t)(r.p - where.ctx->chunk->data);
    return JFR_OK;
}

/* Child `index` of an object or array; on failure *out is a null value
 * (callers may test out->kind without checking the result). `out` may be
 * `v` itself: it is written only after `v` has been read. */
static int child_at(jfr_value *out, const jfr_value *v, jfr_value_kind kind, size_t index)
{
    jfr_cursor cur;
    size_t n;
    int rc;

    if (!out)
        return JFR_EINVAL;
    n = !v || v->kind != kind      ? 0
        : kind == JFR_VALUE_OBJECT ? v->type->nfields
                                   : v->as.length;
    if (!v || v->kind != kind)
        rc = JFR_EINVAL;
    else if (index >= n)
        rc = JFR_ENOTFOUND;
    else if ((rc = jfr_value_iter(&cur, v)) == JFR_OK) {
        rc = jfr_cursor_skip(&cur, index);
        /* the cursor is dropped after this read: no stepping past it */
        if (rc == JFR_OK)
            rc = cursor_read(out, &cur, false);
        if (rc == JFR_OK)
            return JFR_OK;
        if (rc > 0)
            rc = JFR_ENOTFOUND;
    }
    memset(out, 0, sizeof *out);
    return rc;
}

int jfr_value_field_at(jfr_value *out, const jfr_value *obj, size_t index)
{
    return child_at(out, obj, JFR_VALUE_OBJECT, index);
}

int jfr_value_field(jfr_value *out, const jfr_value *obj, const char *name)
{
    int index;

    if (!obj || !name || obj->kind != JFR_VALUE_OBJECT) {
        int rc = obj && obj->kind == JFR_VALUE_NULL ? JFR_ENOTFOUND : JFR_EINVAL;

        if (out)
            memset(out, 0, sizeof *out);
        return rc;
    }
    index = jfr_type_field_index(obj->type, name);
    if (index < 0) {
        if (out)
            memset(out, 0, sizeof *out);
        return JFR_ENOTFOUND;
    }
    return jfr_value_field_at(out, obj, (size_t)index);
}

int jfr_value_element(jfr_value *out, const jfr_value *arr, size_t index)
{
    return child_at(out, arr, JFR_VALUE_ARRAY, index);
}

int jfr_value_unwrap(jfr_value *out, const jfr_value *v)
{
    if (!out || !v)
        return JFR_EINVAL;
    if (v->kind == JFR_VALUE_OBJECT && v->type->simple && v->type->nfields == 1)
        return jfr_value_field_at(out, v, 0);
    *out = *v;
    return JFR_OK;
}

int jfr_value_string_field(jfr_str *out, const jfr_value *obj, const char *name)
{
    jfr_value v, inner;
    int rc;

    if (!out || !obj || !name)
        return JFR_EINVAL;
    out->ptr = NULL;
    out->len = 0;
    if (obj->kind != JFR_VALUE_OBJECT)
        return JFR_OK;
    rc = jfr_value_field(&v, obj, name);
    if (rc == JFR_ENOTFOUND)
        return JFR_OK;
    if (rc < 0 || (rc = jfr_value_unwrap(&inner, &v)) < 0)
        return rc;
    if (inner.kind == JFR_VALUE_STRING)
        *out = inner.as.str;
    return JFR_OK;
}
