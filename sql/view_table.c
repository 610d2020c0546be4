/* view_table.c - a view's finished table, one call (jfrsql_view_table):
 * the JDK's checks before the query (view_query.c), the query, and every
 * cell as the JDK's view writes it (view_cells.c), with the columns as the
 * recording labels them (view_fields.c). jfrtool view lays it out as a
 * table, a form, JSON or CSV; doc/sql.md, "A view's table". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view_cells.h"
#include "view_fields.h"
#include "view_result.h"

int jfrsql_view_table_options_init(jfrsql_view_table_options *opts, unsigned version)
{
    if (version != JFRSQL_VIEW_TABLE_OPTIONS_VERSION)
        return SQLITE_MISUSE;
    memset(opts, 0, sizeof *opts);
    opts->version = version;
    return SQLITE_OK;
}

void jfrsql_view_result_free(jfrsql_view_result *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nblocks; i++)
        sqlite3_free(t->blocks[i]);
    sqlite3_free(t->blocks);
    sqlite3_free(t->cols);
    sqlite3_free(t->cells);
    sqlite3_free(t->shown);
    sqlite3_free(t->missing);
    sqlite3_free(t);
}

static jfrsql_view_result *table_new(const jfrsql_view *v)
{
    jfrsql_view_result *t = sqlite3_malloc64(sizeof *t);

    if (!t)
        return NULL;
    memset(t, 0, sizeof *t);
    t->view = v;
    t->shown = sqlite3_malloc64(JFRSQL_VIEW_MAX_COLS * sizeof *t->shown);
    t->cols = sqlite3_malloc64(JFRSQL_VIEW_MAX_COLS * sizeof *t->cols);
    if (!t->shown || !t->cols) {
        jfrsql_view_result_free(t);
        return NULL;
    }
    memcpy(t->shown, v->cols, JFRSQL_VIEW_MAX_COLS * sizeof *t->shown);
    memset(t->cols, 0, JFRSQL_VIEW_MAX_COLS * sizeof *t->cols);
    return t;
}

static void values_free(jfrsql_value *cells, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sqlite3_free(cells[i].s);
    sqlite3_free(cells);
}

/* A real as the JDK's long: sql/ gives unsigned values past 2^63 as
 * reals, and the JDK shows such a field as its signed long (2^64 - 1: -1). */
static int64_t real_as_long(double d)
{
    if (isnan(d))
        return 0;
    if (d >= 18446744073709551616.0)
        return -1;
    if (d >= 9223372036854775808.0)
        return (int64_t)(uint64_t)d;
    if (d <= -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)d;
}

static int read_value(jfrsql_value *x, sqlite3_stmt *st, int c)
{
    memset(x, 0, sizeof *x);
    x->type = sqlite3_column_type(st, c);
    if (x->type == SQLITE_INTEGER) {
        x->i = sqlite3_column_int64(st, c);
        x->d = (double)x->i;
    } else if (x->type == SQLITE_FLOAT) {
        x->d = sqlite3_column_double(st, c);
        x->i = real_as_long(x->d);
    } else if (x->type != SQLITE_NULL) {
        const unsigned char *s = sqlite3_column_text(st, c);
        x->type = SQLITE_TEXT;
        x->s = sqlite3_mprintf("%s", s ? (const char *)s : "");
        if (!x->s)
            return SQLITE_NOMEM;
    }
    return SQLITE_OK;
}

/* Step `st` to its end: the rows' values in `*cells`. */
static int step_rows(sqlite3_stmt *st, size_t ncols, jfrsql_value **cells, size_t *nrows)
{
    size_t cap = 0, width = ncols ? ncols : 1;

    int rc;

    *cells = NULL;
    *nrows = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*nrows == cap) {
            jfrsql_value *grown;
            cap = cap ? cap * 2 : 32;
            grown = sqlite3_realloc64(*cells, cap * width * sizeof *grown);
            if (!grown)
                return SQLITE_NOMEM;
            *cells = grown;
        }
        for (size_t c = 0; c < ncols; c++)
            if (read_value(&(*cells)[*nrows * ncols + c], st, (int)c) != SQLITE_OK) {
                (*nrows)++; /* freed with the others */
                return SQLITE_NOMEM;
            }
        (*nrows)++;
    }
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* The string built in `s`, copied into `t` ("" when empty); `s` is
 * reset for the next cell. NULL when out of memory. */
static const char *take(jfrsql_view_result *t, sqlite3_str *s)
{
    int n = sqlite3_str_length(s);
    const char *p;

    if (sqlite3_str_errcode(s) != SQLITE_OK)
        return NULL;
    p = n ? jfrsql_result_copy(t, sqlite3_str_value(s), (size_t)n) : "";
    sqlite3_str_reset(s);
    return p;
}

/* The columns: labels and formats as shown, units, alignment, totals. */
static void fill_columns(jfrsql_view_result *t, const jfrsql_value *values, size_t nrows)
{
    for (size_t c = 0; c < t->ncols; c++) {
        jfrsql_result_column *col = &t->cols[c];
        col->col = &t->shown[c];
        col->label = col->col->label ? col->col->label : "";
        col->key = t->view->cols[c].label ? t->view->cols[c].label : "";
        col->unit = jfrsql_view_unit(col->col->fmt);
        col->right = jfrsql_fmt_right_aligned(col->col->fmt) && !col->col->left;
        col->total = 0;
        if (t->view->cols[c].fmt == JFRSQL_FMT_NORMALIZED)
            for (size_t i = 0; i < nrows; i++)
                if (values[i * t->ncols + c].type != SQLITE_NULL)
                    col->total += jfrsql_value_number(&values[i * t->ncols + c]);
    }
}

/* The builders of a cell's texts, reused from cell to cell, and the
 * parts the cells hold (the options'). */
typedef struct builders {
    sqlite3_str *text, *compact, *json;
    unsigned parts;
} builders;

/* One cell's text, compact form and JSON value; a text value the same as
 * the cell's text is kept once. */
static int fill_cell(jfrsql_view_result *t, jfrsql_result_cell *cell, builders *b,
                     const jfrsql_result_column *col, const jfrsql_value *x)
{
    const char *j;

    memset(cell, 0, sizeof *cell);
    if (b->parts & JFRSQL_RESULT_TEXT) {
        jfrsql_cell_text(b->text, b->compact, col->col, x, col->total);
        cell->text = take(t, b->text);
        cell->compact = take(t, b->compact);
        if (!cell->text || !cell->compact)
            return SQLITE_NOMEM;
        if (!*cell->compact)
            cell->compact = NULL;
    }
    if (!(b->parts & JFRSQL_RESULT_VALUES))
        return SQLITE_OK;
    cell->value = jfrsql_cell_json(col->col, x, col->total, b->json);
    if (!(j = take(t, b->json)))
        return SQLITE_NOMEM;
    if (cell->value.kind != JFRSQL_JSON_STRING)
        return SQLITE_OK;
    if (!cell->value.s) /* made here: a char's character */
        cell->value.s = j;
    else if (cell->text && strcmp(cell->value.s, cell->text) == 0)
        cell->value.s = cell->text;
    else if (!(cell->value.s = jfrsql_result_copy(t, x->s, strlen(x->s))))
        return SQLITE_NOMEM;
    return SQLITE_OK;
}

/* The texts and JSON values of every cell, the totals first. `owned`:
 * `values` again when they are the table's to free, each value's text
 * freed once its cell is made; else NULL. */
static int fill_cells(jfrsql_view_result *t, const jfrsql_value *values, size_t nrows,
                      jfrsql_value *owned, unsigned parts)
{
    size_t n = nrows * t->ncols;
    builders b = {sqlite3_str_new(NULL), sqlite3_str_new(NULL), sqlite3_str_new(NULL),
                  parts ? parts : JFRSQL_RESULT_TEXT | JFRSQL_RESULT_VALUES};
    int rc = SQLITE_OK;

    t->nrows = nrows;
    t->cells = sqlite3_malloc64((n ? n : 1) * sizeof *t->cells);
    if (!t->cells)
        rc = SQLITE_NOMEM;
    else
        fill_columns(t, values, nrows);
    for (size_t i = 0; i < n && rc == SQLITE_OK; i++) {
        rc = fill_cell(t, &t->cells[i], &b, &t->cols[i % t->ncols], &values[i]);
        if (owned) {
            sqlite3_free(owned[i].s);
            owned[i].s = NULL;
        }
    }
    sqlite3_free(sqlite3_str_finish(b.text));
    sqlite3_free(sqlite3_str_finish(b.compact));
    sqlite3_free(sqlite3_str_finish(b.json));
    if (rc != SQLITE_OK)
        t->nrows = 0; /* the cells made so far are not read */
    return rc;
}

/* The table's state, its missing type or field, `missing` (a copy). */
static int set_state(jfrsql_view_result *t, jfrsql_result_state state,
                     const char *missing)
{
    t->state = state;
    return (t->missing = sqlite3_mprintf("%s", missing)) ? SQLITE_OK : SQLITE_NOMEM;
}

/* Keep the first `keep` of the `ncols` values of each row. */
static void squeeze(jfrsql_value *cells, size_t nrows, size_t ncols, size_t keep)
{
    for (size_t i = 0; i < nrows; i++)
        for (size_t c = 0; c < ncols; c++) {
            if (c >= keep)
                sqlite3_free(cells[i * ncols + c].s);
            else
                cells[i * keep + c] = cells[i * ncols + c];
        }
}

/* Run the view's query into `*cells`: SQLITE_OK, the field the recording
 * lacks (state MISSING_FIELD), or SQLite's error with *errmsg. */
static int query(jfrsql_view_result *t, sqlite3 *db, jfrsql_value **cells, size_t *nrows,
                 char **errmsg)
{
    const char *sql = t->view->sql;
    sqlite3_stmt *st;
    char col[128];
    int rc;

    *cells = NULL;
    *nrows = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        const char *msg = sqlite3_errmsg(db);
        if (strncmp(msg, "no such column: ", 16) != 0) {
            *errmsg = sqlite3_mprintf("%s", msg);
            return SQLITE_ERROR;
        }
        /* the field the JDK names when several are missing */
        if (!jfrsql_missing_column(db, sql, true, col, sizeof col) &&
            !jfrsql_missing_column(db, sql, false, col, sizeof col))
            snprintf(col, sizeof col, "%s", msg + 16);
        return set_state(t, JFRSQL_RESULT_MISSING_FIELD, col);
    }
    t->ncols = (size_t)sqlite3_column_count(st);
    rc = step_rows(st, t->ncols, cells, nrows);
    if (t->ncols > JFRSQL_VIEW_MAX_COLS)
        squeeze(*cells, *nrows, t->ncols, JFRSQL_VIEW_MAX_COLS);
    if (t->ncols > JFRSQL_VIEW_MAX_COLS)
        t->ncols = JFRSQL_VIEW_MAX_COLS;
    if (rc != SQLITE_OK && rc != SQLITE_NOMEM)
        *errmsg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return rc;
}

/* The JDK's checks before the query: SQLITE_DONE when one of them
 * decides the table (its state set). */
static int check(jfrsql_view_result *t, sqlite3 *db, const jfrsql_view_table_options *o)
{
    char missing[512], col[128];
    bool any_rows = false;

    if (jfrsql_view_missing_type(db, t->view, missing, sizeof missing, &any_rows)) {
        int rc = set_state(t, JFRSQL_RESULT_MISSING_TYPE, missing);
        return rc != SQLITE_OK ? rc : SQLITE_DONE;
    }
    /* the JDK resolves the query's fields before it looks for events */
    if (!any_rows && !o->query_without_events &&
        !jfrsql_missing_column(db, t->view->sql, true, col, sizeof col) &&
        !jfrsql_missing_column(db, t->view->sql, false, col, sizeof col)) {
        t->state = JFRSQL_RESULT_NO_EVENTS;
        return SQLITE_DONE;
    }
    return SQLITE_OK;
}

/* The rows: the caller's where it computes them, else the query's. */
static int rows_of(jfrsql_view_result *t, sqlite3 *db, const jfrsql_view_table_options *o,
                   char **errmsg)
{
    jfrsql_value *cells = NULL;
    size_t nrows = 0;
    int rc;

    if (o->rows && o->rows(&cells, &nrows, &t->ncols, t->view, o->rows_user) == 0) {
        rc = fill_cells(t, cells, nrows, NULL, o->parts);
        if (o->free_rows)
            o->free_rows(cells, nrows, o->rows_user);
        return rc;
    }
    rc = query(t, db, &cells, &nrows, errmsg);
    if (rc == SQLITE_OK && t->state == JFRSQL_RESULT_ROWS)
        rc = fill_cells(t, cells, nrows, cells, o->parts);
    values_free(cells, nrows * t->ncols);
    return rc;
}

int jfrsql_view_table(jfrsql_view_result **out, sqlite3 *db, const jfrsql_view *v,
                      const jfrsql_view_table_options *opts, char **errmsg)
{
    jfrsql_view_table_options defaults;
    jfrsql_view_result *t;
    int rc;

    *out = NULL;
    if (errmsg)
        *errmsg = NULL;
    if (!opts) {
        jfrsql_view_table_options_init(&defaults, JFRSQL_VIEW_TABLE_OPTIONS_VERSION);
        opts = &defaults;
    }
    if (opts->version != JFRSQL_VIEW_TABLE_OPTIONS_VERSION || !jfrsql_view_has_sql(v))
        return SQLITE_MISUSE;
    if (!(t = table_new(v)))
        return SQLITE_NOMEM;
    rc = check(t, db, opts);
    if (rc == SQLITE_OK)
        rc = jfrsql_result_file_columns(t, opts->metadata_file, opts->metadata_chunk);
    if (rc == SQLITE_OK)
        rc = rows_of(t, db, opts, errmsg);
    if (rc != SQLITE_OK && rc != SQLITE_DONE) {
        jfrsql_view_result_free(t);
        return rc;
    }
    *out = t;
    return SQLITE_OK;
}

int jfrsql_view_table_of_values(jfrsql_view_result **out, const jfrsql_view *v,
                                const jfrsql_value *cells, size_t nrows, size_t ncols,
                                const jfrsql_view_table_options *opts)
{
    jfrsql_view_result *t;
    int rc;

    *out = NULL;
    if (opts && opts->version != JFRSQL_VIEW_TABLE_OPTIONS_VERSION)
        return SQLITE_MISUSE;
    if (ncols > JFRSQL_VIEW_MAX_COLS)
        return SQLITE_MISUSE;
    if (!(t = table_new(v)))
        return SQLITE_NOMEM;
    t->ncols = ncols;
    rc = jfrsql_result_file_columns(t, opts ? opts->metadata_file : NULL,
                                    opts ? opts->metadata_chunk : NULL);
    if (rc == SQLITE_OK)
        rc = fill_cells(t, cells, nrows, NULL, opts ? opts->parts : 0);
    if (rc != SQLITE_OK) {
        jfrsql_view_result_free(t);
        return rc;
    }
    *out = t;
    return SQLITE_OK;
}
