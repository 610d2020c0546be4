/* print_names.h - print --events: names that match no event type of any
 * input are a usage error that lists the inputs' event types. */
#ifndef JFRTOOL_PRINT_NAMES_H
#define JFRTOOL_PRINT_NAMES_H

#include <stdbool.h>

#include <jfr.h>

#include "util.h"

typedef struct name_check {
    char **names; /* --events, NULL-terminated (not owned) */
    size_t nnames;
    bool *declared; /* by name: some chunk declares a type it matches */
    strmap seen;    /* every event type name of the inputs */
    char **types;   /* the same, in first-seen order */
    size_t ntypes, cap;
} name_check;

/** Whether `name` (a full or simple name, "ExecutionSample") selects `t`. */
bool name_selects(const char *name, const jfr_type *t);
void name_check_init(name_check *nc, char **names, size_t nnames);
/** Note the event types `chunk` declares. */
void name_check_chunk(name_check *nc, jfr_chunk *chunk);
/** EXIT_USAGE after a message when a name matched no declared type. */
int name_check_finish(name_check *nc, int status);

#endif
