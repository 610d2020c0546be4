/* view_fields.h - a view's columns as the recording labels them
 * (view_fields.c). */
#ifndef JFRSQL_VIEW_FIELDS_H
#define JFRSQL_VIEW_FIELDS_H

#include "jfrsql.h"

/** The labels and formats of `t`'s columns as the first chunk of `file`
 * declares the view's first type (as they were when `file` is NULL, cannot
 * be read or lacks the type); `chunk`, when not NULL, is that first chunk,
 * already open. SQLITE_OK or SQLITE_NOMEM. */
int jfrsql_result_file_columns(jfrsql_view_result *t, const char *file, jfr_chunk *chunk);

#endif
