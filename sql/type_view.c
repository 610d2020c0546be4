/* type_view.c - the view of one event type (type_view.h): the columns the
 * JDK's `jfr view TYPE` shows, in its order, with its labels and formats,
 * taken from the recording's metadata (a JDK 17 recording shows JDK 17's
 * labels, a JFR 1.0 amount without @DataAmount a plain number), and the
 * SELECT over the type's table in the JDK's row order. doc/views.md,
 * "Labels and formats come from the recording". */
#include <string.h>

#include "type_view.h"

#define MAX_EXPANDED 64 /* struct types whose fields are columns */

typedef struct builder {
    jfrsql_type_view *tv;
    sqlite3_str *sql;
    const jfr_type *expanded[MAX_EXPANDED];
    size_t nexpanded;
    bool has_start, has_duration, nomem;
} builder;

const jfr_type *jfrsql_find_event_type(jfr_chunk **chunk, jfr_recording *rec,
                                       const char *name)
{
    static const char *const prefixes[] = {"", "jdk."};

    while (jfr_recording_next_chunk(chunk, rec) == JFR_OK) {
        for (size_t p = 0; p < 2; p++) {
            char *full = sqlite3_mprintf("%s%s", prefixes[p], name);
            const jfr_type *t = full ? jfr_chunk_event_type(*chunk, full) : NULL;
            sqlite3_free(full);
            if (t && jfr_type_is_event(t))
                return t;
        }
    }
    return NULL;
}

/* The format the field's content chooses (jfr_field_content), or -1. Unlike
 * `jfr print`, the JDK's view formatter needs no declared @ContentType. */
static int annotated_format(const jfr_field *f)
{
    switch (jfr_field_content(f)) {
    case JFR_CONTENT_TIMESTAMP:
        return JFRSQL_FMT_TIME;
    case JFR_CONTENT_TIMESPAN:
        return JFRSQL_FMT_SPAN;
    case JFR_CONTENT_PERCENTAGE:
        return JFRSQL_FMT_PERCENT;
    case JFR_CONTENT_BYTES:
        return JFRSQL_FMT_BYTES;
    case JFR_CONTENT_BITS:
        return JFRSQL_FMT_BITS;
    case JFR_CONTENT_BYTES_PER_SECOND:
        return JFRSQL_FMT_BYTE_RATE;
    case JFR_CONTENT_BITS_PER_SECOND:
        return JFRSQL_FMT_RATE;
    case JFR_CONTENT_MEMORY_ADDRESS:
        return JFRSQL_FMT_HEX;
    case JFR_CONTENT_FREQUENCY:
        return JFRSQL_FMT_HZ;
    case JFR_CONTENT_NONE:
        break;
    }
    return -1;
}

/* The format of a field by its type's name, or -1. JFR 1.0's
 * com.oracle.jfr.types names are not the JDK's known types: its tables
 * show them as structs, field by field. */
static int type_format(const char *tn, const char **suffix)
{
    static const struct {
        const char *type;
        int fmt;
        const char *suffix;
    } by_type[] = {
        {"boolean", JFRSQL_FMT_BOOL, ""},
        {"int", JFRSQL_FMT_INT, ""},
        {"long", JFRSQL_FMT_INT, ""},
        {"short", JFRSQL_FMT_INT, ""},
        {"byte", JFRSQL_FMT_INT, ""},
        {"float", JFRSQL_FMT_DOUBLE, ""},
        {"double", JFRSQL_FMT_DOUBLE, ""},
        {"char", JFRSQL_FMT_CHAR, ""}, /* sql/ gives its code unit */
        {"java.lang.String", JFRSQL_FMT_TEXT, ""},
        {"java.lang.Class", JFRSQL_FMT_CLASS, ""},
        {"java.lang.Thread", JFRSQL_FMT_THREAD, ""},
        {"jdk.types.Method", JFRSQL_FMT_METHOD, ""},
        /* the JDK shows a loader as its class */
        {"jdk.types.ClassLoader", JFRSQL_FMT_CLASS, ".type"},
        {"jdk.types.StackTrace", JFRSQL_FMT_FRAMES, ".frames"},
    };

    for (size_t i = 0; i < sizeof by_type / sizeof by_type[0]; i++)
        if (strcmp(tn, by_type[i].type) == 0) {
            *suffix = by_type[i].suffix;
            return by_type[i].fmt;
        }
    return -1;
}

int jfrsql_field_format(const jfr_field *f, const char **suffix)
{
    const jfr_type *ft = jfr_field_type(f);
    int fmt;

    *suffix = "";
    if (jfr_field_is_array(f))
        return -1;
    if ((fmt = annotated_format(f)) >= 0)
        return fmt;
    if ((fmt = type_format(ft ? jfr_type_name(ft) : "", suffix)) >= 0)
        return fmt;
    return ft && jfr_type_is_simple(ft) ? JFRSQL_FMT_TEXT : -1;
}

const char *jfrsql_field_label(const jfr_field *f, bool has_duration)
{
    const char *name = jfr_field_name(f), *label = jfr_field_label(f);

    /* the JDK's names below stand for labels: a field without one is
     * shown by its name */
    if (!label)
        return name;
    if (strcmp(name, "startTime") == 0 && !has_duration)
        return "Time";
    if (strcmp(name, "gcId") == 0)
        return "GC ID";
    if (strcmp(name, "compilerId") == 0)
        return "Compiler ID";
    return label;
}

static bool known_struct(const char *tn)
{
    static const char *const known[] = {"java.lang.Thread",      "java.lang.Class",
                                        "jdk.types.Method",      "jdk.types.StackTrace",
                                        "jdk.types.ClassLoader", "jdk.types.ThreadGroup",
                                        "jdk.types.StackFrame"};
    /* JFR 1.0's com.oracle.jfr.types are not among them: the JDK shows
     * their fields */
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(tn, known[i]) == 0)
            return true;
    return false;
}

/* Keep `s` (made by sqlite3_mprintf) with the view; NULL when out of memory. */
static char *keep(builder *b, char *s)
{
    jfrsql_type_view *tv = b->tv;

    if (!s || tv->nowned == sizeof tv->owned / sizeof tv->owned[0]) {
        sqlite3_free(s);
        b->nomem = true;
        return NULL;
    }
    return tv->owned[tv->nowned++] = s;
}

/* A column labelled `label` whose values SQL expression `expr` gives. */
static jfrsql_view_col *add_expr(builder *b, const char *label, const char *expr, int fmt)
{
    jfrsql_type_view *tv = b->tv;
    jfrsql_view_col *col;
    char *kept;

    if (tv->ncols >= JFRSQL_VIEW_MAX_COLS ||
        !(kept = keep(b, sqlite3_mprintf("%s", label))))
        return NULL;
    col = &tv->view.cols[tv->ncols];
    *col = (jfrsql_view_col){.label = kept, .fmt = (jfrsql_view_fmt)fmt};
    sqlite3_str_appendf(b->sql, "%s%s", tv->ncols ? ", " : "", expr);
    tv->ncols++;
    return col;
}

/* A column of field `f`, named `column` in the table. */
static void add_field(builder *b, const char *label, const char *column, int fmt,
                      const jfr_field *f)
{
    const jfr_type *ft = jfr_field_type(f);
    char *quoted = sqlite3_mprintf("\"%w\"", column);
    jfrsql_view_col *col = quoted ? add_expr(b, label, quoted, fmt) : NULL;

    if (!quoted)
        b->nomem = true;
    if (col) { /* a float's toString is not its double's */
        col->float_value = ft && jfr_type_kind(ft) == JFR_KIND_FLOAT;
        col->int_value = ft && jfr_type_kind(ft) == JFR_KIND_INT;
        col->real_value =
            col->float_value || (ft && jfr_type_kind(ft) == JFR_KIND_DOUBLE);
    }
    sqlite3_free(quoted);
}

/* Whether struct type `ft` is shown already: the JDK shows the fields of a
 * struct type once, for its first field of that type (it skips the field
 * descriptors it has seen, and a type's fields are the same descriptors). */
static bool expanded_before(builder *b, const jfr_type *ft)
{
    for (size_t k = 0; k < b->nexpanded; k++)
        if (b->expanded[k] == ft)
            return true;
    if (b->nexpanded == MAX_EXPANDED)
        return true;
    b->expanded[b->nexpanded++] = ft;
    return false;
}

/* A struct's fields, one level down, labelled "Parent : Child". */
static void add_struct(builder *b, const jfr_field *f, const jfr_type *ft)
{
    if (expanded_before(b, ft))
        return;
    for (size_t k = 0; k < jfr_type_field_count(ft); k++) {
        const jfr_field *sub = jfr_type_field_at(ft, k);
        const char *suffix;
        int fmt = jfrsql_field_format(sub, &suffix);
        char *label, *column;

        if (fmt < 0)
            continue;
        label = sqlite3_mprintf("%s : %s", jfrsql_field_label(f, true),
                                jfrsql_field_label(sub, true));
        column =
            sqlite3_mprintf("%s.%s%s", jfr_field_name(f), jfr_field_name(sub), suffix);
        if (label && column)
            add_field(b, label, column, fmt, sub);
        else
            b->nomem = true;
        sqlite3_free(label);
        sqlite3_free(column);
    }
}

/* jdk.ActiveSetting's id: the id of the event type the setting is for.
 * The JDK matches that name only: JFR 1.0's com.oracle.jdk.ActiveSetting
 * shows its id as a number. */
static bool is_setting_type_id(const jfr_type *t, const jfr_field *f)
{
    return strcmp(jfr_field_name(f), "id") == 0 &&
           strcmp(jfr_type_name(t), "jdk.ActiveSetting") == 0;
}

/* The column(s) of field `f` of event type `t`. */
static void add_column(builder *b, const jfr_type *t, const jfr_field *f)
{
    const jfr_type *ft = jfr_field_type(f);
    const char *suffix;
    int fmt = jfrsql_field_format(f, &suffix);
    char *column;

    if (fmt < 0 && ft && !jfr_field_is_array(f) && !known_struct(jfr_type_name(ft)) &&
        !jfr_type_is_simple(ft)) {
        add_struct(b, f, ft);
    } else if (fmt >= 0 && is_setting_type_id(t, f)) {
        /* the JDK shows the event type a setting is for, by label */
        add_expr(b, jfrsql_field_label(f, b->has_duration),
                 "(SELECT coalesce(label, name) FROM jfr_event_types AS e "
                 "WHERE e.id = t.\"id\")",
                 JFRSQL_FMT_TEXT);
    } else if (fmt >= 0) {
        if (strcmp(jfr_field_name(f), "startTime") == 0)
            b->has_start = true;
        if (!(column = sqlite3_mprintf("%s%s", jfr_field_name(f), suffix)))
            b->nomem = true;
        else
            add_field(b, jfrsql_field_label(f, b->has_duration), column, fmt, f);
        sqlite3_free(column);
    }
}

/* FROM and ORDER BY. JFR 1.0: the table of com.oracle.jdk.X is jdk.X;
 * other com.oracle names (WebLogic's events) keep theirs. The JDK's order:
 * by start time (its default sort, on the first column), ties as its
 * ordered stream dispatches events: chunk by chunk, each chunk by end time
 * (several inputs: tied events of chunks with one index, which the JDK
 * never reads together, in the order the inputs were given). */
static void add_from(builder *b, const jfr_type *t)
{
    const char *name = jfr_type_name(t);
    const char *table = strncmp(name, "com.oracle.jdk.", 15) == 0 ? name + 11 : name;

    b->tv->view.types = keep(b, sqlite3_mprintf("%s", table));
    sqlite3_str_appendf(b->sql, " FROM \"%w\" AS t", table);
    if (b->has_start)
        sqlite3_str_appendf(b->sql, " ORDER BY startTime, chunk, startTime%s, rowid",
                            b->has_duration ? " + coalesce(duration, 0)" : "");
}

/* The type's label; without one, no title (the JDK's title is the label). */
static void add_title(builder *b, const jfr_type *t)
{
    const char *label = jfr_type_label(t);

    if (!label)
        return;
    b->tv->view.title =
        keep(b, sqlite3_mprintf("%s%s", label,
                                jfr_type_has_annotation(t, "jdk.jfr.Experimental")
                                    ? " (Experimental)" /* as the JDK titles them */
                                    : ""));
}

int jfrsql_type_view_new(jfrsql_type_view **out, const jfr_type *t, const char *name)
{
    builder b = {0};

    *out = NULL;
    if (!(b.tv = sqlite3_malloc64(sizeof *b.tv)))
        return SQLITE_NOMEM;
    memset(b.tv, 0, sizeof *b.tv);
    b.sql = sqlite3_str_new(NULL);
    b.has_duration = jfr_type_field_by_name(t, "duration") != NULL;
    b.tv->view.name = keep(&b, sqlite3_mprintf("%s", name));
    add_title(&b, t);
    sqlite3_str_appendall(b.sql, "SELECT ");
    for (size_t i = 0; i < jfr_type_field_count(t); i++)
        add_column(&b, t, jfr_type_field_at(t, i));
    add_from(&b, t);
    b.tv->view.sql = keep(&b, sqlite3_str_finish(b.sql));
    if (b.nomem) {
        jfrsql_type_view_free(b.tv);
        return SQLITE_NOMEM;
    }
    *out = b.tv;
    return SQLITE_OK;
}

void jfrsql_type_view_free(jfrsql_type_view *tv)
{
    if (!tv)
        return;
    for (size_t i = 0; i < tv->nowned; i++)
        sqlite3_free(tv->owned[i]);
    sqlite3_free(tv);
}
