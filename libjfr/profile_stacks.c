/* profile_stacks.c - stack traces for profiles, read straight from their
 * pool entries: the frames' method keys, lines and frame-type keys only
 * (jfr-format.md §10.1), with frame types resolved once per chunk. Names
 * are resolved once per method, later, through the profile's name cache.
 * Chunks whose StackTrace type does not have the usual shape (inline
 * frames array) go through jfr_chunk_stacktrace instead. */
#include <string.h>

#include "profile_struct.h"
#include "skip.h"

enum { F_METHOD = 1, F_LINE, F_TYPE };

void jfrp_stacks_init(jfrp_stacks *s, jfr_chunk *c)
{
    const jfr_type *st = c->meta.known.stacktrace;

    memset(s, 0, sizeof *s);
    s->c = c;
    s->frames_index = -1;
    if (!st || !st->decodable)
        return;
    for (size_t i = 0; i < st->nfields; i++) {
        const jfr_field *f = &st->fields[i];
        if (strcmp(f->name, "frames") == 0 && f->array && !f->pooled && f->type &&
            f->type->kind == JFR_KIND_STRUCT && f->type->decodable &&
            f->type->nfields <= sizeof s->roles) {
            s->frames_index = (int)i;
            s->frame_type = f->type;
        }
    }
    if (s->frames_index < 0)
        return;
    for (size_t i = 0; i < s->frame_type->nfields; i++) {
        const jfr_field *f = &s->frame_type->fields[i];
        bool ref = f->type && !f->array && f->pooled;
        bool integer =
            f->type && !f->array && !f->pooled && f->type->kind == JFR_KIND_INT;

        if (strcmp(f->name, "method") == 0 && ref)
            s->roles[i] = F_METHOD;
        else if (strcmp(f->name, "lineNumber") == 0 && integer)
            s->roles[i] = F_LINE;
        else if (strcmp(f->name, "type") == 0 && ref)
            s->roles[i] = F_TYPE;
    }
    s->fast = true;
    s->jdk_frames = s->frame_type->nfields == 4 && s->frame_type->flat_varints == 4 &&
                    s->roles[0] == F_METHOD && s->roles[1] == F_LINE &&
                    s->roles[2] == 0 && s->roles[3] == F_TYPE;
}

void jfrp_stacks_free(jfrp_stacks *s, const jfrp_alloc *al)
{
    jfrp_map_free(&s->kinds, al);
    jfrp_free(al, s->frames);
    memset(s, 0, sizeof *s);
}

/* The kind of FrameType pool entry `key`, decoded once per chunk. */
static int frame_kind(jfrp_stacks *s, const jfrp_alloc *al, uint64_t key,
                      jfr_frame_kind *out)
{
    uint64_t hit = key < JFRP_SMALL_KINDS ? s->small_kinds[key] : 0;
    jfr_value v, inner;
    int rc;

    if (!hit)
        hit = jfrp_map_get(&s->kinds, key);
    if (hit) {
        *out = (jfr_frame_kind)(hit - 1);
        return 0;
    }
    *out = JFR_FRAME_UNKNOWN;
    memset(&v, 0, sizeof v);
    if (s->c->meta.known.frame_type &&
        jfrp_pool_value(&v, s->c, s->c->meta.known.frame_type, key) == 0 &&
        jfr_value_unwrap(&inner, &v) == 0 && inner.kind == JFR_VALUE_STRING)
        *out = jfrp_frame_kind_by_name(inner.as.str.ptr);
    if ((rc = jfrp_map_put(&s->kinds, al, key, (uint64_t)*out + 1)) < 0)
        return rc;
    if (key < JFRP_SMALL_KINDS)
        s->small_kinds[key] = (uint8_t)(*out + 1);
    return 0;
}

static int room_for(jfrp_stacks *s, const jfrp_alloc *al, uint64_t n)
{
    jfrp_raw_frame *grown;

    if (n <= s->room)
        return 0;
    grown = jfrp_reallocarray(al, s->frames, (size_t)n, sizeof *grown);
    if (!grown)
        return JFR_ENOMEM;
    s->frames = grown;
    s->room = (size_t)n;
    return 0;
}

/* The slow, generic path: jfr_chunk_stacktrace and its frames. */
static int read_generic(jfrp_stacks *s, const jfrp_alloc *al, uint64_t key, size_t *depth)
{
    const jfr_stacktrace *st;
    size_t n;
    int rc = jfr_chunk_stacktrace(&st, s->c, key);

    if (rc < 0)
        return rc;
    n = jfr_stacktrace_depth(st);
    if (s->max_frames && n > s->max_frames)
        n = s->max_frames;
    if ((rc = room_for(s, al, n)) < 0)
        return rc;
    for (size_t i = 0; i < n; i++) {
        jfr_frame f;
        if ((rc = jfr_stacktrace_frame(&f, st, i)) < 0)
            return rc;
        s->frames[i].method_key = f.method_key;
        s->frames[i].has_method = f.method_name.ptr || f.class_name.ptr;
        s->frames[i].line = f.line;
        s->frames[i].kind = f.kind;
    }
    *depth = n;
    return 0;
}

static inline void clear_frame(jfrp_raw_frame *out)
{
    out->method_key = 0;
    out->has_method = false;
    out->line = -1;
    out->kind = JFR_FRAME_UNKNOWN;
}

static void read_frame(jfrp_stacks *s, jfrp_reader *r, jfrp_raw_frame *out,
                       uint64_t *type_key, bool *has_type)
{
    const jfr_type *ft = s->frame_type;

    clear_frame(out);
    *has_type = false;
    for (size_t i = 0; i < ft->nfields && !r->err; i++) {
        switch (s->roles[i]) {
        case F_METHOD:
            out->method_key = jfrp_int(r, 8);
            out->has_method = true;
            break;
        case F_LINE:
            out->line = (int32_t)(uint32_t)jfrp_int(r, 4);
            break;
        case F_TYPE:
            *type_key = jfrp_int(r, 8);
            *has_type = true;
            break;
        default:
            jfrp_skip_field(r, &ft->fields[i]);
        }
    }
}

/* What field `i` of a flat frame, with value `v`, tells about the frame. */
static inline void take_flat_field(const jfrp_stacks *s, uint32_t i, uint64_t v,
                                   jfrp_raw_frame *out, uint64_t *type_key,
                                   bool *has_type)
{
    switch (s->roles[i]) {
    case F_METHOD:
        out->method_key = v;
        out->has_method = true;
        break;
    case F_LINE:
        out->line = (int32_t)(uint32_t)v;
        break;
    case F_TYPE:
        *type_key = v;
        *has_type = true;
        break;
    }
}

int jfrp_stacks_jdk_frame(jfrp_stacks *s, const jfrp_alloc *al, const uint8_t **p,
                          jfrp_raw_frame *out)
{
    /* the JDK's frames, field by field without the roles */
    uint64_t type_key;

    out->method_key = jfrp_varint_unchecked(p);
    out->has_method = true;
    out->line = (int32_t)(uint32_t)jfrp_varint_unchecked(p);
    (void)jfrp_varint_unchecked(p); /* bytecodeIndex */
    type_key = jfrp_varint_unchecked(p);
    if (type_key < JFRP_SMALL_KINDS && s->small_kinds[type_key]) {
        out->kind = (jfr_frame_kind)(s->small_kinds[type_key] - 1);
        return 0;
    }
    return frame_kind(s, al, type_key, &out->kind);
}

/* `n` frames whose fields are all varints. Away from the end of the input
 * the cursor stays in a local variable and reads are not bounds-checked
 * one by one: a frame takes at most 9 bytes per field. */
static int read_flat_frames(jfrp_stacks *s, const jfrp_alloc *al, jfrp_reader *r,
                            uint64_t n)
{
    const uint32_t nfields = s->frame_type->flat_varints;
    const uint8_t *p = r->p;
    int rc;

    for (uint64_t k = 0; k < n; k++) {
        jfrp_raw_frame *out = &s->frames[k];
        uint64_t type_key = 0;
        bool has_type = false;

        if (s->jdk_frames && r->end - p >= JFRP_JDK_FRAME_MAX) {
            if ((rc = jfrp_stacks_jdk_frame(s, al, &p, out)) < 0)
                return rc;
            continue;
        }
        clear_frame(out);
        if ((size_t)(r->end - p) < (size_t)9 * nfields) {
            /* near the end of the input: checked reads */
            r->p = p;
            for (uint32_t i = 0; i < nfields; i++)
                take_flat_field(s, i, jfrp_varint(r), out, &type_key, &has_type);
            if (r->err)
                return 0;
            p = r->p;
        } else {
            for (uint32_t i = 0; i < nfields; i++)
                take_flat_field(s, i, jfrp_varint_unchecked(&p), out, &type_key,
                                &has_type);
        }
        if (!has_type)
            continue;
        if (type_key < JFRP_SMALL_KINDS && s->small_kinds[type_key])
            out->kind = (jfr_frame_kind)(s->small_kinds[type_key] - 1);
        else if ((rc = frame_kind(s, al, type_key, &out->kind)) < 0)
            return rc;
    }
    r->p = p;
    return 0;
}

void jfrp_stacks_prefetch(const jfrp_stacks *s, uint64_t key)
{
    const jfr_type *st = s->c->meta.known.stacktrace;
    /* only once the pools are indexed: a prefetch must not do that work */
    uint64_t off = s->fast && st && st->pool ? jfrp_pool_lookup(st, key) : 0;

    /* an entry of a deep stack spans several cache lines */
    if (off && off < s->c->size)
        for (uint64_t at = 0; at < 256 && off + at < s->c->size; at += 64)
            __builtin_prefetch(s->c->data + off + at);
}

/* Stack `key`'s pool entry read up to its frames: their count in *n (cut
 * to max_frames), *flat when they are all varints. 0, JFR_ENOTFOUND, or
 * r->err set. */
static int frames_start(jfrp_stacks *s, uint64_t key, jfrp_reader *r, uint64_t *n,
                        bool *flat)
{
    const jfr_type *st = s->c->meta.known.stacktrace;
    uint64_t off;

    *n = 0;
    jfrp_pools_ensure(s->c);
    off = jfrp_pool_lookup(st, key);
    if (!off)
        return JFR_ENOTFOUND;
    jfrp_chunk_reader(r, s->c, off);
    *flat = r->compressed && s->frame_type->flat_varints == s->frame_type->nfields;
    for (size_t i = 0; i < st->nfields && !r->err; i++) {
        if ((int)i != s->frames_index) {
            jfrp_skip_field(r, &st->fields[i]);
            continue;
        }
        *n = jfrp_int(r, 4);
        if (r->err)
            break;
        /* every frame takes at least one byte */
        if (*n > jfrp_reader_left(r) || *n > s->c->rec->opts.max_array_length) {
            jfrp_reader_fail(r, *n > jfrp_reader_left(r) ? JFR_ECORRUPT : JFR_ELIMIT);
            break;
        }
        /* the top frames come first */
        if (s->max_frames && *n > s->max_frames)
            *n = s->max_frames;
        break; /* the fields after the frames are not needed */
    }
    return 0;
}

int jfrp_stacks_read(jfrp_stacks *s, const jfrp_alloc *al, uint64_t key, size_t *depth)
{
    uint64_t n;
    jfrp_reader r;
    bool flat;
    int rc;

    *depth = 0;
    if (!s->fast)
        return read_generic(s, al, key, depth);
    if ((rc = frames_start(s, key, &r, &n, &flat)) < 0)
        return rc;
    if (!r.err && (rc = room_for(s, al, n)) < 0)
        return rc;
    if (!r.err && flat)
        rc = read_flat_frames(s, al, &r, n);
    for (uint64_t k = 0; !flat && k < n && !r.err && rc >= 0; k++) {
        uint64_t type_key = 0;
        bool has_type;

        read_frame(s, &r, &s->frames[k], &type_key, &has_type);
        if (has_type && !r.err)
            rc = frame_kind(s, al, type_key, &s->frames[k].kind);
    }
    if (rc < 0)
        return rc;
    if (r.err)
        return jfrp_reader_error(s->c, JFR_PLACE_FIELDS, &r, "stack trace");
    *depth = (size_t)n;
    return 0;
}

int jfrp_stacks_jdk_frames(jfrp_stacks *s, const jfrp_alloc *al, uint64_t key,
                           const uint8_t **p, const uint8_t **end, uint64_t *n)
{
    jfrp_reader r;
    bool flat;
    int rc;

    if (!s->fast || !s->jdk_frames)
        return 0;
    if ((rc = frames_start(s, key, &r, n, &flat)) < 0)
        return rc;
    if (r.err || !flat)
        return 0; /* jfrp_stacks_read says what is wrong */
    if ((rc = room_for(s, al, *n)) < 0)
        return rc;
    *p = r.p;
    *end = r.end;
    return 1;
}
