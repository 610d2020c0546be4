/* cells.h - the value of one column for the event a cursor is on. */
#ifndef JFRSQL_CELLS_H
#define JFRSQL_CELLS_H

#include "catalog.h"
#include "identities.h"
#include "stacks.h"

/** Where each column's path leads in one chunk: field indexes, or -1. */
typedef int jfrsql_steps[JFRSQL_MAX_DEPTH + 1];

/** The event being read and what its cells share. */
typedef struct jfrsql_row {
    const jfrsql_table *table;
    jfr_chunk *chunk;
    const char *file;
    const jfr_event *ev;
    jfr_value obj; /* the event as an object, read on first use */
    bool have_obj;
    /* the event's fields up to the last one a used column starts with,
     * read in one walk on first use (each column walked from the first
     * field cost a quarter of a query's time) */
    jfr_value *top;
    bool *top_used; /* the fields a used column starts with; others are skipped */
    size_t top_cap;
    int ntop; /* fields to read: 1 + the highest first step of a used column */
    bool have_top;
    uint64_t used;         /* SQLite's colUsed: bit c for column c, bit 63 for the rest */
    jfrsql_steps *steps;   /* per column, for the current chunk */
    jfrsql_stacks stacks;  /* texts by stack trace key */
    jfrsql_stacks methods; /* texts of methods by method key */
    jfrsql_stacks classes; /* texts of classes by class key */
    jfrsql_stacks threads; /* texts of threads by thread key */
    /* identity columns: the chunk's JVM run (counted over every chunk the
     * cursor met, jfr_header_continues), the catalog's groups, and the
     * groups by pool key of the chunk */
    uint64_t run;
    bool jdk_integers; /* the catalog's: @Unsigned read signed */
    jfr_identity **identity;
    jfrsql_ids ids;
} jfrsql_row;

/** Resolve every column's path against `type` (the table's type in the
 * chunk the row moves to). SQLITE_OK or SQLITE_NOMEM. */
int jfrsql_resolve(jfrsql_row *row, const jfr_type *type);

/** Set the result of `ctx` to column `col` of the row's event. */
void jfrsql_cell(sqlite3_context *ctx, jfrsql_row *row, size_t col);

#endif
