/* metadata.c - the metadata record -> the chunk's type model
 * (jfr-format.md §7). The record is an element tree over a string table;
 * it is parsed into a temporary tree in the chunk arena, then into types in
 * their own arena, which the next chunk takes when its record is the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfr_private.h"

#define MAX_ELEMENT_DEPTH 32

/* The element and attribute names the model reads. Every string of the
 * table that equals one of them is replaced by the word itself, so that
 * lookups compare pointers: a metadata record is thousands of elements, and
 * a file of many chunks parses one per chunk. */
static const char K_CLASS[] = "class";
static const char K_FIELD[] = "field";
static const char K_SETTING[] = "setting";
static const char K_ANNOTATION[] = "annotation";
static const char K_METADATA[] = "metadata";
static const char K_REGION[] = "region";
static const char K_ID[] = "id";
static const char K_NAME[] = "name";
static const char K_SUPER_TYPE[] = "superType";
static const char K_SIMPLE_TYPE[] = "simpleType";
static const char K_DIMENSION[] = "dimension";
static const char K_CONSTANT_POOL[] = "constantPool";
static const char K_DEFAULT_VALUE[] = "defaultValue";
static const char K_GMT_OFFSET[] = "gmtOffset";
static const char K_DST[] = "dst";
static const char *const known_words[] = {
    K_CLASS,         K_FIELD,       K_SETTING,   K_ANNOTATION,
    K_METADATA,      K_REGION,      K_ID,        K_NAME,
    K_SUPER_TYPE,    K_SIMPLE_TYPE, K_DIMENSION, K_CONSTANT_POOL,
    K_DEFAULT_VALUE, K_GMT_OFFSET,  K_DST};

static const char *canonical(const char *s)
{
    for (size_t i = 0; i < sizeof known_words / sizeof *known_words; i++)
        if (s[0] == known_words[i][0] && strcmp(s, known_words[i]) == 0)
            return known_words[i];
    return s;
}

typedef struct melem {
    const char *name;
    uint32_t nattrs;
    const char **keys;
    const char **vals;
    uint32_t nchildren;
    struct melem *children;
} melem;

typedef struct mparse {
    jfr_chunk *c;
    jfrp_reader *r;
    const char **strings;
    uint64_t nstrings;
} mparse;

static const char *string_at(mparse *m, uint64_t i)
{
    if (i >= m->nstrings) {
        jfrp_reader_fail(m->r, JFR_ECORRUPT);
        return "";
    }
    return m->strings[i];
}

/* Read a count of items that each take at least `min_bytes` bytes. */
static uint64_t read_count(jfrp_reader *r, unsigned min_bytes)
{
    uint64_t n = jfrp_int(r, 4);

    if (n > jfrp_reader_left(r) / min_bytes)
        jfrp_reader_fail(r, JFR_ECORRUPT);
    return r->err ? 0 : n;
}

static int parse_element(mparse *m, melem *e, unsigned depth)
{
    jfrp_reader *r = m->r;
    uint64_t n;

    if (depth > MAX_ELEMENT_DEPTH) {
        jfrp_reader_fail(r, JFR_ECORRUPT);
        return -1;
    }
    e->name = string_at(m, jfrp_int(r, 4));
    n = read_count(r, 2);
    e->nattrs = (uint32_t)n;
    e->keys = jfrp_arena_calloc(&m->c->arena, n, sizeof *e->keys);
    e->vals = jfrp_arena_calloc(&m->c->arena, n, sizeof *e->vals);
    if (!e->keys || !e->vals)
        return JFR_ENOMEM;
    for (uint64_t i = 0; i < n && !r->err; i++) {
        e->keys[i] = string_at(m, jfrp_int(r, 4));
        e->vals[i] = string_at(m, jfrp_int(r, 4));
    }
    n = read_count(r, 3);
    e->nchildren = (uint32_t)n;
    e->children = jfrp_arena_calloc(&m->c->arena, n, sizeof *e->children);
    if (!e->children)
        return JFR_ENOMEM;
    for (uint64_t i = 0; i < n && !r->err; i++) {
        int rc = parse_element(m, &e->children[i], depth + 1);
        if (rc < 0)
            return rc;
    }
    return r->err ? -1 : 0;
}

/* `key` is one of the K_ words. */
static const char *attr(const melem *e, const char *key)
{
    for (uint32_t i = 0; i < e->nattrs; i++)
        if (e->keys[i] == key)
            return e->vals[i];
    return NULL;
}

static bool attr_true(const melem *e, const char *key)
{
    const char *v = attr(e, key);
    return v && strcmp(v, "false") != 0; /* the JDK treats presence as true */
}

static uint64_t parse_u64(const char *s, bool *ok)
{
    char *end;
    unsigned long long v;

    *ok = false;
    if (!s || !*s)
        return 0;
    v = strtoull(s, &end, 10);
    *ok = *end == '\0';
    return v;
}

/* `name` is one of the K_ words. */
static size_t count_children(const melem *e, const char *name)
{
    size_t n = 0;
    for (uint32_t i = 0; i < e->nchildren; i++)
        if (e->children[i].name == name)
            n++;
    return n;
}

static jfr_kind kind_of(const char *name)
{
    static const struct {
        const char *name;
        jfr_kind kind;
    } prims[] = {
        {"boolean", JFR_KIND_BOOLEAN},
        {"byte", JFR_KIND_BYTE},
        {"char", JFR_KIND_CHAR},
        {"short", JFR_KIND_SHORT},
        {"int", JFR_KIND_INT},
        {"long", JFR_KIND_LONG},
        {"float", JFR_KIND_FLOAT},
        {"double", JFR_KIND_DOUBLE},
        {"java.lang.String", JFR_KIND_STRING},
    };
    for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++)
        if (strcmp(name, prims[i].name) == 0)
            return prims[i].kind;
    return JFR_KIND_STRUCT;
}

/* Annotations are kept with their type id until every type is known. */
static int read_annotations(jfr_chunk *c, const melem *e, size_t *count,
                            jfr_annotation **out, uint64_t **ids)
{
    size_t n = count_children(e, K_ANNOTATION), k = 0;

    *count = n;
    *out = jfrp_arena_calloc(&c->meta.arena, n, sizeof **out);
    *ids = jfrp_arena_calloc(&c->arena, n, sizeof **ids);
    if (!*out || !*ids)
        return JFR_ENOMEM;
    for (uint32_t i = 0; i < e->nchildren; i++) {
        const melem *a = &e->children[i];
        jfr_annotation *an = &(*out)[k];
        const char **names, **vals;
        size_t nv = 0;
        bool ok;

        if (a->name != K_ANNOTATION)
            continue;
        (*ids)[k++] = parse_u64(attr(a, K_CLASS), &ok);
        names = jfrp_arena_calloc(&c->meta.arena, a->nattrs, sizeof *names);
        vals = jfrp_arena_calloc(&c->meta.arena, a->nattrs, sizeof *vals);
        if (!names || !vals)
            return JFR_ENOMEM;
        for (uint32_t j = 0; j < a->nattrs; j++) {
            if (a->keys[j] == K_CLASS)
                continue;
            names[nv] = a->keys[j];
            vals[nv] = a->vals[j];
            nv++;
        }
        an->count = nv;
        an->names = names;
        an->values = vals;
    }
    return 0;
}

typedef struct pending {
    uint64_t *type_ann_ids;
    uint64_t **field_ann_ids;
    uint64_t *setting_type_ids;
} pending;

static int read_class(jfr_chunk *c, const melem *e, jfr_type *t, pending *p)
{
    size_t nf = count_children(e, K_FIELD), ns = count_children(e, K_SETTING);
    size_t fi = 0, si = 0;
    bool ok;
    int rc;

    t->id = parse_u64(attr(e, K_ID), &ok);
    if (!ok)
        return JFR_ECORRUPT;
    t->name = attr(e, K_NAME);
    if (!t->name)
        return JFR_ECORRUPT;
    t->super_type = attr(e, K_SUPER_TYPE);
    t->simple = attr_true(e, K_SIMPLE_TYPE);
    t->kind = kind_of(t->name);
    t->is_event = t->super_type && strcmp(t->super_type, "jdk.jfr.Event") == 0;
    t->nfields = nf;
    t->fields = jfrp_arena_calloc(&c->meta.arena, nf, sizeof *t->fields);
    t->nsettings = ns;
    t->settings = jfrp_arena_calloc(&c->meta.arena, ns, sizeof *t->settings);
    p->field_ann_ids = jfrp_arena_calloc(&c->arena, nf, sizeof *p->field_ann_ids);
    p->setting_type_ids = jfrp_arena_calloc(&c->arena, ns, sizeof *p->setting_type_ids);
    if (!t->fields || !t->settings || !p->field_ann_ids || !p->setting_type_ids)
        return JFR_ENOMEM;
    if ((rc = read_annotations(c, e, &t->nannotations, &t->annotations,
                               &p->type_ann_ids)) < 0)
        return rc;
    for (uint32_t i = 0; i < e->nchildren; i++) {
        const melem *ch = &e->children[i];

        if (ch->name == K_FIELD) {
            jfr_field *f = &t->fields[fi];
            const char *dim = attr(ch, K_DIMENSION);

            f->name = attr(ch, K_NAME);
            f->type_id = parse_u64(attr(ch, K_CLASS), &ok);
            if (!f->name || !ok)
                return JFR_ECORRUPT;
            f->array = dim && strcmp(dim, "0") != 0;
            f->pooled = attr_true(ch, K_CONSTANT_POOL);
            if ((rc = read_annotations(c, ch, &f->nannotations, &f->annotations,
                                       &p->field_ann_ids[fi])) < 0)
                return rc;
            fi++;
        } else if (ch->name == K_SETTING) {
            jfr_setting *s = &t->settings[si];

            s->name = attr(ch, K_NAME);
            s->default_value = attr(ch, K_DEFAULT_VALUE);
            p->setting_type_ids[si] = parse_u64(attr(ch, K_CLASS), &ok);
            si++;
        }
    }
    return 0;
}

/* Decide once per type whether its values can be decoded inline: every
 * inline field's type must be declared, with no inline cycle and no deeper
 * nesting than max_depth (jfr-format.md §7.5: recursion goes through pools).
 * Types are settled bottom-up in rounds instead of by a recursive walk, so a
 * type's answer does not depend on how deep a walk first met it, and long
 * chains need no stack. Returns false while a field's type is unsettled. */
static bool settle_inline(jfr_type *t, const uint8_t *settled, uint32_t max_depth)
{
    uint32_t height = 0;
    bool decodable = true, too_deep = false, zero_size = t->kind == JFR_KIND_STRUCT;

    for (size_t i = 0; i < t->nfields; i++) {
        const jfr_field *f = &t->fields[i];
        const jfr_type *ft = f->type;

        if (!ft) {
            decodable = false;
            continue;
        }
        if (f->pooled || f->array || ft->kind != JFR_KIND_STRUCT)
            zero_size = false;
        if (f->pooled || ft->kind != JFR_KIND_STRUCT)
            continue;
        if (!settled[ft->index])
            return false;
        if (!ft->decodable) {
            decodable = false;
            too_deep = too_deep || ft->too_deep;
            continue;
        }
        if (!ft->zero_size)
            zero_size = false;
        if (ft->inline_height + 1 > height)
            height = ft->inline_height + 1;
    }
    t->inline_height = height;
    t->zero_size = zero_size;
    t->decodable = decodable && height <= max_depth;
    t->too_deep = too_deep || height > max_depth;
    return true;
}

/* A type of inline height h settles by round h; what is still unsettled after
 * max_depth + 1 rounds is in a cycle or too deep and stays undecodable. */
static void check_inline(jfr_chunk *c, uint8_t *settled, uint32_t max_depth)
{
    bool progress = true;

    for (uint32_t round = 0; round <= max_depth && progress; round++) {
        progress = false;
        for (size_t i = 0; i < c->meta.ntypes; i++) {
            if (!settled[i] && settle_inline(&c->meta.types[i], settled, max_depth)) {
                settled[i] = 1;
                progress = true;
            }
        }
    }
    /* deeper than the limit, or nested in itself: no depth would do */
    for (size_t i = 0; i < c->meta.ntypes; i++)
        if (!settled[i])
            c->meta.types[i].too_deep = true;
}

/* The flat skip program of a struct type, or NULL (see jfr_private.h). Only
 * for compressed-integer chunks, where every integer is one varint. */
static int compile_flat(jfr_chunk *c, jfr_type *t)
{
    char *ops;

    t->flat_ops = NULL;
    t->flat_varints = 0;
    if (t->kind != JFR_KIND_STRUCT || !t->decodable || t->zero_size || t->nfields == 0 ||
        !(c->header.flags & JFR_CHUNK_FLAG_COMPRESSED_INTS))
        return 0;
    for (size_t i = 0; i < t->nfields; i++) {
        const jfr_field *f = &t->fields[i];
        if (f->array || !f->type ||
            (!f->pooled &&
             (f->type->kind == JFR_KIND_STRUCT || f->type->kind == JFR_KIND_STRING)))
            return 0;
    }
    ops = jfrp_arena_alloc(&c->meta.arena, t->nfields + 1);
    if (!ops)
        return JFR_ENOMEM;
    for (size_t i = 0; i < t->nfields; i++) {
        const jfr_field *f = &t->fields[i];
        switch (f->pooled ? JFR_KIND_LONG : f->type->kind) {
        case JFR_KIND_BOOLEAN:
        case JFR_KIND_BYTE:
            ops[i] = '1';
            break;
        case JFR_KIND_FLOAT:
            ops[i] = '4';
            break;
        case JFR_KIND_DOUBLE:
            ops[i] = '8';
            break;
        default:
            ops[i] = 'v';
            break;
        }
    }
    ops[t->nfields] = '\0';
    t->flat_ops = ops;
    if (strspn(ops, "v") == t->nfields && t->nfields <= UINT32_MAX)
        t->flat_varints = (uint32_t)t->nfields;
    return 0;
}

static int build_types(jfr_chunk *c, const melem *meta)
{
    jfr_recording *rec = c->rec;
    size_t n = count_children(meta, K_CLASS), k = 0;
    pending *pend;
    uint8_t *state;
    int rc;

    if (n > rec->opts.max_types)
        return JFR_ELIMIT;
    c->meta.types = jfrp_arena_calloc(&c->meta.arena, n, sizeof *c->meta.types);
    pend = jfrp_arena_calloc(&c->arena, n, sizeof *pend);
    if (!c->meta.types || !pend)
        return JFR_ENOMEM;
    for (uint32_t i = 0; i < meta->nchildren; i++) {
        if (meta->children[i].name != K_CLASS)
            continue;
        c->meta.types[k].index = k;
        if ((rc = read_class(c, &meta->children[i], &c->meta.types[k], &pend[k])) < 0)
            return rc;
        if (!jfrp_map_get(&c->meta.type_by_id, c->meta.types[k].id) &&
            jfrp_map_put(&c->meta.type_by_id, &rec->al, c->meta.types[k].id, k + 1) < 0)
            return JFR_ENOMEM;
        k++;
    }
    c->meta.ntypes = n;
    /* every event looks its type up: ids of real producers are small, so
     * a direct table serves them without hashing */
    {
        uint64_t max_id = 0;
        for (size_t i = 0; i < n; i++)
            if (c->meta.types[i].id > max_id)
                max_id = c->meta.types[i].id;
        if (n && max_id < 65536) {
            c->meta.nsmall_ids = (uint32_t)max_id + 1;
            c->meta.small_ids = jfrp_arena_calloc(&c->meta.arena, c->meta.nsmall_ids,
                                                  sizeof *c->meta.small_ids);
            if (!c->meta.small_ids)
                return JFR_ENOMEM;
            for (size_t i = n; i-- > 0;) /* the first of duplicate ids wins */
                c->meta.small_ids[c->meta.types[i].id] = (uint32_t)i + 1;
        }
    }
    /* resolve type ids now that all types are known */
    for (size_t i = 0; i < n; i++) {
        jfr_type *t = &c->meta.types[i];

        for (size_t j = 0; j < t->nannotations; j++)
            t->annotations[j].type = jfr_chunk_type_by_id(c, pend[i].type_ann_ids[j]);
        for (size_t j = 0; j < t->nsettings; j++)
            t->settings[j].type = jfr_chunk_type_by_id(c, pend[i].setting_type_ids[j]);
        for (size_t j = 0; j < t->nfields; j++) {
            jfr_field *f = &t->fields[j];

            f->type = jfr_chunk_type_by_id(c, f->type_id);
            for (size_t a = 0; a < f->nannotations; a++)
                f->annotations[a].type =
                    jfr_chunk_type_by_id(c, pend[i].field_ann_ids[j][a]);
        }
    }
    for (size_t i = 0; i < n; i++) {
        jfr_type *t = &c->meta.types[i];

        t->label = jfr_type_annotation_value(t, "jdk.jfr.Label");
        for (size_t j = 0; j < t->nfields; j++)
            t->fields[j].label =
                jfr_field_annotation_value(&t->fields[j], "jdk.jfr.Label");
    }
    state = jfrp_arena_calloc(&c->arena, n ? n : 1, 1);
    if (!state)
        return JFR_ENOMEM;
    check_inline(c, state, rec->opts.max_depth);
    for (size_t i = 0; i < n; i++)
        if (compile_flat(c, &c->meta.types[i]) < 0)
            return JFR_ENOMEM;
    return 0;
}

/* Signed decimal attribute, or 0. */
static int64_t attr_i64(const melem *e, const char *key)
{
    const char *v = attr(e, key);
    bool neg, ok;
    int64_t n;

    if (!v)
        return 0;
    neg = *v == '-';
    n = (int64_t)parse_u64(neg ? v + 1 : v, &ok);
    return ok ? (neg ? -n : n) : 0;
}

/* The recording JVM's time zone: JDK 25 shows times at gmtOffset plus the
 * daylight-saving amount (dst, absent before JDK 25). */
static void read_region(jfr_chunk *c, const melem *root)
{
    for (uint32_t i = 0; i < root->nchildren; i++) {
        if (root->children[i].name != K_REGION)
            continue;
        c->meta.gmt_offset_ms = attr_i64(&root->children[i], K_GMT_OFFSET) +
                                attr_i64(&root->children[i], K_DST);
    }
}

static void find_known(jfr_chunk *c)
{
    c->meta.known.string = jfr_chunk_type_by_name(c, "java.lang.String");
    c->meta.known.stacktrace = jfr_chunk_type_by_name(c, "jdk.types.StackTrace");
    if (!c->meta.known.stacktrace)
        c->meta.known.stacktrace =
            jfr_chunk_type_by_name(c, "com.oracle.jfr.types.StackTrace");
    c->meta.known.thread = jfr_chunk_type_by_name(c, "java.lang.Thread");
    c->meta.known.method = jfr_chunk_type_by_name(c, "jdk.types.Method");
    if (!c->meta.known.method)
        c->meta.known.method = jfr_chunk_type_by_name(c, "com.oracle.jfr.types.Method");
    c->meta.known.klass = jfr_chunk_type_by_name(c, "java.lang.Class");
    c->meta.known.class_loader = jfr_chunk_type_by_name(c, "jdk.types.ClassLoader");
    if (!c->meta.known.class_loader)
        c->meta.known.class_loader =
            jfr_chunk_type_by_name(c, "com.oracle.jfr.types.ClassLoader");
    c->meta.known.frame_type = jfr_chunk_type_by_name(c, "jdk.types.FrameType");
    if (!c->meta.known.frame_type)
        c->meta.known.frame_type =
            jfr_chunk_type_by_name(c, "com.oracle.jfr.types.FrameType");
}

static int read_strings(mparse *m)
{
    jfrp_reader *r = m->r;
    jfr_chunk *c = m->c;

    m->nstrings = read_count(r, 1);
    m->strings = jfrp_arena_calloc(&c->arena, m->nstrings, sizeof *m->strings);
    if (!m->strings)
        return JFR_ENOMEM;
    for (uint64_t i = 0; i < m->nstrings && !r->err; i++) {
        jfrp_raw_string s;
        char *buf;

        jfrp_raw_string_read(r, &s);
        if (r->err)
            break;
        if (s.tag == JFRP_STR_NULL || s.tag == JFRP_STR_EMPTY || s.tag == JFRP_STR_POOL) {
            m->strings[i] = ""; /* no pools exist for metadata strings */
            continue;
        }
        buf = jfrp_arena_alloc(&c->meta.arena, jfrp_utf8_bound(&s));
        if (!buf)
            return JFR_ENOMEM;
        jfrp_utf8_convert(buf, &s, r->compressed);
        m->strings[i] = canonical(buf);
    }
    return 0;
}

/* Keep a copy of the bytes the metadata was made from, to recognise them
 * in the next chunk (a mapped file's pages are given back as it is read). */
static int remember_source(jfr_chunk *c, const uint8_t *p, size_t size)
{
    uint8_t *copy = jfrp_arena_alloc(&c->meta.arena, size ? size : 1);

    if (!copy)
        return jfrp_chunk_fail(c, JFR_ENOMEM, c->header.file_offset, "out of memory");
    memcpy(copy, p, size);
    c->meta.source = copy;
    c->meta.source_size = size;
    c->meta.compressed = (c->header.flags & JFR_CHUNK_FLAG_COMPRESSED_INTS) != 0;
    return 0;
}

/* Take the recording's kept metadata when it was made from the bytes at
 * [p, p + size) with the same integer encoding. */
static bool take_kept(jfr_chunk *c, const uint8_t *p, size_t size)
{
    jfr_recording *rec = c->rec;
    jfrp_meta *kept = &rec->meta_spare;

    if (!rec->has_meta_spare || kept->source_size != size ||
        kept->compressed != ((c->header.flags & JFR_CHUNK_FLAG_COMPRESSED_INTS) != 0) ||
        memcmp(kept->source, p, size) != 0)
        return false;
    c->meta = *kept;
    rec->has_meta_spare = false;
    memset(kept, 0, sizeof *kept);
    for (size_t i = 0; i < c->meta.ntypes; i++)
        c->meta.types[i].pool = NULL; /* the pools are the chunk's own */
    return true;
}

int jfrp_metadata_read(jfr_chunk *c)
{
    const uint8_t *source;
    jfrp_reader r, rec_r;
    mparse m = {c, &rec_r, NULL, 0};
    melem root;
    const melem *meta = NULL;
    uint64_t size, off = c->header.metadata_offset;
    int rc;

    jfrp_chunk_reader(&r, c, off);
    size = jfrp_int(&r, 4);
    if (r.err || size == 0 || size > c->size - off)
        return jfrp_chunk_fail_placed(
            c, JFR_PLACE_CHUNK, JFR_ECORRUPT, c->header.file_offset + off,
            "metadata record at offset %llu has bad size %llu",
            (unsigned long long)(c->header.file_offset + off), (unsigned long long)size);
    jfrp_chunk_reader(&rec_r, c, off);
    rec_r.end = c->data + off + size;
    (void)jfrp_int(&rec_r, 4); /* size */
    if (jfrp_int(&rec_r, 8) != 0)
        return jfrp_chunk_fail_placed(c, JFR_PLACE_CHUNK, JFR_ECORRUPT,
                                      c->header.file_offset + off,
                                      "record at metadata offset %llu is not metadata",
                                      (unsigned long long)(c->header.file_offset + off));
    (void)jfrp_int(&rec_r, 8); /* start time */
    (void)jfrp_int(&rec_r, 8); /* duration */
    (void)jfrp_int(&rec_r, 8); /* metadata id: never reused across chunks */
    if (!rec_r.err && take_kept(c, rec_r.p, (size_t)(rec_r.end - rec_r.p)))
        return 0;
    jfrp_arena_init(&c->meta.arena, &c->rec->al);
    source = rec_r.p;
    if ((rc = read_strings(&m)) < 0)
        return jfrp_chunk_fail(c, rc, jfrp_reader_offset(&rec_r), "out of memory");
    rc = rec_r.err ? -1 : parse_element(&m, &root, 0);
    if (rc == JFR_ENOMEM)
        return jfrp_chunk_fail(c, rc, jfrp_reader_offset(&rec_r), "out of memory");
    if (rc < 0 || rec_r.err) {
        char what[96];
        snprintf(what, sizeof what, "metadata record");
        return jfrp_reader_error(c, JFR_PLACE_CHUNK, &rec_r, what);
    }
    for (uint32_t i = 0; i < root.nchildren; i++)
        if (root.children[i].name == K_METADATA)
            meta = &root.children[i];
    if (!meta)
        return jfrp_chunk_fail_placed(c, JFR_PLACE_CHUNK, JFR_ECORRUPT,
                                      c->header.file_offset + off,
                                      "metadata has no type list");
    rc = build_types(c, meta);
    if (rc < 0)
        return jfrp_chunk_fail_placed(c, JFR_PLACE_CHUNK, rc, c->header.file_offset + off,
                                      "metadata types: %s",
                                      rc == JFR_ELIMIT   ? "too many types"
                                      : rc == JFR_ENOMEM ? "out of memory"
                                                         : "malformed class");
    read_region(c, &root);
    find_known(c);
    return remember_source(c, source, (size_t)(rec_r.end - source));
}

void jfrp_meta_free(jfrp_meta *m, const jfrp_alloc *al)
{
    jfrp_map_free(&m->type_by_id, al);
    jfrp_arena_free(&m->arena);
    memset(m, 0, sizeof *m);
}

void jfrp_metadata_keep(jfr_chunk *c)
{
    jfr_recording *rec = c->rec;

    if (!c->meta.source) { /* never read whole */
        jfrp_meta_free(&c->meta, &rec->al);
        return;
    }
    if (rec->has_meta_spare)
        jfrp_meta_free(&rec->meta_spare, &rec->al);
    rec->meta_spare = c->meta;
    rec->has_meta_spare = true;
    memset(&c->meta, 0, sizeof c->meta);
}
