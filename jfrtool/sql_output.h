/* sql_output.h - the rows of an SQL statement as jfrtool prints them: a
 * table laid out as the views lay theirs out, JSON, or CSV (RFC 4180). */
#ifndef JFRTOOL_SQL_OUTPUT_H
#define JFRTOOL_SQL_OUTPUT_H

#include <stdio.h>

#include <sqlite3.h>

typedef enum sql_format { SQL_TEXT, SQL_JSON, SQL_CSV } sql_format;

/**
 * Step `stmt` to its end, printing its rows to `out` in `format`; `width`
 * is the text table's width (0: as the views choose). Returns SQLITE_DONE,
 * or the error code of the step that failed (nothing printed then for
 * text and JSON, which print at the end).
 */
int sql_print_rows(FILE *out, sqlite3_stmt *stmt, sql_format format, int width);

#endif
