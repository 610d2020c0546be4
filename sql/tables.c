/* tables.c - making a catalog's tables on a connection, all at once
 * (attach.c), one at a time as statements name them (the rules' lazy
 * connection, rules_run.c) or those a known statement names (a view's). */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "catalog.h"

/* CREATE VIRTUAL TABLE for table `t` (and the view of its short name)
 * through the catalog's module `module`. */
int jfrsql_create_table(sqlite3 *db, const char *module, const jfrsql_table *t,
                        char **errmsg)
{
    char *sql = sqlite3_mprintf("CREATE VIRTUAL TABLE main.\"%w\" USING \"%w\"(%Q)",
                                t->name, module, t->name);
    int rc;

    if (sql && t->alias)
        sql = sqlite3_mprintf("%z; CREATE VIEW main.\"%w\" AS SELECT * FROM main.\"%w\"",
                              sql, t->alias, t->name);
    rc = sql ? sqlite3_exec(db, sql, NULL, NULL, errmsg) : SQLITE_NOMEM;
    sqlite3_free(sql);
    return rc;
}

/* The module that carries `cat` to its tables' xCreate: "jfr_catalog_%p". */
char *jfrsql_module_name(const jfrsql_catalog *cat)
{
    return sqlite3_mprintf("jfr_catalog_%p", (const void *)cat);
}

static bool in_schema(sqlite3 *db, const char *name)
{
    sqlite3_stmt *st;
    bool found = false;

    if (sqlite3_prepare_v2(db, "SELECT 1 FROM main.sqlite_schema WHERE name = ?1", -1,
                           &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        found = sqlite3_step(st) == SQLITE_ROW;
    }
    sqlite3_finalize(st);
    return found;
}

int jfrsql_attach_table(sqlite3 *db, jfrsql_catalog *cat, const char *name, char **errmsg)
{
    char *module = jfrsql_module_name(cat);
    int rc = module ? SQLITE_NOTFOUND : SQLITE_NOMEM;

    *errmsg = NULL;
    for (size_t i = 0; i < cat->ntables && module; i++) {
        const jfrsql_table *t = &cat->tables[i];
        if (name && strcasecmp(t->name, name) != 0 &&
            !(t->alias && strcasecmp(t->alias, name) == 0))
            continue;
        if (in_schema(db, t->name)) {
            if (name) {
                rc = SQLITE_NOTFOUND; /* made already: it is not what is missing */
                break;
            }
            continue;
        }
        if ((rc = jfrsql_create_table(db, module, t, errmsg)) != SQLITE_OK || name)
            break;
    }
    if (!name && rc == SQLITE_NOTFOUND)
        rc = SQLITE_OK;
    sqlite3_free(module);
    return rc;
}

/* A character SQLite reads as part of an unquoted name. */
static bool is_name_char(unsigned char c)
{
    return isalnum(c) || c == '_' || c == '$' || c >= 0x80;
}

/* Whether lower-case `text` has `name` (any case) as a word. */
static bool mentions(const char *text, const char *name)
{
    char word[256];
    size_t n = strlen(name);

    if (n == 0)
        return false;
    if (n >= sizeof word)
        return true; /* too long to look for: make it */
    for (size_t i = 0; i <= n; i++)
        word[i] = (char)tolower((unsigned char)name[i]);
    for (const char *at = strstr(text, word); at; at = strstr(at + 1, word))
        if ((at == text || !is_name_char((unsigned char)at[-1])) &&
            !is_name_char((unsigned char)at[n]))
            return true;
    return false;
}

/* `sql` in lower case, to look for names in (NULL: out of memory). */
static char *lower_copy(const char *sql)
{
    char *text = sqlite3_mprintf("%s", sql);

    for (char *c = text; c && *c; c++)
        *c = (char)tolower((unsigned char)*c);
    return text;
}

/* Whether lower-case `text` names table `t`, by its full or short name. */
static bool names_table(const char *text, const jfrsql_table *t)
{
    return mentions(text, t->name) || (t->alias && mentions(text, t->alias));
}

static int attach_tables_in(sqlite3 *db, jfrsql_catalog *cat, const char *sql,
                            size_t *made, char **errmsg)
{
    char *module = jfrsql_module_name(cat);
    char *text = lower_copy(sql);
    int rc = module && text ? SQLITE_OK : SQLITE_NOMEM;

    *errmsg = NULL;
    for (size_t i = 0; i < cat->ntables && rc == SQLITE_OK; i++) {
        const jfrsql_table *t = &cat->tables[i];
        if (names_table(text, t) && !in_schema(db, t->name) &&
            (rc = jfrsql_create_table(db, module, t, errmsg)) == SQLITE_OK)
            (*made)++;
    }
    sqlite3_free(text);
    sqlite3_free(module);
    return rc;
}

int jfrsql_attach_tables_in(sqlite3 *db, jfrsql_catalog *cat, const char *sql,
                            char **errmsg)
{
    size_t made = 0;

    return attach_tables_in(db, cat, sql, &made, errmsg);
}

int jfrsql_view_attach_tables(sqlite3 *db, jfrsql_catalog *cat, const jfrsql_view *v,
                              char **errmsg)
{
    size_t made = 0;
    int rc = attach_tables_in(db, cat, v->types, &made, errmsg);

    return rc == SQLITE_OK && v->sql ? attach_tables_in(db, cat, v->sql, &made, errmsg)
                                     : rc;
}

void jfrsql_view_list_records(jfrsql_catalog *cat, const jfrsql_view *v)
{
    char *types = lower_copy(v->types), *sql = lower_copy(v->sql ? v->sql : "");
    const char **names = sqlite3_malloc64((cat->ntables + 1) * sizeof *names);
    size_t n = 0;

    for (size_t i = 0; types && sql && names && i < cat->ntables; i++)
        if (names_table(types, &cat->tables[i]) || names_table(sql, &cat->tables[i]))
            names[n++] = cat->tables[i].name;
    if (n > 0)
        jfrsql_catalog_list_records(cat, names, n);
    sqlite3_free(names);
    sqlite3_free(sql);
    sqlite3_free(types);
}

static void make_tables_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const char *text = (const char *)sqlite3_value_text(argv[0]);
    size_t made = 0;
    char *err = NULL;
    int rc;

    (void)argc;
    rc = attach_tables_in(sqlite3_context_db_handle(ctx), sqlite3_user_data(ctx),
                          text ? text : "", &made, &err);
    if (rc == SQLITE_OK)
        sqlite3_result_int64(ctx, (sqlite3_int64)made);
    else if (rc == SQLITE_NOMEM)
        sqlite3_result_error_nomem(ctx);
    else
        sqlite3_result_error(ctx, err ? err : sqlite3_errstr(rc), -1);
    sqlite3_free(err);
}

int jfrsql_register_make_tables(sqlite3 *db, jfrsql_catalog *cat)
{
    jfrsql_catalog_ref(cat);
    return sqlite3_create_function_v2(db, "jfr_make_tables", 1,
                                      SQLITE_UTF8 | SQLITE_DIRECTONLY, cat,
                                      make_tables_fn, NULL, NULL, jfrsql_catalog_release);
}
