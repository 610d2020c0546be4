/* livegen.h - a test-only writer that lays a chunk out the way a JDK 14+
 * JVM writes it, flush by flush (jfr-format.md §3.6): the chunk is built
 * whole with jfrgen, each checkpoint with the FLUSH bit ending a flush;
 * the file as the JVM leaves it after flush k is the chunk's bytes up to
 * that flush, a header that says so (size, newest checkpoint, newest
 * metadata, state k + 1), and perhaps part of the next flush already
 * written after it (the unflushed tail, which a reader must not use).
 *
 *     lg_chunk lc;
 *     lg_layout(&lc, c);              // c: a jg_chunk, freed by this call
 *     for (size_t k = 0; k < lc.nflush; k++)
 *         lg_write(&lc, path, k, 17); // flush k, 17 bytes of flush k + 1
 *     lg_write_closed(&lc, path, true);
 *     lg_free(&lc);
 *
 * A flush checkpoint whose last pool entry is a 68-byte array starting
 * "FLR\0" (lg_header_copy) gets the header of its flush written into that
 * array, as the JVM's jdk.types.ChunkHeader pool holds it.
 */
#ifndef LIVEGEN_H
#define LIVEGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jfrgen.h"

typedef struct lg_chunk {
    jg_buf image;   /* the closed chunk's bytes (state 0) */
    jg_header h;    /* the header fields jfrgen was given */
    size_t nflush;  /* complete flushes */
    uint64_t *end;  /* chunk-relative end of flush k */
    uint64_t *cp;   /* its newest checkpoint */
    uint64_t *meta; /* its newest metadata record */
    uint64_t final_cp, final_meta;
    uint8_t closed[68]; /* the closed chunk's header */
} lg_chunk;

/** Lay out chunk `c` (built and freed here). Asserts a flush exists. */
void lg_layout(lg_chunk *out, jg_chunk *c);
/** Lay out a closed chunk a JVM wrote (`len` bytes, copied): its flushes
 * and the header copies in their checkpoints replay how it was written. */
void lg_layout_bytes(lg_chunk *out, const uint8_t *chunk, size_t len);
void lg_free(lg_chunk *lc);

/** The 68 header bytes after flush k: the copy in its checkpoint, else
 * one made up (state k + 1, wrapping 254 -> 1, a second per flush). */
void lg_header_at(const lg_chunk *lc, size_t k, uint8_t out[68]);
/** The header of the closed chunk: state 0, `final` sets flag bit 1. */
void lg_header_closed(const lg_chunk *lc, bool final, uint8_t out[68]);

/** The file after flush k with `tail` bytes of what follows it. */
void lg_file_at(const lg_chunk *lc, size_t k, size_t tail, jg_buf *out);
/** The closed chunk's file. */
void lg_file_closed(const lg_chunk *lc, bool final, jg_buf *out);

/** Write `b` to `path` in place (the file is not replaced, as the JVM
 * writes its chunk file); asserts on failure. */
void lg_write_file(const char *path, const jg_buf *b);
/** Write only the header bytes [from, to) of `hdr` into `path`. */
void lg_write_header_part(const char *path, const uint8_t hdr[68], size_t from,
                          size_t to);

/** Declare jdk.types.ChunkHeader (id `id`): a byte array "payload". */
void lg_declare_header_type(jg_chunk *c, uint64_t id, uint64_t byte_id);
/** A jdk.types.ChunkHeader pool in `cp` holding the placeholder that
 * lg_layout fills with the flush's header (put it last in `cp`). */
void lg_header_copy(jg_cp *cp, uint64_t id);

/** A metadata record of chunk `types` (its own metadata, framed), to put
 * in another chunk with jg_raw: metadata that appears mid-chunk. */
void lg_metadata_record(jg_chunk *types, jg_buf *out);

#endif
