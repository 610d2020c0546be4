/* out_json.h - values as JSON (jansson), with the conventions of
 * `jfr print --json`: timestamps as ISO date-times in the recording's zone,
 * timespans as ISO durations, unsigned fields as unsigned, simple types
 * shown as their one value, hidden frames kept. */
#ifndef JFRTOOL_OUT_JSON_H
#define JFRTOOL_OUT_JSON_H

#include <jansson.h>
#include <jfr.h>

typedef struct json_opts {
    size_t stack_depth; /* frames printed per stack trace (SIZE_MAX: all) */
} json_opts;

/** The event as {"type": NAME, "values": {...}}; NULL on a decoding error
 * (the detail is in the recording's error). */
json_t *event_to_json(const jfr_event *ev, const json_opts *opts);
/** Why event_to_json last returned NULL when it was not a decoding error
 * (a limit of the conversion), or NULL. */
const char *event_json_loss(void);

/** A JSON number for an unsigned 64-bit value (exact above 2^63). */
json_t *json_unsigned(uint64_t v);

/** Write `j` compactly enough for streaming, indented like the JDK tool. */
int json_write(FILE *out, json_t *j, int indent_level);

#endif
