/* rules_run.c - an analysis from the rows of temp.jfr_rules (rules.c):
 * each rule is added to a libjfr analysis (jfr/findings.h); a rule with
 * a query has it run here, on the recording's tables, and its rows
 * given to the analysis; the facts come from the catalog's files. */
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "rules.h"

static int say(char **errmsg, int rc, char *what)
{
    if (!*errmsg && rc != SQLITE_NOMEM)
        *errmsg = what;
    else
        sqlite3_free(what);
    return rc;
}

static const char *column_text(sqlite3_stmt *st, int i)
{
    return (const char *)sqlite3_column_text(st, i);
}

/* A row of jfr_rules as a jfr_rule (strings borrowed from `st`). */
static jfr_rule rule_of_row(sqlite3_stmt *st)
{
    jfr_rule rule = JFR_RULE_INIT;
    const char *sev = column_text(st, 1);
    sqlite3_int64 max = sqlite3_column_int64(st, 9);

    rule.id = column_text(st, 0);
    rule.severity =
        sev && strcmp(sev, "info") == 0 ? JFR_SEVERITY_INFO : JFR_SEVERITY_WARNING;
    rule.title = column_text(st, 2);
    rule.evidence = column_text(st, 3);
    rule.subject = column_text(st, 4);
    rule.fact = column_text(st, 5);
    rule.condition = column_text(st, 7);
    rule.link = column_text(st, 8);
    rule.max = max < 1 ? 1 : max > 1000 ? 1000 : (unsigned)max;
    rule.source = column_text(st, 11);
    return rule;
}

/* SQLite's words for a table or a column the recording does not have. */
static bool missing_name(const char *msg)
{
    return strncmp(msg, "no such table", 13) == 0 ||
           strncmp(msg, "no such column", 14) == 0;
}

/* "SOURCE: rule "ID": query: what", with the nearest names of a
 * mistyped table or column (suggest.c). */
static char *query_error(const jfr_rule *rule, sqlite3 *db, const char *sql,
                         const char *msg)
{
    char *hint = sql ? jfrsql_error_hint(db, sql, msg) : NULL;
    char *out = sqlite3_mprintf("%s: rule \"%s\": query: %s%s", rule->source, rule->id,
                                msg, hint ? hint : "");

    sqlite3_free(hint);
    return out;
}

static jfr_cell cell_of(sqlite3_stmt *st, int i)
{
    jfr_cell c = {JFR_CELL_NULL, 0, 0, NULL};

    switch (sqlite3_column_type(st, i)) {
    case SQLITE_INTEGER:
        c.type = JFR_CELL_INTEGER;
        c.integer = sqlite3_column_int64(st, i);
        break;
    case SQLITE_FLOAT:
        c.type = JFR_CELL_REAL;
        c.real = sqlite3_column_double(st, i);
        break;
    case SQLITE_TEXT:
        c.type = JFR_CELL_TEXT;
        c.text = column_text(st, i);
        break;
    default:
        break;
    }
    return c;
}

/* Name the columns of rule `k` after the statement's, then give it rows
 * until it has what it keeps. */
static int run_query(jfr_findings *f, size_t k, sqlite3 *db, sqlite3_stmt *q,
                     char **errmsg)
{
    const jfr_rule *rule = jfr_findings_rule_at(f, k);
    int ncols = sqlite3_column_count(q), rc;
    const char **names = sqlite3_malloc64(((size_t)ncols + 1) * sizeof *names);
    jfr_cell *cells = sqlite3_malloc64(((size_t)ncols + 1) * sizeof *cells);
    jfr_error err;

    if (!names || !cells) {
        sqlite3_free(names);
        sqlite3_free(cells);
        return SQLITE_NOMEM;
    }
    for (int i = 0; i < ncols; i++)
        names[i] = sqlite3_column_name(q, i);
    if ((rc = jfr_findings_set_columns(f, k, names, (size_t)ncols, &err)) < 0) {
        rc = rc == JFR_ENOMEM
                 ? SQLITE_NOMEM
                 : say(errmsg, SQLITE_ERROR, sqlite3_mprintf("%s", err.message));
    } else {
        int added = JFR_OK;
        while (added == JFR_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
            for (int i = 0; i < ncols; i++)
                cells[i] = cell_of(q, i);
            added = jfr_findings_add_row(f, k, cells);
        }
        if (added == JFR_ENOMEM)
            rc = SQLITE_NOMEM;
        else if (rc == SQLITE_ROW || rc == SQLITE_DONE)
            rc = SQLITE_OK; /* stopped early, or every row */
        else
            rc = say(errmsg, rc,
                     query_error(rule, db, sqlite3_sql(q), sqlite3_errmsg(db)));
    }
    sqlite3_free(names);
    sqlite3_free(cells);
    return rc;
}

/* The name in SQLite's "no such table: NAME", or NULL. */
static const char *missing_table(const char *msg)
{
    return strncmp(msg, "no such table: ", 15) == 0 ? msg + 15 : NULL;
}

/* Prepare `sql`; with a `lazy` catalog, make each table it names that is
 * not made yet, and again. */
static int prepare(sqlite3 *db, jfrsql_catalog *lazy, const char *sql, sqlite3_stmt **q,
                   const char **tail)
{
    int rc;

    for (int tables = 0;; tables++) {
        char *err = NULL, *name;
        const char *missing;
        if ((rc = sqlite3_prepare_v2(db, sql, -1, q, tail)) == SQLITE_OK || !lazy ||
            tables >= 64 || !(missing = missing_table(sqlite3_errmsg(db))))
            break;
        if (!(name = sqlite3_mprintf("%s", missing)))
            return SQLITE_NOMEM;
        rc = jfrsql_attach_table(db, lazy, name, &err);
        sqlite3_free(name);
        sqlite3_free(err);
        if (rc != SQLITE_OK) {
            /* not a table of the recording: every table for the hint's
             * nearest names, and SQLite's words again */
            (void)jfrsql_attach_table(db, lazy, NULL, &err);
            sqlite3_free(err);
            return sqlite3_prepare_v2(db, sql, -1, q, tail);
        }
    }
    return rc;
}

/* Add the rule of row `st` to `f`, and run its query. */
static int add_row_rule(jfr_findings *f, sqlite3 *db, jfrsql_catalog *lazy,
                        sqlite3_stmt *st, jfrsql_skip_fn skipped, void *user,
                        char **errmsg)
{
    jfr_rule rule = rule_of_row(st);
    const char *sql = column_text(st, 6), *tail = NULL;
    const char *missing = column_text(st, 10);
    sqlite3_stmt *q = NULL;
    jfr_error err;
    size_t k;
    int rc;

    if (!rule.id || !rule.title || !rule.evidence || !rule.source)
        return say(errmsg, SQLITE_ERROR,
                   sqlite3_mprintf("jfr_rules: a row without id, title, evidence or "
                                   "source"));
    if (sql && !rule.fact) {
        if ((rc = prepare(db, lazy, sql, &q, &tail)) != SQLITE_OK) {
            const char *msg = sqlite3_errmsg(db);
            if (rc == SQLITE_NOMEM)
                return SQLITE_NOMEM;
            if (missing && strcmp(missing, "skip") == 0 && missing_name(msg)) {
                if (skipped)
                    skipped(rule.id, rule.source, msg, user);
                return SQLITE_OK;
            }
            return say(errmsg, SQLITE_ERROR, query_error(&rule, db, sql, msg));
        }
        while (tail && (*tail == ' ' || *tail == '\n' || *tail == '\t' || *tail == ';'))
            tail++;
        if (!q || (tail && *tail)) {
            sqlite3_finalize(q);
            return say(errmsg, SQLITE_ERROR,
                       query_error(&rule, db, NULL, "one SELECT statement expected"));
        }
    } else if (!rule.fact) {
        return say(errmsg, SQLITE_ERROR,
                   sqlite3_mprintf("%s: rule \"%s\": it has neither a query nor a fact",
                                   rule.source, rule.id));
    }
    if ((rc = jfr_findings_add_rule(&k, f, &rule, &err)) < 0)
        rc = rc == JFR_ENOMEM
                 ? SQLITE_NOMEM
                 : say(errmsg, SQLITE_ERROR, sqlite3_mprintf("%s", err.message));
    else if (q)
        rc = run_query(f, k, db, q, errmsg);
    sqlite3_finalize(q);
    return rc;
}

/* Each row of temp.jfr_rules, in order, to `row` (stops at an error). */
static int for_each_rule(sqlite3 *db, char **errmsg,
                         int (*row)(sqlite3_stmt *st, void *user), void *user)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = jfrsql_rules_table(db, errmsg)) != SQLITE_OK)
        return rc;
    if (sqlite3_prepare_v2(db,
                           "SELECT id, severity, title, evidence, subject, fact, query, "
                           "condition, link, max, missing, source FROM temp.jfr_rules "
                           "ORDER BY rowid",
                           -1, &st, NULL) != SQLITE_OK)
        return say(errmsg, SQLITE_ERROR, sqlite3_mprintf("%s", sqlite3_errmsg(db)));
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if ((rc = row(st, user)) != SQLITE_OK)
            break;
    if (rc == SQLITE_DONE)
        rc = SQLITE_OK;
    else if (rc != SQLITE_OK && rc != SQLITE_NOMEM)
        say(errmsg, rc, sqlite3_mprintf("%s", sqlite3_errmsg(db)));
    sqlite3_finalize(st);
    return rc;
}

typedef struct adding {
    jfr_findings *f;
    sqlite3 *db;
    jfrsql_catalog *lazy;
    jfrsql_skip_fn skipped;
    void *user;
    char **errmsg;
} adding;

static int add_one(sqlite3_stmt *st, void *user)
{
    const adding *a = user;

    return add_row_rule(a->f, a->db, a->lazy, st, a->skipped, a->user, a->errmsg);
}

int jfrsql_findings_add_rules(jfr_findings *f, sqlite3 *db, jfrsql_catalog *lazy,
                              jfrsql_skip_fn skipped, void *user, char **errmsg)
{
    adding a = {f, db, lazy, skipped, user, errmsg};

    *errmsg = NULL;
    return for_each_rule(db, errmsg, add_one, &a);
}

int jfrsql_findings_new(jfr_findings **out, sqlite3 *db, jfrsql_catalog *lazy,
                        jfrsql_skip_fn skipped, void *user, char **errmsg)
{
    jfr_findings_options fo = JFR_FINDINGS_OPTIONS_INIT;
    jfr_error err;
    int rc;

    *out = NULL;
    *errmsg = NULL;
    fo.flags = JFR_FINDINGS_NO_RULES;
    if (jfr_findings_new(out, &fo, &err) < 0)
        return SQLITE_NOMEM;
    if ((rc = jfrsql_findings_add_rules(*out, db, lazy, skipped, user, errmsg)) !=
        SQLITE_OK) {
        jfr_findings_free(*out);
        *out = NULL;
    }
    return rc;
}

int jfrsql_findings_read(jfr_findings *f, jfrsql_catalog *cat)
{
    size_t nfiles = cat->nfiles, n = 0;
    jfr_recording **recs = sqlite3_malloc64((2 * nfiles + 1) * sizeof *recs);
    jfr_recording **open = recs + nfiles; /* the files that opened, in order */
    bool *lent = sqlite3_malloc64((nfiles + 1) * sizeof *lent);
    int rc;

    if (!recs || !lent) {
        sqlite3_free(recs);
        sqlite3_free(lent);
        return SQLITE_NOMEM;
    }
    for (size_t i = 0; i < nfiles; i++)
        if ((recs[i] = jfrsql_catalog_borrow(cat, i, &lent[i])) != NULL)
            open[n++] = recs[i];
    rc = jfr_findings_add_recordings(f, open, n) == JFR_ENOMEM ? SQLITE_NOMEM : SQLITE_OK;
    for (size_t i = 0; i < nfiles; i++)
        if (recs[i])
            jfrsql_catalog_give_back(cat, i, recs[i], lent[i]);
    sqlite3_free(recs);
    sqlite3_free(lent);
    return rc;
}
