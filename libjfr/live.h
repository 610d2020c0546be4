/* live.h - reading a chunk while a JVM writes it (jfr-format.md §3.6): the
 * header read like a seqlock, and where a chunk's last complete flush ends.
 * Internal: the follower (follow.c) uses both; a tool that finishes an
 * unfinished chunk copied from a repository needs the second. */
#ifndef JFRP_LIVE_H
#define JFRP_LIVE_H

#include "jfr_private.h"

/** Read `n` bytes at chunk-relative `offset` into `buf`. 0 when all were
 * read; JFR_ETRUNCATED when the input ends first; JFR_EIO (errno set). */
typedef int (*jfrp_read_fn)(void *ctx, uint64_t offset, void *buf, size_t n);

/**
 * Read the chunk header through `read` as a JDK 14+ reader does: the state
 * byte, the whole header, the state byte again; the header counts only
 * when both state bytes are equal and not 255 (the JVM is rewriting it).
 * `raw` (may be NULL) receives the 68 bytes that were accepted.
 *
 * @return JFR_OK: a consistent header with metadata, decoded into *out
 *         (jfrp_header_parse's checks passed);
 *         JFR_AGAIN: nothing usable yet: being rewritten, changed while it
 *         was read, or not flushed once (size 68, metadata offset 0); *out
 *         holds what was read, *out->state included;
 *         otherwise jfrp_header_parse's code for a header that is not one
 *         (JFR_EFORMAT, JFR_EVERSION, JFR_ECORRUPT), or read's code.
 */
int jfrp_live_header(jfr_header *out, uint8_t *raw, jfrp_read_fn read, void *ctx);

/** Where a chunk's last complete flush ends (jfrp_last_flush). */
typedef struct jfrp_flush_point {
    uint64_t size;                 /**< chunk-relative end of the flush */
    uint64_t constant_pool_offset; /**< its flush checkpoint, the newest */
    uint64_t metadata_offset;      /**< the newest metadata record before it */
    uint32_t flushes;              /**< complete flushes met on the way */
} jfrp_flush_point;

/**
 * The last complete flush of the chunk whose first `avail` bytes are at
 * `chunk` (its header first): the records are stepped over from offset 68
 * while they lie whole inside `avail`, and the last checkpoint with the
 * FLUSH bit (jfr-format.md §8.1) that follows a metadata record ends the
 * flush. This is what the header says after that flush, found without
 * trusting the header (a copy taken while the JVM rewrote it, a JVM that
 * died with state 255). `compressed`: the header's compressed-integer flag.
 *
 * @return JFR_OK with *out; JFR_ENOTFOUND when no flush is complete.
 */
int jfrp_last_flush(jfrp_flush_point *out, const uint8_t *chunk, size_t avail,
                    bool compressed);

#endif
