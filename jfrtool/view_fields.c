/* view_fields.c - what the recording's metadata says about a view's
 * columns: a field's label (@Label, as the JDK's views take it when the
 * view names no column) and its format (@Timespan, @DataAmount,
 * @Frequency, @MemoryAddress, ...: the JDK formats by the file's
 * annotations, so a JDK 17 recording shows JDK 17's labels and a JFR 1.0
 * amount without @DataAmount a plain number). doc/views.md, "Labels and
 * formats come from the recording". */
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "view_generic.h"

bool gv_field_has_annotation(const jfr_field *f, const char *name)
{
    for (size_t i = 0; i < jfr_field_annotation_count(f); i++) {
        const jfr_annotation *a = jfr_field_annotation_at(f, i);
        if (a && a->type && strcmp(jfr_type_name(a->type), name) == 0)
            return true;
    }
    return false;
}

/* The column format of a field, or -1 for a field shown by no column. */
int gv_field_format(const jfr_field *f, strbuf *colname)
{
    const jfr_type *ft = jfr_field_type(f);
    const char *tn = ft ? jfr_type_name(ft) : "";
    const char *name = jfr_field_name(f);

    sb_puts(colname, name);
    if (jfr_field_is_array(f))
        return -1;
    if (gv_field_has_annotation(f, "jdk.jfr.Timestamp"))
        return JFRSQL_FMT_TIME;
    if (gv_field_has_annotation(f, "jdk.jfr.Timespan"))
        return JFRSQL_FMT_SPAN;
    if (gv_field_has_annotation(f, "jdk.jfr.Percentage"))
        return JFRSQL_FMT_PERCENT;
    /* the JDK's order: amounts (per second with @Frequency), addresses, Hz */
    if (gv_field_has_annotation(f, "jdk.jfr.DataAmount")) {
        const char *v = jfr_field_annotation_value(f, "jdk.jfr.DataAmount");
        bool bits = v && strcmp(v, "BITS") == 0;
        if (gv_field_has_annotation(f, "jdk.jfr.Frequency"))
            return bits ? JFRSQL_FMT_RATE : JFRSQL_FMT_BYTE_RATE;
        return bits ? JFRSQL_FMT_BITS : JFRSQL_FMT_BYTES;
    }
    if (gv_field_has_annotation(f, "jdk.jfr.MemoryAddress"))
        return JFRSQL_FMT_HEX;
    if (gv_field_has_annotation(f, "jdk.jfr.Frequency"))
        return JFRSQL_FMT_HZ;
    if (strcmp(tn, "boolean") == 0)
        return JFRSQL_FMT_BOOL;
    if (strcmp(tn, "int") == 0 || strcmp(tn, "long") == 0 || strcmp(tn, "short") == 0 ||
        strcmp(tn, "byte") == 0)
        return JFRSQL_FMT_INT;
    if (strcmp(tn, "float") == 0 || strcmp(tn, "double") == 0)
        return JFRSQL_FMT_DOUBLE;
    if (strcmp(tn, "char") == 0)
        return JFRSQL_FMT_CHAR; /* sql/ gives its code unit: the JDK shows the char */
    if (strcmp(tn, "java.lang.String") == 0)
        return JFRSQL_FMT_TEXT;
    if (strcmp(tn, "java.lang.Class") == 0)
        return JFRSQL_FMT_CLASS;
    if (strcmp(tn, "java.lang.Thread") == 0)
        return JFRSQL_FMT_TEXT;
    /* JFR 1.0's com.oracle.jfr.types names are not the JDK's known types:
     * its tables show them as structs, field by field */
    if (strcmp(tn, "jdk.types.Method") == 0)
        return JFRSQL_FMT_METHOD;
    if (strcmp(tn, "jdk.types.ClassLoader") == 0) {
        sb_puts(colname, ".type"); /* the JDK shows a loader as its class */
        return JFRSQL_FMT_CLASS;
    }
    if (strcmp(tn, "jdk.types.StackTrace") == 0) {
        sb_puts(colname, ".frames");
        return JFRSQL_FMT_FRAMES;
    }
    if (ft && jfr_type_is_simple(ft))
        return JFRSQL_FMT_TEXT;
    return -1;
}

/* The JDK's label of a field in a table of all fields: a few short forms. */
const char *gv_field_label(const jfr_field *f, bool has_duration)
{
    const char *name = jfr_field_name(f), *label = jfr_field_label(f);

    if (strcmp(name, "startTime") == 0 && !has_duration)
        return "Time";
    if (strcmp(name, "gcId") == 0)
        return "GC ID";
    if (strcmp(name, "compilerId") == 0)
        return "Compiler ID";
    return label && *label ? label : name;
}

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
        int fmt;

        if (!f)
            continue;
        if (cols[c].file_label) {
            sb_printf(&sb, "%s%s", cols[c].prefix ? cols[c].prefix : "",
                      gv_field_label(f, has_duration));
            labels[c] = xstrdup(sb_str(&sb));
            cols[c].label = labels[c];
            sb_clear(&sb);
        }
        fmt = gv_field_format(f, &sb);
        if (fmt >= 0 && (annotated(fmt) || annotated(cols[c].fmt)))
            cols[c].fmt = (jfrsql_view_fmt)fmt;
        sb_free(&sb);
    }
    jfr_recording_free(rec);
}
