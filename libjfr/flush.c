/* flush.c - finishing a chunk the JVM did not close at its last complete
 * flush, under the header the JVM wrote for that flush (jfr-format.md §3.4,
 * §3.6). */
#include "flush.h"
#include "live.h"

/* typeFlags bit of a checkpoint whose first pool is jdk.types.ChunkHeader */
#define CHECKPOINT_CHUNK_HEADER 0x2u

/* A metadata record starts at chunk-relative `at` and ends before `limit`. */
static bool metadata_at(const uint8_t *chunk, uint64_t at, uint64_t limit,
                        bool compressed)
{
    jfrp_reader r;
    jfrp_record rec;

    if (at < JFRP_HEADER_SIZE || at >= limit)
        return false;
    jfrp_reader_init(&r, chunk + at, (size_t)(limit - at), at, compressed);
    return jfrp_record_step(&r, false, &rec) == JFRP_RECORD_OK && rec.type_id == 0;
}

/* The 68 bytes of the header copy in the checkpoint whose fields (after
 * its type id) `r` reads: one pool, one entry, a byte[68]. NULL if not. */
static const uint8_t *header_copy(jfrp_reader *r)
{
    uint64_t flags, pools, count, len;

    (void)jfrp_int(r, 8); /* start */
    (void)jfrp_int(r, 8); /* duration */
    (void)jfrp_int(r, 8); /* delta to the previous checkpoint */
    flags = jfrp_int(r, 4);
    pools = jfrp_int(r, 4);
    (void)jfrp_int(r, 8); /* type id of jdk.types.ChunkHeader, the chunk's own */
    count = jfrp_int(r, 4);
    (void)jfrp_int(r, 8); /* key */
    len = jfrp_int(r, 4);
    if (r->err || !(flags & CHECKPOINT_CHUNK_HEADER) || pools == 0 || count != 1 ||
        len != JFRP_HEADER_SIZE || jfrp_reader_left(r) < JFRP_HEADER_SIZE)
        return NULL;
    return r->p;
}

bool jfrp_flush_at(jfrp_flush *out, const uint8_t *chunk, size_t avail, uint64_t at,
                   bool compressed)
{
    jfrp_reader r;
    jfrp_record rec;
    const uint8_t *copy;
    jfr_header h;
    uint64_t end;

    if (at < JFRP_HEADER_SIZE || at >= avail)
        return false;
    jfrp_reader_init(&r, chunk + at, avail - (size_t)at, at, compressed);
    if (jfrp_record_step(&r, false, &rec) != JFRP_RECORD_OK || rec.type_id != 1)
        return false;
    end = at + rec.size;
    jfrp_reader_init(&r, rec.payload, (size_t)(rec.start + rec.size - rec.payload), 0,
                     compressed);
    if (!(copy = header_copy(&r)))
        return false;
    /* the copy must describe this very prefix of the chunk */
    if (jfrp_header_parse(&h, copy, JFRP_HEADER_SIZE) != JFR_OK || h.chunk_size != end ||
        h.constant_pool_offset != at ||
        !metadata_at(chunk, h.metadata_offset, at, compressed))
        return false;
    out->end = end;
    memcpy(out->header, copy, JFRP_HEADER_SIZE);
    return true;
}

/* The JVM's own header, when it is consistent: not being rewritten (state
 * 255), and ending with the chunk-header checkpoint it points to. Then only
 * the state byte changes, as JDK 27's `jfr assemble` does (JDK-8391075). */
static bool header_as_written(jfrp_flush *out, const uint8_t *chunk, size_t avail)
{
    jfr_header h;
    bool compressed;

    if (jfrp_header_parse(&h, chunk, avail) != JFR_OK || h.state == 0xff ||
        h.chunk_size > avail)
        return false;
    compressed = (h.flags & JFR_CHUNK_FLAG_COMPRESSED_INTS) != 0;
    if (!jfrp_flush_at(out, chunk, (size_t)h.chunk_size, h.constant_pool_offset,
                       compressed))
        return false;
    memcpy(out->header, chunk, JFRP_HEADER_SIZE);
    return true;
}

/* The header is not to be trusted: the last complete flush that the
 * records show, under the header copy its checkpoint holds. */
static bool last_flush(jfrp_flush *out, const uint8_t *chunk, size_t avail,
                       bool compressed)
{
    jfrp_flush_point point;

    if (jfrp_last_flush(&point, chunk, avail, compressed) != JFR_OK)
        return false;
    return jfrp_flush_at(out, chunk, avail, point.constant_pool_offset, compressed) &&
           out->end == point.size;
}

int jfr_chunk_finish(uint8_t header[68], uint64_t *size, const void *chunk, size_t avail)
{
    const uint8_t *p = chunk;
    jfrp_flush f;
    bool compressed = true; /* every writer of flushes (JDK 14+) compresses */

    if (!header || !size || !chunk)
        return JFR_EINVAL;
    *size = 0;
    if (avail < JFRP_HEADER_SIZE)
        return JFR_ENOTFOUND;
    if (memcmp(p, "FLR\0", 4) == 0) /* the flags of a header at least named one */
        compressed = (p[67] & JFR_CHUNK_FLAG_COMPRESSED_INTS) != 0;
    if (!header_as_written(&f, p, avail) && !last_flush(&f, p, avail, compressed))
        return JFR_ENOTFOUND;
    memcpy(header, f.header, JFRP_HEADER_SIZE);
    header[64] = 0; /* closed */
    *size = f.end;
    return JFR_OK;
}
