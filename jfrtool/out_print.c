/* out_print.c - events as text, close to `jfr print`: one block per event,
 * one line per field, nested objects indented, stack frames rendered as
 * Class.method(params) line: N (jfr-format.md §10.7). */
#include <string.h>

#include "out_json.h"
#include "out_print.h"
#include "out_text.h"
#include "util.h"

int print_event_text(FILE *out, const jfr_event *ev, const text_opts *opts)
{
    json_opts jo = {opts->stack_depth};
    json_t *j = event_to_json(ev, &jo);
    json_t *values;
    const char *key;
    json_t *val;

    if (!j)
        return -1;
    fprintf(out, "%s {\n", jfr_type_name(jfr_event_type(ev)));
    values = json_object_get(j, "values");
    json_object_foreach(values, key, val) {
        char *s = json_dumps(val, JSON_ENCODE_ANY | JSON_COMPACT);
        fprintf(out, "  %s = %s\n", key, s ? s : "null");
        free(s);
    }
    fputs("}\n\n", out);
    json_decref(j);
    return 0;
}
