/* view_fields.c - a named view's columns as the recording's metadata
 * declares their fields: a field's label (@Label, as the JDK's views take
 * it when the view names no column) and its format (the rule is sql/'s
 * jfrsql_field_format: the JDK formats by the file's annotations).
 * doc/views.md, "Labels and formats come from the recording". */
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "type_view.h"
#include "view_generic.h"

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

/* The view's first event type in the first chunk of the first input,
 * whose metadata the JDK takes (standard input is not read twice). */
static const jfr_type *first_type(const jfrsql_view *v, const view_ctx *ctx,
                                  jfr_recording **rec)
{
    char name[256];
    size_t n = strcspn(v->types, " ");
    jfr_chunk *chunk;

    *rec = NULL;
    if (ctx->nfiles < 1 || strcmp(ctx->files[0], "-") == 0 || n == 0 || n > 200 ||
        jfr_recording_open_file(rec, ctx->files[0], NULL, NULL) != JFR_OK)
        return NULL;
    if (jfr_recording_next_chunk(&chunk, *rec) != JFR_OK)
        return NULL;
    snprintf(name, sizeof name, "%s%.*s", memchr(v->types, '.', n) ? "" : "jdk.", (int)n,
             v->types);
    return jfr_chunk_event_type(chunk, name);
}

void gview_file_columns(const jfrsql_view *v, const view_ctx *ctx, jfrsql_view_col *cols,
                        char **labels)
{
    jfr_recording *rec;
    const jfr_type *t;
    bool has_duration;

    memcpy(cols, v->cols, JFRSQL_VIEW_MAX_COLS * sizeof *cols);
    memset(labels, 0, JFRSQL_VIEW_MAX_COLS * sizeof *labels);
    if (!(t = first_type(v, ctx, &rec))) {
        jfr_recording_free(rec);
        return;
    }
    has_duration = jfr_type_field_by_name(t, "duration") != NULL;
    for (size_t c = 0; c < JFRSQL_VIEW_MAX_COLS; c++) {
        const jfr_field *f = cols[c].field ? field_at(t, cols[c].field) : NULL;
        strbuf sb = {0};
        const char *suffix;
        int fmt;

        if (!f)
            continue;
        if (cols[c].file_label) {
            sb_printf(&sb, "%s%s", cols[c].prefix ? cols[c].prefix : "",
                      jfrsql_field_label(f, has_duration));
            labels[c] = xstrdup(sb_str(&sb));
            cols[c].label = labels[c];
            sb_clear(&sb);
        }
        fmt = jfrsql_field_format(f, &suffix);
        if (fmt >= 0 && (annotated(fmt) || annotated(cols[c].fmt)))
            cols[c].fmt = (jfrsql_view_fmt)fmt;
        sb_free(&sb);
    }
    jfr_recording_free(rec);
}
