/* filter_xz.c - xz input (liblzma), possibly several streams. */
#include "config.h"

#include <lzma.h>

#include <string.h>

#include "source.h"

static bool xz_bid(const uint8_t *p, size_t n)
{
    return n >= 6 && memcmp(p,
                            "\xfd"
                            "7zXZ\0",
                            6) == 0;
}

static void *x_alloc(void *opaque, size_t count, size_t size)
{
    return jfrp_calloc(opaque, count, size);
}

static void x_free(void *opaque, void *ptr)
{
    jfrp_free(opaque, ptr);
}

/* After a stream: another stream, zero padding (xz allows it), or junk
 * (ignored, with a note, as gzip and lz4 do). False at the end. */
static bool next_stream(lzma_stream *xs, jfrp_sink *s)
{
    size_t left = xs->avail_in, zeros = 0;

    while (zeros < left && xs->next_in[zeros] == 0)
        zeros++;
    xs->next_in += zeros;
    xs->avail_in -= zeros;
    if (!xs->avail_in)
        return false;
    if (xz_bid(xs->next_in, xs->avail_in))
        return lzma_stream_decoder(xs, UINT64_MAX, 0) == LZMA_OK;
    jfrp_sink_note(s, JFR_ECORRUPT, "%zu bytes after the xz data are not xz: ignored",
                   xs->avail_in);
    return false;
}

static int xz_decode(jfr_recording *rec, const uint8_t *in, size_t n, jfrp_sink *s)
{
    const lzma_allocator al = {x_alloc, x_free, &rec->al};
    jfrp_outbuf *b = &s->out;
    lzma_stream xs = LZMA_STREAM_INIT;
    lzma_ret xrc;
    int rc = 0;

    xs.allocator = &al;
    if (lzma_stream_decoder(&xs, UINT64_MAX, 0) != LZMA_OK)
        return jfrp_fail(&rec->err, JFR_ENOMEM, -1, 0, "cannot start xz decoder");
    xs.next_in = in;
    xs.avail_in = n;
    for (;;) {
        size_t before;

        if ((rc = jfrp_outbuf_reserve(rec, b, 1 << 20)) < 0)
            break;
        xs.next_out = b->data + b->len;
        xs.avail_out = (b->cap - b->len) > (1u << 20) ? (1u << 20) : (b->cap - b->len);
        before = xs.avail_out;
        /* no more input: LZMA_FINISH makes the decoder say whether it ended */
        xrc = lzma_code(&xs, xs.avail_in ? LZMA_RUN : LZMA_FINISH);
        b->len += before - xs.avail_out;
        if (!jfrp_sink_check(rec, s))
            break;
        if (xrc == LZMA_STREAM_END) {
            if (!next_stream(&xs, s))
                break;
            continue;
        }
        if (xrc == LZMA_BUF_ERROR ||
            (xrc == LZMA_OK && !xs.avail_in && before == xs.avail_out)) {
            jfrp_sink_note(s, JFR_ETRUNCATED,
                           "xz data ends early (after %zu bytes of output)", b->len);
            break;
        }
        if (xrc != LZMA_OK) {
            jfrp_sink_note(s, JFR_EFORMAT,
                           "bad xz data at byte %zu of the input (after %zu bytes of "
                           "output): %s",
                           (size_t)(xs.next_in - in), b->len,
                           xrc == LZMA_DATA_ERROR  ? "corrupt data"
                           : xrc == LZMA_MEM_ERROR ? "out of memory"
                                                   : "decoder error");
            break;
        }
    }
    lzma_end(&xs);
    return rc;
}

const jfrp_filter jfrp_filter_xz = {"xz", xz_bid, xz_decode};
