/* view_cells.h - a view's value as the JDK's views write it (view_cells.c):
 * the text of a cell in its column's format, its compact form, and its
 * value in JSON. */
#ifndef JFRSQL_VIEW_CELLS_H
#define JFRSQL_VIEW_CELLS_H

#include "jfrsql.h"

/** The text of value `x` in column `col` into `text`, its compact form
 * (methods, classes, frames) into `compact`; `total` the column's total
 * (normalized columns). */
void jfrsql_cell_text(sqlite3_str *text, sqlite3_str *compact, const jfrsql_view_col *col,
                      const jfrsql_value *x, double total);

/** The value of `x` in column `col` as JSON and CSV give it: numbers in
 * the column's unit, shares in percent. Its text (a char's character)
 * is in `text` when it is made here. */
jfrsql_json_value jfrsql_cell_json(const jfrsql_view_col *col, const jfrsql_value *x,
                                   double total, sqlite3_str *text);

/** Whether a value of format `f` is right-aligned in a table. */
bool jfrsql_fmt_right_aligned(jfrsql_view_fmt f);

/** `x` as a number and as the JDK's long (text parsed; a real as read). */
double jfrsql_value_number(const jfrsql_value *x);

#endif
