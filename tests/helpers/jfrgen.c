/* jfrgen.c - test-only writer of synthetic JFR chunks (see jfrgen.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfrgen.h"

#define HEADER_SIZE 68

enum rec_kind { REC_EVENT, REC_RAW, REC_CHECKPOINT, REC_METADATA };

struct jg_rec {
    enum rec_kind kind;
    uint64_t type_id;
    unsigned size_width; /* 0: minimal */
    jg_buf body;         /* events: payload; raw: the bytes */
    jg_cp *cp;
};

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fputs("jfrgen: out of memory\n", stderr);
        abort();
    }
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xrealloc(NULL, n), s, n);
}

/* ---- byte buffers and scalars ---------------------------------------------- */

void jg_buf_free(jg_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void jg_bytes(jg_buf *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n)
            cap *= 2;
        b->data = xrealloc(b->data, cap);
        b->cap = cap;
    }
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
}

void jg_u8(jg_buf *b, uint8_t v)
{
    jg_bytes(b, &v, 1);
}

void jg_put_be(uint8_t *p, uint64_t v, unsigned width)
{
    for (unsigned i = 0; i < width; i++)
        p[i] = (uint8_t)(v >> (8 * (width - 1 - i)));
}

void jg_be(jg_buf *b, uint64_t v, unsigned width)
{
    uint8_t tmp[8];

    jg_put_be(tmp, v, width);
    jg_bytes(b, tmp, width);
}

unsigned jg_varint_len(uint64_t v)
{
    unsigned n = 1;

    while (n < 9 && (n == 8 ? v >> 56 : v >> (7 * n)) != 0)
        n++;
    return n;
}

void jg_varint_padded(jg_buf *b, uint64_t v, unsigned width)
{
    uint8_t tmp[9];

    for (unsigned i = 0; i < width && i < 8; i++) {
        tmp[i] = (uint8_t)((v >> (7 * i)) & 0x7f);
        if (i + 1 < width)
            tmp[i] |= 0x80;
    }
    if (width == 9)
        tmp[8] = (uint8_t)(v >> 56);
    jg_bytes(b, tmp, width);
}

void jg_varint(jg_buf *b, uint64_t v)
{
    jg_varint_padded(b, v, jg_varint_len(v));
}

void jg_int(jg_buf *b, uint64_t bits, unsigned width)
{
    if (width < 8)
        bits &= ((uint64_t)1 << (8 * width)) - 1;
    if (b->fixed)
        jg_be(b, bits, width);
    else
        jg_varint(b, bits);
}

void jg_i16(jg_buf *b, int16_t v)
{
    jg_int(b, (uint16_t)v, 2);
}

void jg_u16(jg_buf *b, uint16_t v)
{
    jg_int(b, v, 2);
}

void jg_i32(jg_buf *b, int32_t v)
{
    jg_int(b, (uint32_t)v, 4);
}

void jg_i64(jg_buf *b, int64_t v)
{
    jg_int(b, (uint64_t)v, 8);
}

void jg_f32(jg_buf *b, float v)
{
    uint32_t bits;

    memcpy(&bits, &v, sizeof bits);
    jg_be(b, bits, 4);
}

void jg_f64(jg_buf *b, double v)
{
    uint64_t bits;

    memcpy(&bits, &v, sizeof bits);
    jg_be(b, bits, 8);
}

void jg_key(jg_buf *b, uint64_t key)
{
    jg_int(b, key, 8);
}

void jg_count(jg_buf *b, uint64_t n)
{
    jg_int(b, n, 4);
}

void jg_str_null(jg_buf *b)
{
    jg_u8(b, 0);
}

void jg_str_empty(jg_buf *b)
{
    jg_u8(b, 1);
}

void jg_str_pool(jg_buf *b, uint64_t key)
{
    jg_u8(b, 2);
    jg_key(b, key);
}

void jg_str_utf8(jg_buf *b, const void *bytes, size_t n)
{
    jg_u8(b, 3);
    jg_count(b, n);
    jg_bytes(b, bytes, n);
}

void jg_str_utf16(jg_buf *b, const uint16_t *units, size_t n)
{
    jg_u8(b, 4);
    jg_count(b, n);
    for (size_t i = 0; i < n; i++)
        jg_u16(b, units[i]);
}

void jg_str_latin1(jg_buf *b, const void *bytes, size_t n)
{
    jg_u8(b, 5);
    jg_count(b, n);
    jg_bytes(b, bytes, n);
}

void jg_string(jg_buf *b, const char *s)
{
    if (s)
        jg_str_utf8(b, s, strlen(s));
    else
        jg_str_null(b);
}

/* Well-formed UTF-8 to UTF-16 units; returns the number of units. */
static size_t utf8_to_utf16(uint16_t *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = 0;

    while (*p) {
        uint32_t cp;

        if (*p < 0x80) {
            cp = *p++;
        } else if (*p < 0xe0) {
            cp = (uint32_t)(p[0] & 0x1f) << 6 | (p[1] & 0x3f);
            p += 2;
        } else if (*p < 0xf0) {
            cp = (uint32_t)(p[0] & 0x0f) << 12 | (uint32_t)(p[1] & 0x3f) << 6 |
                 (p[2] & 0x3f);
            p += 3;
        } else {
            cp = (uint32_t)(p[0] & 0x07) << 18 | (uint32_t)(p[1] & 0x3f) << 12 |
                 (uint32_t)(p[2] & 0x3f) << 6 | (p[3] & 0x3f);
            p += 4;
        }
        if (cp >= 0x10000) {
            cp -= 0x10000;
            out[n++] = (uint16_t)(0xd800 | (cp >> 10));
            out[n++] = (uint16_t)(0xdc00 | (cp & 0x3ff));
        } else {
            out[n++] = (uint16_t)cp;
        }
    }
    return n;
}

void jg_string_utf16(jg_buf *b, const char *s)
{
    uint16_t *units = xrealloc(NULL, (strlen(s) + 1) * sizeof *units);
    size_t n = utf8_to_utf16(units, s);

    jg_str_utf16(b, units, n);
    free(units);
}

/* ---- metadata elements ------------------------------------------------------- */

static jg_elem *elem_new(const char *name)
{
    jg_elem *e = xrealloc(NULL, sizeof *e);

    memset(e, 0, sizeof *e);
    e->name = xstrdup(name);
    return e;
}

static void elem_free(jg_elem *e)
{
    if (!e)
        return;
    for (size_t i = 0; i < e->nattrs; i++) {
        free(e->keys[i]);
        free(e->vals[i]);
    }
    for (size_t i = 0; i < e->nchildren; i++)
        elem_free(e->children[i]);
    free(e->keys);
    free(e->vals);
    free(e->children);
    free(e->name);
    free(e);
}

jg_elem *jg_elem_add(jg_elem *parent, const char *name)
{
    jg_elem *e = elem_new(name);

    parent->children =
        xrealloc(parent->children, (parent->nchildren + 1) * sizeof *parent->children);
    parent->children[parent->nchildren++] = e;
    return e;
}

void jg_attr(jg_elem *e, const char *key, const char *val)
{
    e->keys = xrealloc(e->keys, (e->nattrs + 1) * sizeof *e->keys);
    e->vals = xrealloc(e->vals, (e->nattrs + 1) * sizeof *e->vals);
    e->keys[e->nattrs] = xstrdup(key);
    e->vals[e->nattrs] = xstrdup(val);
    e->nattrs++;
}

static void attr_u64(jg_elem *e, const char *key, uint64_t v)
{
    char tmp[24];

    snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v);
    jg_attr(e, key, tmp);
}

jg_elem *jg_class(jg_chunk *c, uint64_t id, const char *name, const char *super)
{
    jg_elem *e = jg_elem_add(c->metadata, "class");

    jg_attr(e, "name", name);
    if (super)
        jg_attr(e, "superType", super);
    attr_u64(e, "id", id);
    return e;
}

jg_elem *jg_field(jg_elem *cls, const char *name, uint64_t type_id, unsigned flags)
{
    jg_elem *f = jg_elem_add(cls, "field");

    jg_attr(f, "name", name);
    attr_u64(f, "class", type_id);
    if (flags & JG_ARRAY)
        jg_attr(f, "dimension", "1");
    if (flags & JG_POOL)
        jg_attr(f, "constantPool", "true");
    return f;
}

jg_elem *jg_annotate(jg_elem *e, uint64_t annotation_type_id, const char *value)
{
    jg_elem *a = jg_elem_add(e, "annotation");

    attr_u64(a, "class", annotation_type_id);
    if (value)
        jg_attr(a, "value", value);
    return a;
}

jg_elem *jg_setting(jg_elem *cls, const char *name, uint64_t type_id,
                    const char *default_value)
{
    jg_elem *s = jg_elem_add(cls, "setting");

    jg_attr(s, "name", name);
    attr_u64(s, "class", type_id);
    if (default_value)
        jg_attr(s, "defaultValue", default_value);
    return s;
}

jg_elem *jg_region(jg_chunk *c, const char *gmt_offset)
{
    jg_elem *r = jg_elem_add(c->root, "region");

    jg_attr(r, "locale", "en_US");
    jg_attr(r, "gmtOffset", gmt_offset);
    return r;
}

void jg_primitives(jg_chunk *c)
{
    static const char *const names[] = {"boolean", "byte",   "char",
                                        "short",   "int",    "long",
                                        "float",   "double", "java.lang.String"};

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        jg_class(c, JG_BOOLEAN + i, names[i], NULL);
}

/* ---- chunks and records ------------------------------------------------------- */

jg_chunk *jg_chunk_new(void)
{
    jg_chunk *c = xrealloc(NULL, sizeof *c);

    memset(c, 0, sizeof *c);
    c->h.major = 2;
    c->h.minor = 1;
    c->h.start_nanos = INT64_C(1700000000000000000);
    c->h.duration_nanos = 1000000000;
    c->h.start_ticks = 1000;
    c->h.ticks_per_second = 1000000000;
    c->h.flags = 3; /* compressed integers, final chunk */
    c->root = elem_new("root");
    c->metadata = jg_elem_add(c->root, "metadata");
    c->metadata_id = 1;
    c->meta_string_tag = 3;
    return c;
}

void jg_chunk_fixed_ints(jg_chunk *c)
{
    c->h.flags &= (uint16_t)~1u;
}

static bool chunk_fixed(const jg_chunk *c)
{
    return (c->h.flags & 1) == 0;
}

static void pool_free(jg_pool *p)
{
    jg_buf_free(&p->entries);
    free(p);
}

void jg_chunk_free(jg_chunk *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->nrecs; i++) {
        jg_rec *r = c->recs[i];

        if (r->cp) {
            for (size_t j = 0; j < r->cp->npools; j++)
                pool_free(r->cp->pools[j]);
            free(r->cp->pools);
            free(r->cp);
        }
        jg_buf_free(&r->body);
        free(r);
    }
    free(c->recs);
    elem_free(c->root);
    free(c);
}

static jg_rec *rec_add(jg_chunk *c, enum rec_kind kind)
{
    jg_rec *r = xrealloc(NULL, sizeof *r);

    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->body.fixed = chunk_fixed(c);
    c->recs = xrealloc(c->recs, (c->nrecs + 1) * sizeof *c->recs);
    c->recs[c->nrecs++] = r;
    return r;
}

void jg_metadata_record(jg_chunk *c)
{
    rec_add(c, REC_METADATA);
    c->meta_placed = true;
}

jg_buf *jg_event_padded(jg_chunk *c, uint64_t type_id, unsigned size_width)
{
    jg_rec *r = rec_add(c, REC_EVENT);

    r->type_id = type_id;
    r->size_width = size_width;
    return &r->body;
}

jg_buf *jg_event(jg_chunk *c, uint64_t type_id)
{
    return jg_event_padded(c, type_id, 0);
}

jg_buf *jg_raw(jg_chunk *c)
{
    return &rec_add(c, REC_RAW)->body;
}

jg_cp *jg_checkpoint(jg_chunk *c)
{
    jg_rec *r = rec_add(c, REC_CHECKPOINT);

    r->cp = xrealloc(NULL, sizeof *r->cp);
    memset(r->cp, 0, sizeof *r->cp);
    r->cp->fixed = chunk_fixed(c);
    return r->cp;
}

jg_pool *jg_pool_new(jg_cp *cp, uint64_t type_id)
{
    jg_pool *p = xrealloc(NULL, sizeof *p);

    memset(p, 0, sizeof *p);
    p->type_id = type_id;
    p->entries.fixed = cp->fixed;
    cp->pools = xrealloc(cp->pools, (cp->npools + 1) * sizeof *cp->pools);
    cp->pools[cp->npools++] = p;
    return p;
}

jg_buf *jg_entry(jg_pool *p, uint64_t key)
{
    p->count++;
    jg_key(&p->entries, key);
    return &p->entries;
}

/* ---- serialisation ------------------------------------------------------------ */

/* Collect the distinct strings of the element tree, in first-use order. */
typedef struct strtab {
    const char **s;
    size_t n;
} strtab;

static uint64_t strtab_index(strtab *t, const char *s)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->s[i], s) == 0)
            return i;
    t->s = xrealloc(t->s, (t->n + 1) * sizeof *t->s);
    t->s[t->n] = s;
    return t->n++;
}

static void collect_strings(strtab *t, const jg_elem *e)
{
    strtab_index(t, e->name);
    for (size_t i = 0; i < e->nattrs; i++) {
        strtab_index(t, e->keys[i]);
        strtab_index(t, e->vals[i]);
    }
    for (size_t i = 0; i < e->nchildren; i++)
        collect_strings(t, e->children[i]);
}

static void write_elem(jg_buf *b, strtab *t, const jg_elem *e)
{
    jg_int(b, strtab_index(t, e->name), 4);
    jg_int(b, e->nattrs, 4);
    for (size_t i = 0; i < e->nattrs; i++) {
        jg_int(b, strtab_index(t, e->keys[i]), 4);
        jg_int(b, strtab_index(t, e->vals[i]), 4);
    }
    jg_int(b, e->nchildren, 4);
    for (size_t i = 0; i < e->nchildren; i++)
        write_elem(b, t, e->children[i]);
}

static void metadata_body(jg_chunk *c, jg_buf *b)
{
    strtab t = {NULL, 0};

    jg_int(b, 0, 8); /* type id */
    jg_int(b, (uint64_t)c->h.start_ticks, 8);
    jg_int(b, 0, 8); /* duration */
    jg_int(b, c->metadata_id, 8);
    collect_strings(&t, c->root);
    jg_int(b, t.n, 4);
    for (size_t i = 0; i < t.n; i++) {
        if (c->meta_string_tag == 4)
            jg_string_utf16(b, t.s[i]);
        else
            jg_string(b, t.s[i]);
    }
    write_elem(b, &t, c->root);
    free(t.s);
}

static void checkpoint_body(jg_chunk *c, jg_cp *cp, uint64_t prev, jg_buf *b)
{
    int64_t delta = prev ? -(int64_t)(cp->offset - prev) : 0;

    jg_int(b, 1, 8); /* type id */
    jg_int(b, (uint64_t)c->h.start_ticks, 8);
    jg_int(b, 0, 8); /* duration */
    jg_int(b, (uint64_t)(cp->set_delta ? cp->delta : delta), 8);
    if (b->fixed)
        jg_u8(b, cp->flags);
    else
        jg_varint(b, cp->flags);
    jg_int(b, cp->npools, 4);
    for (size_t i = 0; i < cp->npools; i++) {
        jg_pool *p = cp->pools[i];

        jg_int(b, p->type_id, 8);
        jg_int(b, p->count, 4);
        jg_bytes(b, p->entries.data, p->entries.len);
    }
}

/* Frame `body` (type id and payload) with its size field. */
static void write_record(jg_buf *out, const jg_buf *body, unsigned size_width)
{
    unsigned n;

    if (out->fixed) {
        jg_be(out, body->len + 4, 4);
    } else if (size_width) {
        jg_varint_padded(out, body->len + size_width, size_width);
    } else {
        for (n = 1; jg_varint_len(body->len + n) > n; n++)
            ;
        jg_varint_padded(out, body->len + n, n);
    }
    jg_bytes(out, body->data, body->len);
}

static void write_header(uint8_t *p, const jg_chunk *c)
{
    memcpy(p, "FLR", 4);
    jg_put_be(p + 4, c->h.major, 2);
    jg_put_be(p + 6, c->h.minor, 2);
    jg_put_be(p + 8, c->size, 8);
    jg_put_be(p + 16, c->cp_offset, 8);
    jg_put_be(p + 24, c->metadata_offset, 8);
    jg_put_be(p + 32, (uint64_t)c->h.start_nanos, 8);
    jg_put_be(p + 40, (uint64_t)c->h.duration_nanos, 8);
    jg_put_be(p + 48, (uint64_t)c->h.start_ticks, 8);
    jg_put_be(p + 56, (uint64_t)c->h.ticks_per_second, 8);
    p[64] = c->h.state;
    p[65] = 0;
    jg_put_be(p + 66, c->h.flags, 2);
}

static void write_rec(jg_chunk *c, jg_rec *r, jg_buf *out, uint64_t *prev_cp)
{
    jg_buf body = {NULL, 0, 0, chunk_fixed(c)};

    switch (r->kind) {
    case REC_RAW:
        jg_bytes(out, r->body.data, r->body.len);
        return;
    case REC_METADATA:
        c->metadata_offset = out->len;
        metadata_body(c, &body);
        write_record(out, &body, c->meta_size_width);
        break;
    case REC_CHECKPOINT:
        r->cp->offset = out->len;
        checkpoint_body(c, r->cp, *prev_cp, &body);
        *prev_cp = r->cp->offset;
        c->cp_offset = r->cp->offset;
        write_record(out, &body, 0);
        break;
    case REC_EVENT:
        jg_int(&body, r->type_id, 8);
        jg_bytes(&body, r->body.data, r->body.len);
        write_record(out, &body, r->size_width);
        break;
    }
    jg_buf_free(&body);
}

void jg_chunk_build(jg_chunk *c, jg_buf *out)
{
    jg_buf chunk = {NULL, 0, 0, chunk_fixed(c)};
    uint8_t zero[HEADER_SIZE] = {0};
    uint64_t prev_cp = 0;

    if (!c->meta_placed) {
        /* the metadata goes first unless a test placed it */
        jg_rec *meta;

        jg_metadata_record(c);
        meta = c->recs[c->nrecs - 1];
        memmove(c->recs + 1, c->recs, (c->nrecs - 1) * sizeof *c->recs);
        c->recs[0] = meta;
    }
    c->cp_offset = 0;
    jg_bytes(&chunk, zero, sizeof zero);
    for (size_t i = 0; i < c->nrecs; i++)
        write_rec(c, c->recs[i], &chunk, &prev_cp);
    c->size = chunk.len;
    write_header(chunk.data, c);
    jg_bytes(out, chunk.data, chunk.len);
    jg_buf_free(&chunk);
}
