/* out_print.h - events as text, the way JDK 25's `jfr print` shows them
 * (doc/print-format.md). */
#ifndef JFRTOOL_OUT_PRINT_H
#define JFRTOOL_OUT_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include <jfr.h>

typedef struct text_opts {
    size_t stack_depth; /* visible frames shown per stack trace */
    bool exact;         /* `jfr print --exact`: full-precision times, units */
} text_opts;

/** Print one event; <0 on a decoding error (detail in the recording). */
int print_event_text(FILE *out, const jfr_event *ev, const text_opts *opts);

#endif
