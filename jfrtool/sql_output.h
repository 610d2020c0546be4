/* sql_output.h - the rows of an SQL statement as jfrtool prints them: a
 * table laid out as the views lay theirs out, JSON, or CSV (RFC 4180). */
#ifndef JFRTOOL_SQL_OUTPUT_H
#define JFRTOOL_SQL_OUTPUT_H

#include <stdio.h>

#include <sqlite3.h>

#include "formats.h"

/**
 * Step `stmt` to its end, printing its rows to `out` in `format`
 * (OUT_FMT_TEXT, OUT_FMT_JSON or OUT_FMT_CSV); `width`
 * is the text table's width (0: as the views choose). Returns SQLITE_DONE,
 * or the error code of the step that failed (nothing printed then for
 * text and JSON, which print at the end).
 */
int sql_print_rows(FILE *out, sqlite3_stmt *stmt, out_format_id format, int width);

#endif
