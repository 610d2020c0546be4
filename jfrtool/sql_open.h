/* sql_open.h - the inputs of `jfrtool sql` and of the generic views as the
 * tables of one in-memory SQLite connection (sql/, doc/sql.md). */
#ifndef JFRTOOL_SQL_OPEN_H
#define JFRTOOL_SQL_OPEN_H

#include <stdbool.h>
#include <stddef.h>

#include <sqlite3.h>

#include "jfrsql.h"

/**
 * Open `files` as tables. Damaged input is told as every command tells it;
 * *status is EXIT_INPUT when an input could not be opened or no chunk at
 * all could be read, else EXIT_OK. `jobs` (--jobs, 0: jfr_auto_threads of
 * the chunks' size) bounds the threads SQLite's sorter may use. Returns NULL (after saying why, with
 * *status EXIT_INPUT) when the tables cannot be made. With `lazy`, no
 * table of an event type is made (jfrsql_attach_lazy): the caller makes
 * those its statements read (jfrsql_attach_tables_in).
 */
sqlite3 *sql_open_inputs(const char *const *files, size_t nfiles, int jobs, bool lazy,
                         jfrsql_catalog **cat, int *status);

#endif
