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

static int gzip_decode(jfr_recording *rec, const uint8_t *in, size_t n, uint8_t **out,
                       size_t *out_len)
{
    jfrp_outbuf b = {NULL, 0, 0};
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

        zs.avail_in = chunk_in > (1u << 30) ? (1u << 30) : (uInt)chunk_in;
        if ((rc = jfrp_outbuf_reserve(rec, &b, 1 << 20)) < 0)
            goto done;
        zs.next_out = b.data + b.len;
        zs.avail_out =
            (uInt)((b.cap - b.len) > (1u << 30) ? (1u << 30) : (b.cap - b.len));
        {
            uInt before = zs.avail_out;
            zrc = inflate(&zs, Z_NO_FLUSH);
            b.len += before - zs.avail_out;
        }
        if (zrc == Z_STREAM_END) {
            /* another member may follow (skip trailing zero padding) */
            const uint8_t *next = zs.next_in;
            size_t left = n - (size_t)(next - in);
            if (left < 2 || next[0] != 0x1f || next[1] != 0x8b)
                break;
            if (inflateReset(&zs) != Z_OK)
                break;
            continue;
        }
        if (zrc == Z_BUF_ERROR && zs.avail_in == 0) {
            rc = jfrp_fail(&rec->err, JFR_ETRUNCATED, -1, b.len,
                           "gzip data ends early (after %zu bytes of output)", b.len);
            goto done;
        }
        if (zrc != Z_OK && zrc != Z_BUF_ERROR) {
            rc = jfrp_fail(&rec->err, JFR_EFORMAT, -1, b.len, "bad gzip data: %s",
                           zs.msg ? zs.msg : "inflate failed");
            goto done;
        }
    }
done:
    inflateEnd(&zs);
    if (rc < 0) {
        jfrp_free(&rec->al, b.data);
        return rc;
    }
    *out = b.data;
    *out_len = b.len;
    return 0;
}

const jfrp_filter jfrp_filter_gzip = {"gzip", gzip_bid, gzip_decode};
