/* writer_copy.c - one chunk of a recording written again (scrub, repair):
 * header, metadata record, the kept events in file order (copied byte for
 * byte, or re-encoded where a value is redacted), and one checkpoint with
 * the pool entries they need (writer_refs.c). */
#include "header_write.h"
#include "writer_struct.h"

/* What writing one chunk needs. */
typedef struct copy {
    jfr_writer *w;
    jfr_chunk *c;
    jfrw_chunk_plan *plan;
    jfrw_kept *kept;
    bool compressed;
    jfr_write_stats st;
} copy;

/* A damaged record left out: counted, and noted for the caller. */
static void note(copy *cp, const jfrp_record *rec, const jfr_type *t, const char *why)
{
    jfr_writer *w = cp->w;
    jfr_chunk *c = cp->c;
    uint64_t off = c->header.file_offset + (uint64_t)(rec->start - c->data);

    if (!t)
        cp->st.records_unknown++;
    else
        cp->st.events_undecodable++;
    if (w->nnotes++ >= JFR_WRITER_MAX_NOTES)
        return;
    if (!w->notes &&
        !(w->notes = jfrp_calloc(&w->al, JFR_WRITER_MAX_NOTES, sizeof *w->notes))) {
        w->nnotes = 0;
        return;
    }
    if (t)
        jfrp_fail(&w->notes[w->nnotes - 1], JFR_ECORRUPT, c->index, off,
                  "a %s event of %llu bytes: %s", t->name, (unsigned long long)rec->size,
                  why);
    else
        jfrp_fail(&w->notes[w->nnotes - 1], JFR_ECORRUPT, c->index, off,
                  "a record of %llu bytes whose type id %llu is no event type of the"
                  " metadata",
                  (unsigned long long)rec->size, (unsigned long long)rec->type_id);
}

/* The start time of the chunk's last checkpoint, for the one written. */
static int64_t last_checkpoint_ticks(const jfr_chunk *c)
{
    jfrp_reader r;
    int64_t ticks;

    if (!c->header.constant_pool_offset)
        return c->header.start_ticks;
    jfrp_chunk_reader(&r, c, c->header.constant_pool_offset);
    (void)jfrp_int(&r, 4);
    (void)jfrp_int(&r, 8);
    ticks = (int64_t)jfrp_int(&r, 8);
    return r.err ? c->header.start_ticks : ticks;
}

/* FNV-1a over a metadata record's content (after its id). */
static uint64_t content_hash(const uint8_t *p, const uint8_t *end)
{
    uint64_t h = 0xcbf29ce484222325ULL;

    for (; p < end; p++)
        h = (h ^ *p) * 0x100000001b3ULL;
    return h;
}

/* The JDK's reader keeps the types of the chunk before when a chunk's
 * metadata id is the same (jfr-format.md §14, gotchas 22 and 26): two
 * chunks of different JVMs, or of one JVM that registered event types in
 * between, then read wrong. A chunk whose metadata differs from the chunk
 * written before gets an id of its own; otherwise the record is copied. */
static int copy_metadata(copy *cp)
{
    jfr_chunk *c = cp->c;
    jfr_writer *w = cp->w;
    uint64_t off = c->header.metadata_offset, size, start, duration, id, copied, hash;
    jfrp_reader r;

    jfrp_chunk_reader(&r, c, off);
    size = jfrp_int(&r, 4);
    /* checked when the chunk opened; checked again, the chunk is the caller's */
    if (r.err || size == 0 || size > c->size - off)
        return jfrp_chunk_fail(c, JFR_ECORRUPT, c->header.file_offset + off,
                               "metadata record has bad size %llu",
                               (unsigned long long)size);
    r.end = c->data + off + size;
    (void)jfrp_int(&r, 8); /* type id: 0 */
    start = jfrp_int(&r, 8);
    duration = jfrp_int(&r, 8);
    id = jfrp_int(&r, 8);
    w->pos.metadata = jfrw_out_pos(w) - w->pos.start;
    if (r.err) /* checked when the chunk opened */
        return jfrw_out_write(w, c->data + off, (size_t)size);
    hash = content_hash(r.p, r.end);
    copied = id;
    if (w->nchunks && id == w->meta_id && hash != w->meta_hash)
        id = w->meta_max_id + 1;
    if (!w->nchunks || id > w->meta_max_id)
        w->meta_max_id = id;
    w->meta_id = id;
    w->meta_hash = hash;
    if (id == copied) /* unchanged: the record as it is */
        return jfrw_out_write(w, c->data + off, (size_t)size);
    w->scratch.len = 0;
    jfrw_int(&w->scratch, cp->compressed, 0, 8);
    jfrw_int(&w->scratch, cp->compressed, start, 8);
    jfrw_int(&w->scratch, cp->compressed, duration, 8);
    jfrw_int(&w->scratch, cp->compressed, id, 8);
    jfrw_bytes(&w->scratch, r.p, (size_t)(r.end - r.p));
    jfrw_record(&w->scratch, cp->compressed, 0);
    return jfrw_out_take(w, &w->scratch);
}

/* A kept event whose values need no change: its references are followed
 * (which also proves its fields fit in it) and its bytes copied. */
static int copy_event(copy *cp, const jfrp_record *rec, const jfr_type *t)
{
    size_t marked = jfrw_kept_mark_count(cp->kept);
    jfrp_reader r;

    jfrp_chunk_reader(&r, cp->c, (uint64_t)(rec->payload - cp->c->data));
    r.end = rec->start + rec->size;
    for (size_t i = 0; i < t->nfields && !r.err; i++)
        jfrw_refs_field(cp->kept, &r, &t->fields[i]);
    if (r.err) { /* nothing it refers to is kept for it */
        jfrw_kept_rollback(cp->kept, marked);
        note(cp, rec, t, "its fields do not fit");
        return 0;
    }
    cp->st.events_written++;
    return jfrw_out_write(cp->w, rec->start, (size_t)rec->size);
}

/* A kept event of a type with redacted fields: re-encoded when a value
 * changed, else copied. */
static int redact_event(copy *cp, const jfrp_record *rec, const jfr_type *t)
{
    jfrw_buf *body = &cp->w->scratch;
    size_t marked = jfrw_kept_mark_count(cp->kept);
    jfrp_reader r;
    bool changed;

    jfrp_chunk_reader(&r, cp->c, (uint64_t)(rec->payload - cp->c->data));
    r.end = rec->start + rec->size;
    body->len = 0;
    jfrw_int(body, cp->compressed, t->id, 8);
    changed = jfrw_redact_value(cp->plan, cp->kept, &r, t, body);
    if (body->err)
        return jfrw_fail(cp->w, JFR_ENOMEM, "out of memory");
    if (r.err) {
        jfrw_kept_rollback(cp->kept, marked);
        note(cp, rec, t, "its fields do not fit");
        return 0;
    }
    cp->st.events_written++;
    if (!changed)
        return jfrw_out_write(cp->w, rec->start, (size_t)rec->size);
    cp->st.events_redacted++;
    jfrw_record(body, cp->compressed, 0);
    if (body->err)
        return jfrw_fail(cp->w, JFR_ENOMEM, "out of memory");
    return jfrw_out_write(cp->w, body->data, body->len);
}

static int one_record(copy *cp, const jfrp_record *rec)
{
    const jfr_type *t;
    int kept;

    if (rec->type_id <= 1) /* metadata and checkpoints are made anew */
        return 0;
    t = jfr_chunk_type_by_id(cp->c, rec->type_id);
    if (!t || !t->is_event) {
        note(cp, rec, NULL, "");
        return 0;
    }
    cp->st.events_read++;
    if (!jfrw_plan_type_kept(cp->plan, t->index)) {
        cp->st.events_filtered++;
        return 0;
    }
    kept = jfrw_plan_event_kept(cp->plan, t, rec->payload, rec->start + rec->size);
    if (kept < 0) {
        note(cp, rec, t, "its thread or start time cannot be read");
        return 0;
    }
    if (kept == 0) {
        cp->st.events_filtered++;
        return 0;
    }
    if (jfrw_plan_redacts(cp->plan, t))
        return redact_event(cp, rec, t);
    return copy_event(cp, rec, t);
}

/* Events are read once, in order: the pages of a mapped input that hold
 * only records already written are given back as the walk goes (the
 * checkpoints, which the pool entries are copied from at the end, stay),
 * so memory holds a chunk's pools and little of its events. */
#define FORGET_EVERY ((size_t)1 << 20)

static int copy_records(copy *cp)
{
    jfr_chunk *c = cp->c;
    const uint8_t *walked = c->data + JFRP_HEADER_SIZE, *kept_from = walked;
    jfrp_reader r;
    jfrp_record rec;
    int rc = 0;

    jfrp_chunk_reader(&r, c, JFRP_HEADER_SIZE);
    while (rc == 0 && jfrp_record_step(&r, c->salvaged, &rec) == JFRP_RECORD_OK) {
        walked = rec.start + rec.size;
        rc = one_record(cp, &rec);
        if (rc == 0 && jfrw_kept_close(cp->kept) < 0)
            rc = jfrw_fail(cp->w, JFR_ENOMEM, "out of memory");
        if (rec.type_id == 1) { /* give back the events before it */
            jfrp_mapping_forget(c->rec, kept_from, rec.start, false);
            kept_from = walked;
        } else if ((size_t)(walked - kept_from) >= FORGET_EVERY) {
            jfrp_mapping_forget(c->rec, kept_from, walked, false);
            kept_from = walked;
        }
    }
    /* after a record whose size is impossible, or the cut one of a
     * salvaged chunk, the rest cannot be walked */
    if (rc == 0 && walked < c->data + c->size)
        cp->st.bytes_skipped += (uint64_t)(c->data + c->size - walked);
    return rc;
}

static int finish(copy *cp)
{
    jfr_writer *w = cp->w;
    jfr_chunk *c = cp->c;
    uint64_t nentries;
    int rc;

    if (jfrw_kept_close(cp->kept) < 0)
        return jfrw_fail(w, JFR_ENOMEM, "out of memory");
    if ((rc = jfrw_kept_write(cp->kept, w, last_checkpoint_ticks(c), &nentries)) < 0)
        return rc;
    cp->st.pool_entries_written = nentries;
    cp->st.pools_damaged = c->pools_damaged;
    return jfrw_chunk_end(w, cp->compressed, c->header.duration_nanos, c->header.flags);
}

static void add_stats(jfr_write_stats *to, const jfr_write_stats *from)
{
    uint64_t *t = (uint64_t *)to;
    const uint64_t *f = (const uint64_t *)from;

    for (size_t i = 0; i < sizeof *to / sizeof(uint64_t); i++)
        t[i] += f[i];
}

static int copy_chunk(copy *cp)
{
    jfr_writer *w = cp->w;
    uint64_t start = jfrw_out_pos(w);
    int rc;

    if ((rc = jfrw_chunk_begin(w, cp->c->data)) < 0)
        return rc;
    if ((rc = copy_metadata(cp)) < 0) {
        if (rc == JFR_ECORRUPT)
            (void)jfrw_chunk_abandon(w);
        return rc;
    }
    if ((rc = copy_records(cp)) < 0)
        return rc;
    if (cp->st.events_written == 0 && jfrw_plan_time_filtered(cp->plan))
        return jfrw_chunk_abandon(w); /* nothing of it in the time range */
    if ((rc = finish(cp)) < 0)
        return rc;
    cp->st.chunks_written = 1;
    cp->st.bytes_written = jfrw_out_pos(w) - start;
    return 0;
}

int jfr_writer_add_chunk(jfr_write_stats *stats, jfr_writer *w, jfr_chunk *chunk,
                         jfr_scrub *scrub)
{
    copy cp;
    int rc;

    if (!w || !chunk)
        return JFR_EINVAL;
    if (w->failed)
        return w->failed;
    if (w->build || w->in_chunk)
        return jfrw_fail(w, JFR_EINVAL, "a chunk is being built");
    memset(&cp, 0, sizeof cp);
    w->nnotes = 0;
    cp.w = w;
    cp.c = chunk;
    cp.compressed = (chunk->header.flags & JFR_CHUNK_FLAG_COMPRESSED_INTS) != 0;
    cp.st.bytes_read = chunk->size;
    if (jfrw_plan_new(&cp.plan, scrub, chunk) < 0 || jfrw_kept_new(&cp.kept, chunk) < 0) {
        rc = jfrw_fail(w, JFR_ENOMEM, "out of memory");
    } else {
        jfrw_kept_set_plan(cp.kept, cp.plan, jfrw_redact_value);
        rc = copy_chunk(&cp);
    }
    jfrw_kept_free(cp.kept);
    jfrw_plan_free(cp.plan);
    if (rc == 0 && stats)
        add_stats(stats, &cp.st);
    return rc;
}
