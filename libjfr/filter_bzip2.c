/* filter_bzip2.c - bzip2 input (libbz2), possibly several streams. */
#include "config.h"

#include <bzlib.h>

#include <string.h>

#include "source.h"

static bool bzip2_bid(const uint8_t *p, size_t n)
{
    return n >= 4 && p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' && p[3] >= '1' &&
           p[3] <= '9';
}

static void *b_alloc(void *opaque, int count, int size)
{
    return jfrp_calloc(opaque, (size_t)count, (size_t)size);
}

static void b_free(void *opaque, void *ptr)
{
    jfrp_free(opaque, ptr);
}

static int start(bz_stream *bs, jfr_recording *rec)
{
    memset(bs, 0, sizeof *bs);
    bs->bzalloc = b_alloc;
    bs->bzfree = b_free;
    bs->opaque = &rec->al;
    return BZ2_bzDecompressInit(bs, 0, 0);
}

static int bzip2_decode(jfr_recording *rec, const uint8_t *in, size_t n, jfrp_sink *s)
{
    jfrp_outbuf *b = &s->out;
    const uint8_t *next = in;
    bz_stream bs;
    int brc, rc = 0;

    if (start(&bs, rec) != BZ_OK)
        return jfrp_fail(&rec->err, JFR_ENOMEM, -1, 0, "cannot start bzip2 decoder");
    for (;;) {
        size_t left = n - (size_t)(next - in);
        unsigned before;

        if ((rc = jfrp_outbuf_reserve(rec, b, 1 << 20)) < 0)
            break;
        bs.next_in = (char *)(uintptr_t)next;
        bs.avail_in = left > (1u << 30) ? (1u << 30) : (unsigned)left;
        bs.next_out = (char *)(b->data + b->len);
        bs.avail_out =
            (unsigned)((b->cap - b->len) > (1u << 20) ? (1u << 20) : (b->cap - b->len));
        before = bs.avail_out;
        brc = BZ2_bzDecompress(&bs);
        b->len += before - bs.avail_out;
        next = (const uint8_t *)bs.next_in;
        if (!jfrp_sink_check(rec, s))
            break;
        left = n - (size_t)(next - in);
        if (brc == BZ_STREAM_END) {
            /* another stream (pbzip2 writes many), or junk, or the end */
            if (left && bzip2_bid(next, left)) {
                BZ2_bzDecompressEnd(&bs);
                if (start(&bs, rec) != BZ_OK)
                    return jfrp_fail(&rec->err, JFR_ENOMEM, -1, 0,
                                     "cannot start bzip2 decoder");
                continue;
            }
            if (left)
                jfrp_sink_note(s, JFR_ECORRUPT,
                               "%zu bytes after the bzip2 data are not bzip2: ignored",
                               left);
            break;
        }
        if (brc == BZ_OK && !left && before == bs.avail_out) {
            jfrp_sink_note(s, JFR_ETRUNCATED,
                           "bzip2 data ends early (after %zu bytes of output)", b->len);
            break;
        }
        if (brc != BZ_OK) {
            jfrp_sink_note(s, JFR_EFORMAT,
                           "bad bzip2 data at byte %zu of the input (after %zu bytes of "
                           "output)",
                           (size_t)(next - in), b->len);
            break;
        }
    }
    BZ2_bzDecompressEnd(&bs);
    return rc;
}

const jfrp_filter jfrp_filter_bzip2 = {"bzip2", bzip2_bid, bzip2_decode};
