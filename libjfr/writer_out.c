/* writer_out.c - the writer's output (a file, a descriptor or memory,
 * buffered) and the frame of each chunk (its header, patched when the
 * chunk ends, and its checkpoint); the encodings are writer_bytes.c's. The
 * writer object itself is opened and closed in writer.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "header_write.h"
#include "writer_struct.h"

/* Buffered bytes are written out past this much (a chunk of a pipe waits
 * whole, since its header is written last). */
#define FLUSH_AT ((size_t)256 << 10)

/* ---- failures -------------------------------------------------------------------- */

int jfrw_fail(jfr_writer *w, int code, const char *fmt, ...)
{
    va_list ap;

    if (w->failed)
        return w->failed;
    /* a misuse (JFR_EINVAL) writes nothing and the writer goes on; any
     * other failure leaves the output incomplete: later calls fail too */
    if (code != JFR_EINVAL)
        w->failed = code;
    w->err.code = code;
    w->err.sys_errno = code == JFR_EIO ? errno : 0;
    w->err.chunk = w->in_chunk ? (int64_t)w->nchunks : -1;
    w->err.offset = jfrw_out_pos(w);
    va_start(ap, fmt);
    vsnprintf(w->err.message, sizeof w->err.message, fmt, ap);
    va_end(ap);
    return code;
}

/* ---- the output ------------------------------------------------------------------ */

static int write_all(jfr_writer *w, const uint8_t *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(w->out.fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return jfrw_fail(w, JFR_EIO, "write failed: %s", strerror(errno));
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Write the buffer out, unless it must wait: memory keeps everything, a
 * pipe keeps the chunk being written. */
static int flush(jfr_writer *w, bool chunk_done)
{
    jfrw_out *o = &w->out;
    int rc;

    if (o->memory || o->buf.len == 0 || (!o->seekable && !chunk_done))
        return w->failed;
    if ((rc = write_all(w, o->buf.data, o->buf.len)) < 0)
        return rc;
    o->flushed += o->buf.len;
    o->buf.len = 0;
    return 0;
}

int jfrw_out_write(jfr_writer *w, const void *p, size_t n)
{
    jfrw_out *o = &w->out;

    if (w->failed)
        return w->failed;
    jfrw_bytes(&o->buf, p, n);
    if (o->buf.err)
        return jfrw_fail(w, JFR_ENOMEM, "out of memory");
    return o->buf.len >= FLUSH_AT ? flush(w, false) : 0;
}

int jfrw_out_take(jfr_writer *w, jfrw_buf *b)
{
    int rc;

    if (b->err)
        return jfrw_fail(w, JFR_ENOMEM, "out of memory");
    rc = jfrw_out_write(w, b->data, b->len);
    b->len = 0;
    return rc;
}

int jfrw_out_patch(jfr_writer *w, uint64_t at, const void *p, size_t n)
{
    jfrw_out *o = &w->out;

    if (w->failed)
        return w->failed;
    if (at >= o->flushed) {
        memcpy(o->buf.data + (at - o->flushed), p, n);
        return 0;
    }
    /* only a seekable output flushes inside a chunk */
    for (size_t done = 0; done < n;) {
        ssize_t k =
            pwrite(o->fd, (const uint8_t *)p + done, n - done, (off_t)(at + done));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return jfrw_fail(w, JFR_EIO, "write failed: %s", strerror(errno));
        done += (size_t)k;
    }
    return 0;
}

int jfrw_out_finish(jfr_writer *w)
{
    int rc = flush(w, true);

    if (w->out.own_fd) {
        if (close(w->out.fd) < 0 && rc == 0)
            rc = jfrw_fail(w, JFR_EIO, "close failed: %s", strerror(errno));
        w->out.own_fd = false;
        w->out.fd = -1;
    }
    return rc;
}

/* ---- the frame of a chunk ----------------------------------------------------------- */

int jfrw_chunk_begin(jfr_writer *w, const uint8_t header[JFRP_HEADER_BYTES])
{
    if (w->failed)
        return w->failed;
    if (w->in_chunk)
        return jfrw_fail(w, JFR_EINVAL, "a chunk is already being written");
    w->in_chunk = true;
    memset(&w->pos, 0, sizeof w->pos);
    w->pos.start = jfrw_out_pos(w);
    return jfrw_out_write(w, header, JFRP_HEADER_BYTES);
}

/* The checkpoint's frame in front of its pools (jfr-format.md §8.1): the
 * size as a 5-byte varint (patched when the chunk ends), type id 1, start
 * time, duration 0, delta 0 (the only checkpoint), flags FLUSH. */
int jfrw_checkpoint_begin(jfr_writer *w, bool compressed, int64_t start_ticks,
                          uint64_t npools)
{
    jfrw_buf *s = &w->scratch;

    w->pos.pools = jfrw_out_pos(w) - w->pos.start;
    s->len = 0;
    if (compressed)
        jfrw_varint_padded(s, 0, 5);
    else
        jfrw_be(s, 0, 4);
    jfrw_int(s, compressed, 1, 8);
    jfrw_int(s, compressed, (uint64_t)start_ticks, 8);
    jfrw_int(s, compressed, 0, 8);
    jfrw_int(s, compressed, 0, 8);
    jfrw_u8(s, 1); /* FLUSH */
    jfrw_int(s, compressed, npools, 4);
    return jfrw_out_take(w, s);
}

/* The checkpoint's size, now that its pools are written. */
static int patch_checkpoint_size(jfr_writer *w, bool compressed)
{
    uint64_t at = w->pos.start + w->pos.pools, size = jfrw_out_pos(w) - at;
    uint8_t bytes[8];
    jfrw_buf b = {NULL, bytes, 0, sizeof bytes, 0};

    if (size > UINT32_MAX)
        return jfrw_fail(w, JFR_ELIMIT, "checkpoint of %llu bytes: over 4 GiB",
                         (unsigned long long)size);
    if (compressed)
        jfrw_varint_padded(&b, size, 5);
    else
        jfrw_be(&b, size, 4);
    return jfrw_out_patch(w, at, bytes, b.len);
}

int jfrw_chunk_end(jfr_writer *w, bool compressed, int64_t duration_nanos, uint16_t flags)
{
    uint8_t fields[JFRP_HEADER_BYTES];
    uint64_t size;
    int rc;

    if ((rc = patch_checkpoint_size(w, compressed)) < 0)
        return rc;
    size = jfrw_out_pos(w) - w->pos.start;
    jfrp_put_be(fields + JFRP_HEADER_AT_SIZE, size, 8);
    jfrp_put_be(fields + JFRP_HEADER_AT_POOLS, w->pos.pools, 8);
    jfrp_put_be(fields + JFRP_HEADER_AT_METADATA, w->pos.metadata, 8);
    jfrp_put_be(fields + JFRP_HEADER_AT_DURATION, (uint64_t)duration_nanos, 8);
    fields[JFRP_HEADER_AT_STATE] = 0; /* complete */
    fields[JFRP_HEADER_AT_STATE + 1] = 0;
    jfrp_put_be(fields + JFRP_HEADER_AT_FLAGS, flags, 2);
    if ((rc = jfrw_out_patch(w, w->pos.start + JFRP_HEADER_AT_SIZE,
                             fields + JFRP_HEADER_AT_SIZE, 24)) < 0 ||
        (rc = jfrw_out_patch(w, w->pos.start + JFRP_HEADER_AT_DURATION,
                             fields + JFRP_HEADER_AT_DURATION, 8)) < 0 ||
        (rc = jfrw_out_patch(w, w->pos.start + JFRP_HEADER_AT_STATE,
                             fields + JFRP_HEADER_AT_STATE, 4)) < 0)
        return rc;
    w->in_chunk = false;
    w->nchunks++;
    w->out.complete = jfrw_out_pos(w);
    return flush(w, true);
}

/* Forget the chunk being written (nothing of it is kept): the buffer
 * drops it, or a file is cut back to where it started. */
int jfrw_chunk_abandon(jfr_writer *w)
{
    jfrw_out *o = &w->out;
    uint64_t start = w->pos.start;

    w->in_chunk = false;
    if (w->failed)
        return w->failed;
    if (start >= o->flushed) {
        o->buf.len = (size_t)(start - o->flushed);
        return 0;
    }
    if (ftruncate(o->fd, (off_t)start) < 0 || lseek(o->fd, (off_t)start, SEEK_SET) < 0)
        return jfrw_fail(w, JFR_EIO, "cannot cut the output back: %s", strerror(errno));
    o->flushed = start;
    o->buf.len = 0;
    return 0;
}
