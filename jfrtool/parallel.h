/* parallel.h - reading the chunks of one recording through libjfr's
 * jfr_recording_decode_chunks: in threads, the results taken in chunk
 * order (design.md §2), and every chunk's messages printed as it is taken. */
#ifndef JFRTOOL_PARALLEL_H
#define JFRTOOL_PARALLEL_H

#include <stdbool.h>
#include <stddef.h>

#include "jfr.h"
#include "util.h"

/** What to do with each chunk. */
typedef struct parallel_ops {
    /**
     * In a worker thread (or the calling one): decode `chunk` of `rec` and
     * return what the merge needs (may be NULL). Errors go to `messages`
     * as "jfrtool: ..." lines (parallel_say). Must only read `user`.
     */
    void *(*decode)(jfr_chunk *chunk, jfr_recording *rec, const char *path,
                    strbuf *messages, void *user);
    /**
     * In the calling thread, chunk by chunk in order: take one result. Not
     * called for a chunk that could not be opened (its error is printed
     * instead); `chunk_index` counts the chunks that opened.
     */
    void (*merge)(void *result, size_t chunk_index, void *user);
} parallel_ops;

/** Once per input (*traced false before the first chunk): with
 * JFRTOOL_TRACE_JOBS set, say on stderr that `path` was read in `threads`
 * threads, when more than one. */
void parallel_trace(bool *traced, const char *path, unsigned threads);

/** Append report_error's line for `err` to `messages`. */
void parallel_say(strbuf *messages, const char *path, const jfr_error *err);

/**
 * Run `ops` over the chunks of `rec` (opened from `path`) with `jobs`
 * threads (0: one per CPU; the outcome is the same for any number). Prints
 * each chunk's messages and warnings when it is merged, as the sequential
 * read prints them, and sets *damaged when there were any. Returns the
 * number of chunks that opened (none: note_unreadable_input was called).
 */
size_t parallel_read(jfr_recording *rec, const char *path, int jobs,
                     const parallel_ops *ops, void *user, bool *damaged);

#endif
