/* pprof.h - a profile as pprof reads it: the protocol buffer of
 * perftools.profiles.Profile (github.com/google/pprof, proto/profile.proto),
 * gzipped when zlib is there, the input of `go tool pprof`, Pyroscope and
 * Grafana. */
#ifndef JFRTOOL_PPROF_H
#define JFRTOOL_PPROF_H

#include <stdio.h>

#include "formats.h"
#include "select.h"

/**
 * Write the profile of `r` to `out`: one sample per distinct stack with its
 * sample count and, for weighted kinds, its weight in the kind's unit
 * (nanoseconds, bytes); a location per frame (with its line under --lines)
 * and a function per frame name, named as `folded` names them without its
 * '_' escapes. Returns 0, or -1 when out of memory for the compression.
 */
int pprof_write(FILE *out, const select_result *r, const select_opts *s);

/** The "pprof" row's writer (formats.c): pprof_write of the selection;
 * -1 after a message when out of memory. */
int pprof_write_profile(FILE *out, const profile_output *po);

#endif
