/* filter_lz4.c - lz4 frame input (liblz4), skippable frames allowed. */
#include "config.h"

#include <lz4frame.h>

#include "source.h"

static bool lz4_bid(const uint8_t *p, size_t n)
{
    if (n < 4)
        return false;
    if (p[0] == 0x04 && p[1] == 0x22 && p[2] == 0x4d && p[3] == 0x18)
        return true;
    /* a skippable frame: 0x184D2A50..5F little-endian */
    return (p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d && p[3] == 0x18;
}

static int lz4_decode(jfr_recording *rec, const uint8_t *in, size_t n, uint8_t **out,
                      size_t *out_len)
{
    LZ4F_dctx *dctx;
    jfrp_outbuf b = {NULL, 0, 0};
    size_t pos = 0, hint = 1;
    int rc = 0;

    if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION)))
        return jfrp_fail(&rec->err, JFR_ENOMEM, -1, 0, "cannot start lz4 decoder");
    while (hint != 0) {
        size_t src_len = n - pos, dst_len;

        if ((rc = jfrp_outbuf_reserve(rec, &b, 1 << 20)) < 0)
            goto done;
        dst_len = b.cap - b.len;
        hint = LZ4F_decompress(dctx, b.data + b.len, &dst_len, in + pos, &src_len, NULL);
        if (LZ4F_isError(hint)) {
            rc = jfrp_fail(&rec->err, JFR_EFORMAT, -1, b.len, "bad lz4 data: %s",
                           LZ4F_getErrorName(hint));
            goto done;
        }
        pos += src_len;
        b.len += dst_len;
        if (src_len == 0 && dst_len == 0)
            break; /* no progress: the input ends inside a frame */
        if (hint == 0 && pos < n) {
            /* a further frame follows */
            LZ4F_resetDecompressionContext(dctx);
            hint = 1;
        }
    }
    if (hint != 0) {
        rc = jfrp_fail(&rec->err, JFR_ETRUNCATED, -1, b.len,
                       "lz4 data ends early (after %zu bytes of output)", b.len);
    }
done:
    LZ4F_freeDecompressionContext(dctx);
    if (rc < 0) {
        jfrp_free(&rec->al, b.data);
        return rc;
    }
    *out = b.data;
    *out_len = b.len;
    return 0;
}

const jfrp_filter jfrp_filter_lz4 = {"lz4", lz4_bid, lz4_decode};
