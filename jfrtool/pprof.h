/* pprof.h - a profile as pprof reads it: the protocol buffer of
 * perftools.profiles.Profile (github.com/google/pprof, proto/profile.proto),
 * gzipped when zlib is there, the input of `go tool pprof`, Pyroscope and
 * Grafana. */
#ifndef JFRTOOL_PPROF_H
#define JFRTOOL_PPROF_H

#include <stdio.h>

#include "select.h"

/**
 * Write the profile of `r` to `out`: one sample per distinct stack with its
 * sample count and, for weighted kinds, its weight in the kind's unit
 * (nanoseconds, bytes); a location per frame (with its line under --lines)
 * and a function per frame name, named as `folded` names them without its
 * '_' escapes. Returns 0, or -1 when out of memory for the compression.
 */
int pprof_write(FILE *out, const select_result *r, const select_opts *s);

/** pprof_write to `output` (NULL: standard output, refused when it is a
 * terminal) through outfile; the exit status, from `status` on. */
int pprof_emit(const select_result *r, const select_opts *s, const char *output,
               int status);

#endif
