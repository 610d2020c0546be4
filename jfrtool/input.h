/* input.h - walking an input's chunks (input.c), with the warnings about
 * damaged chunks and the progress line. */
#ifndef JFRTOOL_INPUT_H
#define JFRTOOL_INPUT_H

#include <stdbool.h>

#include <jfr.h>

/**
 * Advance to the next chunk of `rec`, reporting damaged chunks as warnings
 * (the iteration goes on where it can). Returns JFR_OK with *out set, or
 * JFR_DONE. *damaged is set when anything was reported.
 */
int next_chunk(jfr_chunk **out, jfr_recording *rec, const char *path, bool *damaged);

/** Free `rec`, which next_chunk may have been reading. */
void close_recording(jfr_recording *rec);

#endif
