/* flush.h - the header a JDK chunk's flush leaves, to finish the chunk at
 * that flush (jfr-format.md §3.4, §3.6).
 *
 * A JDK 14+ JVM ends every flush with a checkpoint whose one pool is a copy
 * of the chunk header as it is after that flush (size, last checkpoint,
 * metadata, duration), and only then rewrites the header at offset 0. The
 * bytes up to the end of such a checkpoint are therefore a complete chunk
 * once that copy, with the state byte 0, is its header. Where the last
 * complete flush ends is found by jfrp_last_flush (live.h).
 */
#ifndef JFRP_FLUSH_H
#define JFRP_FLUSH_H

#include "jfr_private.h"

/** A complete flush: the chunk size it gives and the header for it. */
typedef struct jfrp_flush {
    uint64_t end;                     /* chunk-relative: the size as finished */
    uint8_t header[JFRP_HEADER_SIZE]; /* as the JVM wrote it (state: its own) */
} jfrp_flush;

/**
 * Whether the record at chunk-relative `at`, in the `avail` bytes of the
 * chunk at `chunk`, is a chunk-header checkpoint that describes the chunk as
 * ending with it: its header copy parses, gives the record's end as the
 * chunk size and the record itself as the last checkpoint, and names a
 * metadata record before it. Fills *out when it is.
 */
bool jfrp_flush_at(jfrp_flush *out, const uint8_t *chunk, size_t avail, uint64_t at,
                   bool compressed);

#endif
