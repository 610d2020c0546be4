/* jfr/chunk.h - the decoded chunk header and time conversion. */
#ifndef JFR_CHUNK_H
#define JFR_CHUNK_H

#include "common.h"
#include "error.h"

JFR_BEGIN_DECLS

#define JFR_CHUNK_FLAG_COMPRESSED_INTS 0x1u
#define JFR_CHUNK_FLAG_FINAL           0x2u

/** The 68-byte chunk header, decoded (jfr-format.md §3). */
typedef struct jfr_header {
    uint16_t major;
    uint16_t minor;
    uint64_t chunk_size;           /**< bytes, header included */
    uint64_t constant_pool_offset; /**< chunk-relative; last checkpoint */
    uint64_t metadata_offset;      /**< chunk-relative */
    int64_t start_nanos;           /**< wall clock, ns since the epoch (UTC) */
    int64_t duration_nanos;
    int64_t start_ticks;
    int64_t ticks_per_second;
    uint8_t state;        /**< 0 = closed normally */
    uint16_t flags;       /**< JFR_CHUNK_FLAG_* */
    uint64_t file_offset; /**< where the chunk starts in the input */
} jfr_header;

/** The chunk's header. Borrowed from the chunk. */
JFR_API const jfr_header *jfr_chunk_header(const jfr_chunk *chunk);

/** 0-based index of the chunk in its recording. */
JFR_API int64_t jfr_chunk_index(const jfr_chunk *chunk);

/**
 * True when the chunk was not closed normally (state byte non-zero: the JVM
 * was still writing or died) and only what its last flush described is read.
 */
JFR_API bool jfr_chunk_is_unfinished(const jfr_chunk *chunk);

/**
 * What was wrong with the chunk's constant pools, or NULL when they were
 * read whole or not needed yet (pools are indexed on the first reference
 * to them, so ask after using the chunk). The chunk stays usable: its events
 * iterate, and references to entries that could not be indexed read as null.
 * Borrowed from the chunk.
 */
JFR_API const jfr_error *jfr_chunk_warning(const jfr_chunk *chunk);

/** Ticks of this chunk to nanoseconds since the epoch (jfr-format.md §11). */
JFR_API int64_t jfr_chunk_ticks_to_epoch_nanos(const jfr_chunk *chunk, int64_t ticks);

/** A span in ticks of this chunk to nanoseconds. */
JFR_API int64_t jfr_chunk_ticks_to_nanos(const jfr_chunk *chunk, int64_t ticks);

/** Time-zone offset of the recording JVM in ms: the metadata region's
 * gmtOffset plus its dst (as JDK 25 shows times), or 0. */
JFR_API int64_t jfr_chunk_gmt_offset_ms(const jfr_chunk *chunk);

JFR_END_DECLS

#endif
