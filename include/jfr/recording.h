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
 * Same results as jfr_recording_open_file; JFR_EINVAL when `data` is NULL.
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

/**
 * Go back to the first chunk: the next jfr_recording_next_chunk returns it
 * again (the input was read once and stays in memory; standard input too).
 * @return JFR_OK, or JFR_EINVAL for NULL.
 */
JFR_API int jfr_recording_rewind(jfr_recording *rec);

/**
 * The earliest start (ns since the epoch, UTC) that a chunk header of the
 * recording declares, for times given as offsets from the start ("10s").
 * Reads headers only and does not move the iteration.
 * @return JFR_OK, JFR_EINVAL, or JFR_ENOTFOUND when no header is readable.
 */
JFR_API int jfr_recording_start_nanos(int64_t *out, const jfr_recording *rec);

/**
 * The earliest start and the latest end (start + duration; the start of a
 * chunk still being written, whose duration is 0) that the chunk headers of
 * the recording declare, in ns since the epoch (UTC): what a reader needs
 * to lay out a time axis before reading any event. Reads headers only and
 * does not move the iteration.
 * @return JFR_OK, JFR_EINVAL, or JFR_ENOTFOUND when no header is readable.
 */
JFR_API int jfr_recording_span_nanos(int64_t *start, int64_t *end,
                                     const jfr_recording *rec);

/** What the merge learns of one chunk, besides what decode returned. */
typedef struct jfr_chunk_report {
    int64_t index;    /**< the chunk's index in the recording */
    uint64_t taken;   /**< chunks that opened before this one */
    unsigned threads; /**< threads decoding the recording (1: in order) */
    /** The chunk did not open: why (decode did not run, result is NULL).
     * The sequential read reports it as jfr_recording_next_chunk does. */
    const jfr_error *error;
    /** decode returned a negative code: the error it left in the chunk's
     * recording (jfr_recording_error of the handle decode was given). */
    const jfr_error *decode_error;
    /** The chunk's warning after decoding (jfr_chunk_warning), or NULL. */
    const jfr_error *warning;
} jfr_chunk_report;

/** What to do with each chunk; see jfr_recording_decode_chunks. */
typedef struct jfr_chunk_ops {
    /**
     * Decode `chunk` (of `rec`, a handle of the decoding thread's own) and
     * leave in *result what the merge needs. Runs in a worker thread: it
     * may only read `user`. A negative return is reported to the merge.
     * When the chunks are read in order, `rec` is the handle given to
     * jfr_recording_decode_chunks and decode runs in the calling thread.
     */
    int (*decode)(jfr_chunk *chunk, jfr_recording *rec, void **result, void *user);
    /**
     * Take one chunk's result (NULL when the chunk did not open), in the
     * calling thread, chunk by chunk in file order. The merge owns result.
     */
    void (*merge)(void *result, const jfr_chunk_report *report, void *user);
} jfr_chunk_ops;

/**
 * The CPUs that are idle now (online CPUs less the other runnable threads,
 * from /proc/loadavg on Linux; every online CPU elsewhere), at least one:
 * the threads worth starting for work that should not slow a loaded
 * machine down.
 */
JFR_API unsigned jfr_idle_cpus(void);

/**
 * The threads that jfr_recording_decode_chunks starts by default for
 * `bytes` of chunks: one per idle CPU (jfr_idle_cpus) and per 4 MB, at
 * least one. Below 8 MB it is one, without a look at the CPUs (a look may
 * sleep a fraction of a millisecond). For callers that share other work
 * out by the same rule.
 */
JFR_API unsigned jfr_auto_threads(uint64_t bytes);

/**
 * Decode every chunk of `rec` from its current position, with `threads`
 * threads (0: one per CPU that is idle now and per 4 MB of input left, at
 * least one), merging the
 * results in chunk order:
 * what the merges see does not depend on the number of threads. Each
 * worker decodes chunks through a handle of its own over the same bytes
 * (read once, whatever the input); chunks that are cut, unfinished or
 * damaged before their end, and any input with fewer than two chunks, are
 * read in the calling thread, as jfr_recording_next_chunk reads them.
 * @return JFR_OK when every chunk was taken (chunk errors go to the
 *         merges), JFR_EINVAL, or JFR_ENOMEM with nothing merged.
 */
JFR_API int jfr_recording_decode_chunks(jfr_recording *rec, unsigned threads,
                                        const jfr_chunk_ops *ops, void *user);

/**
 * List where the records of the event types named in `types` are in each
 * chunk of `rec` (NULL: every type), with `threads` threads (as
 * jfr_recording_decode_chunks counts them), so that the type-filtered walks
 * that follow (jfr_event_iter_new with type names) visit only their own
 * records: for a caller that will read those types of a recording of
 * several chunks, with cores to spare. Names are compared as
 * jfr_event_iter_new compares them; a walk for a type not listed walks the
 * chunk as before. The lists take 4 bytes a record, at most 256 MB a
 * recording; chunks beyond that, damaged or unfinished are walked as
 * before. Errors are left to the walks. Leaves `rec` at its first chunk.
 * @return JFR_OK, JFR_EINVAL, or JFR_ENOMEM (the walks still work).
 */
JFR_API int jfr_recording_index_records(jfr_recording *rec, const char *const *types,
                                        size_t ntypes, unsigned threads);

/**
 * About how many bytes of `rec` are event records: its size times the share
 * of its first chunk that is neither header, metadata nor checkpoints,
 * read from that chunk's header and checkpoint chain without walking its
 * events (its whole size when the chain cannot be followed; 0 for NULL).
 * Walks over a recording that is mostly stack-trace pools are cheap: a
 * caller weighing threads against a walk counts these bytes.
 */
JFR_API uint64_t jfr_recording_event_bytes_estimate(const jfr_recording *rec);

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
