/* columns.c - an event type's fields as columns: scalars as they are,
 * instants and durations in nanoseconds, nested fields by dotted path down
 * to JFRSQL_MAX_DEPTH names, a simple type (one field) as its value, and
 * classes, threads, methods and stack traces also as the text the JDK's
 * views show for them (doc/sql.md, "Columns"). */
#include <string.h>
#include <strings.h>

#include "catalog.h"

/* What a path leads to while it is being built. */
typedef struct path {
    const char *names[JFRSQL_MAX_DEPTH + 1];
    int depth;
    const jfr_type *types[JFRSQL_MAX_DEPTH + 1]; /* on the path: no cycles */
} path;

/* JFR 1.0 names the types of jdk.types as com.oracle.jfr.types. */
static bool type_is(const jfr_type *type, const char *name)
{
    const char *tn = jfr_type_name(type);

    if (strncmp(tn, "com.oracle.jfr.types.", 21) == 0 &&
        strncmp(name, "jdk.types.", 10) == 0)
        return strcmp(tn + 21, name + 10) == 0;
    return strcmp(tn, name) == 0;
}

static bool has_column(const jfrsql_table *t, const char *name)
{
    for (size_t c = 0; c < t->ncols; c++)
        if (strcasecmp(t->cols[c].name, name) == 0) /* SQL names ignore case */
            return true;
    return false;
}

/* Room for one more column in `t`. */
static int room_for_column(jfrsql_table *t)
{
    if (t->ncols == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        jfrsql_column *v = sqlite3_realloc64(t->cols, cap * sizeof *v);
        if (!v)
            return SQLITE_NOMEM;
        t->cols = v;
        t->cap = cap;
    }
    return SQLITE_OK;
}

/* Add column `name` reading `p` (names copied) unless the table has it. */
static int add_column(jfrsql_table *t, const char *name, const path *p,
                      jfrsql_render render, jfr_time_unit unit, const char *decl)
{
    jfrsql_column *col;

    if (has_column(t, name))
        return SQLITE_OK;
    if (room_for_column(t) != SQLITE_OK)
        return SQLITE_NOMEM;
    col = &t->cols[t->ncols];
    memset(col, 0, sizeof *col);
    col->render = render;
    col->unit = unit;
    col->decl = decl;
    if (!(col->name = sqlite3_mprintf("%s", name)))
        return SQLITE_NOMEM;
    t->ncols++;
    for (int k = 0; k < p->depth; k++) {
        if (!(col->path[k] = sqlite3_mprintf("%s", p->names[k])))
            return SQLITE_NOMEM;
        col->depth = k + 1;
    }
    return SQLITE_OK;
}

/* A field of a primitive type: its column, typed by its kind and units. */
static int add_scalar(jfrsql_table *t, const char *name, const path *p,
                      const jfr_field *f, const jfr_type *type)
{
    jfr_content content = jfr_field_content(f);

    switch (jfr_type_kind(type)) {
    case JFR_KIND_FLOAT:
    case JFR_KIND_DOUBLE:
        return add_column(t, name, p, RENDER_VALUE, JFR_TIME_NONE, "REAL");
    case JFR_KIND_STRING:
        return add_column(t, name, p, RENDER_VALUE, JFR_TIME_NONE, "TEXT");
    case JFR_KIND_STRUCT:
        return SQLITE_OK;
    default:
        break;
    }
    if (content == JFR_CONTENT_TIMESTAMP)
        return add_column(t, name, p, RENDER_TIMESTAMP, jfr_field_time_unit(f),
                          "INTEGER");
    if (content == JFR_CONTENT_TIMESPAN)
        return add_column(t, name, p, RENDER_TIMESPAN, jfr_field_time_unit(f), "INTEGER");
    if (jfr_field_is_unsigned(f))
        return add_column(t, name, p, RENDER_UNSIGNED, JFR_TIME_NONE, "INTEGER");
    return add_column(t, name, p, RENDER_VALUE, JFR_TIME_NONE, "INTEGER");
}

static int add_field(jfrsql_table *t, const char *prefix, path *p, const jfr_field *f);

/* NAME.identity: the group of the thing (doc/sql.md, "Identity"). */
static int add_identity(jfrsql_table *t, const char *name, const char *suffix,
                        const path *p, jfrsql_render render, const char *decl)
{
    char *id = sqlite3_mprintf("%s%s.identity", name, suffix);
    int rc = id ? add_column(t, id, p, render, JFR_TIME_NONE, decl) : SQLITE_NOMEM;

    sqlite3_free(id);
    return rc;
}

/* X.SUFFIX as text and X.SUFFIX.identity, columns the JDK's views name:
 * topApplicationFrame, and topFrame.method.type (the class of the top
 * frame's method, deprecated-methods-for-removal). */
static int add_text_and_identity(jfrsql_table *t, const char *name, const char *suffix,
                                 const path *p, jfrsql_render text,
                                 jfrsql_render identity)
{
    char *col = sqlite3_mprintf("%s%s", name, suffix);
    int rc = col ? add_column(t, col, p, text, JFR_TIME_NONE, "TEXT") : SQLITE_NOMEM;

    if (rc == SQLITE_OK)
        rc = add_identity(t, name, suffix, p, identity, "INTEGER");
    sqlite3_free(col);
    return rc;
}

/* The columns of a struct type's own text and identity, before its fields. */
static int add_struct_text(jfrsql_table *t, const char *name, const path *p,
                           const jfr_type *type)
{
    int rc = SQLITE_OK;

    if (type_is(type, "java.lang.Class"))
        rc = add_column(t, name, p, RENDER_CLASS, JFR_TIME_NONE, "TEXT");
    else if (type_is(type, "java.lang.Thread"))
        rc = add_column(t, name, p, RENDER_THREAD, JFR_TIME_NONE, "TEXT");
    else if (type_is(type, "jdk.types.Method"))
        rc = add_column(t, name, p, RENDER_METHOD, JFR_TIME_NONE, "TEXT");
    else if (type_is(type, "jdk.types.StackTrace")) {
        char *top = sqlite3_mprintf("%s.topFrame", name);
        char *frames = sqlite3_mprintf("%s.frames", name);
        rc = top && frames
                 ? add_column(t, top, p, RENDER_TOP_FRAME, JFR_TIME_NONE, "TEXT")
                 : SQLITE_NOMEM;
        if (rc == SQLITE_OK)
            rc = add_column(t, frames, p, RENDER_FRAMES, JFR_TIME_NONE, "TEXT");
        if (rc == SQLITE_OK)
            rc = add_identity(t, name, ".topFrame", p, RENDER_TOP_FRAME_IDENTITY,
                              "INTEGER");
        if (rc == SQLITE_OK)
            rc = add_identity(t, name, ".frames", p, RENDER_FRAMES_IDENTITY, "TEXT");
        if (rc == SQLITE_OK)
            rc = add_text_and_identity(t, name, ".topApplicationFrame", p,
                                       RENDER_APP_FRAME, RENDER_APP_FRAME_IDENTITY);
        if (rc == SQLITE_OK)
            rc = add_text_and_identity(t, name, ".topFrame.method.type", p,
                                       RENDER_TOP_FRAME_TYPE,
                                       RENDER_TOP_FRAME_TYPE_IDENTITY);
        sqlite3_free(top);
        sqlite3_free(frames);
        return rc;
    }
    if (rc == SQLITE_OK &&
        (type_is(type, "java.lang.Class") || type_is(type, "java.lang.Thread") ||
         type_is(type, "jdk.types.Method") || type_is(type, "jdk.types.ClassLoader")))
        rc = add_identity(t, name, "", p, RENDER_IDENTITY, "INTEGER");
    return rc;
}

static int add_struct(jfrsql_table *t, const char *name, path *p, const jfr_type *type)
{
    int rc = add_struct_text(t, name, p, type);
    char *prefix;

    if (rc != SQLITE_OK || p->depth >= JFRSQL_MAX_DEPTH)
        return rc;
    for (int k = 0; k < p->depth; k++)
        if (p->types[k] == type)
            return SQLITE_OK; /* a type inside itself: stop */
    p->types[p->depth] = type;
    if (!(prefix = sqlite3_mprintf("%s.", name)))
        return SQLITE_NOMEM;
    for (size_t i = 0; i < jfr_type_field_count(type) && rc == SQLITE_OK; i++)
        rc = add_field(t, prefix, p, jfr_type_field_at(type, i));
    sqlite3_free(prefix);
    return rc;
}

static int add_field(jfrsql_table *t, const char *prefix, path *p, const jfr_field *f)
{
    const jfr_type *type = jfr_field_type(f);
    char *name;
    int rc;

    if (!type || jfr_field_is_array(f))
        return SQLITE_OK; /* arrays: only the frames of stack traces */
    if (!(name = sqlite3_mprintf("%s%s", prefix, jfr_field_name(f))))
        return SQLITE_NOMEM;
    p->names[p->depth++] = jfr_field_name(f);
    if (jfr_type_kind(type) != JFR_KIND_STRUCT) {
        rc = add_scalar(t, name, p, f, type);
    } else if (jfr_type_is_simple(type) && jfr_type_field_count(type) == 1 &&
               !jfr_field_is_array(jfr_type_field_at(type, 0))) {
        /* shown as its one value, which may carry the units */
        const jfr_field *inner = jfr_type_field_at(type, 0);
        const jfr_type *itype = jfr_field_type(inner);
        p->names[p->depth++] = jfr_field_name(inner);
        rc = itype ? add_scalar(t, name, p, inner, itype) : SQLITE_OK;
        p->depth--;
    } else {
        rc = add_struct(t, name, p, type);
    }
    p->depth--;
    sqlite3_free(name); /* the column copied it */
    return rc;
}

int jfrsql_table_take_column(jfrsql_table *t, jfrsql_column *col)
{
    if (has_column(t, col->name))
        return SQLITE_OK;
    if (room_for_column(t) != SQLITE_OK)
        return SQLITE_NOMEM;
    t->cols[t->ncols++] = *col;
    memset(col, 0, sizeof *col); /* moved: its owner frees nothing */
    return SQLITE_OK;
}

/* endTime: read from startTime (and duration, where the type has one). */
static int add_end_time(jfrsql_table *t, const jfr_type *type)
{
    int i = jfr_type_field_index(type, "startTime");
    path p = {{"startTime"}, 1, {0}};

    if (i < 0)
        return SQLITE_OK;
    return add_column(t, "endTime", &p, RENDER_END_TIME,
                      jfr_field_time_unit(jfr_type_field_at(type, (size_t)i)), "INTEGER");
}

int jfrsql_table_add_type(jfrsql_table *t, const jfr_type *type)
{
    static const path none;
    path p = {{0}, 0, {0}};
    int rc = SQLITE_OK;

    for (size_t i = 0; i < jfr_type_field_count(type) && rc == SQLITE_OK; i++)
        rc = add_field(t, "", &p, jfr_type_field_at(type, i));
    if (rc == SQLITE_OK && !has_column(t, "chunk"))
        rc = add_column(t, "chunk", &none, RENDER_CHUNK, JFR_TIME_NONE, "INTEGER");
    if (rc == SQLITE_OK && !has_column(t, "file"))
        rc = add_column(t, "file", &none, RENDER_FILE, JFR_TIME_NONE, "TEXT");
    /* the last key of the JDK's order of events: file order where end
     * times tie */
    if (rc == SQLITE_OK && !has_column(t, "offset"))
        rc = add_column(t, "offset", &none, RENDER_OFFSET, JFR_TIME_NONE, "INTEGER");
    if (rc == SQLITE_OK)
        rc = add_end_time(t, type);
    return rc;
}
