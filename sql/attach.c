/* attach.c - putting the tables on a connection: the module "jfr" for
 * CREATE VIRTUAL TABLE, and every type of a catalog at once (jfrtool sql). */
#include "catalog.h"

int jfrsql_register(sqlite3 *db)
{
    int rc = sqlite3_create_module_v2(db, "jfr", &jfrsql_module, NULL, NULL);

    return rc == SQLITE_OK ? jfrsql_register_functions(db) : rc;
}

static void release(void *cat)
{
    jfrsql_catalog_unref(cat);
}

int jfrsql_attach(sqlite3 *db, jfrsql_catalog *cat, char **errmsg)
{
    /* a module of its own carries the catalog to the tables' xCreate */
    char *module = sqlite3_mprintf("jfr_catalog_%p", (void *)cat);
    int rc;

    *errmsg = NULL;
    if (!module)
        return SQLITE_NOMEM;
    jfrsql_catalog_ref(cat);
    rc = sqlite3_create_module_v2(db, module, &jfrsql_module, cat, release);
    for (size_t i = 0; i < cat->ntables && rc == SQLITE_OK; i++) {
        const jfrsql_table *t = &cat->tables[i];
        char *sql = sqlite3_mprintf("CREATE VIRTUAL TABLE main.\"%w\" USING \"%w\"(%Q)",
                                    t->name, module, t->name);
        if (sql && t->alias)
            sql = sqlite3_mprintf(
                "%z; CREATE VIEW main.\"%w\" AS SELECT * FROM main.\"%w\"", sql, t->alias,
                t->name);
        rc = sql ? sqlite3_exec(db, sql, NULL, NULL, errmsg) : SQLITE_NOMEM;
        sqlite3_free(sql);
    }
    sqlite3_free(module);
    return rc;
}
