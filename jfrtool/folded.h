/* folded.h - folded --follow: the profile built while following a JVM
 * (folded_follow.c), written by the folded and pprof rows' writers. */
#ifndef JFRTOOL_FOLDED_H
#define JFRTOOL_FOLDED_H

#include <stdbool.h>
#include <stdio.h>

#include <jfr.h>

#include "out_folded.h" /* folded_print */
#include "select.h"

/**
 * folded --follow: follow the one input in `inputs`, adding each flush's
 * samples, and write the profile at the end, or every `interval` (a
 * duration, NULL: none) to `output` (%t: the interval's start; NULL:
 * standard output) in `format` (folded or pprof: a format of the whole
 * profile). Returns the exit status.
 */
int folded_follow(const select_opts *s, const out_format *format, const char *output,
                  const char *interval, int ninputs, char **inputs);

#endif
