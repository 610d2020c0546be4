/* out_print.h - events as text, the way JDK 25's `jfr print` shows them
 * (doc/print-format.md). */
#ifndef JFRTOOL_OUT_PRINT_H
#define JFRTOOL_OUT_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include <jfr.h>

#include "util.h"

typedef struct text_opts {
    size_t stack_depth; /* visible frames shown per stack trace */
    bool exact;         /* `jfr print --exact`: full-precision times, units */
} text_opts;

/** Print one event, `context` (or NULL) after its first line; <0 on a
 * decoding error (detail in the recording). */
int print_event_text(FILE *out, const jfr_event *ev, const text_opts *opts,
                     const char *context);

/** Whether events of type `t` are contexts (JDK 25: a field has
 * @Contextual), which `jfr print` names in the events of their thread that
 * happen while they last. */
bool print_type_contextual(const jfr_type *t);
/** The lines "  Context: MethodTrace.method = ..." of contextual event
 * `ev`, appended to `out`; <0 on a decoding error. */
int print_context_lines(strbuf *out, const jfr_event *ev, const text_opts *opts);

#endif
