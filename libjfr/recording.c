/* recording.c - opening a recording and stepping from chunk to chunk. */
#include <string.h>

#include "source.h"

static void fill_limits(jfr_options *o, const jfr_options *user)
{
    memset(o, 0, sizeof *o);
    if (user && user->version >= 1)
        *o = *user;
    o->version = JFR_OPTIONS_VERSION;
    if (!o->max_input_size)
        o->max_input_size = (uint64_t)64 << 30;
    if (!o->max_chunk_size)
        o->max_chunk_size = (uint64_t)16 << 30;
    if (!o->max_depth)
        o->max_depth = 64;
    if (!o->max_array_length)
        o->max_array_length = 16u << 20;
    if (!o->max_string_length)
        o->max_string_length = 256u << 20;
    if (!o->max_pool_entries)
        o->max_pool_entries = (uint64_t)256 << 20;
    if (!o->max_types)
        o->max_types = 1u << 20;
}

static int new_recording(jfr_recording **out, const jfr_options *opts)
{
    jfrp_alloc al;
    jfr_recording *rec;

    /* an options struct of a version this library does not know (0: not
     * initialised with JFR_OPTIONS_INIT) may not be what the caller meant */
    if (opts && (opts->version < 1 || opts->version > JFR_OPTIONS_VERSION))
        return JFR_EINVAL;
    jfrp_alloc_init(&al, opts && opts->version >= 1 ? opts->allocator : NULL);
    rec = jfrp_calloc(&al, 1, sizeof *rec);
    if (!rec)
        return JFR_ENOMEM;
    rec->al = al;
    jfrp_arena_init(&rec->chunk_spare, &rec->al);
    fill_limits(&rec->opts, opts);
    rec->err.chunk = -1;
    rec->container = "raw";
    *out = rec;
    return JFR_OK;
}

/* Check the first chunk's header so that "not a recording" and "JFR 0.9"
 * are reported by the open call itself. */
static int check_first_header(jfr_recording *rec)
{
    jfr_header h;
    int rc = jfrp_header_parse(&h, rec->data, rec->size);

    switch (rc) {
    case JFR_EFORMAT:
        /* a damaged first header: next_chunk skips to the next one */
        if (jfrp_find_header(rec->data, rec->size, 1, rec->opts.max_chunk_size, true) <
            rec->size)
            return JFR_OK;
        return jfrp_fail(&rec->err, rc, -1, 0, "not a JFR recording (no FLR magic)");
    case JFR_EVERSION:
        if (h.major == 0)
            return jfrp_fail(&rec->err, rc, 0, 4,
                             "JFR version %u.%u (JDK 7/8 or JRockit) is not supported",
                             h.major, h.minor);
        return jfrp_fail(&rec->err, rc, 0, 4, "unsupported JFR version %u.%u", h.major,
                         h.minor);
    default:
        /* truncation and corrupt headers are reported by next_chunk */
        return JFR_OK;
    }
}

static int finish_open(jfr_recording **out, jfr_recording *rec, int rc, jfr_error *err)
{
    if (rc == JFR_OK)
        rc = check_first_header(rec);
    if (rc < 0) {
        if (err)
            *err = rec->err;
        jfr_recording_free(rec);
        *out = NULL;
        return rc;
    }
    if (err)
        memset(err, 0, sizeof *err), err->chunk = -1;
    *out = rec;
    return JFR_OK;
}

static int open_error(jfr_error *err, int code, const char *msg)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->chunk = -1;
        err->code = code;
        strncpy(err->message, msg, sizeof err->message - 1);
    }
    return code;
}

int jfr_recording_open_file(jfr_recording **out, const char *path,
                            const jfr_options *opts, jfr_error *err)
{
    jfr_recording *rec;
    int rc;

    if (!out || !path)
        return open_error(err, JFR_EINVAL, "no output pointer or path");
    if ((rc = new_recording(&rec, opts)) < 0)
        return open_error(err, rc,
                          rc == JFR_EINVAL ? "jfr_options of an unknown version"
                                           : "out of memory");
    rc = jfrp_source_path(rec, path);
    if (rc == JFR_OK)
        rc = jfrp_source_unwrap(rec, path);
    return finish_open(out, rec, rc, err);
}

int jfr_recording_open_fd(jfr_recording **out, int fd, const jfr_options *opts,
                          jfr_error *err)
{
    jfr_recording *rec;
    int rc;

    if (!out || fd < 0)
        return open_error(err, JFR_EINVAL, "no output pointer or bad descriptor");
    if ((rc = new_recording(&rec, opts)) < 0)
        return open_error(err, rc,
                          rc == JFR_EINVAL ? "jfr_options of an unknown version"
                                           : "out of memory");
    rc = jfrp_source_fd(rec, fd);
    if (rc == JFR_OK)
        rc = jfrp_source_unwrap(rec, "file descriptor");
    return finish_open(out, rec, rc, err);
}

int jfr_recording_open_memory(jfr_recording **out, const void *data, size_t size,
                              const jfr_options *opts, jfr_error *err)
{
    jfr_recording *rec;
    int rc;

    if (!out || !data)
        return open_error(err, JFR_EINVAL, "no output pointer or data");
    if ((rc = new_recording(&rec, opts)) < 0)
        return open_error(err, rc,
                          rc == JFR_EINVAL ? "jfr_options of an unknown version"
                                           : "out of memory");
    rec->data = data ? data : (const uint8_t *)"";
    rec->size = size;
    if (size > rec->opts.max_input_size)
        rc = jfrp_fail(&rec->err, JFR_ELIMIT, -1, 0, "input larger than the limit");
    else
        rc = jfrp_source_unwrap(rec, "memory");
    return finish_open(out, rec, rc, err);
}

/* Why the header at `pos` is unusable, as the recording's error. */
static int header_error(jfr_recording *rec, int rc, const jfr_header *h, uint64_t pos,
                        int64_t index)
{
    switch (rc) {
    case JFR_EFORMAT:
        return jfrp_fail_placed(&rec->err, JFR_PLACE_CHUNK, JFR_ECORRUPT, index, pos,
                                "no chunk magic at offset %llu", (unsigned long long)pos);
    case JFR_ETRUNCATED:
        return jfrp_fail_placed(&rec->err, JFR_PLACE_CHUNK, rc, index, pos,
                                "input ends inside the chunk header at offset %llu",
                                (unsigned long long)pos);
    case JFR_EVERSION:
        return jfrp_fail_placed(&rec->err, JFR_PLACE_CHUNK, rc, index, pos + 4,
                                "unsupported JFR version %u.%u", h->major, h->minor);
    default:
        if (h->chunk_size < JFRP_HEADER_SIZE)
            return jfrp_fail_placed(&rec->err, JFR_PLACE_CHUNK, rc, index, pos + 8,
                                    "chunk size %llu is smaller than its header"
                                    " (unfinished or damaged chunk)",
                                    (unsigned long long)h->chunk_size);
        return jfrp_fail_placed(&rec->err, JFR_PLACE_CHUNK, rc, index, pos + 16,
                                "metadata offset %llu or constant pool offset %llu"
                                " outside the chunk of %llu bytes",
                                (unsigned long long)h->metadata_offset,
                                (unsigned long long)h->constant_pool_offset,
                                (unsigned long long)h->chunk_size);
    }
}

/*
 * A chunk whose header does not describe a complete chunk: the JVM was
 * killed (JDK 14+: sizes of the last flush; async-profiler: a 1 GiB
 * placeholder and zero offsets), the file was cut, or the header is
 * damaged. Read what its metadata and checkpoints allow in the `avail`
 * bytes up to the next chunk header or the end of the input
 * (jfr-format.md §3.4, §3.5).
 */
static int salvage_chunk(jfr_recording *rec, jfr_header *h, uint64_t pos, int64_t index,
                         uint64_t avail, bool last)
{
    uint64_t left = rec->size - pos;
    const uint8_t *p = rec->data + pos;
    jfrp_reader r;
    int rc;

    if (h->metadata_offset < JFRP_HEADER_SIZE || h->metadata_offset >= avail) {
        /* async-profiler writes its metadata first, at offset 68 */
        jfrp_reader_init(&r, p, (size_t)avail, pos, true);
        r.p += JFRP_HEADER_SIZE;
        (void)jfrp_varint(&r);
        if (avail <= JFRP_HEADER_SIZE || jfrp_varint(&r) != 0 || r.err)
            return jfrp_fail_placed(
                &rec->err, JFR_PLACE_SUBJECT, last ? JFR_ETRUNCATED : JFR_ECORRUPT, index,
                pos,
                "at offset %llu is unfinished or cut (declares"
                " %llu bytes, %llu present) and its metadata is missing or"
                " damaged: nothing in it can be read",
                (unsigned long long)pos, (unsigned long long)h->chunk_size,
                (unsigned long long)avail);
        h->metadata_offset = JFRP_HEADER_SIZE;
    }
    if (h->constant_pool_offset >= avail)
        h->constant_pool_offset = 0; /* found by scanning the records instead */
    rc = jfrp_chunk_open(&rec->current, rec, pos, index, h, (size_t)avail);
    if (rc == JFR_ECORRUPT && last && h->chunk_size > left) {
        /* the cut is the damage: report it as such (jfr/recording.h) */
        char cause[JFR_ERROR_MESSAGE_SIZE]; /* the message alone: same chunk */

        memcpy(cause, rec->err.message, sizeof cause);
        return jfrp_fail_placed(
            &rec->err, JFR_PLACE_SUBJECT, JFR_ETRUNCATED, index, rec->size,
            "at offset %llu is cut (declares %llu bytes, %llu"
            " present): %s",
            (unsigned long long)pos, (unsigned long long)h->chunk_size,
            (unsigned long long)left, cause);
    }
    if (rc < 0)
        return rc;
    rec->current->salvaged = true;
    rec->current->has_warning = true;
    if (last)
        jfrp_fail_placed(&rec->current->warning, JFR_PLACE_SUBJECT, JFR_ETRUNCATED, index,
                         pos + avail,
                         "at offset %llu is incomplete (declares %llu bytes, %llu"
                         " present, state %u): read up to the last complete record",
                         (unsigned long long)pos, (unsigned long long)h->chunk_size,
                         (unsigned long long)left, h->state);
    else
        jfrp_fail_placed(&rec->current->warning, JFR_PLACE_SUBJECT, JFR_ECORRUPT, index,
                         pos + 8,
                         "at offset %llu declares %llu bytes, but the next chunk"
                         " starts at offset %llu: read up to it",
                         (unsigned long long)pos, (unsigned long long)h->chunk_size,
                         (unsigned long long)(pos + avail));
    return JFR_OK;
}

/* A chunk the JVM did not close: read as of its last flush, and anything
 * after it that is not another chunk is the unflushed tail. */
static void note_unfinished(jfr_recording *rec, jfr_chunk *c)
{
    uint64_t end = c->header.file_offset + c->header.chunk_size;
    uint64_t tail = 0;

    if (end < rec->size &&
        (rec->size - end < 4 || memcmp(rec->data + end, "FLR\0", 4) != 0)) {
        tail = rec->size - end;
        rec->done = true;
    }
    if (c->has_warning)
        return;
    c->has_warning = true;
    jfrp_fail_placed(&c->warning, JFR_PLACE_SUBJECT, JFR_ETRUNCATED, c->index,
                     c->header.file_offset + 64,
                     "was not closed (state %u: the JVM was still writing or died);"
                     " read as of its last flush, %llu bytes%s",
                     c->header.state, (unsigned long long)c->header.chunk_size,
                     tail ? ", unflushed bytes after it ignored" : "");
}

/* Leave the current chunk and parse the next one's header: JFR_DONE at the
 * end of the input, else jfrp_header_parse's result. */
static int next_header(jfr_recording *rec, jfr_header *h)
{
    int rc;

    jfrp_chunk_free(rec->current);
    rec->current = NULL;
    if (rec->done || rec->next_pos >= rec->size) {
        rec->done = true;
        return JFR_DONE;
    }
    rc = jfrp_header_parse(h, rec->data + rec->next_pos,
                           (size_t)(rec->size - rec->next_pos));
    h->file_offset = rec->next_pos;
    return rc;
}

/* After the last chunk: how compressed input ended, once, if badly. */
static int end_of_chunks(jfr_recording *rec)
{
    if (!rec->has_note)
        return JFR_DONE;
    rec->has_note = false;
    rec->err = rec->note; /* about the container: no chunk index */
    rec->err.chunk = -1;
    rec->err.offset = rec->size;
    return rec->err.code;
}

/* True when the chunk at `pos` ends where another chunk or the input does:
 * its size can be trusted (jfr-format.md §3.5). */
bool jfrp_ends_at_a_chunk(const jfr_recording *rec, uint64_t pos, const jfr_header *h)
{
    uint64_t end = pos + h->chunk_size, left = rec->size - pos;

    if (h->chunk_size > left)
        return false;
    return end == rec->size ||
           (rec->size - end >= 4 && memcmp(rec->data + end, "FLR\0", 4) == 0);
}

/* True when the chunk's records, stepped over by their sizes, end exactly
 * at its declared end: its size is right although no chunk follows (the
 * next one is damaged, or the tail of an unfinished chunk). A record that
 * starts with a chunk magic is the next chunk, swallowed by a wrong size. */
bool jfrp_records_fill(const jfr_recording *rec, uint64_t pos, const jfr_header *h)
{
    bool compressed = (h->flags & JFR_CHUNK_FLAG_COMPRESSED_INTS) != 0;
    uint64_t at = pos + JFRP_HEADER_SIZE, end = pos + h->chunk_size;

    if (h->chunk_size > rec->size - pos)
        return false;
    while (at < end) {
        jfrp_reader r;
        uint64_t size;

        if (end - at >= 4 && memcmp(rec->data + at, "FLR\0", 4) == 0)
            return false;
        jfrp_reader_init(&r, rec->data + at, (size_t)(end - at), at, compressed);
        size = jfrp_int(&r, 4);
        if (r.err || size == 0 || size > end - at)
            return false;
        at += size;
    }
    return true;
}

/* The next plausible chunk header after the damaged one at `pos`, or the
 * end of the input. */
static uint64_t resync(const jfr_recording *rec, uint64_t from)
{
    return jfrp_find_header(rec->data, rec->size, from, rec->opts.max_chunk_size, true);
}

/* No chunk header at `pos` (bad magic or version): skip to the next one. */
static int skip_damage(jfr_recording *rec, int rc, const jfr_header *h, uint64_t pos,
                       int64_t index)
{
    uint64_t next = resync(rec, pos + 1);

    if (next == rec->size) {
        rec->done = true;
        return header_error(rec, rc, h, pos, index);
    }
    rec->next_pos = next;
    return jfrp_fail_placed(&rec->err, JFR_PLACE_CHUNK, JFR_ECORRUPT, index, pos,
                            "no chunk header at offset %llu; skipped %llu bytes"
                            " to the next chunk at offset %llu",
                            (unsigned long long)pos, (unsigned long long)(next - pos),
                            (unsigned long long)next);
}

/* A chunk whose size is over the limit: a damaged size field when a chunk
 * header follows within the limit (the chunk up to it is salvaged), else
 * the end of the recording. */
static int oversized_chunk(jfr_recording *rec, jfr_header *h, uint64_t pos, int64_t index)
{
    uint64_t next = resync(rec, pos + JFRP_HEADER_SIZE);

    if (next < rec->size && next - pos <= rec->opts.max_chunk_size) {
        rec->next_pos = next;
        return salvage_chunk(rec, h, pos, index, next - pos, false);
    }
    rec->done = true;
    return jfrp_fail_placed(&rec->err, JFR_PLACE_CHUNK, JFR_ELIMIT, index, pos + 8,
                            "size %llu exceeds the limit of %llu bytes",
                            (unsigned long long)h->chunk_size,
                            (unsigned long long)rec->opts.max_chunk_size);
}

int jfr_recording_next_chunk(jfr_chunk **out, jfr_recording *rec)
{
    jfr_header h;
    uint64_t pos, left, next;
    int64_t index;
    int rc;

    if (!out || !rec)
        return JFR_EINVAL;
    *out = NULL;
    if ((rc = next_header(rec, &h)) == JFR_DONE)
        return end_of_chunks(rec);
    pos = rec->next_pos;
    index = rec->next_index;
    left = rec->size - pos;
    rec->next_index = index + 1;
    if (rc == JFR_OK && h.chunk_size > rec->opts.max_chunk_size) {
        if ((rc = oversized_chunk(rec, &h, pos, index)) < 0)
            return rc;
        *out = rec->current;
        return JFR_OK;
    }
    if (rc == JFR_EFORMAT || (rc == JFR_EVERSION && pos > 0))
        return skip_damage(rec, rc, &h, pos, index);
    if (rc != JFR_OK && rc != JFR_ECORRUPT) {
        rec->done = true;
        return header_error(rec, rc, &h, pos, index);
    }
    if (rc == JFR_OK &&
        (jfrp_ends_at_a_chunk(rec, pos, &h) || jfrp_records_fill(rec, pos, &h))) {
        rec->next_pos = pos + h.chunk_size;
        rc = jfrp_chunk_open(&rec->current, rec, pos, index, &h, (size_t)h.chunk_size);
        if (rc < 0)
            return rc;
        if (rec->current->unfinished)
            note_unfinished(rec, rec->current);
        *out = rec->current;
        return JFR_OK;
    }
    /* the size does not lead to another chunk: a chunk header further on
     * bounds this one, so a wrong size cannot swallow the next chunk */
    next = resync(rec, pos + JFRP_HEADER_SIZE);
    if (next < rec->size && next - pos > rec->opts.max_chunk_size) {
        rec->next_pos = next;
        return jfrp_fail_placed(&rec->err, JFR_PLACE_CHUNK, JFR_ELIMIT, index, pos + 8,
                                "%llu bytes up to the next chunk exceed the limit"
                                " of %llu bytes",
                                (unsigned long long)(next - pos),
                                (unsigned long long)rec->opts.max_chunk_size);
    } else if (next < rec->size) {
        rec->next_pos = next;
        rc = salvage_chunk(rec, &h, pos, index, next - pos, false);
    } else if (rc == JFR_OK && h.chunk_size <= left) {
        /* no chunk further on: read as declared; what follows is reported
         * by the next call */
        rec->next_pos = pos + h.chunk_size;
        rc = jfrp_chunk_open(&rec->current, rec, pos, index, &h, (size_t)h.chunk_size);
        if (rc == JFR_OK && rec->current->unfinished)
            note_unfinished(rec, rec->current);
    } else {
        /* only the last chunk of the input can be incomplete */
        rec->done = true;
        rc = salvage_chunk(rec, &h, pos, index,
                           h.chunk_size >= JFRP_HEADER_SIZE && h.chunk_size <= left
                               ? h.chunk_size
                               : left,
                           true);
    }
    if (rc < 0)
        return rc;
    *out = rec->current;
    return JFR_OK;
}

int jfr_recording_skip_chunk(jfr_recording *rec)
{
    jfr_header h;
    uint64_t pos;
    int rc, code;

    if (!rec)
        return JFR_EINVAL;
    if ((rc = next_header(rec, &h)) == JFR_DONE)
        return rec->has_note ? jfrp_fail(&rec->err, rec->note.code, -1, rec->size, "%s",
                                         rec->note.message)
                             : JFR_DONE;
    pos = rec->next_pos;
    /* only a chunk that next_chunk would read whole and as declared: a
     * damaged one is left to it, so both see the same chunks */
    if (rc == JFR_OK && h.chunk_size <= rec->opts.max_chunk_size &&
        jfrp_ends_at_a_chunk(rec, pos, &h) && h.state == 0) {
        rec->next_pos = pos + h.chunk_size;
        rec->next_index++;
        return JFR_OK;
    }
    /* nothing moves: jfr_recording_next_chunk reads or reports this chunk
     * as it always does */
    code = rc == JFR_OK         ? (h.chunk_size > rec->opts.max_chunk_size ? JFR_ELIMIT
                                   : h.chunk_size > rec->size - pos        ? JFR_ETRUNCATED
                                                                           : JFR_ECORRUPT)
           : rc == JFR_ECORRUPT ? JFR_ETRUNCATED
                                : rc;
    if (rc == JFR_OK && h.state != 0)
        code = JFR_ETRUNCATED;
    return jfrp_fail_placed(&rec->err, JFR_PLACE_SUBJECT, code, rec->next_index, pos,
                            "at offset %llu is not a complete, closed chunk: not"
                            " skipped",
                            (unsigned long long)pos);
}

int jfrp_recording_view(jfr_recording **out, const jfr_recording *rec)
{
    jfr_recording *view;

    if (new_recording(&view, &rec->opts) < 0)
        return JFR_ENOMEM;
    /* borrowed: the view neither unmaps nor frees them */
    view->data = rec->data;
    view->size = rec->size;
    view->mapped = rec->mapped;
    view->container = rec->container;
    view->next_pos = rec->next_pos;
    view->next_index = rec->next_index;
    view->done = rec->done;
    *out = view;
    return JFR_OK;
}

void jfrp_recording_end(jfr_recording *rec)
{
    jfrp_chunk_free(rec->current);
    rec->current = NULL;
    rec->done = true;
}

int jfr_recording_rewind(jfr_recording *rec)
{
    if (!rec)
        return JFR_EINVAL;
    jfrp_chunk_free(rec->current);
    rec->current = NULL;
    rec->next_pos = 0;
    rec->next_index = 0;
    rec->done = false;
    return JFR_OK;
}

int jfr_recording_span_nanos(int64_t *start, int64_t *end, const jfr_recording *rec)
{
    uint64_t pos = 0;
    bool found = false;
    jfr_header h;

    if (!rec || !start || !end)
        return JFR_EINVAL;
    *start = *end = 0;
    /* a header that parses, even of a cut chunk, has its start */
    while (pos < rec->size) {
        int rc = jfrp_header_parse(&h, rec->data + pos, (size_t)(rec->size - pos));
        int64_t last;

        if (rc != JFR_OK && rc != JFR_ECORRUPT)
            break;
        /* an unfinished chunk says 0; absurd values only widen the span */
        last = jfrp_header_end_nanos(&h);
        if (!found || h.start_nanos < *start)
            *start = h.start_nanos;
        if (!found || last > *end)
            *end = last;
        found = true;
        /* only the header was needed: what the fault mapped is not */
        jfrp_mapping_forget(
            rec, rec->data + pos,
            rec->data + pos +
                (rec->size - pos < JFRP_HEADER_SIZE ? rec->size - pos : JFRP_HEADER_SIZE),
            true);
        if (rc != JFR_OK || h.chunk_size < JFRP_HEADER_SIZE ||
            h.chunk_size > rec->size - pos)
            break;
        pos += h.chunk_size;
    }
    return found ? JFR_OK : JFR_ENOTFOUND;
}

int jfr_recording_start_nanos(int64_t *out, const jfr_recording *rec)
{
    int64_t end;

    if (!out)
        return JFR_EINVAL;
    return jfr_recording_span_nanos(out, &end, rec);
}

const jfr_error *jfr_recording_error(const jfr_recording *rec)
{
    return rec ? &rec->err : NULL;
}

const char *jfr_recording_container(const jfr_recording *rec)
{
    return rec ? rec->container : NULL;
}

uint64_t jfr_recording_size(const jfr_recording *rec)
{
    return rec ? rec->size : 0;
}

void jfr_recording_free(jfr_recording *rec)
{
    jfrp_alloc al;

    if (!rec)
        return;
    jfrp_chunk_free(rec->current);
    jfrp_record_indexes_free(rec);
    jfrp_arena_free(&rec->chunk_spare);
    if (rec->has_meta_spare)
        jfrp_meta_free(&rec->meta_spare, &rec->al);
    jfrp_source_release(rec);
    al = rec->al;
    jfrp_free(&al, rec);
}
