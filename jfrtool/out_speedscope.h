/* out_speedscope.h - a profile in speedscope's JSON file format: one
 * sampled profile per thread, samples in time order (out_speedscope.c). */
#ifndef JFRTOOL_OUT_SPEEDSCOPE_H
#define JFRTOOL_OUT_SPEEDSCOPE_H

#include <stdio.h>

#include "select.h"

/** The time buckets that order each thread's samples: samples of a thread
 * in the same millisecond are kept apart by stack (in the order the
 * stacks were first met), and equal ones are one sample with their
 * weights added. */
#define SPEEDSCOPE_BUCKET_NS 1000000

/** The JFR_PROFILE_* flags the profile needs (besides the bucket width
 * in select_opts.bucket_nanos). */
#define SPEEDSCOPE_PROFILE_FLAGS JFR_PROFILE_THREADS

/**
 * Write the profile of `r` (made with SPEEDSCOPE_PROFILE_FLAGS and
 * SPEEDSCOPE_BUCKET_NS) to `out`, named `name`: the frames once, then a
 * profile per thread, the heaviest first, its samples in time order and
 * weights in the kind's unit (nanoseconds, bytes, else none).
 */
void speedscope_write(FILE *out, const select_result *r, const select_opts *s,
                      const char *name);

/** speedscope_write to `output` (NULL: standard output, refused when it
 * is a terminal), named after the selection and the files; the exit
 * status, from `status` on. */
int speedscope_emit(const select_result *r, const select_opts *s, char **files,
                    int nfiles, const char *output, int status);

#endif
