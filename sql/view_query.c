/* view_query.c - what the JDK checks before it runs a view's query, on
 * the tables of a connection (doc/views.md §8): the first of the view's
 * event types no input declares, whether any of them has events, and the
 * first field the query names that the recording's type lacks. jfrtool
 * view says these as the JDK does. */
#include <stdio.h>
#include <string.h>

#include "jfrsql.h"

static bool table_exists(sqlite3 *db, const char *name)
{
    sqlite3_stmt *st;
    bool found = false;

    if (sqlite3_prepare_v2(db,
                           "SELECT 1 FROM sqlite_schema WHERE name = ?1 COLLATE NOCASE",
                           -1, &st, NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
}

static bool table_has_rows(sqlite3 *db, const char *name)
{
    char *q = sqlite3_mprintf("SELECT 1 FROM \"%w\" LIMIT 1", name);
    sqlite3_stmt *st;
    bool rows = false;

    if (q && sqlite3_prepare_v2(db, q, -1, &st, NULL) == SQLITE_OK) {
        rows = sqlite3_step(st) == SQLITE_ROW;
        sqlite3_finalize(st);
    }
    sqlite3_free(q);
    return rows;
}

bool jfrsql_view_missing_type(sqlite3 *db, const jfrsql_view *v, char *missing,
                              size_t size, bool *has_events)
{
    char types[512];
    char *save = NULL, *tok;

    *has_events = false;
    snprintf(types, sizeof types, "%s", v->types);
    for (tok = strtok_r(types, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        if (!table_exists(db, tok)) {
            snprintf(missing, size, "%s", tok);
            return true;
        }
        if (!*has_events && table_has_rows(db, tok))
            *has_events = true;
    }
    return false;
}

bool jfrsql_missing_column(sqlite3 *db, const char *sql, bool lenient, char *out,
                           size_t size)
{
    sqlite3_stmt *st = NULL;
    bool lacks = false;

#ifdef SQLITE_DBCONFIG_DQS_DML
    if (lenient)
        sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 1, (int *)NULL);
#else
    (void)lenient;
#endif
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK &&
        strncmp(sqlite3_errmsg(db), "no such column: ", 16) == 0) {
        lacks = true;
        snprintf(out, size, "%s", sqlite3_errmsg(db) + 16);
    }
    sqlite3_finalize(st);
#ifdef SQLITE_DBCONFIG_DQS_DML
    if (lenient)
        sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)NULL);
#endif
    return lacks;
}
