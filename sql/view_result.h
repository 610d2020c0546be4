/* view_result.h - the texts of a view's table (view_result.c). */
#ifndef JFRSQL_VIEW_RESULT_H
#define JFRSQL_VIEW_RESULT_H

#include "jfrsql.h"

/** A copy of the `n` bytes at `s`, NUL-terminated, that lives as long as
 * the table (in its text blocks); NULL when out of memory. */
const char *jfrsql_result_copy(jfrsql_view_result *t, const char *s, size_t n);

#endif
