/* filter_lz4.c - lz4 frame input (liblz4), skippable frames allowed. */
#include "config.h"

#include <lz4.h>
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

/* After a frame: another frame, or junk (ignored, with a note, as gzip
 * does). False at the end of the data. */
static bool next_frame(LZ4F_dctx *dctx, const uint8_t *in, size_t n, size_t pos,
                       jfrp_sink *s)
{
    if (pos >= n)
        return false;
    if (!lz4_bid(in + pos, n - pos)) {
        jfrp_sink_note(s, JFR_ECORRUPT,
                       "%zu bytes after the lz4 data are not an lz4 frame: ignored",
                       n - pos);
        return false;
    }
    LZ4F_resetDecompressionContext(dctx);
    return true;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* Where the block that the data ends inside starts, in the frame at
 * `in` (n bytes); 0 when it is not a cut compressed block. The frame
 * decoder keeps such a block to itself until it is whole. */
static size_t cut_block(const uint8_t *in, size_t n, uint8_t *flg)
{
    size_t pos;

    if (n < 7 || le32(in) != 0x184D2204u)
        return 0;
    *flg = in[4];
    pos = 7 + (*flg & 0x08 ? 8 : 0) + (*flg & 0x01 ? 4 : 0);
    while (pos + 4 <= n) {
        uint32_t size = le32(in + pos);
        size_t whole = 4 + (size & 0x7fffffffu) + (*flg & 0x10 ? 4 : 0);

        if (size == 0)
            return 0; /* the end mark: no block is cut */
        if (whole > n - pos)
            return size & 0x80000000u ? 0 : pos;
        pos += whole;
    }
    return 0;
}

/* The data ends inside a compressed block: decode as much of its start as
 * the bytes present allow (the largest output the partial decoder reaches
 * without running out of input), so a cut .lz4 keeps what a cut .gz does. */
static int salvage_block(jfr_recording *rec, const uint8_t *in, size_t n, jfrp_sink *s)
{
    jfrp_outbuf *b = &s->out;
    uint8_t flg = 0;
    size_t at = cut_block(in, n, &flg), dict;
    int src_len, lo = 0, hi, rc;

    if (at == 0 || n - at - 4 > INT32_MAX)
        return 0;
    src_len = (int)(n - at - 4);
    hi = 4 << 20; /* the largest block size an lz4 frame allows */
    if ((rc = jfrp_outbuf_reserve(rec, b, (size_t)hi)) < 0)
        return rc;
    if ((size_t)hi > b->cap - b->len)
        hi = (int)(b->cap - b->len);
    /* blocks may refer back into the previous 64 KiB of output */
    dict = flg & 0x20 ? 0 : b->len < 65536 ? b->len : 65536;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        int got = LZ4_decompress_safe_partial_usingDict(
            (const char *)in + at + 4, (char *)b->data + b->len, src_len, mid, hi,
            (const char *)b->data + b->len - dict, (int)dict);

        if (got == mid)
            lo = mid;
        else
            hi = mid - 1;
    }
    if (lo > 0)
        (void)LZ4_decompress_safe_partial_usingDict(
            (const char *)in + at + 4, (char *)b->data + b->len, src_len, lo, lo,
            (const char *)b->data + b->len - dict, (int)dict);
    b->len += (size_t)lo;
    return 0;
}

static int lz4_decode(jfr_recording *rec, const uint8_t *in, size_t n, jfrp_sink *s)
{
    jfrp_outbuf *b = &s->out;
    LZ4F_dctx *dctx;
    /* the decoder's hint is the next block whole: input given a block at a
     * time keeps every block before a bad one and places the bad one */
    size_t pos = 0, frame = 0, hint = LZ4F_HEADER_SIZE_MIN;
    int rc = 0;

    if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION)))
        return jfrp_fail(&rec->err, JFR_ENOMEM, -1, 0, "cannot start lz4 decoder");
    for (;;) {
        size_t src_len = n - pos < hint ? n - pos : hint, dst_len;

        if ((rc = jfrp_outbuf_reserve(rec, b, 1 << 20)) < 0)
            break;
        dst_len = b->cap - b->len > (1u << 20) ? (1u << 20) : b->cap - b->len;
        hint =
            LZ4F_decompress(dctx, b->data + b->len, &dst_len, in + pos, &src_len, NULL);
        if (LZ4F_isError(hint)) {
            jfrp_sink_note(s, JFR_EFORMAT,
                           "bad lz4 data at byte %zu of the input (after %zu bytes of "
                           "output): %s",
                           pos, b->len, LZ4F_getErrorName(hint));
            break;
        }
        pos += src_len;
        b->len += dst_len;
        if (!jfrp_sink_check(rec, s))
            break;
        if (hint == 0) {
            if (!next_frame(dctx, in, n, pos, s))
                break;
            frame = pos;
            hint = LZ4F_HEADER_SIZE_MIN;
            continue;
        }
        if (src_len == 0 && dst_len == 0) {
            /* no progress: the input ends inside a frame */
            if ((rc = salvage_block(rec, in + frame, n - frame, s)) < 0)
                break;
            jfrp_sink_note(s, JFR_ETRUNCATED,
                           "lz4 data ends early (after %zu bytes of output)", b->len);
            break;
        }
    }
    LZ4F_freeDecompressionContext(dctx);
    return rc;
}

const jfrp_filter jfrp_filter_lz4 = {"lz4", lz4_bid, lz4_decode};
