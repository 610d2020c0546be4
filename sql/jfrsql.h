/* jfrsql.h - SQL over recordings: SQLite virtual tables whose rows are
 * events (doc/sql.md). Used by jfrtool sql and by the jfrsql extension;
 * built on libjfr's public API only. */
#ifndef JFRSQL_H
#define JFRSQL_H

#include <stdbool.h>
#include <stddef.h>

#include <jfr.h>

#include "sqlite.h"

/** How deep nested fields become columns: "a.b.c" has depth 3. */
#define JFRSQL_MAX_DEPTH 3

/**
 * Told about damaged input: `file` as given, `err` what went wrong. Each
 * distinct message is told once per catalog, however often it is read.
 */
typedef void (*jfrsql_warn_fn)(const char *file, const jfr_error *err, void *user);

/** The event types of a set of files and their columns, shared by tables. */
typedef struct jfrsql_catalog jfrsql_catalog;

/**
 * Read the metadata of every chunk of `files` (opened as libjfr opens
 * them: plain, gzip, lz4) and build each event type's columns. With
 * `only_type`, only that type ("jdk.ExecutionSample" or
 * "ExecutionSample"). Files that cannot be opened and damaged chunks go
 * to `warn` (may be NULL); the catalog holds the rest.
 * @return SQLITE_OK or SQLITE_NOMEM; *out has one reference.
 */
int jfrsql_catalog_new(jfrsql_catalog **out, const char *const *files, size_t nfiles,
                       const char *only_type, jfrsql_warn_fn warn, void *user);
void jfrsql_catalog_ref(jfrsql_catalog *cat);
void jfrsql_catalog_unref(jfrsql_catalog *cat);

/**
 * Read @Unsigned integers as the JDK's views read them, as signed numbers
 * of their width (2^64 - 2 as -2, an address above 2^63 negative, every
 * bit kept), instead of as unsigned numbers (REAL above 2^63, which keeps
 * 53 bits). For the views of `jfrtool view`; call before the first query.
 */
void jfrsql_catalog_jdk_integers(jfrsql_catalog *cat, bool on);

/** Files that could not be opened, and files with no readable chunk. */
size_t jfrsql_catalog_unopened(const jfrsql_catalog *cat);
size_t jfrsql_catalog_unreadable(const jfrsql_catalog *cat);
/** Chunks read over all files. */
size_t jfrsql_catalog_chunks(const jfrsql_catalog *cat);

/**
 * Register, on `db`, the module "jfr" (CREATE VIRTUAL TABLE t USING
 * jfr('a.jfr', ..., 'jdk.ExecutionSample')), the function jfr_attach('a.jfr',
 * ...) that makes every type's table at once (jfrsql_attach), and the
 * aggregates of doc/sql.md.
 */
int jfrsql_register(sqlite3 *db);

/**
 * Create, in schema "main" of `db`, one table per event type of `cat`,
 * named by the type ("jdk.ExecutionSample"), and a view by its short name
 * ("ExecutionSample") where that name is not ambiguous. *errmsg (to free
 * with sqlite3_free) says what failed.
 */
int jfrsql_attach(sqlite3 *db, jfrsql_catalog *cat, char **errmsg);

/**
 * What to add to SQLite's error `errmsg` about statement `sql` run on `db`:
 * for "no such column: X", " (did you mean \"a.b\"?)" with the columns
 * nearest to X of the tables the statement names (or that none is near
 * and how to list them); for "no such table: X", the nearest tables. NULL
 * when there is nothing to add. Free it with sqlite3_free.
 */
char *jfrsql_error_hint(sqlite3 *db, const char *sql, const char *errmsg);

/** Register the aggregates only (percentile, median, stdev, ...). */
int jfrsql_register_functions(sqlite3 *db);

/** The JDK's rank statistic of `n` sorted values (jdk_percentile with `p`
 * from 0 to 100, jdk_median with `p` < 0); `n` > 0. */
double jfrsql_jdk_rank(const double *sorted, size_t n, double p);

/** A sum of durations in nanoseconds as jdk_avg_span keeps it (seconds and
 * nanoseconds apart, so that long sums cannot overflow). */
typedef struct jfrsql_span_sum {
    int64_t n, seconds, nanos;
} jfrsql_span_sum;
void jfrsql_span_add(jfrsql_span_sum *s, int64_t nanos);
/** The mean, rounded half up to the nanosecond (jdk_avg_span); `n` > 0. */
int64_t jfrsql_span_mean(const jfrsql_span_sum *s);

#endif
