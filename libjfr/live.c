/* live.c - a chunk the JVM is still writing (jfr-format.md §3.6): its header
 * read like a seqlock, and the end of its last complete flush. */
#include <string.h>

#include "live.h"

#define STATE_OFFSET   64
#define STATE_UPDATING 255

int jfrp_live_header(jfr_header *out, uint8_t *raw, jfrp_read_fn read, void *ctx)
{
    uint8_t bytes[JFRP_HEADER_SIZE], before, after;
    int rc;

    memset(out, 0, sizeof *out);
    /* the JVM writes 255 over the state byte, then the other fields, then
     * the new state (hotspot's JfrChunkHeadWriter): a header read between
     * two equal state bytes that are not 255 was not being written */
    if ((rc = read(ctx, STATE_OFFSET, &before, 1)) < 0)
        return rc;
    if (before == STATE_UPDATING) {
        out->state = before;
        return JFR_AGAIN;
    }
    if ((rc = read(ctx, 0, bytes, sizeof bytes)) < 0 ||
        (rc = read(ctx, STATE_OFFSET, &after, 1)) < 0)
        return rc;
    if (after != before || bytes[STATE_OFFSET] != before) {
        out->state = STATE_UPDATING;
        return JFR_AGAIN;
    }
    rc = jfrp_header_parse(out, bytes, sizeof bytes);
    if (raw)
        memcpy(raw, bytes, sizeof bytes);
    /* before the first flush: size 68 and no metadata, nothing to read */
    if (rc == JFR_ECORRUPT && out->metadata_offset == 0 && out->state != 0)
        return JFR_AGAIN;
    return rc;
}

/* The type flags of the checkpoint whose payload (after the type id) is
 * read by `r`; -1 when they cannot be read. */
static int checkpoint_flags(jfrp_reader *r)
{
    uint64_t flags;

    (void)jfrp_int(r, 8); /* start time */
    (void)jfrp_int(r, 8); /* duration */
    (void)jfrp_int(r, 8); /* delta */
    flags = r->compressed ? jfrp_varint(r) : jfrp_u8(r);
    return r->err ? -1 : (int)(flags & 0xff);
}

int jfrp_last_flush(jfrp_flush_point *out, const uint8_t *chunk, size_t avail,
                    bool compressed)
{
    jfrp_reader r;
    jfrp_record rec;
    uint64_t metadata = 0;

    memset(out, 0, sizeof *out);
    if (avail <= JFRP_HEADER_SIZE)
        return JFR_ENOTFOUND;
    jfrp_reader_init(&r, chunk, avail, 0, compressed);
    r.p += JFRP_HEADER_SIZE;
    /* a record cut by the end of `avail`, or one that makes no sense (the
     * unflushed tail may hold anything), ends the walk */
    while (jfrp_record_step(&r, false, &rec) == JFRP_RECORD_OK) {
        uint64_t at = (uint64_t)(rec.start - chunk);

        if (rec.type_id == 0) {
            metadata = at;
        } else if (rec.type_id == 1 && metadata) {
            jfrp_reader cp;
            int flags;

            jfrp_reader_init(&cp, rec.payload,
                             (size_t)(rec.start + rec.size - rec.payload), 0, compressed);
            flags = checkpoint_flags(&cp);
            if (flags >= 0 && (flags & 0x1)) { /* FLUSH: ends a flush segment */
                out->size = at + rec.size;
                out->constant_pool_offset = at;
                out->metadata_offset = metadata;
                out->flushes++;
            }
        }
    }
    return out->flushes ? JFR_OK : JFR_ENOTFOUND;
}
