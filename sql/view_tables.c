/* view_tables.c - the views of view_list.c on a connection: one SQL view
 * per row that has SQL, named "view:NAME" (SELECT * FROM "view:gc-pauses"),
 * whose columns are the row's labels and whose values are those of
 * `jfrtool view --json` (shares in percent, the row limit applied); and
 * the tables jfr_views and jfr_view_columns that list them (doc/sql.md,
 * "Views"). All temporary, as jfr_event_types: a database file the
 * recording is attached to is not changed. A view over a type the
 * recording lacks is made all the same; selecting from it fails with
 * SQLite's "no such table". */
#include <string.h>

#include "jfrsql.h"
#include "view_list.h"

/* Column `c` (c1, c2, ... of the query) as --json gives it: a share is
 * (value / total) * 100 in that order, as jfrtool computes it, so that
 * the doubles are the same. */
static char *column_expr(const jfrsql_view_col *col, int c)
{
    switch (col->fmt) {
    case JFRSQL_FMT_NORMALIZED:
        return sqlite3_mprintf(
            "CASE WHEN c%d IS NULL THEN NULL ELSE coalesce(CAST(c%d AS REAL) / "
            "nullif((SELECT total(c%d) FROM q), 0) * 100.0, 0.0) END",
            c, c, c);
    case JFRSQL_FMT_PERCENT:
        return sqlite3_mprintf("c%d * 100.0", c);
    case JFRSQL_FMT_CHAR:
        return sqlite3_mprintf(
            "CASE typeof(c%d) WHEN 'integer' THEN char(c%d) ELSE c%d END", c, c, c);
    default:
        return sqlite3_mprintf("c%d", c);
    }
}

char *jfrsql_view_values_sql(const jfrsql_view *v)
{
    int n = (int)jfrsql_view_ncols(v);
    sqlite3_str *sb = sqlite3_str_new(NULL);

    sqlite3_str_appendall(sb, "WITH q(");
    for (int c = 1; c <= n; c++)
        sqlite3_str_appendf(sb, "%sc%d", c > 1 ? ", " : "", c);
    sqlite3_str_appendf(sb, ") AS (%s) SELECT ", v->sql);
    for (int c = 1; c <= n; c++) {
        char *e = column_expr(&v->cols[c - 1], c);
        if (!e) {
            sqlite3_free(sqlite3_str_finish(sb));
            return NULL;
        }
        sqlite3_str_appendf(sb, "%s%s AS \"%w\"", c > 1 ? ", " : "", e,
                            v->cols[c - 1].label);
        sqlite3_free(e);
    }
    sqlite3_str_appendall(sb, " FROM q");
    if (v->limit)
        sqlite3_str_appendf(sb, " LIMIT %lld", (long long)v->limit);
    return sqlite3_str_finish(sb);
}

/* CREATE TEMP VIEW "view:NAME" AS WITH q(c1, ...) AS (SQL) SELECT ...;
 * NULL when out of memory. */
static char *view_statement(const jfrsql_view *v)
{
    char *values = jfrsql_view_values_sql(v);
    char *stmt = values
                     ? sqlite3_mprintf("CREATE TEMP VIEW IF NOT EXISTS \"view:%w\" AS %s",
                                       v->name, values)
                     : NULL;

    sqlite3_free(values);
    return stmt;
}

#define VIEWS_TABLE                                                                      \
    "CREATE TEMP TABLE IF NOT EXISTS jfr_views(name TEXT PRIMARY KEY, category TEXT, "   \
    "title TEXT, form INTEGER, types TEXT, row_limit INTEGER, query TEXT, "              \
    "fast_path TEXT, jdk INTEGER);"                                                      \
    "CREATE TEMP TABLE IF NOT EXISTS jfr_view_columns(view TEXT, position INTEGER, "     \
    "label TEXT, format TEXT, unit TEXT, field TEXT, label_from_recording INTEGER, "     \
    "PRIMARY KEY (view, position))"

static int say(sqlite3 *db, char **errmsg, int rc)
{
    if (rc != SQLITE_OK && !*errmsg)
        *errmsg = sqlite3_mprintf("%s", rc == SQLITE_NOMEM ? sqlite3_errstr(rc)
                                                           : sqlite3_errmsg(db));
    return rc;
}

static void bind_or_null(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

static int step(sqlite3 *db, sqlite3_stmt *st)
{
    return sqlite3_step(st) == SQLITE_DONE ? sqlite3_reset(st) : sqlite3_errcode(db);
}

/* Row `v` of jfr_views (`vs`) and its columns' rows (`cs`). */
static int insert_view(sqlite3 *db, sqlite3_stmt *vs, sqlite3_stmt *cs,
                       const jfrsql_view *v)
{
    int rc;

    sqlite3_bind_text(vs, 1, v->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(vs, 2, v->category, -1, SQLITE_STATIC);
    sqlite3_bind_text(vs, 3, v->title, -1, SQLITE_STATIC);
    sqlite3_bind_int(vs, 4, v->form);
    sqlite3_bind_text(vs, 5, v->types, -1, SQLITE_STATIC);
    sqlite3_bind_int64(vs, 6, (sqlite3_int64)v->limit);
    bind_or_null(vs, 7, jfrsql_view_has_sql(v) ? v->sql : NULL);
    bind_or_null(vs, 8, v->fast_path);
    sqlite3_bind_int(vs, 9, !v->ours);
    rc = step(db, vs);
    for (size_t c = 0; c < jfrsql_view_ncols(v) && rc == SQLITE_OK; c++) {
        const jfrsql_view_col *col = &v->cols[c];
        sqlite3_bind_text(cs, 1, v->name, -1, SQLITE_STATIC);
        sqlite3_bind_int64(cs, 2, (sqlite3_int64)c + 1);
        sqlite3_bind_text(cs, 3, col->label, -1, SQLITE_STATIC);
        sqlite3_bind_text(cs, 4, jfrsql_view_fmt_name(col->fmt), -1, SQLITE_STATIC);
        bind_or_null(cs, 5, jfrsql_view_unit(col->fmt));
        bind_or_null(cs, 6, col->field);
        sqlite3_bind_int(cs, 7, col->file_label);
        rc = step(db, cs);
    }
    return rc;
}

static int views_table(sqlite3 *db, char **errmsg)
{
    sqlite3_stmt *vs = NULL, *cs = NULL;
    int rc = sqlite3_exec(db, VIEWS_TABLE, NULL, NULL, errmsg);

    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db,
                                "INSERT OR REPLACE INTO temp.jfr_views VALUES "
                                "(?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                -1, &vs, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db,
                                "INSERT OR REPLACE INTO temp.jfr_view_columns VALUES "
                                "(?, ?, ?, ?, ?, ?, ?)",
                                -1, &cs, NULL);
    for (size_t i = 0; i < jfrsql_nviews && rc == SQLITE_OK; i++)
        rc = insert_view(db, vs, cs, &jfrsql_views[i]);
    rc = say(db, errmsg, rc);
    sqlite3_finalize(vs);
    sqlite3_finalize(cs);
    return rc;
}

/* In one transaction: else each row and each view is a transaction of
 * the temporary database of its own (five times the time). */
int jfrsql_views_attach(sqlite3 *db, char **errmsg)
{
    bool own = sqlite3_get_autocommit(db);
    int rc =
        own ? sqlite3_exec(db, "SAVEPOINT jfr_views", NULL, NULL, errmsg) : SQLITE_OK;

    if (rc == SQLITE_OK)
        rc = views_table(db, errmsg);
    for (size_t i = 0; i < jfrsql_nviews && rc == SQLITE_OK; i++) {
        char *sql;

        if (!jfrsql_view_has_sql(&jfrsql_views[i]))
            continue;
        sql = view_statement(&jfrsql_views[i]);
        rc = sql ? sqlite3_exec(db, sql, NULL, NULL, errmsg) : SQLITE_NOMEM;
        sqlite3_free(sql);
    }
    if (own)
        sqlite3_exec(db,
                     rc == SQLITE_OK ? "RELEASE jfr_views"
                                     : "ROLLBACK TO jfr_views; RELEASE jfr_views",
                     NULL, NULL, NULL);
    return rc;
}
