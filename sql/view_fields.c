/* view_fields.c - a named view's columns as the recording's metadata
 * declares their fields: a field's label (@Label, as the JDK's views take
 * it when the view names no column) and its format (jfrsql_field_format:
 * the JDK formats by the file's annotations). doc/views.md, "Labels and
 * formats come from the recording". */
#include <stdio.h>
#include <string.h>

#include "type_view.h"
#include "view_fields.h"
#include "view_result.h"

/* Formats that annotations choose: where the file's annotations say
 * otherwise, the file's are taken. */
static bool annotated(int fmt)
{
    switch (fmt) {
    case JFRSQL_FMT_TIME:
    case JFRSQL_FMT_SPAN:
    case JFRSQL_FMT_PERCENT:
    case JFRSQL_FMT_BYTES:
    case JFRSQL_FMT_BITS:
    case JFRSQL_FMT_RATE:
    case JFRSQL_FMT_BYTE_RATE:
    case JFRSQL_FMT_HEX:
    case JFRSQL_FMT_HZ:
        return true;
    default:
        return false;
    }
}

/* The field at dotted `path` ("source.name") of `t`, or NULL. */
static const jfr_field *field_at(const jfr_type *t, const char *path)
{
    const jfr_field *f = NULL;
    char name[128];

    while (t && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof name)
            return NULL;
        memcpy(name, path, n);
        name[n] = '\0';
        if (!(f = jfr_type_field_by_name(t, name)))
            return NULL;
        path += n + (path[n] == '.');
        t = *path ? jfr_field_type(f) : NULL;
    }
    return *path ? NULL : f;
}

/* The view's first event type in the first chunk of `file` (`chunk`, when
 * the caller has it open), whose metadata the JDK takes (standard input is
 * not read twice). */
static const jfr_type *first_type(const jfrsql_view *v, const char *file,
                                  jfr_chunk *chunk, jfr_recording **rec)
{
    char name[256];
    size_t n = strcspn(v->types, " ");

    *rec = NULL;
    if (!file || strcmp(file, "-") == 0 || n == 0 || n > 200)
        return NULL;
    if (!chunk && (jfr_recording_open_file(rec, file, NULL, NULL) != JFR_OK ||
                   jfr_recording_next_chunk(&chunk, *rec) != JFR_OK))
        return NULL;
    snprintf(name, sizeof name, "%s%.*s", memchr(v->types, '.', n) ? "" : "jdk.", (int)n,
             v->types);
    return jfr_chunk_event_type(chunk, name);
}

int jfrsql_result_file_columns(jfrsql_view_result *t, const char *file, jfr_chunk *chunk)
{
    jfr_recording *rec;
    const jfr_type *type = first_type(t->view, file, chunk, &rec);
    bool has_duration;

    if (!type) {
        jfr_recording_free(rec);
        return SQLITE_OK;
    }
    has_duration = jfr_type_field_by_name(type, "duration") != NULL;
    for (size_t c = 0; c < JFRSQL_VIEW_MAX_COLS; c++) {
        jfrsql_view_col *col = &t->shown[c];
        const jfr_field *f = col->field ? field_at(type, col->field) : NULL;
        const char *suffix;
        int fmt;

        if (!f)
            continue;
        if (col->file_label) {
            char *label = sqlite3_mprintf("%s%s", col->prefix ? col->prefix : "",
                                          jfrsql_field_label(f, has_duration));
            col->label = label ? jfrsql_result_copy(t, label, strlen(label)) : NULL;
            sqlite3_free(label);
            if (!col->label) {
                jfr_recording_free(rec);
                return SQLITE_NOMEM;
            }
        }
        fmt = jfrsql_field_format(f, &suffix);
        if (fmt >= 0 && (annotated(fmt) || annotated(col->fmt)))
            col->fmt = (jfrsql_view_fmt)fmt;
    }
    jfr_recording_free(rec);
    return SQLITE_OK;
}
