/* view_text_sql.h - the SQL function jfr_view_text (view_text_sql.c). */
#ifndef JFRSQL_VIEW_TEXT_SQL_H
#define JFRSQL_VIEW_TEXT_SQL_H

#include "jfrsql.h"

/** Register jfr_view_text(name) on `db`, over the files of `cat`
 * (jfrsql_attach calls it). */
int jfrsql_register_view_text(sqlite3 *db, jfrsql_catalog *cat);

#endif
