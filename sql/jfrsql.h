/* jfrsql.h - SQL over recordings: SQLite virtual tables whose rows are
 * events (doc/sql.md). Used by jfrtool sql and by the jfrsql extension;
 * built on libjfr's public API only. */
#ifndef JFRSQL_H
#define JFRSQL_H

#include <stdbool.h>
#include <stddef.h>

#include <jfr.h>

#include "sqlite.h"
#include "view_list.h"

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

/** How a catalog opens file `file` (jfr_recording_open_file by default):
 * jfrtool report hands over standard input it has read already. */
typedef int (*jfrsql_open_fn)(jfr_recording **out, const char *file, jfr_error *err,
                              void *user);

/** jfrsql_catalog_new, opening every file (each time a cursor needs one)
 * with `open` (`open_user` its last argument). */
int jfrsql_catalog_new_opened(jfrsql_catalog **out, const char *const *files,
                              size_t nfiles, jfrsql_open_fn open, void *open_user,
                              jfrsql_warn_fn warn, void *user);
void jfrsql_catalog_ref(jfrsql_catalog *cat);
void jfrsql_catalog_unref(jfrsql_catalog *cat);

/**
 * Read @Unsigned integers as the JDK's views read them, as signed numbers
 * of their width (2^64 - 2 as -2, an address above 2^63 negative, every
 * bit kept), instead of as unsigned numbers (REAL above 2^63, which keeps
 * 53 bits). For the views of `jfrtool view`; call before the first query.
 */
void jfrsql_catalog_jdk_integers(jfrsql_catalog *cat, bool on);

/**
 * The threads a query that reads several event tables lists each file's
 * records by type in, before its first scan of the file
 * (jfr_recording_index_records), so that every table's scan visits only its
 * own records. 1, the default: the first scan lists them as it walks, in
 * the calling thread. A query over one table walks each chunk once and
 * lists nothing either way. Call before the first query.
 */
void jfrsql_catalog_threads(jfrsql_catalog *cat, unsigned threads);

/** List the records of the tables `tables` names (as SQL names them) now,
 * in the threads jfrsql_catalog_threads set (with fewer than two, nothing):
 * for a caller whose queries will read those tables whole, in one pass
 * over each chunk in threads instead of a walk per query in the calling
 * thread. One table is listed only in files of 16 MB of event records or
 * more (jfr_recording_event_bytes_estimate): below, its one walk costs
 * less than the threads. Queries that read other tables walk as before. */
void jfrsql_catalog_list_records(jfrsql_catalog *cat, const char *const *tables,
                                 size_t ntables);

/** Files that could not be opened, and files with no readable chunk. */
size_t jfrsql_catalog_unopened(const jfrsql_catalog *cat);
size_t jfrsql_catalog_unreadable(const jfrsql_catalog *cat);
/** Chunks read over all files. */
size_t jfrsql_catalog_chunks(const jfrsql_catalog *cat);
/** The bytes of those chunks, as their headers declare them. */
uint64_t jfrsql_catalog_bytes(const jfrsql_catalog *cat);

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

/** jfrsql_attach without the event types' tables, which
 * jfrsql_attach_table makes one at a time when a statement needs them (a
 * recording declares some two hundred types; a rule reads one or two). */
int jfrsql_attach_lazy(sqlite3 *db, jfrsql_catalog *cat, char **errmsg);

/** Make the table of `cat` named `name` (full or short name), or with
 * `name` NULL every table not made yet. SQLITE_NOTFOUND when `cat` has no
 * such type or its table is there already. */
int jfrsql_attach_table(sqlite3 *db, jfrsql_catalog *cat, const char *name,
                        char **errmsg);

/** Make every table of `cat` whose full or short name `sql` mentions as a
 * word, in any case (text that only mentions a name makes its table too:
 * one more table, never one less), and that is not made yet: the tables a
 * known statement reads, before it is prepared, on a connection of
 * jfrsql_attach_lazy. */
int jfrsql_attach_tables_in(sqlite3 *db, jfrsql_catalog *cat, const char *sql,
                            char **errmsg);

/** jfrsql_catalog_list_records for the tables view `v` reads (those
 * jfrsql_view_attach_tables makes), read whole by its queries. */
void jfrsql_view_list_records(jfrsql_catalog *cat, const jfrsql_view *v);

/** jfrsql_attach_tables_in for view `v`: the tables its types and its SQL
 * name (jfrtool view, jfr_view_text). */
int jfrsql_view_attach_tables(sqlite3 *db, jfrsql_catalog *cat, const jfrsql_view *v,
                              char **errmsg);

/**
 * Make, as temporary objects of `db`, the SQL view "view:NAME" of each
 * view of sql/view_list.c that has SQL (its columns named by the view's
 * labels, its values those of `jfrtool view --json`), and the tables
 * jfr_views and jfr_view_columns that list every view (doc/sql.md,
 * "Views"). jfrtool sql and the extension's jfr_attach() do it after
 * jfrsql_attach (the generic views of jfrtool view, which do not need
 * them, save its few milliseconds).
 */
int jfrsql_views_attach(sqlite3 *db, char **errmsg);

/**
 * The JDK's first check of view `v` (doc/views.md §8): whether one of its
 * event types has no table on `db` (no input declares it); then the first
 * such type goes to `missing` ("CPUTimeSample"). Else *has_events says
 * whether any of its types has an event.
 */
bool jfrsql_view_missing_type(sqlite3 *db, const jfrsql_view *v, char *missing,
                              size_t size, bool *has_events);

/* ---- a view's table (doc/sql.md, "A view's table"; view_table.c) ---------- */

/** A value of a view's query, as SQLite gives it. */
typedef struct jfrsql_value {
    int type;  /**< SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT or SQLITE_TEXT */
    int64_t i; /**< an integer; for a real, the JDK's long of it */
    double d;  /**< a real; for an integer, the integer as a double */
    char *s;   /**< a text */
} jfrsql_value;

/** The kinds of a cell's value in JSON and CSV. */
typedef enum jfrsql_json_kind {
    JFRSQL_JSON_NULL,
    JFRSQL_JSON_INTEGER,
    JFRSQL_JSON_REAL,
    JFRSQL_JSON_BOOL, /**< in `i`: 0 or 1 */
    JFRSQL_JSON_STRING
} jfrsql_json_kind;

/** A cell's value in JSON and CSV: numbers in the column's unit. */
typedef struct jfrsql_json_value {
    jfrsql_json_kind kind;
    int64_t i;
    double d;
    const char *s;
} jfrsql_json_value;

/** One cell of a view's table. */
typedef struct jfrsql_result_cell {
    const char *text;        /**< as the JDK's view writes it ("8.27 ms", "N/A") */
    const char *compact;     /**< its compact form where the JDK cuts one (a
                          * method's "(...)", a class's simple name), or NULL */
    jfrsql_json_value value; /**< as `jfrtool view --json` gives it */
} jfrsql_result_cell;

/** One column of a view's table. */
typedef struct jfrsql_result_column {
    const char *label; /**< the header (the recording's @Label where the view takes it) */
    const char *key;   /**< the JSON key and CSV header: the view's own label */
    const char *unit;  /**< the unit of its JSON and CSV values, or NULL */
    const jfrsql_view_col *col; /**< the view's column, with the recording's
                                 * format where its annotations give one */
    bool right;                 /**< right-aligned in a table */
    double total; /**< a normalized column's sum (its shares are of it); else 0 */
} jfrsql_result_column;

/** Why a view's table has the rows it has (the JDK's messages, doc/views.md §8). */
typedef enum jfrsql_result_state {
    JFRSQL_RESULT_ROWS,         /**< the rows of the query (perhaps none) */
    JFRSQL_RESULT_MISSING_TYPE, /**< no input declares event type `missing` */
    JFRSQL_RESULT_NO_EVENTS,    /**< the view's types have no event: not queried */
    JFRSQL_RESULT_MISSING_FIELD /**< the recording's type lacks field `missing` */
} jfrsql_result_state;

/** A view's finished table (jfrsql_view_table). */
typedef struct jfrsql_view_result {
    jfrsql_result_state state;
    char *missing; /**< the type ("CPUTimeSample") or field ("a.b") missing */
    const jfrsql_view *view;
    size_t ncols;
    size_t nrows;               /**< every row: the view's limit is the renderer's */
    jfrsql_result_column *cols; /**< ncols */
    jfrsql_result_cell *cells;  /**< nrows * ncols, row by row */
    jfrsql_view_col *shown;     /**< the columns' formats and labels (cols[].col) */
    char **blocks;              /**< the texts the table holds, many to a block */
    size_t nblocks, blocks_cap, block_used, block_room;
} jfrsql_view_result;

/** Rows a caller computes faster than the query (jfrtool's fast paths),
 * as the query would give them: 0 with `*cells` (`*nrows` rows of `*ncols`
 * values at most JFRSQL_VIEW_MAX_COLS, freed by the options' `free_rows`),
 * or -1 to run the query. */
typedef int (*jfrsql_rows_fn)(jfrsql_value **cells, size_t *nrows, size_t *ncols,
                              const jfrsql_view *v, void *user);

/** Options of jfrsql_view_table; version first, fields only appended. */
typedef struct jfrsql_view_table_options {
    unsigned version; /**< JFRSQL_VIEW_TABLE_OPTIONS_VERSION */
    /** the file whose first chunk's metadata labels and formats the
     * columns, as the JDK takes its first input's (NULL: the view's own) */
    const char *metadata_file;
    /** run the query even when the view's types have no event (JSON and
     * CSV show the columns of an empty table); else JFRSQL_RESULT_NO_EVENTS */
    bool query_without_events;
    jfrsql_rows_fn rows; /**< NULL: always the query */
    void (*free_rows)(jfrsql_value *cells, size_t nrows, void *user);
    void *rows_user;
    /** what the cells hold: JFRSQL_RESULT_TEXT (text and compact form),
     * JFRSQL_RESULT_VALUES (JSON values), or both (0, the default); what
     * is left out is NULL and JFRSQL_JSON_NULL */
    unsigned parts;
    /** metadata_file's first chunk, when the caller has it open: its
     * metadata is read instead of opening the file again (NULL: open it) */
    jfr_chunk *metadata_chunk;
} jfrsql_view_table_options;

#define JFRSQL_RESULT_TEXT   1u
#define JFRSQL_RESULT_VALUES 2u

#define JFRSQL_VIEW_TABLE_OPTIONS_VERSION 2

/** Set `opts` to the defaults of `version`; SQLITE_MISUSE for an unknown version. */
int jfrsql_view_table_options_init(jfrsql_view_table_options *opts, unsigned version);

/**
 * The table of view `v` over the tables of `db` (jfrsql_attach; with
 * jfrsql_catalog_jdk_integers on, as the JDK reads integers): the JDK's
 * checks first (a type no input declares, types without events, a field
 * the recording lacks: `state` and `missing` say which), then the query
 * (or `opts->rows`), each cell as the JDK's view writes it, its compact
 * form and its JSON value, and the columns with their labels, units,
 * alignment and totals. `opts` may be NULL. SQLITE_OK, SQLITE_NOMEM, or
 * the query's error with *errmsg (sqlite3_free it).
 */
int jfrsql_view_table(jfrsql_view_result **out, sqlite3 *db, const jfrsql_view *v,
                      const jfrsql_view_table_options *opts, char **errmsg);

/**
 * The table of view `v` from values computed without SQL (`nrows` rows of
 * `ncols` values, at most JFRSQL_VIEW_MAX_COLS; copied): the `recording`
 * and event-count views. `opts` may be NULL. SQLITE_OK or SQLITE_NOMEM.
 */
int jfrsql_view_table_of_values(jfrsql_view_result **out, const jfrsql_view *v,
                                const jfrsql_value *cells, size_t nrows, size_t ncols,
                                const jfrsql_view_table_options *opts);

/** Free a table; NULL is accepted. */
void jfrsql_view_result_free(jfrsql_view_result *t);

/**
 * Whether `sql` names a column its tables lack (found when it is compiled,
 * without reading any event); `out` gets it. With `lenient`, a
 * double-quoted dotted path that is not a column reads as text for this
 * look only (the queries themselves never run so): the JDK resolves such
 * paths where SQL cannot (JFR 1.0's classLoader.type) and names the first
 * plain field that is missing, as this look finds it.
 */
bool jfrsql_missing_column(sqlite3 *db, const char *sql, bool lenient, char *out,
                           size_t size);

/**
 * What to add to SQLite's error `errmsg` about statement `sql` run on `db`:
 * for "no such column: X", " (did you mean \"a.b\"?)" with the columns
 * nearest to X of the tables the statement names (or that none is near
 * and how to list them); for "no such table: X", the nearest tables. NULL
 * when there is nothing to add. Free it with sqlite3_free.
 */
char *jfrsql_error_hint(sqlite3 *db, const char *sql, const char *errmsg);

/* ---- rules (doc/report.md, "Rules"; rules.c, rules_run.c, rules_sql.c) ---------- */

/**
 * Make the table temp.jfr_rules, with the built-in rules as its first
 * rows (sql/rules.ini, then libjfr's rules over facts), unless it is
 * there. jfrsql_attach does it.
 */
int jfrsql_rules_table(sqlite3 *db, char **errmsg);

/**
 * Add the rules of a rules file (its text; `name` for messages) to
 * temp.jfr_rules, after checking them: the format, the keys, the
 * templates and conditions, and that no id is a built-in rule's. Nothing
 * is added when one is wrong; *errmsg ("NAME:LINE: rule "ID": what",
 * sqlite3_free it) says what.
 */
int jfrsql_rules_load(sqlite3 *db, const char *text, size_t len, const char *name,
                      char **errmsg);

/** Told about a rule left out because the recording lacks a table or a
 * column it reads (its `missing = skip`): SQLite's words in `why`. */
typedef void (*jfrsql_skip_fn)(const char *id, const char *source, const char *why,
                               void *user);

/**
 * A findings analysis (jfr/findings.h) holding the rules of
 * temp.jfr_rules in order, each query rule's query run on `db` and its
 * rows given. The facts are still to be given (jfr_findings_add_* or
 * jfrsql_findings_read). An SQL error names the rule and its source in
 * *errmsg; a rule with `missing = skip` whose table or column the
 * recording lacks is left out and told to `skipped` (may be NULL).
 */
int jfrsql_findings_new(jfr_findings **out, sqlite3 *db, jfrsql_catalog *lazy,
                        jfrsql_skip_fn skipped, void *user, char **errmsg);

/** jfrsql_findings_new's rules added to analysis `f`, after its own (a
 * report gives the facts while or after the queries run). `lazy`: the
 * catalog of jfrsql_attach_lazy, whose tables are made as the queries
 * name them; NULL when every table is there. */
int jfrsql_findings_add_rules(jfr_findings *f, sqlite3 *db, jfrsql_catalog *lazy,
                              jfrsql_skip_fn skipped, void *user, char **errmsg);

/** The catalog's own handle of file `i` (NULL when it could not be
 * opened), at any chunk: a caller that reads it before the queries run
 * leaves them libjfr's record lists of its chunks, so that each table's
 * scan visits only its records. Borrowed; one user at a time. */
jfr_recording *jfrsql_catalog_recording(jfrsql_catalog *cat, size_t i);

/** The facts of `f` from the files of `cat` (jfr_findings_add_recordings
 * over the catalog's handles). */
int jfrsql_findings_read(jfr_findings *f, jfrsql_catalog *cat);

/**
 * jfrsql_findings_new, then jfrsql_findings_read when a rule reads a
 * fact: every rule of `db`'s temp.jfr_rules over the files of `cat`
 * (jfrtool rules, and SQL's jfr_check()); `lazy` when `cat` was attached
 * with jfrsql_attach_lazy.
 */
int jfrsql_check(jfr_findings **out, sqlite3 *db, jfrsql_catalog *cat, bool lazy,
                 jfrsql_skip_fn skipped, void *user, char **errmsg);

/** Register the aggregates only (percentile, median, stdev, ...). */
int jfrsql_register_functions(sqlite3 *db);

/** Reorder `v` (`n` > 0 values) so that v[k] holds the value a sort would
 * put there, no larger value before it and no smaller one after (sql/ranks.c). */
void jfrsql_select_rank(double *v, size_t n, size_t k);

/** The JDK's rank statistic of `n` > 0 values, in any order (jdk_percentile
 * with `p` from 0 to 100, jdk_median with `p` < 0). Reorders `v`. */
double jfrsql_jdk_rank(double *v, size_t n, double p);

/** The percentile `p` (0 to 100) of `n` > 0 values in any order, linear
 * between the two nearest ranks as numpy's default. Reorders `v`. */
double jfrsql_linear_rank(double *v, size_t n, double p);

/** A sum of durations in nanoseconds as jdk_avg_span keeps it (seconds and
 * nanoseconds apart, so that long sums cannot overflow). */
typedef struct jfrsql_span_sum {
    int64_t n, seconds, nanos;
} jfrsql_span_sum;
void jfrsql_span_add(jfrsql_span_sum *s, int64_t nanos);
/** The mean, rounded half up to the nanosecond (jdk_avg_span); `n` > 0. */
int64_t jfrsql_span_mean(const jfrsql_span_sum *s);

#endif
