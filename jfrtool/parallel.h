/* parallel.h - the chunks of one file decoded by several threads, the
 * results taken in chunk order (design.md §2). */
#ifndef JFRTOOL_PARALLEL_H
#define JFRTOOL_PARALLEL_H

#include <stdbool.h>
#include <stddef.h>

#include "jfr.h"
#include "util.h"

/** The number of threads --jobs 0 (the default) means: the online CPUs. */
int parallel_default_jobs(void);

/** What to do with each chunk. */
typedef struct parallel_ops {
    /**
     * In a worker thread: decode `chunk` of `rec` and return what the
     * merge needs (may be NULL). Errors go to `messages` as "jfrtool: ..."
     * lines (parallel_say). Must only read `user`.
     */
    void *(*decode)(jfr_chunk *chunk, jfr_recording *rec, const char *path,
                    strbuf *messages, void *user);
    /**
     * In the calling thread, chunk by chunk in order: take one result.
     * Not called for a chunk that could not be opened (decode did not run:
     * its error is printed instead), so `result` is what decode returned;
     * `chunk_index` counts the chunks that opened, as a sequential read
     * with next_chunk would.
     */
    void (*merge)(void *result, size_t chunk_index, void *user);
} parallel_ops;

/** Append report_error's line for `err` to `messages`. */
void parallel_say(strbuf *messages, const char *path, const jfr_error *err);

/**
 * Run `ops` over the chunks of file `path` with `jobs` threads. Returns
 * false, having done nothing, when the file does not lend itself to it
 * (standard input, a compressed file, one chunk, a chunk that is damaged,
 * cut or unfinished, jobs < 2): the caller then reads it sequentially.
 * Otherwise merges every chunk's result in chunk order, prints each
 * chunk's messages when it is merged (as the sequential read would print
 * them), sets *damaged when there were any, and *nchunks to the number
 * of chunks that opened.
 */
bool parallel_chunks(const char *path, int jobs, const parallel_ops *ops, void *user,
                     bool *damaged, size_t *nchunks);

/**
 * Add the samples of file `path` to `dst` (made with `po`) with `jobs`
 * threads, one profile per chunk merged in chunk order: the profile the
 * sequential read makes. False as parallel_chunks.
 */
bool parallel_add_file(jfr_profile *dst, const jfr_profile_options *po, const char *path,
                       int jobs, bool *damaged);

#endif
