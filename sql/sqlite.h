/* sqlite.h - which SQLite API the SQL part calls.
 *
 * The same sources are built twice: into jfrtool, which links libsqlite3,
 * and into the loadable extension jfrsql, which must call SQLite through
 * the routines the host hands it (sqlite3ext.h): a Python or shell binary
 * may carry its own SQLite, not the system's. */
#ifndef JFRSQL_SQLITE_H
#define JFRSQL_SQLITE_H

#ifdef JFRSQL_EXTENSION
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3
#else
#include <sqlite3.h>
#endif

#endif
