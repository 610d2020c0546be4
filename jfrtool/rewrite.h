/* rewrite.h - what scrub and repair share: the output recording (a new
 * file beside OUT that replaces it when the command succeeds, or standard
 * output), and writing every chunk of an input through libjfr's writer. */
#ifndef JFRTOOL_REWRITE_H
#define JFRTOOL_REWRITE_H

#include <stdbool.h>

#include <jfr.h>

#include "output.h"

typedef struct rewrite {
    const char *in;   /**< the input's path ("-": standard input) */
    const char *name; /**< how messages name it */
    jfr_recording *rec;
    outfile out;
    jfr_writer *w;
    jfr_write_stats stats; /**< summed over the chunks */
    uint64_t chunks_read;  /**< chunks the input gave */
    uint64_t errors;       /**< damage reported: ranges skipped, chunks lost */
    uint64_t warnings;     /**< chunks reported cut, unfinished or damaged */
} rewrite;

/**
 * Open IN and OUT (OUT NULL or "-": standard output). OUT must not be IN.
 * EXIT_OK, or EXIT_USAGE / EXIT_INPUT after a message.
 */
int rewrite_open(rewrite *r, const char *in, const char *out);

/**
 * Write every chunk of the input through `scrub` (NULL: all of it); the
 * input's damage is reported as it is met (and counted). EXIT_OK, or
 * EXIT_INPUT after a message (writing failed).
 */
int rewrite_chunks(rewrite *r, jfr_scrub *scrub);

/**
 * Finish: OUT takes the new recording when `keep` (and at least one chunk
 * was written), else it is left as it was. Returns `status`, or
 * EXIT_INPUT after a message when finishing the output failed.
 */
int rewrite_close(rewrite *r, int status, bool keep);

#endif
