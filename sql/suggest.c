/* suggest.c - what to add to SQLite's "no such column" and "no such table":
 * the columns of the statement's tables nearest to the unknown one, or the
 * nearest tables (libjfr's jfr_nearest_names, the rule every "did you
 * mean" of jfrtool follows). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "jfrsql.h"

#define MAX_HINTS 3

/* A growing list of (table, name) pairs from SQLite's memory. */
typedef struct names {
    char **table, **name;
    size_t n, cap;
    int rc;
} names;

static void add(names *l, const char *table, const char *name)
{
    if (l->rc != SQLITE_OK)
        return;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        char **t = sqlite3_realloc64(l->table, cap * sizeof *t);
        char **n = t ? sqlite3_realloc64(l->name, cap * sizeof *n) : NULL;
        if (t)
            l->table = t;
        if (!t || !n) {
            l->rc = SQLITE_NOMEM;
            return;
        }
        l->name = n;
        l->cap = cap;
    }
    l->table[l->n] = sqlite3_mprintf("%s", table);
    l->name[l->n] = sqlite3_mprintf("%s", name);
    if (!l->table[l->n] || !l->name[l->n]) {
        sqlite3_free(l->table[l->n]);
        sqlite3_free(l->name[l->n]);
        l->rc = SQLITE_NOMEM;
        return;
    }
    l->n++;
}

static void free_names(names *l)
{
    for (size_t i = 0; i < l->n; i++) {
        sqlite3_free(l->table[i]);
        sqlite3_free(l->name[i]);
    }
    sqlite3_free(l->table);
    sqlite3_free(l->name);
}

/* Each row of `query` (one text column, bound to `arg` when not NULL) as a
 * name of `table`. */
static void add_rows(names *l, sqlite3 *db, const char *query, const char *arg,
                     const char *table)
{
    sqlite3_stmt *st;

    if (sqlite3_prepare_v2(db, query, -1, &st, NULL) != SQLITE_OK)
        return;
    if (arg)
        sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(st, 0);
        if (v)
            add(l, table ? table : v, v);
    }
    sqlite3_finalize(st);
}

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c == '.' || (unsigned char)c >= 0x80;
}

/* Whether `sql` names table `t`: as a whole word, in any case, quoted or not
 * ("jdk.ExecutionSample" does not name ExecutionSample). */
static bool mentions(const char *sql, const char *t)
{
    size_t n = strlen(t);

    for (const char *p = sql; *p; p++)
        if (strncasecmp(p, t, n) == 0 && (p == sql || !ident_char(p[-1])) &&
            !ident_char(p[n]))
            return true;
    return false;
}

/* Whether `sql` has `text` in double quotes. */
static bool quoted(const char *sql, const char *text)
{
    size_t n = strlen(text);

    for (const char *p = strchr(sql, '"'); p; p = strchr(p + 1, '"'))
        if (strncmp(p + 1, text, n) == 0 && p[n + 1] == '"')
            return true;
    return false;
}

static const char *const TABLES_SQL =
    "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') "
    "UNION ALL SELECT name FROM sqlite_temp_schema WHERE type IN ('table', 'view')";

/* The indexes of the names of `l` nearest to `what`, up to MAX_HINTS. */
static size_t nearest(size_t *out, const names *l, const char *what)
{
    return jfr_nearest_names(out, MAX_HINTS, what, (const char *const *)l->name, l->n);
}

static char *column_hint(sqlite3 *db, const char *sql, const char *column)
{
    names tables = {0}, cols = {0};
    size_t idx[MAX_HINTS], n = 0, mentioned = 0;
    const char *only = NULL; /* the table, when the statement names one */
    char *hint = NULL;

    add_rows(&tables, db, TABLES_SQL, NULL, NULL);
    for (size_t i = 0; i < tables.n; i++) {
        if (!mentions(sql, tables.name[i]))
            continue;
        only = mentioned++ ? NULL : tables.name[i];
        add_rows(&cols, db, "SELECT name FROM pragma_table_info(?1)", tables.name[i],
                 tables.name[i]);
    }
    if (cols.rc == SQLITE_OK && cols.n)
        n = nearest(idx, &cols, column);
    for (size_t i = 0; i < n; i++) {
        const char *sep = i ? ", " : " (did you mean ";
        hint = only ? sqlite3_mprintf("%z%s\"%w\"", hint, sep, cols.name[idx[i]])
                    : sqlite3_mprintf("%z%s\"%w\" of %s", hint, sep, cols.name[idx[i]],
                                      cols.table[idx[i]]);
    }
    if (hint)
        hint = sqlite3_mprintf("%z?)", hint);
    else if (quoted(sql, column))
        hint = sqlite3_mprintf(" (double quotes make a name; a string takes single "
                               "quotes: '%q')",
                               column);
    else if (only && cols.rc == SQLITE_OK)
        hint = sqlite3_mprintf(" (no column of %s is near it: SELECT name FROM "
                               "pragma_table_info('%q') lists them)",
                               only, only);
    free_names(&tables);
    free_names(&cols);
    return hint;
}

/* "jdk.ExecutionSample" when "ExecutionSample" is suggested too. */
static bool has_short_form(const names *l, const size_t *idx, size_t n, const char *t)
{
    const char *dot = strrchr(t, '.');

    for (size_t i = 0; dot && i < n; i++)
        if (strcasecmp(l->name[idx[i]], dot + 1) == 0)
            return true;
    return false;
}

static char *table_hint(sqlite3 *db, const char *table)
{
    names tables = {0};
    size_t idx[MAX_HINTS], n = 0, shown = 0;
    char *hint = NULL;
    const char *dot = strchr(table, '.');

    /* "main.X": the name without its schema */
    if (dot &&
        (strncasecmp(table, "main.", 5) == 0 || strncasecmp(table, "temp.", 5) == 0))
        table = dot + 1;
    add_rows(&tables, db, TABLES_SQL, NULL, NULL);
    if (tables.rc == SQLITE_OK && tables.n)
        n = nearest(idx, &tables, table);
    for (size_t i = 0; i < n; i++) {
        const char *t = tables.name[idx[i]];
        if (has_short_form(&tables, idx, n, t))
            continue;
        hint = strchr(t, '.') ? sqlite3_mprintf("%z%s\"%w\"", hint,
                                                shown++ ? ", " : " (did you mean ", t)
                              : sqlite3_mprintf("%z%s%s", hint,
                                                shown++ ? ", " : " (did you mean ", t);
    }
    if (hint)
        hint = sqlite3_mprintf("%z?)", hint);
    free_names(&tables);
    return hint;
}

char *jfrsql_error_hint(sqlite3 *db, const char *sql, const char *errmsg)
{
    static const char col[] = "no such column: ", tab[] = "no such table: ";

    if (!db || !sql || !errmsg)
        return NULL;
    if (strncmp(errmsg, col, sizeof col - 1) == 0)
        return column_hint(db, sql, errmsg + sizeof col - 1);
    if (strncmp(errmsg, tab, sizeof tab - 1) == 0)
        return table_hint(db, errmsg + sizeof tab - 1);
    return NULL;
}
