/* rules_sql.c - the rules in SQL (doc/sql.md, "Rules"): jfr_load_rules()
 * adds a rules file's rules to temp.jfr_rules, and jfr_check() runs every
 * rule of temp.jfr_rules over the files of jfr_attach and writes what
 * they find into temp.jfr_findings, for the sqlite3 shell and Python. */
#include <math.h>
#include <string.h>

#include "catalog.h"
#include "rules.h"

/* SELECT jfr_load_rules(text [, name]): the number of rules added. */
static void load_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    sqlite3 *db = sqlite3_context_db_handle(ctx);
    const char *text = (const char *)sqlite3_value_text(argv[0]);
    int len = sqlite3_value_bytes(argv[0]);
    const char *name = argc > 1 ? (const char *)sqlite3_value_text(argv[1]) : NULL;
    sqlite3_int64 before = 0, after = 0;
    char *err = NULL;
    int rc;

    if (!text) {
        sqlite3_result_error(ctx, "jfr_load_rules: the text of a rules file expected",
                             -1);
        return;
    }
    if (jfrsql_rules_table(db, &err) == SQLITE_OK)
        before = jfrsql_rules_count(db);
    rc = jfrsql_rules_load(db, text, (size_t)len, name, &err);
    if (rc == SQLITE_OK) {
        after = jfrsql_rules_count(db);
        sqlite3_result_int64(ctx, after - before);
    } else if (rc == SQLITE_NOMEM) {
        sqlite3_result_error_nomem(ctx);
    } else {
        sqlite3_result_error(ctx, err ? err : sqlite3_errstr(rc), -1);
    }
    sqlite3_free(err);
}

sqlite3_int64 jfrsql_rules_count(sqlite3 *db)
{
    sqlite3_stmt *st;
    sqlite3_int64 n = 0;

    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM temp.jfr_rules", -1, &st, NULL) ==
            SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

int jfrsql_register_rules(sqlite3 *db)
{
    int rc = SQLITE_OK;

    for (int nargs = 1; nargs <= 2 && rc == SQLITE_OK; nargs++)
        rc = sqlite3_create_function_v2(db, "jfr_load_rules", nargs,
                                        SQLITE_UTF8 | SQLITE_DIRECTONLY, NULL, load_fn,
                                        NULL, NULL, NULL);
    return rc;
}

/* ---- jfr_check ------------------------------------------------------------------- */

#define FINDINGS_SCHEMA                                                                  \
    "DROP TABLE IF EXISTS temp.jfr_findings; CREATE TEMP TABLE jfr_findings(id TEXT, "   \
    "rule TEXT, severity TEXT, title TEXT, evidence TEXT, value REAL, threshold REAL, "  \
    "at INTEGER, subject TEXT, link TEXT, source TEXT)"

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

/* The findings of `f` as the rows of temp.jfr_findings; *warnings set. */
static int write_findings(sqlite3 *db, jfr_findings *f, sqlite3_int64 *warnings)
{
    sqlite3_stmt *st = NULL;
    size_t n;
    int rc;

    *warnings = 0;
    if (jfr_findings_evaluate(f) != JFR_OK)
        return SQLITE_NOMEM;
    n = jfr_findings_count(f);
    rc = sqlite3_exec(db, FINDINGS_SCHEMA, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_prepare_v2(
            db, "INSERT INTO temp.jfr_findings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            -1, &st, NULL);
    for (size_t i = 0; i < n && rc == SQLITE_OK; i++) {
        const jfr_finding *x = jfr_findings_at(f, i);
        bind_text(st, 1, x->key);
        bind_text(st, 2, x->id);
        bind_text(st, 3, x->severity == JFR_SEVERITY_WARNING ? "warning" : "info");
        bind_text(st, 4, x->title);
        bind_text(st, 5, x->evidence);
        if (isnan(x->value))
            sqlite3_bind_null(st, 6);
        else
            sqlite3_bind_double(st, 6, x->value);
        sqlite3_bind_double(st, 7, x->threshold);
        if (x->at_nanos)
            sqlite3_bind_int64(st, 8, x->at_nanos);
        else
            sqlite3_bind_null(st, 8);
        bind_text(st, 9, x->subject);
        bind_text(st, 10, x->link);
        bind_text(st, 11, x->source);
        rc = sqlite3_step(st) == SQLITE_DONE ? sqlite3_reset(st) : sqlite3_errcode(db);
        *warnings += x->severity == JFR_SEVERITY_WARNING;
    }
    sqlite3_finalize(st);
    return rc;
}

int jfrsql_check(jfr_findings **out, sqlite3 *db, jfrsql_catalog *cat, bool lazy,
                 jfrsql_skip_fn skipped, void *user, char **errmsg)
{
    int rc = jfrsql_findings_new(out, db, lazy ? cat : NULL, skipped, user, errmsg);
    bool facts = false;

    if (rc != SQLITE_OK)
        return rc;
    for (size_t i = 0; i < jfr_findings_rule_count(*out); i++)
        facts = facts || jfr_findings_rule_at(*out, i)->fact;
    /* the facts read the files again: only when a rule reads one */
    if (facts && cat && (rc = jfrsql_findings_read(*out, cat)) != SQLITE_OK) {
        jfr_findings_free(*out);
        *out = NULL;
    }
    return rc;
}

/* SELECT jfr_check(): the number of warnings found. */
static void check_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    sqlite3 *db = sqlite3_context_db_handle(ctx);
    jfr_findings *f = NULL;
    sqlite3_int64 warnings = 0;
    char *err = NULL;
    int rc;

    (void)argc;
    (void)argv;
    /* jfr_attach made every table; jfrtool's lazy attach makes them as
     * the queries name them */
    rc = jfrsql_check(&f, db, sqlite3_user_data(ctx), true, NULL, NULL, &err);
    if (rc == SQLITE_OK)
        rc = write_findings(db, f, &warnings);
    if (rc == SQLITE_OK)
        sqlite3_result_int64(ctx, warnings);
    else if (rc == SQLITE_NOMEM)
        sqlite3_result_error_nomem(ctx);
    else
        sqlite3_result_error(ctx, err ? err : sqlite3_errmsg(db), -1);
    sqlite3_free(err);
    jfr_findings_free(f);
}

int jfrsql_register_check(sqlite3 *db, jfrsql_catalog *cat)
{
    jfrsql_catalog_ref(cat);
    return sqlite3_create_function_v2(db, "jfr_check", 0, SQLITE_UTF8 | SQLITE_DIRECTONLY,
                                      cat, check_fn, NULL, NULL, jfrsql_catalog_release);
}
