/* csv_writer.h - jfrtool's one CSV row writer (csv_writer.c), for view
 * and sql: RFC 4180, fields separated by commas, quoted (with quotes
 * doubled) only when they hold a comma, a quote or a line break, every
 * line ended by CRLF. */
#ifndef JFRTOOL_CSV_WRITER_H
#define JFRTOOL_CSV_WRITER_H

#include <stddef.h>
#include <stdio.h>

/** A row being written to `out`: how many fields it has so far. */
typedef struct csv_row {
    FILE *out;
    size_t fields;
} csv_row;

/** Start a row on `out`. */
void csv_row_begin(csv_row *row, FILE *out);
/** The next field, `len` bytes of `s` (NULL: an empty field, as SQL's
 * NULL is written). */
void csv_field(csv_row *row, const char *s, size_t len);
/** The same for a NUL-terminated field. */
void csv_field_str(csv_row *row, const char *s);
/** End the row (CRLF). */
void csv_row_end(csv_row *row);

#endif
