/* out_json.h - events as JSON (or XML) with the conventions of `jfr print
 * --json` (`--xml`):
 * timestamps as ISO date-times in the recording's zone, timespans as ISO
 * durations, unsigned fields as unsigned, simple types shown as their one
 * value, hidden frames kept; laid out as the JDK tool lays it out (two-space
 * indent, ", " separators in JSON). Written straight into a buffer, value by value,
 * with no tree in between. */
#ifndef JFRTOOL_OUT_JSON_H
#define JFRTOOL_OUT_JSON_H

#include <jfr.h>

#include "util.h"

typedef struct json_opts {
    size_t stack_depth; /* frames printed per stack trace (SIZE_MAX: all) */
} json_opts;

/**
 * Append the event as {"type": NAME, "values": {...}} to `out`, its inner
 * lines indented by `indent` + 2. On a decoding error (the detail is in the
 * recording's error) or a limit of the conversion (event_json_loss says
 * which), `out` is left as it was and -1 returned; else 0.
 */
int event_json(strbuf *out, const jfr_event *ev, const json_opts *opts, int indent);

/**
 * Append the event as `jfr print --xml` writes it to `out`: the lines
 * <event type="NAME"> ... </event> indented by `indent`, each value an
 * element (value, struct or array) at two spaces more a level, then an
 * empty line. Fails as event_json does.
 */
int event_xml(strbuf *out, const jfr_event *ev, const json_opts *opts, int indent);

/** Call before the events of another chunk: what event_json learnt of the
 * last chunk's fields is forgotten (its metadata is freed with it). */
void event_json_new_chunk(void);

/** Why event_json last failed when it was not a decoding error, or NULL. */
const char *event_json_loss(void);

#endif
