/* print_context.h - JDK 25's contexts in `jfr print` text: while an event
 * of a type with @Contextual fields lasts (from its start to its end), the
 * events of its thread show those fields first, as "Context: Type.field =
 * value" lines (doc/print-format.md, "Contexts"). cmd_print.c puts the
 * contextual events' starts and ends into the print order (print_order.h)
 * and tells this list about them as they come. */
#ifndef JFRTOOL_PRINT_CONTEXT_H
#define JFRTOOL_PRINT_CONTEXT_H

#include <jfr.h>

#include "out_print.h"

/** The contexts open on each thread. */
typedef struct print_contexts print_contexts;

print_contexts *print_contexts_new(void);
void print_contexts_free(print_contexts *p);
/** Contextual event `ev` starts: its lines join its thread's contexts
 * (events without a thread have none). <0 on a decoding error. */
int print_contexts_open(print_contexts *p, const jfr_event *ev, const text_opts *opts);
/** Contextual event `ev` ends. */
void print_contexts_close(print_contexts *p, const jfr_event *ev);
/** The context lines of `ev`: those open on its thread ("" when none). */
const char *print_contexts_of(print_contexts *p, const jfr_event *ev);

#endif
