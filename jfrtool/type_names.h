/* type_names.h - event types named on the command line, by the library's
 * rule (jfr_type_filter(3)): print --events/--categories, view TYPE, the
 * profiles' --event TYPE. A name that no input declares is a usage error
 * that suggests the nearest names, never an empty result. */
#ifndef JFRTOOL_TYPE_NAMES_H
#define JFRTOOL_TYPE_NAMES_H

#include <stdbool.h>

#include <jfr.h>

/** An empty set of event types (out of memory ends the program). */
jfr_type_set *type_set_new(void);

/**
 * Add the event types of input `path` to `set`, opened quietly (the
 * command's own pass reports what is wrong with it); with `keep`, the
 * recording is kept for that pass (keep_recording) instead of closed.
 */
void type_set_add_input(jfr_type_set *set, const char *path, bool keep);

/**
 * The event types that the chunks of every input declare. Each input is
 * opened quietly (the command's own pass reports what is wrong with it).
 * With `keep`, standard input and the first input are kept for that pass
 * (keep_recording), so that they are read once; without it, standard
 * input is not read (for commands that open their inputs otherwise).
 * Never NULL (out of memory ends the program).
 */
jfr_type_set *input_type_set(char *const *files, int nfiles, bool keep);

/**
 * Filter `text`, given to `option` ("--events"): NULL after a usage
 * message when it names nothing at all ("" or ",").
 */
jfr_type_filter *parse_type_filter(const char *option, const char *text,
                                   jfr_filter_by by);

/**
 * EXIT_OK when every item of `f` selects an event type of `set`, else
 * EXIT_USAGE after "unknown event type 'X' (did you mean A, B?)". A set
 * without types (no input could be read) passes: the inputs' own errors
 * say why.
 */
int check_type_filter(const jfr_type_filter *f, const jfr_type_set *set);

/**
 * Usage message "unknown WHAT or event type 'NAME' (did you mean a, b?)":
 * the nearest of `names` (views, profile kinds), then of the event types
 * of `set`, three at the most; without any, `otherwise` in parentheses
 * ("see jfrtool view --help").
 */
void warn_unknown_name(const char *what, const char *name, const char *const *names,
                       size_t nnames, const jfr_type_set *set, const char *otherwise);

/**
 * The full name of the one event type `name` (full or short name, or a
 * glob of one type) stands for in `set`, or NULL after a usage message
 * (unknown: the nearest names; several: which).
 */
const char *resolve_type_name(const jfr_type_set *set, const char *name);

#endif
