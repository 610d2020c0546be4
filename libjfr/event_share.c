/* event_share.c - about how many of a recording's bytes are event records,
 * from its first chunk's header, metadata record and checkpoint chain,
 * without walking its events: a recording of many distinct stacks can be
 * nine tenths stack-trace pools, which walks step over at little cost. */
#include "jfr_private.h"

/* The most checkpoints followed down the chain (a flush a second makes a
 * few hundred in a chunk). */
#define MAX_CHECKPOINTS 100000

/* The size of the record at chunk offset `at` whose type id is `type_id`,
 * or 0 when it is not there. */
static uint64_t record_size(jfrp_reader *r, const uint8_t *chunk, uint64_t at,
                            uint64_t type_id, int64_t *delta)
{
    uint64_t size;

    r->p = chunk + at;
    r->err = 0;
    size = jfrp_int(r, 4);
    if (jfrp_int(r, 8) != type_id)
        return 0;
    if (delta) {
        (void)jfrp_int(r, 8); /* start time */
        (void)jfrp_int(r, 8); /* duration */
        *delta = (int64_t)jfrp_int(r, 8);
    }
    return r->err ? 0 : size;
}

/* Bytes of the chunk `h` describes at `chunk` that are neither its header,
 * its metadata nor its checkpoints; its whole size when they cannot be
 * told apart. */
static uint64_t chunk_event_bytes(const uint8_t *chunk, const jfr_header *h)
{
    uint64_t other = JFRP_HEADER_SIZE, at = h->constant_pool_offset, meta;
    bool compressed = (h->flags & JFR_CHUNK_FLAG_COMPRESSED_INTS) != 0;
    jfrp_reader r;

    jfrp_reader_init(&r, chunk, h->chunk_size, h->file_offset, compressed);
    if (h->metadata_offset < JFRP_HEADER_SIZE || h->metadata_offset >= h->chunk_size ||
        !(meta = record_size(&r, chunk, h->metadata_offset, 0, NULL)))
        return h->chunk_size;
    other += meta;
    for (int n = 0; at >= JFRP_HEADER_SIZE && at < h->chunk_size && n < MAX_CHECKPOINTS;
         n++) {
        int64_t delta = 0;
        uint64_t size = record_size(&r, chunk, at, 1, &delta);
        /* each step goes back, so the walk ends */
        if (!size || delta > 0 || 0 - (uint64_t)delta > at)
            return h->chunk_size;
        other += size;
        if (delta == 0)
            break;
        at -= 0 - (uint64_t)delta;
    }
    return other < h->chunk_size ? h->chunk_size - other : 0;
}

uint64_t jfr_recording_event_bytes_estimate(const jfr_recording *rec)
{
    jfr_header h;
    uint64_t events;

    if (!rec || rec->size == 0)
        return 0;
    if (jfrp_header_parse(&h, rec->data, (size_t)rec->size) != JFR_OK ||
        h.chunk_size < JFRP_HEADER_SIZE || h.chunk_size > rec->size)
        return rec->size;
    events = chunk_event_bytes(rec->data, &h);
    return (uint64_t)((double)rec->size * ((double)events / (double)h.chunk_size));
}
