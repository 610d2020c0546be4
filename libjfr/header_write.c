/* header_write.c - a chunk header as bytes (jfr-format.md §3.1). */
#include <string.h>

#include "header_write.h"

void jfrp_put_be(uint8_t *p, uint64_t v, unsigned width)
{
    for (unsigned i = width; i-- > 0; v >>= 8)
        p[i] = (uint8_t)v;
}

void jfrp_header_encode(uint8_t out[JFRP_HEADER_BYTES], const jfr_header *h)
{
    memcpy(out, "FLR\0", 4);
    jfrp_put_be(out + 4, h->major, 2);
    jfrp_put_be(out + 6, h->minor, 2);
    jfrp_put_be(out + JFRP_HEADER_AT_SIZE, h->chunk_size, 8);
    jfrp_put_be(out + JFRP_HEADER_AT_POOLS, h->constant_pool_offset, 8);
    jfrp_put_be(out + JFRP_HEADER_AT_METADATA, h->metadata_offset, 8);
    jfrp_put_be(out + 32, (uint64_t)h->start_nanos, 8);
    jfrp_put_be(out + JFRP_HEADER_AT_DURATION, (uint64_t)h->duration_nanos, 8);
    jfrp_put_be(out + 48, (uint64_t)h->start_ticks, 8);
    jfrp_put_be(out + 56, (uint64_t)h->ticks_per_second, 8);
    out[JFRP_HEADER_AT_STATE] = h->state;
    out[65] = 0;
    jfrp_put_be(out + JFRP_HEADER_AT_FLAGS, h->flags, 2);
}
