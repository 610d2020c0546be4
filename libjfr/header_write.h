/* header_write.h - encoding a chunk header: the one place that writes the
 * 68 bytes jfrp_header_parse (chunk.c) reads. Internal to libjfr. */
#ifndef JFRP_HEADER_WRITE_H
#define JFRP_HEADER_WRITE_H

#include <stdint.h>

#include "jfr/chunk.h"

#define JFRP_HEADER_BYTES 68

/** Byte offsets of the header fields a writer patches (jfr-format.md §3.1). */
enum {
    JFRP_HEADER_AT_SIZE = 8,
    JFRP_HEADER_AT_POOLS = 16,
    JFRP_HEADER_AT_METADATA = 24,
    JFRP_HEADER_AT_DURATION = 40,
    JFRP_HEADER_AT_STATE = 64,
    JFRP_HEADER_AT_FLAGS = 66
};

/** `h` as the 68 bytes of a chunk header, all fields big-endian;
 * h->file_offset is not part of it. */
void jfrp_header_encode(uint8_t out[JFRP_HEADER_BYTES], const jfr_header *h);

/** Store `v` big-endian in the `width` bytes at `p` (a header field). */
void jfrp_put_be(uint8_t *p, uint64_t v, unsigned width);

#endif
