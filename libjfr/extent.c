/* extent.c - a recording's chunks as byte ranges (jfr/assemble.h): which
 * bytes belong to each chunk, finishing the ones that were not closed, and
 * writing them out. Only chunk headers are read, except for a chunk that is
 * not closed and whole (jfr-format.md §3.4, §3.5). */
#define _GNU_SOURCE /* fallocate, where the C library has it */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "flush.h"

/* Bytes that are not a chunk header: skip to the next plausible one. */
static int skip_to_header(jfr_recording *rec, int rc, uint64_t pos, int64_t index)
{
    uint64_t next;

    if (rc == JFR_ETRUNCATED) {
        rec->next_pos = rec->size;
        return jfrp_fail(&rec->err, JFR_ETRUNCATED, index, pos,
                         "the input ends inside a header (%llu bytes)",
                         (unsigned long long)(rec->size - pos));
    }
    next =
        jfrp_find_header(rec->data, rec->size, pos + 1, rec->opts.max_chunk_size, true);
    rec->next_pos = next;
    if (next == rec->size)
        return jfrp_fail(&rec->err, JFR_ECORRUPT, index, pos,
                         "no header here: the last %llu bytes skipped",
                         (unsigned long long)(next - pos));
    return jfrp_fail(&rec->err, JFR_ECORRUPT, index, pos,
                     "no header here: %llu bytes skipped up to the next header at"
                     " offset %llu",
                     (unsigned long long)(next - pos), (unsigned long long)next);
}

/* A closed chunk that ends where the next one or the input does, or whose
 * records fill it exactly (what follows it is then reported next). */
static bool is_complete(const jfr_recording *rec, const jfr_header *h, uint64_t pos)
{
    return h->state == 0 && h->chunk_size <= rec->size - pos &&
           h->chunk_size <= rec->opts.max_chunk_size &&
           (jfrp_ends_at_a_chunk(rec, pos, h) || jfrp_records_fill(rec, pos, h));
}

/* Not closed, cut or damaged: its bytes reach the next plausible chunk
 * header (or the end), and a copy ends at its last complete flush. */
static void finish_extent(jfr_extent *out, jfr_recording *rec, uint64_t pos)
{
    uint64_t next = jfrp_find_header(rec->data, rec->size, pos + JFRP_HEADER_SIZE,
                                     rec->opts.max_chunk_size, true);
    uint64_t scan = next - pos;

    if (scan > rec->opts.max_chunk_size)
        scan = rec->opts.max_chunk_size;
    out->present = next - pos;
    out->kind = JFR_EXTENT_FINISHED;
    if (jfr_chunk_finish(out->header, &out->size, rec->data + pos, (size_t)scan) < 0) {
        out->kind = JFR_EXTENT_EMPTY;
        out->size = 0;
    }
    rec->next_pos = next;
    jfrp_mapping_forget(rec, rec->data + pos, rec->data + pos + scan, true);
}

int jfr_recording_next_extent(jfr_extent *out, jfr_recording *rec)
{
    jfr_header h;
    jfr_chunk *unused;
    uint64_t pos;
    int rc;

    if (!out || !rec)
        return JFR_EINVAL;
    memset(out, 0, sizeof *out);
    jfrp_chunk_free(rec->current);
    rec->current = NULL;
    if (rec->done || rec->next_pos >= rec->size)
        return jfr_recording_next_chunk(&unused, rec); /* done, or how the input ended */
    pos = rec->next_pos;
    out->index = rec->next_index++;
    out->offset = pos;
    rc = jfrp_header_parse(&h, rec->data + pos, (size_t)(rec->size - pos));
    if (rc != JFR_OK && rc != JFR_ECORRUPT)
        return skip_to_header(rec, rc, pos, out->index);
    out->state = h.state;
    out->declared = h.chunk_size;
    if (rc == JFR_OK && is_complete(rec, &h, pos)) {
        out->kind = JFR_EXTENT_COMPLETE;
        out->size = out->present = h.chunk_size;
        rec->next_pos = pos + h.chunk_size;
        jfrp_mapping_forget(rec, rec->data + pos, rec->data + rec->next_pos, true);
        return JFR_OK;
    }
    finish_extent(out, rec, pos);
    return JFR_OK;
}

static int write_failed(jfr_error *err, int64_t index, uint64_t offset)
{
    int e = errno;

    if (!err)
        return JFR_EIO;
    jfrp_fail(err, JFR_EIO, index, offset, "write error: %s", strerror(e));
    err->sys_errno = e;
    return JFR_EIO;
}

static int write_all(int fd, const uint8_t *p, size_t n, jfr_error *err, int64_t index,
                     uint64_t offset)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);

        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return write_failed(err, index, offset);
        }
        p += w;
        n -= (size_t)w;
        offset += (uint64_t)w;
    }
    return JFR_OK;
}

/* Blocks reserved before they are written save the file system work for
 * every page (a copy of 140 MB onto ext4: 0.82x the CPU of plain writes;
 * onto tmpfs, which zeroes what it reserves, 1.07x); where that cannot be
 * done (a pipe, another system) nothing is reserved. */
static void reserve(int fd, uint64_t size)
{
#ifdef FALLOC_FL_KEEP_SIZE
    off_t at = lseek(fd, 0, SEEK_CUR);

    if (at >= 0 && size <= (uint64_t)INT64_MAX - (uint64_t)at)
        (void)fallocate(fd, FALLOC_FL_KEEP_SIZE, at, (off_t)size);
#else
    (void)fd;
    (void)size;
#endif
}

/* The copy goes in steps of this size: 128 KiB steps took 1.5x the CPU,
 * 8 MiB 1.6x, on a copy of 140 MB. Each step's pages of a mapped input are
 * mapped in one call before (0.71x the CPU of a fault per window) and given
 * back after, so memory stays at a step's worth. */
#define COPY_STEP ((uint64_t)1 << 20)

static int copy_range(int fd, const jfr_recording *rec, uint64_t from, uint64_t to,
                      jfr_error *err, int64_t index)
{
    for (uint64_t at = from; at < to;) {
        uint64_t n = to - at < COPY_STEP ? to - at : COPY_STEP;
        uint64_t back = at - from < 4096 ? at - from : 4096; /* the page across */
        int rc;

        jfrp_mapping_prefetch(rec, rec->data + at, rec->data + at + n);
        if ((rc = write_all(fd, rec->data + at, (size_t)n, err, index, at)) < 0)
            return rc;
        jfrp_mapping_forget(rec, rec->data + at - back, rec->data + at + n, false);
        at += n;
    }
    return JFR_OK;
}

int jfr_recording_write_extent(int fd, const jfr_recording *rec, const jfr_extent *e,
                               jfr_error *err)
{
    int rc;

    if (fd < 0 || !rec || !e || e->offset > rec->size || e->size > rec->size - e->offset)
        return JFR_EINVAL;
    if (err)
        memset(err, 0, sizeof *err), err->chunk = -1;
    if (e->kind != JFR_EXTENT_EMPTY)
        reserve(fd, e->size);
    switch (e->kind) {
    case JFR_EXTENT_COMPLETE:
        return copy_range(fd, rec, e->offset, e->offset + e->size, err, e->index);
    case JFR_EXTENT_FINISHED:
        if (e->size < JFRP_HEADER_SIZE)
            return JFR_EINVAL;
        rc = write_all(fd, e->header, JFRP_HEADER_SIZE, err, e->index, e->offset);
        if (rc < 0)
            return rc;
        return copy_range(fd, rec, e->offset + JFRP_HEADER_SIZE, e->offset + e->size, err,
                          e->index);
    case JFR_EXTENT_EMPTY:
        return JFR_OK;
    default:
        return JFR_EINVAL;
    }
}

int jfr_recording_write_bytes(int fd, const jfr_recording *rec, uint64_t offset,
                              uint64_t size, jfr_error *err)
{
    if (fd < 0 || !rec || offset > rec->size || size > rec->size - offset)
        return JFR_EINVAL;
    if (err)
        memset(err, 0, sizeof *err), err->chunk = -1;
    reserve(fd, size);
    return copy_range(fd, rec, offset, offset + size, err, -1);
}
