/* filter_gzip.c - gzip input (zlib), possibly several members. */
#include "config.h"

#include <zlib.h>

#include "source.h"

static bool gzip_bid(const uint8_t *p, size_t n)
{
    return n >= 3 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 8;
}

static void *z_alloc(void *opaque, uInt items, uInt size)
{
    return jfrp_calloc(opaque, items, size);
}

static void z_free(void *opaque, void *ptr)
{
    jfrp_free(opaque, ptr);
}

static bool all_zero(const uint8_t *p, size_t n)
{
    while (n && *p == 0)
        p++, n--;
    return n == 0;
}

/* After a member: another member, zero padding, or junk (ignored, with a
 * note, as lz4 does). False at the end of the data. */
static bool next_member(z_stream *zs, const uint8_t *in, size_t n, jfrp_sink *s)
{
    const uint8_t *next = zs->next_in;
    size_t left = n - (size_t)(next - in);

    if (left >= 2 && next[0] == 0x1f && next[1] == 0x8b)
        return inflateReset(zs) == Z_OK;
    if (!all_zero(next, left))
        jfrp_sink_note(s, JFR_ECORRUPT,
                       "%zu bytes after the gzip data are not gzip: ignored", left);
    return false;
}

static int gzip_decode(jfr_recording *rec, const uint8_t *in, size_t n, jfrp_sink *s)
{
    jfrp_outbuf *b = &s->out;
    z_stream zs = {0};
    int zrc, rc = 0;

    zs.zalloc = z_alloc;
    zs.zfree = z_free;
    zs.opaque = &rec->al;
    if (inflateInit2(&zs, 15 + 16) != Z_OK)
        return jfrp_fail(&rec->err, JFR_ENOMEM, -1, 0, "cannot start gzip decoder");
    zs.next_in = (Bytef *)(uintptr_t)in;
    for (;;) {
        size_t chunk_in = n - (size_t)((const uint8_t *)zs.next_in - in);
        uInt before;

        zs.avail_in = chunk_in > (1u << 30) ? (1u << 30) : (uInt)chunk_in;
        if ((rc = jfrp_outbuf_reserve(rec, b, 1 << 20)) < 0)
            break;
        zs.next_out = b->data + b->len;
        zs.avail_out =
            (uInt)((b->cap - b->len) > (1u << 20) ? (1u << 20) : (b->cap - b->len));
        before = zs.avail_out;
        zrc = inflate(&zs, Z_NO_FLUSH);
        b->len += before - zs.avail_out;
        if (!jfrp_sink_check(rec, s))
            break;
        if (zrc == Z_STREAM_END) {
            if (!next_member(&zs, in, n, s))
                break;
            continue;
        }
        if (zrc == Z_BUF_ERROR && zs.avail_in == 0) {
            jfrp_sink_note(s, JFR_ETRUNCATED,
                           "gzip data ends early (after %zu bytes of output)", b->len);
            break;
        }
        if (zrc != Z_OK && zrc != Z_BUF_ERROR) {
            jfrp_sink_note(s, JFR_EFORMAT,
                           "bad gzip data at byte %zu of the input (after %zu bytes of "
                           "output): %s",
                           (size_t)((const uint8_t *)zs.next_in - in), b->len,
                           zs.msg ? zs.msg : "inflate failed");
            break;
        }
    }
    inflateEnd(&zs);
    return rc;
}

const jfrp_filter jfrp_filter_gzip = {"gzip", gzip_bid, gzip_decode};
