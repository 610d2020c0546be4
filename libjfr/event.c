/* event.c - walking a chunk's records (jfr-format.md §6.1): each starts
 * with its size, so unwanted records are skipped without decoding. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_order.h"
#include "jfr_private.h"

/* An iterator's walk fields are written at every event. Threads that each
 * walk a chunk allocate theirs at about the same time, so from one heap
 * (jfrtool keeps one, M_ARENA_MAX) two iterators can be neighbours: the
 * pads keep the other's writes off their cache lines (without them a
 * two-thread view ran at times 1.5x the CPU). */
struct jfr_event_iter {
    char pad_front[64];
    jfr_chunk *chunk;
    jfrp_reader r;
    unsigned flags;
    uint8_t *keep; /* per type index; NULL keeps all */
    /* the kept records' offsets, when the recording lists them (record_index.c) */
    const uint32_t *at;
    size_t nat, next_at;
    uint32_t *at_owned;
    /* JFR_ITER_BY_END_TIME: the kept records in the order to hand out,
     * made by the first jfr_event_next; the walk's error comes after them */
    jfrp_by_end *order;
    size_t norder, next_order;
    bool ordered;
    int order_rc;
    jfr_event ev;
    jfrp_vctx vctx;
    jfrp_arena scratch;
    char pad_back[64];
};

int jfrp_bad_record(jfr_chunk *c, const uint8_t *start, uint64_t size)
{
    uint64_t off = c->header.file_offset + (uint64_t)(start - c->data);

    return jfrp_chunk_fail_placed(c, JFR_PLACE_CHUNK, JFR_ECORRUPT, off,
                                  "record at offset %llu has impossible size %llu"
                                  " (%llu bytes left in the chunk)",
                                  (unsigned long long)off, (unsigned long long)size,
                                  (unsigned long long)(c->data + c->size - start));
}

/* Where records start in the chunk, one bit per byte, made on the first
 * seek by one walk: a seek into the middle of a record fails at once. The
 * walk cannot see past a damaged record; offsets beyond it (a caller's own
 * resynchronisation) are taken on trust (c->records_known ends there). A
 * followed chunk grows: the bits grow with it and the walk goes on from
 * where it stopped. */
static const uint8_t *record_starts(jfr_chunk *c)
{
    size_t need = c->size / 8 + 1;
    jfrp_reader r;
    jfrp_record rec;

    if (c->record_starts && c->record_starts_len == need)
        return c->record_starts;
    if (need > c->record_starts_len) {
        uint8_t *bits = jfrp_realloc(&c->rec->al, c->record_starts, need);

        if (!bits)
            return NULL;
        memset(bits + c->record_starts_len, 0, need - c->record_starts_len);
        if (!c->record_starts)
            c->records_known = JFRP_HEADER_SIZE;
        c->record_starts = bits;
        c->record_starts_len = need;
    }
    jfrp_chunk_reader(&r, c, c->records_known);
    while (jfrp_record_step(&r, c->salvaged, &rec) == JFRP_RECORD_OK) {
        size_t at = (size_t)(rec.start - c->data);
        c->record_starts[at / 8] |= (uint8_t)(1u << (at % 8));
        c->records_known = at + rec.size;
    }
    return c->record_starts;
}

uint8_t *jfrp_kept_types(jfr_chunk *chunk, const char *const *types, size_t ntypes)
{
    uint8_t *keep =
        jfrp_calloc(&chunk->rec->al, chunk->meta.ntypes ? chunk->meta.ntypes : 1, 1);

    /* several types may share a name (perfGenie): keep them all */
    for (size_t i = 0; keep && i < chunk->meta.ntypes; i++)
        for (size_t j = 0; j < ntypes && !keep[i]; j++)
            keep[i] = types[j] && strcmp(chunk->meta.types[i].name, types[j]) == 0;
    return keep;
}

int jfr_event_iter_new(jfr_event_iter **out, jfr_chunk *chunk, const char *const *types,
                       size_t ntypes, unsigned flags)
{
    jfr_event_iter *it;
    const jfrp_alloc *al;

    if (!out || !chunk || (ntypes && !types))
        return JFR_EINVAL;
    al = &chunk->rec->al;
    it = jfrp_calloc(al, 1, sizeof *it);
    if (!it)
        return jfrp_chunk_fail(chunk, JFR_ENOMEM, chunk->header.file_offset,
                               "out of memory");
    it->chunk = chunk;
    it->flags = flags;
    jfrp_chunk_reader(&it->r, chunk, chunk->records_from);
    if (types) {
        if (!(it->keep = jfrp_kept_types(chunk, types, ntypes))) {
            jfrp_free(al, it);
            return jfrp_chunk_fail(chunk, JFR_ENOMEM, chunk->header.file_offset,
                                   "out of memory");
        }
        int listed = flags & JFR_ITER_ALL_RECORDS
                         ? 0
                         : jfrp_record_index_use(chunk, it->keep, flags & JFR_ITER_INDEX,
                                                 &it->at, &it->nat, &it->at_owned);
        if (listed < 0) {
            jfrp_free(al, it->keep);
            jfrp_free(al, it);
            return jfrp_chunk_fail(chunk, JFR_ENOMEM, chunk->header.file_offset,
                                   "out of memory");
        }
        if (listed == 0)
            it->at = NULL;
    }
    it->vctx.chunk = chunk;
    it->vctx.scratch = &it->scratch;
    jfrp_arena_init(&it->scratch, al);
    it->ev.chunk = chunk;
    it->ev.vctx = &it->vctx;
    *out = it;
    return JFR_OK;
}

int jfr_event_iter_seek(jfr_event_iter *it, uint64_t offset)
{
    jfr_chunk *c;
    uint64_t rel;

    if (!it)
        return JFR_EINVAL;
    c = it->chunk;
    if (offset < c->header.file_offset + c->records_from)
        return JFR_EINVAL;
    rel = offset - c->header.file_offset;
    if (rel > c->size)
        return JFR_EINVAL;
    if (rel < c->size) {
        const uint8_t *starts = record_starts(c);
        if (!starts)
            return jfrp_chunk_fail(c, JFR_ENOMEM, offset, "out of memory");
        if (rel < c->records_known && !(starts[rel / 8] & (1u << (rel % 8))))
            return JFR_EINVAL; /* not where a record starts */
    }
    it->r.err = 0;
    it->r.end = c->data + c->size;
    it->r.p = c->data + rel;
    it->at = NULL; /* walk on from here, in file order */
    it->flags &= ~JFR_ITER_BY_END_TIME;
    return JFR_OK;
}

void jfr_event_iter_free(jfr_event_iter *it)
{
    const jfrp_alloc *al;

    if (!it)
        return;
    al = &it->chunk->rec->al;
    jfrp_arena_free(&it->scratch);
    jfrp_free(al, it->keep);
    jfrp_free(al, it->at_owned);
    jfrp_free(al, it->order);
    jfrp_free(al, it);
}

static int next_in_file_order(const jfr_event **out, jfr_event_iter *it)
{
    jfrp_reader *r = &it->r;

    for (;;) {
        jfrp_record rec;
        const jfr_type *type;
        int step;

        if (it->at) { /* only the kept records, each read sound before */
            if (it->next_at == it->nat)
                return JFR_DONE;
            r->p = it->chunk->data + it->at[it->next_at++];
        }
        step = jfrp_record_step(r, it->chunk->salvaged, &rec);

        if (step == JFRP_RECORD_END)
            return JFR_DONE;
        if (step == JFRP_RECORD_BAD) {
            r->p = r->end; /* nothing after it can be found */
            return jfrp_bad_record(it->chunk, rec.start, rec.size);
        }
        type = rec.type_id > 1 ? jfr_chunk_type_by_id(it->chunk, rec.type_id) : NULL;
        if (!type) {
            if (!(it->flags & JFR_ITER_ALL_RECORDS))
                continue;
        } else if (it->keep && !it->keep[type->index]) {
            continue;
        }
        it->ev.type = type;
        it->ev.type_id = rec.type_id;
        it->ev.start = rec.start;
        it->ev.payload = rec.payload;
        it->ev.end = rec.start + rec.size;
        *out = &it->ev;
        return JFR_OK;
    }
}

/* An event's end in ticks, as the JDK's stream orders events: its first
 * field is the start time and, when the type has a field "duration", the
 * second is its duration (EventParser reads them so). */
static int64_t end_ticks(const jfr_event *ev)
{
    const jfr_type *t = ev->type;
    jfrp_reader r;
    uint64_t start, duration = 0;

    jfrp_reader_init(&r, ev->payload, (size_t)(ev->end - ev->payload), 0,
                     (ev->chunk->header.flags & JFR_CHUNK_FLAG_COMPRESSED_INTS) != 0);
    start = jfrp_int(&r, 8);
    if (t->nfields > 1 && strcmp(t->fields[1].name, "duration") == 0)
        duration = jfrp_int(&r, 8);
    return r.err ? 0 : (int64_t)(start + duration);
}

/* Walk the kept records once and sort them by end time. */
static int order_by_end(jfr_event_iter *it)
{
    const jfrp_alloc *al = &it->chunk->rec->al;
    const jfr_event *ev;
    size_t room = 0;
    int rc;

    it->ordered = true;
    while ((rc = next_in_file_order(&ev, it)) == JFR_OK) {
        if (jfrp_grow_array(al, (void **)&it->order, &room, it->norder + 1,
                            sizeof *it->order) < 0)
            return jfrp_chunk_fail(it->chunk, JFR_ENOMEM, jfr_event_offset(ev),
                                   "out of memory");
        it->order[it->norder] = (jfrp_by_end){ev->type ? end_ticks(ev) : 0,
                                              (uint64_t)(ev->start - it->chunk->data)};
        it->norder++;
    }
    it->order_rc = rc;
    if (jfrp_order_by_end(al, it->order, it->norder) < 0)
        return jfrp_chunk_fail(it->chunk, JFR_ENOMEM, it->chunk->header.file_offset,
                               "out of memory");
    return JFR_OK;
}

int jfr_event_next(const jfr_event **out, jfr_event_iter *it)
{
    int rc;

    if (!out || !it)
        return JFR_EINVAL;
    if (it->scratch.used)
        jfrp_arena_reset(&it->scratch);
    if (!(it->flags & JFR_ITER_BY_END_TIME))
        return next_in_file_order(out, it);
    if (!it->ordered && (rc = order_by_end(it)) < 0)
        return rc;
    if (it->next_order == it->norder)
        return it->order_rc;
    /* a record read sound once: stepping over it again cannot fail */
    it->at = NULL;
    it->r.err = 0;
    it->r.end = it->chunk->data + it->chunk->size;
    it->r.p = it->chunk->data + it->order[it->next_order++].at;
    return next_in_file_order(out, it);
}

const jfr_type *jfr_event_type(const jfr_event *ev)
{
    return ev ? ev->type : NULL;
}

uint64_t jfr_event_type_id(const jfr_event *ev)
{
    return ev ? ev->type_id : 0;
}

uint64_t jfr_event_offset(const jfr_event *ev)
{
    return ev ? ev->chunk->header.file_offset + (uint64_t)(ev->start - ev->chunk->data)
              : 0;
}

uint64_t jfr_event_size(const jfr_event *ev)
{
    return ev ? (uint64_t)(ev->end - ev->start) : 0;
}

jfr_chunk *jfr_event_chunk(const jfr_event *ev)
{
    return ev ? ev->chunk : NULL;
}

int jfr_event_value(jfr_value *out, const jfr_event *ev)
{
    if (!out || !ev)
        return JFR_EINVAL;
    memset(out, 0, sizeof *out);
    if (!ev->type)
        return JFR_ENOTFOUND;
    if (!ev->type->decodable && ev->type->too_deep)
        return jfrp_chunk_fail_placed(ev->chunk, JFR_PLACE_CHUNK, JFR_ELIMIT,
                                      jfr_event_offset(ev),
                                      "event type %s nests values deeper than the"
                                      " depth limit (or in themselves)",
                                      ev->type->name);
    if (!ev->type->decodable)
        return jfrp_chunk_fail_placed(ev->chunk, JFR_PLACE_CHUNK, JFR_ECORRUPT,
                                      jfr_event_offset(ev),
                                      "event type %s cannot be decoded"
                                      " (its metadata is inconsistent)",
                                      ev->type->name);
    out->kind = JFR_VALUE_OBJECT;
    out->type = ev->type;
    jfrp_value_where_set(out, ev->vctx, (uint64_t)(ev->payload - ev->chunk->data),
                         (uint64_t)(ev->end - ev->chunk->data));
    return JFR_OK;
}

int jfr_event_field(jfr_value *out, const jfr_event *ev, const char *name)
{
    jfr_value v;
    int rc = jfr_event_value(&v, ev);

    if (rc < 0)
        return rc;
    return jfr_value_field(out, &v, name);
}

int64_t jfr_event_start_ticks(const jfr_event *ev)
{
    const jfr_field *f;
    jfr_value v;

    if (!ev || !ev->type || ev->type->nfields == 0)
        return 0;
    /* by convention field 0 is startTime; the JDK reader assumes it too.
     * A long there is read in place (rates and timelines ask per event);
     * anything else, or damage, goes the generic way. */
    f = &ev->type->fields[0];
    if (!f->pooled && !f->array && f->type && f->type->kind == JFR_KIND_LONG &&
        strcmp(f->name, "startTime") == 0) {
        jfrp_reader r;
        uint64_t bits;

        jfrp_reader_init(&r, ev->payload, (size_t)(ev->end - ev->payload),
                         jfr_event_offset(ev) + (uint64_t)(ev->payload - ev->start),
                         (ev->chunk->header.flags & JFR_CHUNK_FLAG_COMPRESSED_INTS) != 0);
        bits = jfrp_int(&r, 8);
        if (!r.err)
            return (int64_t)bits;
    }
    if (jfr_event_field(&v, ev, "startTime") < 0 || v.kind != JFR_VALUE_INT)
        return 0;
    return v.as.i;
}

double jfr_event_number(const jfr_event *ev, const char *name)
{
    jfr_value v;

    if (jfr_event_field(&v, ev, name) < 0)
        return NAN;
    if (v.kind == JFR_VALUE_INT)
        return jfr_field_is_unsigned(v.field) ? (double)v.bits : (double)v.as.i;
    if (v.kind == JFR_VALUE_FLOAT)
        return v.as.f;
    return NAN;
}

double jfr_event_timespan_nanos(const jfr_event *ev, const char *name)
{
    jfr_value v;
    jfr_time_unit unit;
    int64_t ns;

    if (jfr_event_field(&v, ev, name) < 0 || v.kind != JFR_VALUE_INT)
        return NAN;
    unit = jfr_field_time_unit(v.field);
    if (jfr_chunk_time_nanos(&ns, ev->chunk, unit ? unit : JFR_TIME_TICKS, v.as.i) !=
        JFR_OK)
        return NAN;
    return (double)ns;
}

int jfr_chunk_count_records(uint64_t *counts, uint64_t *bytes, jfr_record_stats *other,
                            jfr_chunk *chunk)
{
    jfr_record_stats ignored;
    jfrp_reader r;

    if (!chunk || (chunk->meta.ntypes && (!counts || !bytes)))
        return JFR_EINVAL;
    if (!other)
        other = &ignored;
    jfrp_chunk_reader(&r, chunk, chunk->records_from);
    for (;;) {
        jfrp_record rec;
        const jfr_type *t;
        uint64_t id;
        int step = jfrp_record_step(&r, chunk->salvaged, &rec);

        if (step == JFRP_RECORD_END)
            break;
        if (step == JFRP_RECORD_BAD)
            return jfrp_bad_record(chunk, rec.start, rec.size);
        id = rec.type_id;
        if (id < 2) {
            *(id ? &other->checkpoint_count : &other->metadata_count) += 1;
            *(id ? &other->checkpoint_bytes : &other->metadata_bytes) += rec.size;
            continue;
        }
        t = id < chunk->meta.nsmall_ids
                ? (chunk->meta.small_ids[id]
                       ? &chunk->meta.types[chunk->meta.small_ids[id] - 1]
                       : NULL)
                : jfr_chunk_type_by_id(chunk, id);
        if (!t) {
            other->unknown_count++;
            other->unknown_bytes += rec.size;
            continue;
        }
        counts[t->index]++;
        bytes[t->index] += rec.size;
    }
    return JFR_OK;
}
