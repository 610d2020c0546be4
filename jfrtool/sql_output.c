/* sql_output.c - printing the rows of a statement: text tables through the
 * views' table writer (view_table.c), JSON with numbers as numbers
 * (json_writer.h), CSV by RFC 4180 (csv_writer.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csv_writer.h"
#include "json_writer.h"
#include "sql_output.h"
#include "util.h"
#include "views.h"

/* ---- text ------------------------------------------------------------------ */

static int print_text(FILE *out, sqlite3_stmt *stmt, int width)
{
    int ncols = sqlite3_column_count(stmt), rc;
    view_column *cols = xcalloc((size_t)ncols, sizeof *cols);
    const char **cells = xcalloc((size_t)ncols, sizeof *cells);
    bool *typed = xcalloc((size_t)ncols, sizeof *typed);
    view_table t = {0};

    for (int c = 0; c < ncols; c++)
        cols[c].label = sqlite3_column_name(stmt, c);
    t.cols = cols;
    t.ncols = (size_t)ncols;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        for (int c = 0; c < ncols; c++) {
            int type = sqlite3_column_type(stmt, c);
            /* numbers align right, as the views' counts do */
            if (!typed[c] && type != SQLITE_NULL) {
                typed[c] = true;
                cols[c].right = type == SQLITE_INTEGER || type == SQLITE_FLOAT;
            }
            cells[c] =
                type == SQLITE_NULL ? "N/A" : (const char *)sqlite3_column_text(stmt, c);
            if (!cells[c])
                cells[c] = "";
        }
        view_table_add(&t, cells, NULL);
    }
    if (rc == SQLITE_DONE)
        view_table_print(out, &t, width, false);
    view_table_free(&t);
    free(cols);
    free(cells);
    free(typed);
    return rc;
}

/* ---- JSON ------------------------------------------------------------------ */

static json_t *json_cell(sqlite3_stmt *stmt, int c)
{
    switch (sqlite3_column_type(stmt, c)) {
    case SQLITE_INTEGER:
        return json_integer(sqlite3_column_int64(stmt, c));
    case SQLITE_FLOAT: {
        double d = sqlite3_column_double(stmt, c);
        return isfinite(d) ? json_real(d) : json_null();
    }
    case SQLITE_TEXT: {
        json_t *s = json_stringn((const char *)sqlite3_column_text(stmt, c),
                                 (size_t)sqlite3_column_bytes(stmt, c));
        return s ? s : json_null(); /* not UTF-8 */
    }
    default:
        return json_null();
    }
}

static int print_json(FILE *out, sqlite3_stmt *stmt)
{
    int ncols = sqlite3_column_count(stmt), rc;
    json_t *doc = json_object(), *names = json_array(), *rows = json_array();
    char **keys = xcalloc((size_t)ncols, sizeof *keys);

    /* a key per column: a repeated name gets "_2", "_3", ... */
    for (int c = 0; c < ncols; c++) {
        const char *name = sqlite3_column_name(stmt, c);
        strbuf sb = {0};
        int n = 1;
        sb_puts(&sb, name);
        for (int d = 0; d < c; d++) {
            if (strcmp(keys[d], sb_str(&sb)) == 0) {
                sb_clear(&sb);
                sb_printf(&sb, "%s_%d", name, ++n);
                d = -1;
            }
        }
        keys[c] = xstrdup(sb_str(&sb));
        sb_free(&sb);
        json_array_append_new(names, json_string(keys[c]));
    }
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        json_t *row = json_object();
        for (int c = 0; c < ncols; c++)
            json_object_set_new(row, keys[c], json_cell(stmt, c));
        json_array_append_new(rows, row);
    }
    json_object_set_new(doc, "columns", names);
    json_object_set_new(doc, "rows", rows);
    if (rc == SQLITE_DONE) {
        json_tree_print(out, doc, 17);
    }
    json_decref(doc);
    for (int c = 0; c < ncols; c++)
        free(keys[c]);
    free(keys);
    return rc;
}

/* ---- CSV ------------------------------------------------------------------- */

static int print_csv(FILE *out, sqlite3_stmt *stmt)
{
    int ncols = sqlite3_column_count(stmt), rc;
    csv_row row;

    csv_row_begin(&row, out);
    for (int c = 0; c < ncols; c++)
        csv_field_str(&row, sqlite3_column_name(stmt, c));
    csv_row_end(&row);
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        for (int c = 0; c < ncols; c++) /* NULL is an empty field */
            csv_field(&row, (const char *)sqlite3_column_text(stmt, c),
                      (size_t)sqlite3_column_bytes(stmt, c));
        csv_row_end(&row);
    }
    return rc;
}

int sql_print_rows(FILE *out, sqlite3_stmt *stmt, out_format_id format, int width)
{
    switch (format) {
    case OUT_FMT_JSON:
        return print_json(out, stmt);
    case OUT_FMT_CSV:
        return print_csv(out, stmt);
    default:
        return print_text(out, stmt, width);
    }
}
