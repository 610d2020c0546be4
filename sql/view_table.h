/* view_table.h - the parts of a view's table (view_table.c): its texts,
 * and its columns as the recording's metadata gives them (view_fields.c). */
#ifndef JFRSQL_VIEW_TABLE_H
#define JFRSQL_VIEW_TABLE_H

#include "jfrsql.h"

/** A copy of the `n` bytes at `s`, NUL-terminated, that lives as long as
 * the table (in its text blocks); NULL when out of memory. */
const char *jfrsql_result_copy(jfrsql_view_result *t, const char *s, size_t n);

/** The labels and formats of `t`'s columns as the first chunk of `file`
 * declares the view's first type (as they were when `file` is NULL, cannot
 * be read or lacks the type); `chunk`, when not NULL, is that first chunk,
 * already open. SQLITE_OK or SQLITE_NOMEM. */
int jfrsql_result_file_columns(jfrsql_view_result *t, const char *file, jfr_chunk *chunk);

/** Register jfr_view_text(name) on `db`, over the files of `cat`
 * (view_text_sql.c; jfrsql_attach calls it). */
int jfrsql_register_view_text(sqlite3 *db, jfrsql_catalog *cat);

#endif
