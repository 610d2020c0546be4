/* attach.c - putting the tables on a connection: the module "jfr" for
 * CREATE VIRTUAL TABLE, and a catalog's module with every type (jfrtool sql)
 * or none yet (the rules, which make them in tables.c). */
#include "catalog.h"
#include "rules.h"
#include "type_view.h"
#include "view_text_sql.h"

/* SELECT jfr_attach('a.jfr', ...): every type of the files as a table
 * (and its short name as a view) and the views of `jfrtool view` as SQL
 * views, as jfrtool sql has them; the number of tables made.
 * jfr_attach_lazy (user data non-NULL) makes no table of a type: the
 * caller makes those its statements read with jfr_make_tables(). */
static void attach_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    bool lazy = sqlite3_user_data(ctx) != NULL;
    const char **files = sqlite3_malloc64((size_t)(argc + 1) * sizeof *files);
    jfrsql_catalog *cat = NULL;
    char *err = NULL;
    int rc = files ? SQLITE_OK : SQLITE_NOMEM;

    for (int i = 0; i < argc && rc == SQLITE_OK; i++)
        if (!(files[i] = (const char *)sqlite3_value_text(argv[i])))
            rc = SQLITE_MISUSE;
    if (rc == SQLITE_OK)
        rc = jfrsql_catalog_new(&cat, files, (size_t)argc, NULL, NULL, NULL);
    if (rc == SQLITE_OK && cat->chunks == 0) {
        err = sqlite3_mprintf("jfr_attach: %s", cat->first_warning ? cat->first_warning
                                                                   : "no chunk to read");
        rc = SQLITE_ERROR;
    }
    if (rc == SQLITE_OK)
        rc = (lazy ? jfrsql_attach_lazy : jfrsql_attach)(sqlite3_context_db_handle(ctx),
                                                         cat, &err);
    if (rc == SQLITE_OK)
        rc = jfrsql_views_attach(sqlite3_context_db_handle(ctx), &err);
    if (rc == SQLITE_OK)
        sqlite3_result_int64(ctx, lazy ? 0 : (sqlite3_int64)cat->ntables);
    else if (rc == SQLITE_NOMEM)
        sqlite3_result_error_nomem(ctx);
    else
        sqlite3_result_error(ctx, err ? err : sqlite3_errstr(rc), -1);
    sqlite3_free(err);
    jfrsql_catalog_unref(cat);
    sqlite3_free(files);
}

/* Double-quoted text is an identifier only: SQLite's legacy reading of an
 * unknown "name" as a string made a mistyped "sampledThread.javaNam" a
 * constant that every row shares, a wrong answer without an error
 * (doc/sql.md). SQLite before 3.29 has no such switch: nothing changes. */
static void refuse_quoted_strings(sqlite3 *db)
{
#ifdef SQLITE_DBCONFIG_DQS_DML
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)NULL);
#else
    (void)db;
#endif
}

int jfrsql_register(sqlite3 *db)
{
    int rc;

    refuse_quoted_strings(db);
    rc = sqlite3_create_module_v2(db, "jfr", &jfrsql_module, NULL, NULL);

    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "jfr_attach", -1,
                                        SQLITE_UTF8 | SQLITE_DIRECTONLY, NULL, attach_fn,
                                        NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function_v2(db, "jfr_attach_lazy", -1,
                                        SQLITE_UTF8 | SQLITE_DIRECTONLY, (void *)db,
                                        attach_fn, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = jfrsql_register_rules(db);
    return rc == SQLITE_OK ? jfrsql_register_functions(db) : rc;
}

/* The table jfr_event_types (id, name, label): what the ids of events and
 * of jdk.ActiveSetting's `id` stand for. A temporary table, so that a
 * database file the tables are attached to is not changed. */
static int attach_event_types(sqlite3 *db, const jfrsql_catalog *cat, char **errmsg)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_exec(db,
                          "CREATE TEMP TABLE IF NOT EXISTS jfr_event_types("
                          "id INTEGER PRIMARY KEY, name TEXT NOT NULL, label TEXT)",
                          NULL, NULL, errmsg);

    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(
            db, "INSERT OR REPLACE INTO temp.jfr_event_types VALUES (?, ?, ?)", -1, &st,
            NULL);
    for (size_t i = 0; i < cat->nevent_types && rc == SQLITE_OK; i++) {
        const jfrsql_event_type *e = &cat->event_types[i];

        sqlite3_bind_int64(st, 1, (sqlite3_int64)e->id);
        sqlite3_bind_text(st, 2, e->name, -1, SQLITE_STATIC);
        if (e->label)
            sqlite3_bind_text(st, 3, e->label, -1, SQLITE_STATIC);
        else
            sqlite3_bind_null(st, 3);
        rc = sqlite3_step(st) == SQLITE_DONE ? sqlite3_reset(st) : sqlite3_errcode(db);
    }
    if (rc != SQLITE_OK && !*errmsg)
        *errmsg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return rc;
}

/* The table jfr_chunks (file, chunk, start, duration, size): every chunk
 * that was read, from its header. Temporary, as jfr_event_types. */
static int attach_chunks(sqlite3 *db, const jfrsql_catalog *cat, char **errmsg)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_exec(db,
                          "DROP TABLE IF EXISTS temp.jfr_chunks; CREATE TEMP TABLE "
                          "jfr_chunks(file TEXT NOT NULL, chunk INTEGER NOT NULL, start "
                          "INTEGER, duration INTEGER, size INTEGER)",
                          NULL, NULL, errmsg);

    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(db, "INSERT INTO temp.jfr_chunks VALUES (?, ?, ?, ?, ?)",
                                -1, &st, NULL);
    for (size_t i = 0; i < cat->nchunk_infos && rc == SQLITE_OK; i++) {
        const jfrsql_chunk_info *c = &cat->chunk_infos[i];
        sqlite3_bind_text(st, 1, cat->files[c->file], -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, c->index);
        sqlite3_bind_int64(st, 3, c->start);
        sqlite3_bind_int64(st, 4, c->duration);
        sqlite3_bind_int64(st, 5, (sqlite3_int64)c->size);
        rc = sqlite3_step(st) == SQLITE_DONE ? sqlite3_reset(st) : sqlite3_errcode(db);
    }
    if (rc != SQLITE_OK && !*errmsg)
        *errmsg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return rc;
}

/* The catalog's module, then its tables (every one, or none: `lazy`), and
 * the tables and functions besides them. */
static int attach(sqlite3 *db, jfrsql_catalog *cat, bool lazy, char **errmsg)
{
    char *module = jfrsql_module_name(cat);
    int rc;

    *errmsg = NULL;
    if (!module)
        return SQLITE_NOMEM;
    jfrsql_catalog_ref(cat);
    rc =
        sqlite3_create_module_v2(db, module, &jfrsql_module, cat, jfrsql_catalog_release);
    for (size_t i = 0; i < cat->ntables && rc == SQLITE_OK && !lazy; i++)
        rc = jfrsql_create_table(db, module, &cat->tables[i], errmsg);
    sqlite3_free(module);
    if (rc == SQLITE_OK)
        rc = attach_event_types(db, cat, errmsg);
    if (rc == SQLITE_OK)
        rc = attach_chunks(db, cat, errmsg);
    if (rc == SQLITE_OK)
        rc = jfrsql_rules_table(db, errmsg);
    if (rc == SQLITE_OK)
        rc = jfrsql_register_type_view(db, cat);
    if (rc == SQLITE_OK)
        rc = jfrsql_register_view_text(db, cat);
    if (rc == SQLITE_OK)
        rc = jfrsql_register_make_tables(db, cat);
    return rc == SQLITE_OK ? jfrsql_register_check(db, cat) : rc;
}

int jfrsql_attach(sqlite3 *db, jfrsql_catalog *cat, char **errmsg)
{
    return attach(db, cat, false, errmsg);
}

int jfrsql_attach_lazy(sqlite3 *db, jfrsql_catalog *cat, char **errmsg)
{
    return attach(db, cat, true, errmsg);
}
