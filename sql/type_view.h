/* type_view.h - the view of one event type, as the JDK's `jfr view TYPE`
 * shows it (type_view.c): every field a column, labelled and formatted by
 * the recording's metadata, and the SELECT over the type's table. jfrtool
 * view TYPE renders it; doc/sql.md, "The view of an event type". */
#ifndef JFRSQL_TYPE_VIEW_H
#define JFRSQL_TYPE_VIEW_H

#include <stdbool.h>

#include "jfrsql.h"

/** A view built from an event type's metadata; `view` points into it. */
typedef struct jfrsql_type_view {
    jfrsql_view view; /**< name, title, types, sql and the columns */
    size_t ncols;     /**< columns in view.cols (0: no field to show) */
    char *owned[JFRSQL_VIEW_MAX_COLS + 4]; /**< the strings view points to */
    size_t nowned;
} jfrsql_type_view;

/**
 * The event type `name` ("jdk.GCPhasePause", "GCPhasePause" or JFR 1.0's
 * "com.oracle.jdk.X") of the first chunk of `rec` that declares it, from
 * the chunk after `*chunk` on; `*chunk` is left at that chunk. NULL: none.
 */
const jfr_type *jfrsql_find_event_type(jfr_chunk **chunk, jfr_recording *rec,
                                       const char *name);

/**
 * Build the view of event type `t` as `jfr view TYPE` shows it, named
 * `name`. SQLITE_OK (`*out` to free with jfrsql_type_view_free; its ncols
 * is 0 when no field has a column) or SQLITE_NOMEM.
 */
int jfrsql_type_view_new(jfrsql_type_view **out, const jfr_type *t, const char *name);

/** Free a view of jfrsql_type_view_new; NULL is accepted. */
void jfrsql_type_view_free(jfrsql_type_view *tv);

/**
 * The column format of field `f` by its type and annotations (the JDK's
 * order: @Timestamp, @Timespan, @Percentage, @DataAmount with or without
 * @Frequency, @MemoryAddress, @Frequency, then the type), or -1 for a
 * field no column shows. `*suffix` gets what follows the field's name in
 * its column's name in sql/ ("", ".type" for a class loader, ".frames").
 */
int jfrsql_field_format(const jfr_field *f, const char **suffix);

/** The JDK's label of field `f` in a table of all fields: its @Label, with
 * a few short forms ("Time" for a startTime without duration, "GC ID"). */
const char *jfrsql_field_label(const jfr_field *f, bool has_duration);

/** The view of event `type` as the first file of `cat` that declares it
 * has it, as jfrtool view TYPE takes it (standard input is not read
 * twice): SQLITE_OK with *out NULL when none does, or SQLITE_NOMEM. */
int jfrsql_catalog_type_view(jfrsql_type_view **out, jfrsql_catalog *cat,
                             const char *type);

/** `s` as a JSON string; a "key": value member (NULL: null). */
void jfrsql_json_string(sqlite3_str *js, const char *s);
void jfrsql_json_member(sqlite3_str *js, const char *key, const char *value);

/**
 * Register jfr_type_view_sql(type) and jfr_type_view(type) on `db`, over
 * the files of `cat` (type_view_sql.c; jfrsql_attach calls it).
 */
int jfrsql_register_type_view(sqlite3 *db, jfrsql_catalog *cat);

#endif
