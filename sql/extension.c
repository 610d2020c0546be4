/* extension.c - jfrsql as a loadable SQLite extension (doc/sql.md,
 * "The SQLite extension"): `.load jfrsql` in the sqlite3 shell,
 * load_extension() in Python, then
 * CREATE VIRTUAL TABLE t USING jfr('rec.jfr', 'jdk.ExecutionSample'). */
#include "jfrsql.h"

SQLITE_EXTENSION_INIT1

/* The entry point SQLite derives from the file name jfrsql(.so). */
__attribute__((visibility("default"))) int
sqlite3_jfrsql_init(sqlite3 *db, char **errmsg, const sqlite3_api_routines *api);

int sqlite3_jfrsql_init(sqlite3 *db, char **errmsg, const sqlite3_api_routines *api)
{
    int rc;

    SQLITE_EXTENSION_INIT2(api);
    rc = jfrsql_register(db);
    if (rc != SQLITE_OK)
        *errmsg = sqlite3_mprintf("jfrsql: %s", sqlite3_errstr(rc));
    return rc;
}
