/* view_text_sql.c - a view's table as the JDK writes it, as an SQL
 * function of an attached connection: jfr_view_text('gc-pauses') (a view
 * of the list with a query, or an event type) is jfrsql_view_table's
 * result as JSON, each cell the text `jfrtool view` prints, what Python's
 * Recording.view_text(name) reads. doc/sql.md, "A view's table, as one
 * call". */
#include <string.h>

#include "catalog.h"
#include "type_view.h"
#include "view_text_sql.h"

static const char *state_name(jfrsql_result_state s)
{
    static const char *const names[] = {"rows", "missing-type", "no-events",
                                        "missing-field"};
    return (unsigned)s < 4 ? names[s] : "rows";
}

static void columns_json(sqlite3_str *js, const jfrsql_view_result *t)
{
    sqlite3_str_appendall(js, ",\"columns\":[");
    for (size_t c = 0; c < t->ncols; c++) {
        sqlite3_str_appendall(js, c ? ",{" : "{");
        jfrsql_json_member(js, "label", t->cols[c].label);
        sqlite3_str_appendchar(js, 1, ',');
        jfrsql_json_member(js, "key", t->cols[c].key);
        sqlite3_str_appendchar(js, 1, ',');
        jfrsql_json_member(js, "unit", t->cols[c].unit);
        sqlite3_str_appendf(js, ",\"right\":%s}", t->cols[c].right ? "true" : "false");
    }
    sqlite3_str_appendchar(js, 1, ']');
}

/* {"view", "title", "form", "state", "missing", "columns": [{"label",
 * "key", "unit", "right"}...], "rows": [[text...]...]}: the rows the text
 * shows (the view's limit applied). */
static char *result_json(const jfrsql_view_result *t)
{
    const jfrsql_view *v = t->view;
    size_t shown = v->limit && v->limit < t->nrows ? v->limit : t->nrows;
    sqlite3_str *js = sqlite3_str_new(NULL);

    sqlite3_str_appendchar(js, 1, '{');
    jfrsql_json_member(js, "view", v->name);
    sqlite3_str_appendchar(js, 1, ',');
    jfrsql_json_member(js, "title", v->title);
    sqlite3_str_appendf(js, ",\"form\":%s,", v->form ? "true" : "false");
    jfrsql_json_member(js, "state", state_name(t->state));
    sqlite3_str_appendchar(js, 1, ',');
    jfrsql_json_member(js, "missing", t->missing);
    columns_json(js, t);
    sqlite3_str_appendall(js, ",\"rows\":[");
    for (size_t i = 0; i < shown; i++) {
        sqlite3_str_appendall(js, i ? ",[" : "[");
        for (size_t c = 0; c < t->ncols; c++) {
            if (c)
                sqlite3_str_appendchar(js, 1, ',');
            jfrsql_json_string(js, t->cells[i * t->ncols + c].text);
        }
        sqlite3_str_appendchar(js, 1, ']');
    }
    sqlite3_str_appendall(js, "]}");
    return sqlite3_str_finish(js);
}

/* The table of `v` on the function's connection, as JSON in the result. */
static void table_result(sqlite3_context *ctx, const jfrsql_view *v, jfrsql_catalog *cat)
{
    jfrsql_view_table_options o;
    jfrsql_view_result *t;
    char *err = NULL, *json;
    int rc;

    jfrsql_view_table_options_init(&o, JFRSQL_VIEW_TABLE_OPTIONS_VERSION);
    o.metadata_file = cat->nfiles > 0 ? cat->files[0] : NULL;
    o.parts = JFRSQL_RESULT_TEXT;
    rc = jfrsql_view_table(&t, sqlite3_context_db_handle(ctx), v, &o, &err);
    if (rc != SQLITE_OK) {
        if (err)
            sqlite3_result_error(ctx, err, -1);
        else
            sqlite3_result_error_code(ctx, rc);
        sqlite3_free(err);
        return;
    }
    if ((json = result_json(t)))
        sqlite3_result_text(ctx, json, -1, sqlite3_free);
    else
        sqlite3_result_error_nomem(ctx);
    jfrsql_view_result_free(t);
}

static void view_text_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const char *name = (const char *)sqlite3_value_text(argv[0]);
    jfrsql_catalog *cat = sqlite3_user_data(ctx);
    const jfrsql_view *v = name ? jfrsql_view_find(name) : NULL;
    jfrsql_type_view *tv = NULL;

    (void)argc;
    if (!name)
        return; /* NULL */
    if (!v && jfrsql_catalog_type_view(&tv, cat, name) != SQLITE_OK) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (!v && tv && tv->ncols > 0)
        v = &tv->view;
    if (v && !jfrsql_view_has_sql(v)) {
        char *msg = sqlite3_mprintf("view %s is computed by jfrtool's own code (%s)",
                                    name, v->fast_path ? v->fast_path : "");
        sqlite3_result_error(ctx, msg ? msg : "out of memory", -1);
        sqlite3_free(msg);
    } else if (v) {
        char *err = NULL;
        /* on a jfr_attach_lazy connection, the tables the view reads */
        if (jfrsql_view_attach_tables(sqlite3_context_db_handle(ctx), cat, v, &err) !=
            SQLITE_OK)
            sqlite3_result_error(ctx, err ? err : "out of memory", -1);
        else
            table_result(ctx, v, cat);
        sqlite3_free(err);
    }
    jfrsql_type_view_free(tv); /* no view, no type: NULL */
}

int jfrsql_register_view_text(sqlite3 *db, jfrsql_catalog *cat)
{
    jfrsql_catalog_ref(cat);
    return sqlite3_create_function_v2(db, "jfr_view_text", 1, SQLITE_UTF8, cat,
                                      view_text_fn, NULL, NULL, jfrsql_catalog_release);
}
