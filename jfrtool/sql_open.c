/* sql_open.c - one connection with the recordings' tables, for `sql` and the
 * generic views. */
#include <string.h>

#include "jfrtool.h"
#include "sql_open.h"
#include "util.h"

static void warn_input(const char *file, const jfr_error *err, void *user)
{
    (void)user;
    report_error(input_name(file), err);
}

sqlite3 *sql_open_inputs(const char *const *files, size_t nfiles, int jobs, bool lazy,
                         jfrsql_catalog **cat, int *status)
{
    sqlite3 *db = NULL;
    char *errmsg = NULL, *pragma;
    unsigned helpers;

    *status = EXIT_OK;
    if (jfrsql_catalog_new(cat, files, nfiles, NULL, warn_input, NULL) != SQLITE_OK)
        diex(EXIT_INPUT, "out of memory");
    for (size_t i = 0; i < jfrsql_catalog_unreadable(*cat); i++)
        note_unreadable_input();
    if (jfrsql_catalog_unopened(*cat) > 0 || jfrsql_catalog_chunks(*cat) == 0)
        *status = EXIT_INPUT;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK || jfrsql_register(db) != SQLITE_OK ||
        (lazy ? jfrsql_attach_lazy : jfrsql_attach)(db, *cat, &errmsg) != SQLITE_OK) {
        warnx_("%s", errmsg ? errmsg : sqlite3_errmsg(db));
        sqlite3_free(errmsg);
        sqlite3_close(db);
        jfrsql_catalog_unref(*cat);
        *cat = NULL;
        *status = EXIT_INPUT;
        return NULL;
    }
    /* large GROUP BY and ORDER BY sorts may use helper threads: as many as
     * --jobs says, else by the library's rule for decoding (none on a busy
     * machine or below 8 MB of chunks, whose sorts are small) */
    helpers =
        jobs > 0 ? (unsigned)jobs - 1 : jfr_auto_threads(jfrsql_catalog_bytes(*cat)) - 1;
    /* a query over several tables lists the records by type in as many */
    jfrsql_catalog_threads(*cat, helpers + 1);
    if ((pragma = sqlite3_mprintf("PRAGMA threads = %u", helpers > 8 ? 8 : helpers))) {
        sqlite3_exec(db, pragma, NULL, NULL, NULL);
        sqlite3_free(pragma);
    }
    return db;
}
