/* jfr/recording.h - opening a recording and iterating over its chunks. */
#ifndef JFR_RECORDING_H
#define JFR_RECORDING_H

#include "common.h"
#include "error.h"
#include "options.h"

JFR_BEGIN_DECLS

/**
 * Open the recording at `path` ("-" reads standard input). Plain files are
 * mapped; gzip and lz4-frame inputs are recognised by their magic bytes and
 * decompressed, the output checked as it grows: decompression stops where
 * it is no longer chunks (a bomb is refused), and cut or damaged compressed
 * data keeps its output (jfr_recording_next_chunk reports how it ended,
 * after the last chunk). Only the first chunk header is checked here; one
 * with a destroyed magic is accepted when a plausible chunk header follows.
 *
 * @param out   receives the new recording (caller owns; jfr_recording_free)
 * @param opts  options, or NULL for defaults
 * @param err   optional; filled on failure
 * @return JFR_OK, or JFR_EIO, JFR_EFORMAT (not a recording), JFR_EVERSION
 *         (JFR 0.9), JFR_ETRUNCATED, JFR_ENOMEM, JFR_ELIMIT, JFR_EINVAL.
 */
JFR_API int jfr_recording_open_file(jfr_recording **out, const char *path,
                                    const jfr_options *opts, jfr_error *err);

/**
 * Open a recording held in memory. The bytes are borrowed (not copied) when
 * they are plain JFR: they must stay valid until jfr_recording_free.
 * Same results as jfr_recording_open_file.
 */
JFR_API int jfr_recording_open_memory(jfr_recording **out, const void *data, size_t size,
                                      const jfr_options *opts, jfr_error *err);

/**
 * Open a recording read from the file descriptor `fd` (read to its end; the
 * descriptor is not closed). Same results as jfr_recording_open_file.
 */
JFR_API int jfr_recording_open_fd(jfr_recording **out, int fd, const jfr_options *opts,
                                  jfr_error *err);

/**
 * Advance to the next chunk. The chunk is owned by the recording and valid
 * until the next call or jfr_recording_free.
 *
 * @return JFR_OK with *out set; JFR_DONE after the last chunk; or a negative
 *         code with the detail in jfr_recording_error(). After JFR_ECORRUPT
 *         the next call moves on: to the following chunk when the header
 *         was sound, else to the next plausible chunk header (the error
 *         names the chunk index, the offset and the bytes skipped). A chunk
 *         whose size does not lead to another chunk is read up to the next
 *         plausible header, with a chunk warning. JFR_ETRUNCATED (the input
 *         ends inside a chunk) and errors with no chunk header after them
 *         end the iteration: later calls return JFR_DONE. Compressed input
 *         that was cut, damaged or followed by junk gives one more error
 *         after its last chunk, saying so.
 */
JFR_API int jfr_recording_next_chunk(jfr_chunk **out, jfr_recording *rec);

/**
 * Move past the next chunk without decoding it: only its header is read.
 * With jfr_recording_next_chunk on another handle of the same input, this
 * lets threads share out the chunks of a recording.
 *
 * @return JFR_OK; JFR_DONE after the last chunk; for a chunk that is not
 *         complete and closed (cut, unfinished, a damaged header, over the
 *         size limit, not followed by a chunk header or the end of the
 *         input) a negative code, with the detail in
 *         jfr_recording_error(), and nothing moves: jfr_recording_next_chunk
 *         then reads (or reports) that chunk as it always does, so both
 *         see the same chunks.
 */
JFR_API int jfr_recording_skip_chunk(jfr_recording *rec);

/** The last error of this recording and of everything derived from it. */
JFR_API const jfr_error *jfr_recording_error(const jfr_recording *rec);

/** "raw", "gzip" or "lz4": the container the input came in. Static string. */
JFR_API const char *jfr_recording_container(const jfr_recording *rec);

/** Size in bytes of the (decompressed) recording: for compressed input,
 * the output kept (up to where it was cut, went bad or was stopped). */
JFR_API uint64_t jfr_recording_size(const jfr_recording *rec);

/** Release the recording and everything it owns. Accepts NULL. */
JFR_API void jfr_recording_free(jfr_recording *rec);

JFR_END_DECLS

#endif
