/* folded.h - folded stacks written from a profile, and the same profile
 * built while following a JVM (folded_follow.c). */
#ifndef JFRTOOL_FOLDED_H
#define JFRTOOL_FOLDED_H

#include <stdbool.h>
#include <stdio.h>

#include <jfr.h>

#include "select.h"

/** Write the profile's folded stacks to `out` (cmd_folded.c). */
void folded_print(const jfr_profile *p, const select_opts *s, FILE *out);

/**
 * folded --follow: follow the one input in `inputs`, adding each flush's
 * samples, and write the profile at the end, or every `interval` (a
 * duration, NULL: none) to `output` (%t: the interval's start; NULL:
 * standard output), as folded text or pprof. Returns the exit status.
 */
int folded_follow(const select_opts *s, bool pprof, const char *output,
                  const char *interval, int ninputs, char **inputs);

#endif
