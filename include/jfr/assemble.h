/* jfr/assemble.h - a recording's chunks as byte ranges: splitting a
 * recording at chunk boundaries, joining chunks into one recording, and
 * finishing a chunk the JVM did not close (jfr_assemble(3)). */
#ifndef JFR_ASSEMBLE_H
#define JFR_ASSEMBLE_H

#include "common.h"
#include "error.h"
#include "recording.h"

JFR_BEGIN_DECLS

/** Bytes of a chunk header. */
#define JFR_CHUNK_HEADER_SIZE 68

/** What a chunk of the input becomes when it is copied. */
typedef enum jfr_extent_kind {
    /** Closed and whole: copied byte for byte. */
    JFR_EXTENT_COMPLETE = 0,
    /** Not closed (its state byte is not 0: the JVM was still writing it
     * or died) or cut or damaged after its last complete flush: copied up
     * to that flush, under the header the JVM wrote for it, closed. */
    JFR_EXTENT_FINISHED = 1,
    /** Nothing complete in it (no flush was finished, or its records are
     * damaged before the first one): nothing to copy. */
    JFR_EXTENT_EMPTY = 2
} jfr_extent_kind;

/**
 * Where one chunk lies in the (decompressed) input and what a copy of it
 * holds. Plain data of fixed size and layout; the caller owns the storage.
 */
typedef struct jfr_extent {
    int64_t index;     /**< the chunk's index, as jfr_recording_next_chunk counts */
    uint64_t offset;   /**< where its header starts in the input */
    uint64_t size;     /**< bytes a copy holds, header included; 0 for EMPTY */
    uint64_t present;  /**< bytes of the input that belong to it: its size when
                            COMPLETE (what follows is reported by the next
                            call), else up to the next chunk header or the
                            end of the input */
    uint64_t declared; /**< the chunk size its header states (0 if unreadable) */
    uint8_t state;     /**< its header's state byte as found */
    uint8_t kind;      /**< a jfr_extent_kind */
    /** For FINISHED: the header a copy starts with (state 0). */
    uint8_t header[JFR_CHUNK_HEADER_SIZE];
} jfr_extent;

/**
 * Move past the next chunk, reading only its header unless it is not a
 * closed, whole chunk, and describe it in *out. A chunk that is not closed,
 * or whose declared size does not fit the input, is finished at its last
 * complete flush (jfr_chunk_finish) from the bytes up to the next chunk
 * header or the end of the input. Shares its position with
 * jfr_recording_next_chunk.
 *
 * @return JFR_OK with *out set (every chunk header, whatever its kind);
 *         JFR_DONE after the last chunk; or a negative code with the detail
 *         in jfr_recording_error() for bytes that are not a chunk (skipped
 *         to the next plausible chunk header: the next call goes on there;
 *         or up to the end of the input: later calls return JFR_DONE), and,
 *         once after the last chunk, for compressed input that was cut or
 *         damaged.
 */
JFR_API int jfr_recording_next_extent(jfr_extent *out, jfr_recording *rec);

/**
 * Write the copy of `extent` (from jfr_recording_next_extent on `rec`) to
 * `fd`: its `size` bytes, starting with its `header` when FINISHED. Pages
 * of a mapped input are given back as they are written, so memory stays
 * small whatever the chunk size.
 *
 * @param err optional; on failure its code, `sys_errno`, the chunk's index
 *            and the input offset reached
 * @return JFR_OK, JFR_EINVAL, or JFR_EIO (the write failed).
 */
JFR_API int jfr_recording_write_extent(int fd, const jfr_recording *rec,
                                       const jfr_extent *extent, jfr_error *err);

/**
 * Write the `size` bytes of the (decompressed) input of `rec` at `offset`
 * to `fd`, as they are (what `jfrtool disassemble` writes).
 * @return JFR_OK, JFR_EINVAL (a range outside the input), or JFR_EIO.
 */
JFR_API int jfr_recording_write_bytes(int fd, const jfr_recording *rec, uint64_t offset,
                                      uint64_t size, jfr_error *err);

/**
 * Finish a chunk at its last complete flush. `chunk` holds the `avail`
 * bytes of the input from the chunk's header on (up to the next chunk or
 * the end). When the header is consistent (not being rewritten, state
 * 255, and ending with the chunk-header checkpoint it points to), it is
 * kept with its state byte set to 0, as JDK 27's `jfr assemble` does;
 * otherwise the chunk's records are stepped over up to the first cut or
 * damaged one, the last checkpoint that ends a flush ends the chunk, and
 * the header copy the JVM wrote into it (which must describe the chunk as
 * ending there) is the header.
 *
 * @param header receives the header to write (state 0)
 * @param size   receives the chunk's size as finished: `header`, then the
 *               bytes of `chunk` from offset 68 up to `size`
 * @return JFR_OK; JFR_ENOTFOUND when no flush was completed (nothing of the
 *         chunk can be kept: a JVM that died before its first flush, a
 *         producer that writes no flushes); JFR_EINVAL for NULL.
 */
JFR_API int jfr_chunk_finish(uint8_t header[JFR_CHUNK_HEADER_SIZE], uint64_t *size,
                             const void *chunk, size_t avail);

#define JFR_SPLIT_OPTIONS_VERSION 1

/**
 * How `jfrtool disassemble` groups chunks into files, as the JDK's `jfr
 * disassemble` does. A limit of 0 is no limit. New fields are appended.
 */
typedef struct jfr_split_options {
    unsigned version;    /**< JFR_SPLIT_OPTIONS_VERSION */
    uint64_t max_chunks; /**< chunks per part */
    uint64_t max_size;   /**< bytes per part; a bigger chunk is a part alone */
} jfr_split_options;

/* clang-format off */
#define JFR_SPLIT_OPTIONS_INIT {JFR_SPLIT_OPTIONS_VERSION, 0, 0}
/* clang-format on */

/**
 * Initialise `opts` as split options of version `version` (pass
 * JFR_SPLIT_OPTIONS_VERSION), as JFR_SPLIT_OPTIONS_INIT: no limits.
 * @return JFR_OK, or JFR_EINVAL for NULL or an unknown version.
 */
JFR_API int jfr_split_options_init(jfr_split_options *opts, unsigned version);

/**
 * How many of the `count` chunks whose sizes are `sizes`, from the first,
 * go into the next part: as many as fit both limits, and at least one.
 * @return that number; 0 when `count` is 0, `sizes` or `opts` is NULL or
 *         `opts` has an unknown version.
 */
JFR_API size_t jfr_split_take(const uint64_t *sizes, size_t count,
                              const jfr_split_options *opts);

/**
 * The file name of part `part` of `parts` made from the input named
 * `input`, as `jfr disassemble` names them: the input's file name without
 * its directory, its compression suffix (.gz, .lz4, .xz, .bz2) and its
 * ".jfr", then "_", the part number with as many digits as the last one
 * (leading zeros), and ".jfr": "rec.jfr" in 12 parts gives "rec_00.jfr"
 * to "rec_11.jfr".
 * @return JFR_OK; JFR_ELIMIT when `buf` is too small (`size` bytes); or
 *         JFR_EINVAL.
 */
JFR_API int jfr_split_name(char *buf, size_t size, const char *input, size_t part,
                           size_t parts);

/**
 * The files `jfr assemble DIR` joins: every entry of `dir` whose name ends
 * in ".jfr" and that is a readable file (or a link to one), as "DIR/NAME",
 * in byte order of the names (the JVM names its repository's chunk files
 * by their start time, so this is their order).
 *
 * @param paths receives the array (jfr_assemble_files_free)
 * @param count receives its length (0: none)
 * @param err   optional; filled on failure
 * @return JFR_OK, JFR_EIO (with `sys_errno`; also for a `dir` that is not
 *         a directory), JFR_ENOMEM or JFR_EINVAL.
 */
JFR_API int jfr_assemble_files(char ***paths, size_t *count, const char *dir,
                               jfr_error *err);

/** Free what jfr_assemble_files returned. Accepts NULL. */
JFR_API void jfr_assemble_files_free(char **paths, size_t count);

JFR_END_DECLS

#endif
