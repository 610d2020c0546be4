/* event_filters.h - the --events and --categories of print and metadata,
 * taken as the JDK's jfr print and jfr metadata take them: each once, a
 * type shown when both select it, and a name no input declares a usage
 * error before anything is printed (event_filters.c). */
#ifndef JFRTOOL_EVENT_FILTERS_H
#define JFRTOOL_EVENT_FILTERS_H

#include <stdbool.h>

#include <jfr.h>

typedef struct event_filters {
    jfr_type_filter *events;     /* --events, or NULL: every type */
    jfr_type_filter *categories; /* --categories, or NULL */
} event_filters;

/** Take --events (or, with `categories`, --categories) `text`: EXIT_OK,
 * or EXIT_USAGE after a message (given twice, or naming nothing). */
int event_filters_take(event_filters *f, bool categories, const char *text);

/** Whether either filter was given. */
bool event_filters_any(const event_filters *f);

/** Whether the filters select type `t` (none given: every type). */
bool event_filters_select(const event_filters *f, const jfr_type *t);

/** The names of the event types of `chunk` the filters select, for an
 * iterator (*n of them, 0 when none is; free the array), or NULL when
 * no filter was given. */
const char **event_filters_chunk_types(const event_filters *f, jfr_chunk *chunk,
                                       size_t *n);

/** Check the filters against the event types of `files`, looked at until
 * every name is known: EXIT_OK, or EXIT_USAGE after "unknown event type"
 * or "no event type is both ..."; a name of the JDK's that no input has
 * is noted, not refused. Standard input and the first input are kept for
 * the command's own pass. */
int event_filters_check(const event_filters *f, char **files, int nfiles);

/** The same against the types of `set` alone (a followed JVM's first
 * flush). */
int event_filters_check_set(const event_filters *f, const jfr_type_set *set);

void event_filters_free(event_filters *f);

#endif
