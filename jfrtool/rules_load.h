/* rules_load.h - the findings of `jfrtool rules` and `jfrtool report`:
 * the recordings' tables on one SQLite connection, the built-in rules
 * and a user's rules file on it, and the analysis made from them (sql/,
 * doc/report.md "Rules"). Built with SQLite only. */
#ifndef JFRTOOL_RULES_LOAD_H
#define JFRTOOL_RULES_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include <sqlite3.h>

#include "jfrsql.h"

/** The connection the rules run on. */
typedef struct rules_db {
    sqlite3 *db;
    jfrsql_catalog *cat;
    size_t problems; /* damaged input told (not quiet) */
} rules_db;

/** A connection with the built-in rules on it (dies when out of memory). */
void rules_db_new(rules_db *rd);

/**
 * Put `files` on the connection as tables. `open` (NULL: the files by
 * name) opens an input as jfrtool report does (standard input read
 * once); with `quiet`, damaged input is not told (the caller's own pass
 * tells it). *status is EXIT_INPUT when an input could not be opened or
 * had no chunk at all, else EXIT_OK. Returns false (said why) when the
 * tables cannot be made.
 */
bool rules_db_attach(rules_db *rd, const char *const *files, size_t nfiles,
                     jfrsql_open_fn open, void *open_user, bool quiet, int *status);

/**
 * Add the rules of file `path` ("-": standard input) to the connection.
 * Returns EXIT_OK, or EXIT_USAGE after saying what is wrong (naming the
 * file, the line and the rule).
 */
int rules_db_load(rules_db *rd, const char *path);

/**
 * The analysis: the rules' queries run (rules left out for a table the
 * recording lacks are told to `skipped`, which may be NULL). NULL after
 * saying why (an SQL error names the rule and its line).
 */
jfr_findings *rules_db_findings(rules_db *rd, jfrsql_skip_fn skipped, void *user);

void rules_db_close(rules_db *rd);

#endif
