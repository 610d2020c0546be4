/* options.h - option values several commands take alike (options.c). */
#ifndef JFRTOOL_OPTIONS_H
#define JFRTOOL_OPTIONS_H

/** The most threads --jobs asks for. */
#define JOBS_MAX 256

/**
 * --jobs N, the one rule of every command that decodes chunks in threads
 * (summary, view, folded, flame, diff, report): N threads per file, from
 * 1 (no threads) to JOBS_MAX; without --jobs, one per idle CPU and per
 * 4 MB of the file (jfr_auto_threads).
 * Returns 0 with *jobs set, or -1 after a message (a usage error).
 */
int option_jobs(const char *arg, int *jobs);

#endif
