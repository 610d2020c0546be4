/* progress.h - "how far along" on standard error, for long reads.
 *
 * design.md §5: work longer than about a second shows progress on standard
 * error when it is a terminal, and never otherwise. The line is redrawn in
 * place at most five times a second and erased before any other message
 * and when an input has been read. */
#ifndef JFRTOOL_PROGRESS_H
#define JFRTOOL_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

/** Decide whether progress is shown: standard error is a terminal and, for
 * a command that streams its output (`streaming`), standard output is not. */
void progress_init(bool streaming);

/** Input `name` has been read up to byte `done` of `total`, `chunks`
 * chunks in. */
void progress_update(const char *name, uint64_t done, uint64_t total, uint64_t chunks);

/** Erase the progress line, if one is shown (before other output). */
void progress_clear(void);

#endif
