/* type_view_sql.c - the view of an event type (type_view.c) as SQL
 * functions of an attached connection: jfr_type_view_sql('jdk.GCPhasePause')
 * is the SELECT that `jfrtool view jdk.GCPhasePause` runs, and
 * jfr_type_view(type) that and its title and columns (label, format,
 * unit) as JSON, what Python's Recording.view(type) reads. doc/sql.md,
 * "The view of an event type". */
#include <string.h>

#include "catalog.h"
#include "type_view.h"

int jfrsql_catalog_type_view(jfrsql_type_view **out, jfrsql_catalog *cat,
                             const char *type)
{
    int rc = SQLITE_OK;

    *out = NULL;
    for (size_t i = 0; i < cat->nfiles && !*out && rc == SQLITE_OK; i++) {
        jfr_recording *rec;
        jfr_chunk *chunk = NULL;
        const jfr_type *t;

        if (strcmp(cat->files[i], "-") == 0 || !(rec = jfrsql_catalog_open(cat, i)))
            continue;
        if ((t = jfrsql_find_event_type(&chunk, rec, type)))
            rc = jfrsql_type_view_new(out, t, type);
        jfr_recording_free(rec);
    }
    return rc;
}

void jfrsql_json_string(sqlite3_str *js, const char *s)
{
    sqlite3_str_appendchar(js, 1, '"');
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            sqlite3_str_appendf(js, "\\%c", c);
        else if (c < 0x20)
            sqlite3_str_appendf(js, "\\u%04x", c);
        else
            sqlite3_str_appendchar(js, 1, (char)c);
    }
    sqlite3_str_appendchar(js, 1, '"');
}

void jfrsql_json_member(sqlite3_str *js, const char *key, const char *value)
{
    jfrsql_json_string(js, key);
    sqlite3_str_appendchar(js, 1, ':');
    if (value)
        jfrsql_json_string(js, value);
    else
        sqlite3_str_appendall(js, "null");
}

/* {"name", "title", "types", "sql", "values_sql", "columns": [{"label",
 * "format", "unit"}...]}: "sql" is what jfrtool view runs, "values_sql"
 * its rows as --json gives them (jfrsql_view_values_sql); the formats and
 * units are those of jfr_view_columns. */
static char *type_view_json(const jfrsql_type_view *tv)
{
    char *values = jfrsql_view_values_sql(&tv->view);
    sqlite3_str *js = sqlite3_str_new(NULL);

    sqlite3_str_appendchar(js, 1, '{');
    jfrsql_json_member(js, "name", tv->view.name);
    sqlite3_str_appendchar(js, 1, ',');
    jfrsql_json_member(js, "title", tv->view.title);
    sqlite3_str_appendchar(js, 1, ',');
    jfrsql_json_member(js, "types", tv->view.types);
    sqlite3_str_appendchar(js, 1, ',');
    jfrsql_json_member(js, "sql", tv->view.sql);
    sqlite3_str_appendchar(js, 1, ',');
    jfrsql_json_member(js, "values_sql", values);
    sqlite3_str_appendall(js, ",\"columns\":[");
    for (size_t c = 0; c < tv->ncols; c++) {
        const jfrsql_view_col *col = &tv->view.cols[c];
        sqlite3_str_appendall(js, c ? ",{" : "{");
        jfrsql_json_member(js, "label", col->label);
        sqlite3_str_appendchar(js, 1, ',');
        jfrsql_json_member(js, "format", jfrsql_view_fmt_name(col->fmt));
        sqlite3_str_appendchar(js, 1, ',');
        jfrsql_json_member(js, "unit", jfrsql_view_unit(col->fmt));
        sqlite3_str_appendchar(js, 1, '}');
    }
    sqlite3_str_appendall(js, "]}");
    if (!values) /* out of memory: no text */
        sqlite3_str_reset(js);
    sqlite3_free(values);
    return sqlite3_str_finish(js);
}

/* The text of the view of argv[0] that `text_of` makes: NULL when no file
 * declares the event type, or it has no field to show. */
static void type_view_result(sqlite3_context *ctx, sqlite3_value **argv,
                             char *(*text_of)(const jfrsql_type_view *))
{
    const char *type = (const char *)sqlite3_value_text(argv[0]);
    jfrsql_type_view *tv = NULL;
    char *text;

    if (!type)
        return; /* NULL */
    if (jfrsql_catalog_type_view(&tv, sqlite3_user_data(ctx), type) != SQLITE_OK) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (tv && tv->ncols > 0) {
        if ((text = text_of(tv)))
            sqlite3_result_text(ctx, text, -1, sqlite3_free);
        else
            sqlite3_result_error_nomem(ctx);
    }
    jfrsql_type_view_free(tv);
}

static char *type_view_sql(const jfrsql_type_view *tv)
{
    return sqlite3_mprintf("%s", tv->view.sql);
}

static void type_view_sql_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    type_view_result(ctx, argv, type_view_sql);
}

static void type_view_json_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    type_view_result(ctx, argv, type_view_json);
}

int jfrsql_register_type_view(sqlite3 *db, jfrsql_catalog *cat)
{
    int rc;

    jfrsql_catalog_ref(cat);
    rc = sqlite3_create_function_v2(db, "jfr_type_view_sql", 1, SQLITE_UTF8, cat,
                                    type_view_sql_fn, NULL, NULL, jfrsql_catalog_release);
    if (rc != SQLITE_OK)
        return rc; /* release ran */
    jfrsql_catalog_ref(cat);
    return sqlite3_create_function_v2(db, "jfr_type_view", 1, SQLITE_UTF8, cat,
                                      type_view_json_fn, NULL, NULL,
                                      jfrsql_catalog_release);
}
