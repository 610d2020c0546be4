/* parallel.h - the chunks of one file decoded by several threads, each
 * chunk into a profile of its own, merged in chunk order (design.md §2). */
#ifndef JFRTOOL_PARALLEL_H
#define JFRTOOL_PARALLEL_H

#include <stdbool.h>

#include "jfr.h"

/** The number of threads --jobs 0 (the default) means: the online CPUs. */
int parallel_default_jobs(void);

/**
 * Add the samples of file `path` to `dst` (made with `po`) using `jobs`
 * threads. Returns false, having done nothing, when the file does not lend
 * itself to it (standard input, a compressed file, one chunk, a chunk that
 * is damaged, cut or unfinished, jobs < 2): the caller then reads it
 * sequentially. Otherwise prints the warnings and errors of the chunks in
 * chunk order, as the sequential read would, and sets *damaged when it
 * printed any. The profile is the one the sequential read makes.
 */
bool parallel_add_file(jfr_profile *dst, const jfr_profile_options *po, const char *path,
                       int jobs, bool *damaged);

#endif
