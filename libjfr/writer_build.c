/* writer_build.c - building a chunk from declared types: events written as
 * they come, pool entries kept per type until the chunk ends. Every value
 * is checked against its type field by field, so a built chunk always
 * reads back (jfr-format.md §6.3 for the encodings). */
#include "header_write.h"
#include "writer_build_private.h"

#define MAX_NESTING 64

/* One struct value being given: its type and the next field. */
typedef struct frame {
    const jfrw_dtype *t;
    size_t field;
    int64_t left; /* elements still to come of an array field; -1: its count */
} frame;

/* The entries of one type's pool in the chunk. */
typedef struct bpool {
    uint64_t type;
    uint64_t count;
    jfrw_buf entries;
    jfrp_map keys; /* key + 1 -> 1: given already */
} bpool;

struct jfrw_build {
    jfr_chunk_spec spec;
    bool compressed;
    bpool *pools;
    size_t npools;
    /* the value being given (an event or an entry), or depth 0 */
    frame stack[MAX_NESTING];
    size_t depth;
    bool is_event;
    bpool *pool; /* the entry's pool */
    bool duplicate;
    size_t entry_start; /* where the entry's key is in its pool's bytes */
    uint64_t entry_key;
};

void jfrw_build_free(jfr_writer *w)
{
    jfrw_build *b = w->build;

    if (b) {
        for (size_t i = 0; i < b->npools; i++) {
            jfrw_buf_free(&b->pools[i].entries);
            jfrp_map_free(&b->pools[i].keys, &w->al);
        }
        jfrp_free(&w->al, b->pools);
        jfrp_free(&w->al, b);
        w->build = NULL;
    }
    jfrw_decls_free(w);
}

int jfr_writer_begin_chunk(jfr_writer *w, const jfr_chunk_spec *spec)
{
    jfr_chunk_spec sp = JFR_CHUNK_SPEC_INIT;
    jfr_header h = {0};
    uint8_t header[JFRP_HEADER_BYTES];
    int rc;

    if (!w || (spec && spec->version != JFR_CHUNK_SPEC_VERSION))
        return JFR_EINVAL;
    if (w->failed)
        return w->failed;
    if (w->build || w->in_chunk)
        return jfrw_fail(w, JFR_EINVAL, "a chunk is being written already");
    if ((rc = jfrw_decls_ensure(w)) < 0)
        return rc;
    if (spec)
        sp = *spec;
    if (sp.ticks_per_second <= 0)
        sp.ticks_per_second = 1000000000;
    if (!(w->build = jfrp_calloc(&w->al, 1, sizeof *w->build)))
        return jfrw_fail(w, JFR_ENOMEM, "out of memory");
    w->build->spec = sp;
    w->build->compressed = !sp.fixed_ints;
    h.major = 2;
    h.minor = 1;
    h.start_nanos = sp.start_nanos;
    h.start_ticks = sp.start_ticks;
    h.ticks_per_second = sp.ticks_per_second;
    jfrp_header_encode(header, &h);
    if ((rc = jfrw_chunk_begin(w, header)) < 0)
        return rc;
    /* the types are fixed until the chunk ends: the metadata goes first */
    w->pos.metadata = jfrw_out_pos(w) - w->pos.start;
    w->scratch.len = 0;
    jfrw_meta_encode(w, &w->scratch, w->build->compressed, sp.start_ticks,
                     sp.gmt_offset_ms);
    return jfrw_out_take(w, &w->scratch);
}

static const char *kind_name(const jfrw_dtype *t)
{
    return t ? t->name : "an undeclared type";
}

/* The field the next value is for, pushing the frames of inline structs
 * (and popping finished ones). NULL when the value is complete. */
static const jfrw_dfield *expect(jfr_writer *w, const jfrw_dtype **ft)
{
    jfrw_build *b = w->build;

    while (b->depth > 0) {
        frame *f = &b->stack[b->depth - 1];
        const jfrw_dfield *fd;

        if (f->field >= f->t->nfields) {
            if (b->depth == 1)
                return NULL;
            b->depth--; /* an inline struct is done: its field in the parent */
            f = &b->stack[b->depth - 1];
            if (f->t->fields[f->field].flags & JFR_FIELD_ARRAY)
                f->left--;
            else
                f->field++;
            continue;
        }
        fd = &f->t->fields[f->field];
        *ft = jfrw_decl_find(w, fd->type);
        if ((fd->flags & JFR_FIELD_ARRAY) && f->left == 0) {
            f->field++;
            f->left = -1;
            continue;
        }
        if ((fd->flags & JFR_FIELD_ARRAY) && f->left < 0)
            return fd; /* its count */
        if (!(fd->flags & JFR_FIELD_POOLED) && *ft && (*ft)->kind == JFR_KIND_STRUCT) {
            if (b->depth == MAX_NESTING)
                return fd; /* nested too deep: no put will fit */
            b->stack[b->depth++] = (frame){*ft, 0, -1};
            continue;
        }
        return fd;
    }
    return NULL;
}

/* The value of the expected field was given. */
static void consume(jfrw_build *b)
{
    frame *f = &b->stack[b->depth - 1];

    if ((f->t->fields[f->field].flags & JFR_FIELD_ARRAY) && f->left > 0)
        f->left--;
    else {
        f->field++;
        f->left = -1;
    }
}

/* Check that a value of `what` fits the next field; the field's type. */
static const jfrw_dtype *next_slot(jfr_writer *w, const char *what, bool pooled,
                                   bool count, jfr_kind lo, jfr_kind hi)
{
    const jfrw_dtype *ft = NULL;
    const jfrw_dfield *fd;

    if (w->failed)
        return NULL;
    if (!w->build || w->build->depth == 0) {
        jfrw_fail(w, JFR_EINVAL, "%s given outside an event or pool entry", what);
        return NULL;
    }
    fd = expect(w, &ft);
    if (!fd) {
        jfrw_fail(w, JFR_EINVAL, "%s given after the last field", what);
        return NULL;
    }
    frame *f = &w->build->stack[w->build->depth - 1];
    bool is_count = (fd->flags & JFR_FIELD_ARRAY) && f->left < 0;
    bool is_pooled = (fd->flags & JFR_FIELD_POOLED) != 0;
    if (count != is_count || (!count && pooled != is_pooled) ||
        (!count && !pooled && (!ft || ft->kind < lo || ft->kind > hi))) {
        jfrw_fail(w, JFR_EINVAL, "%s given for field %s of %s (%s%s%s)", what, fd->name,
                  f->t->name, is_count ? "an array length" : kind_name(ft),
                  !is_count && is_pooled ? ", a pool key" : "",
                  !is_count && (fd->flags & JFR_FIELD_ARRAY) ? ", an element" : "");
        return NULL;
    }
    return ft;
}

static jfrw_buf *value_buf(jfr_writer *w)
{
    jfrw_build *b = w->build;
    return b->is_event || b->duplicate ? &w->scratch : &b->pool->entries;
}

/* The next field's type and the buffer its value goes to, once `what`
 * is checked to fit it; else the error. */
static int open_slot(jfr_writer *w, const char *what, bool pooled, bool count,
                     jfr_kind lo, jfr_kind hi, const jfrw_dtype **ft, jfrw_buf **out)
{
    *out = NULL;
    if (!w)
        return JFR_EINVAL;
    if (!(*ft = next_slot(w, what, pooled, count, lo, hi)))
        return w->failed ? w->failed : JFR_EINVAL;
    *out = value_buf(w);
    return JFR_OK;
}

static int put_done(jfr_writer *w, jfrw_buf *out)
{
    consume(w->build);
    return out->err ? jfrw_fail(w, JFR_ENOMEM, "out of memory") : JFR_OK;
}

int jfr_writer_put_int(jfr_writer *w, int64_t value)
{
    const jfrw_dtype *ft;
    jfrw_buf *out;
    int rc = open_slot(w, "an integer", false, false, JFR_KIND_BOOLEAN, JFR_KIND_LONG,
                       &ft, &out);

    if (rc < 0)
        return rc;
    switch (ft->kind) {
    case JFR_KIND_BOOLEAN:
        jfrw_u8(out, value != 0);
        break;
    case JFR_KIND_BYTE:
        jfrw_u8(out, (uint8_t)value);
        break;
    case JFR_KIND_CHAR:
    case JFR_KIND_SHORT:
        jfrw_int(out, w->build->compressed, (uint64_t)value, 2);
        break;
    case JFR_KIND_INT:
        jfrw_int(out, w->build->compressed, (uint64_t)value, 4);
        break;
    default:
        jfrw_int(out, w->build->compressed, (uint64_t)value, 8);
        break;
    }
    return put_done(w, out);
}

int jfr_writer_put_float(jfr_writer *w, double value)
{
    const jfrw_dtype *ft;
    jfrw_buf *out;
    int rc =
        open_slot(w, "a float", false, false, JFR_KIND_FLOAT, JFR_KIND_DOUBLE, &ft, &out);

    if (rc < 0)
        return rc;
    if (ft->kind == JFR_KIND_FLOAT) {
        float f = (float)value;
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        jfrw_be(out, bits, 4);
    } else {
        uint64_t bits;
        memcpy(&bits, &value, sizeof bits);
        jfrw_be(out, bits, 8);
    }
    return put_done(w, out);
}

int jfr_writer_put_string(jfr_writer *w, const char *s, size_t len)
{
    const jfrw_dtype *ft;
    jfrw_buf *out;
    int rc = open_slot(w, "a string", false, false, JFR_KIND_STRING, JFR_KIND_STRING, &ft,
                       &out);

    if (rc < 0)
        return rc;
    if (s && len == 0)
        jfrw_u8(out, JFRP_STR_EMPTY);
    else
        jfrw_string(out, w->build->compressed, s, len);
    return put_done(w, out);
}

int jfr_writer_put_key(jfr_writer *w, uint64_t key)
{
    const jfrw_dtype *ft;
    jfrw_buf *out;
    int rc = open_slot(w, "a pool key", true, false, 0, 0, &ft, &out);

    if (rc < 0)
        return rc;
    jfrw_int(out, w->build->compressed, key, 8);
    return put_done(w, out);
}

int jfr_writer_put_count(jfr_writer *w, uint64_t count)
{
    const jfrw_dtype *ft;
    jfrw_buf *out;
    frame *f;
    int rc = open_slot(w, "an array length", false, true, 0, 0, &ft, &out);

    if (rc < 0)
        return rc;
    if (count > INT32_MAX)
        return jfrw_fail(w, JFR_ELIMIT, "array of %llu elements",
                         (unsigned long long)count);
    jfrw_int(out, w->build->compressed, count, 4);
    f = &w->build->stack[w->build->depth - 1];
    f->left = (int64_t)count;
    return out->err ? jfrw_fail(w, JFR_ENOMEM, "out of memory") : JFR_OK;
}

static int begin_value(jfr_writer *w, uint64_t type, bool event, const jfrw_dtype **t)
{
    if (!w)
        return JFR_EINVAL;
    if (w->failed)
        return w->failed;
    if (!w->build)
        return jfrw_fail(w, JFR_EINVAL, "no chunk is being built");
    if (w->build->depth)
        return jfrw_fail(w, JFR_EINVAL, "a value is being given already");
    *t = jfrw_decl_find(w, type);
    if (!*t || (*t)->kind != JFR_KIND_STRUCT || (event && !(*t)->is_event))
        return jfrw_fail(w, JFR_EINVAL, "type id %llu is not a declared %s",
                         (unsigned long long)type, event ? "event type" : "struct type");
    w->build->stack[0] = (frame){*t, 0, -1};
    w->build->depth = 1;
    w->build->is_event = event;
    w->build->duplicate = false;
    w->scratch.len = 0;
    return 0;
}

int jfr_writer_begin_event(jfr_writer *w, uint64_t type)
{
    const jfrw_dtype *t;
    int rc = begin_value(w, type, true, &t);

    if (rc == 0)
        jfrw_int(&w->scratch, w->build->compressed, type, 8);
    return rc;
}

static bpool *pool_of(jfr_writer *w, uint64_t type)
{
    jfrw_build *b = w->build;
    bpool *p;

    for (size_t i = 0; i < b->npools; i++)
        if (b->pools[i].type == type)
            return &b->pools[i];
    p = jfrp_reallocarray(&w->al, b->pools, b->npools + 1, sizeof *p);
    if (!p)
        return NULL;
    b->pools = p;
    p = &b->pools[b->npools++];
    memset(p, 0, sizeof *p);
    p->type = type;
    jfrw_buf_init(&p->entries, &w->al);
    return p;
}

int jfr_writer_begin_entry(jfr_writer *w, uint64_t type, uint64_t key)
{
    const jfrw_dtype *t;
    bpool *p;
    int rc = begin_value(w, type, false, &t);

    if (rc < 0)
        return rc;
    if (!(p = pool_of(w, type)))
        return jfrw_fail(w, JFR_ENOMEM, "out of memory");
    w->build->pool = p;
    /* a key given again keeps its first value: this one is checked, not
     * kept (2 in the map: a key whose entry was cancelled) */
    w->build->duplicate = key != UINT64_MAX && jfrp_map_get(&p->keys, key + 1) == 1;
    w->build->entry_start = p->entries.len;
    w->build->entry_key = key;
    if (!w->build->duplicate) {
        if (key != UINT64_MAX && jfrp_map_put(&p->keys, &w->al, key + 1, 1) < 0)
            return jfrw_fail(w, JFR_ENOMEM, "out of memory");
        jfrw_int(&p->entries, w->build->compressed, key, 8);
        p->count++;
    }
    return 0;
}

int jfr_writer_end(jfr_writer *w)
{
    const jfrw_dtype *ft = NULL;
    const jfrw_dfield *fd;
    jfrw_build *b;

    if (!w)
        return JFR_EINVAL;
    if (w->failed)
        return w->failed;
    b = w->build;
    if (!b || b->depth == 0)
        return jfrw_fail(w, JFR_EINVAL, "no event or pool entry to end");
    if ((fd = expect(w, &ft)) != NULL)
        return jfrw_fail(w, JFR_EINVAL, "field %s of %s has no value", fd->name,
                         b->stack[b->depth - 1].t->name);
    b->depth = 0;
    if (!b->is_event)
        return b->pool->entries.err ? jfrw_fail(w, JFR_ENOMEM, "out of memory") : JFR_OK;
    jfrw_record(&w->scratch, b->compressed, 0);
    if (w->scratch.err)
        return jfrw_fail(w, JFR_ENOMEM, "out of memory");
    return jfrw_out_take(w, &w->scratch);
}

int jfr_writer_cancel(jfr_writer *w)
{
    jfrw_build *b;

    if (!w)
        return JFR_EINVAL;
    if (w->failed)
        return w->failed;
    b = w->build;
    if (!b || b->depth == 0)
        return jfrw_fail(w, JFR_EINVAL, "no event or pool entry to cancel");
    b->depth = 0;
    w->scratch.len = 0;
    if (!b->is_event && !b->duplicate) {
        b->pool->entries.len = b->entry_start;
        b->pool->count--;
        if (b->entry_key != UINT64_MAX &&
            jfrp_map_put(&b->pool->keys, &w->al, b->entry_key + 1, 2) < 0)
            return jfrw_fail(w, JFR_ENOMEM, "out of memory");
    }
    return JFR_OK;
}

int jfr_writer_end_chunk(jfr_writer *w, int64_t duration_nanos)
{
    jfrw_build *b;
    int rc;

    if (!w)
        return JFR_EINVAL;
    if (w->failed)
        return w->failed;
    if (!(b = w->build))
        return jfrw_fail(w, JFR_EINVAL, "no chunk is being built");
    if (b->depth)
        return jfrw_fail(w, JFR_EINVAL, "an event or pool entry is not finished");
    rc = jfrw_checkpoint_begin(w, b->compressed, b->spec.start_ticks, b->npools);
    for (size_t i = 0; i < b->npools && rc == 0; i++) {
        jfrw_buf *s = &w->scratch;
        s->len = 0;
        jfrw_int(s, b->compressed, b->pools[i].type, 8);
        jfrw_int(s, b->compressed, b->pools[i].count, 4);
        if ((rc = jfrw_out_take(w, s)) == 0)
            rc = jfrw_out_write(w, b->pools[i].entries.data, b->pools[i].entries.len);
    }
    if (rc == 0)
        rc = jfrw_chunk_end(w, b->compressed, duration_nanos,
                            b->compressed ? JFR_CHUNK_FLAG_COMPRESSED_INTS : 0);
    for (size_t i = 0; i < b->npools; i++) {
        jfrw_buf_free(&b->pools[i].entries);
        jfrp_map_free(&b->pools[i].keys, &w->al);
    }
    jfrp_free(&w->al, b->pools);
    jfrp_free(&w->al, b);
    w->build = NULL;
    return rc;
}
