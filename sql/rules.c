/* rules.c - the rules of a connection (doc/report.md, "Rules"): the table
 * temp.jfr_rules holds them as rows, the built-in ones first (the SQL
 * rules of sql/rules.ini, then libjfr's rules over facts), then those a
 * user loads from a rules file (jfrsql_rules_load, SQL jfr_load_rules).
 * An analysis is made from its rows (jfrsql_findings_new): this file
 * runs each rule's query and gives its rows to libjfr, which holds the
 * facts and evaluates every rule (jfr/findings.h). */
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "rules.h"

#define RULES_SCHEMA                                                                     \
    "CREATE TEMP TABLE jfr_rules(id TEXT NOT NULL, severity TEXT NOT NULL DEFAULT "      \
    "'warning', title TEXT NOT NULL, evidence TEXT NOT NULL, subject TEXT, fact TEXT, "  \
    "query TEXT, condition TEXT, link TEXT, max INTEGER NOT NULL DEFAULT 1, missing "    \
    "TEXT NOT NULL DEFAULT 'error', source TEXT NOT NULL DEFAULT 'sql')"

#define RULES_COLUMNS                                                                    \
    "id, severity, title, evidence, subject, fact, query, condition, link, max, "        \
    "missing, source"

static int say(char **errmsg, int rc, const char *what)
{
    if (errmsg && !*errmsg && rc != SQLITE_NOMEM)
        *errmsg = sqlite3_mprintf("%s", what);
    return rc;
}

static int db_fail(sqlite3 *db, char **errmsg)
{
    int rc = sqlite3_errcode(db);

    return say(errmsg, rc == SQLITE_OK ? SQLITE_ERROR : rc, sqlite3_errmsg(db));
}

/* ---- the table ------------------------------------------------------------------- */

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

/* One row of jfr_rules from a rules file's rule, its source `source`. */
static int insert_text(sqlite3 *db, sqlite3_stmt *st, const jfrsql_rule_text *r,
                       const char *source, char **errmsg)
{
    const char *sev = r->value[JFRSQL_KEY_SEVERITY];
    const char *max = r->value[JFRSQL_KEY_MAX];
    const char *missing = r->value[JFRSQL_KEY_MISSING];

    sqlite3_reset(st);
    bind_text(st, 1, r->id);
    bind_text(st, 2, sev ? sev : "warning");
    for (int k = JFRSQL_KEY_TITLE; k <= JFRSQL_KEY_LINK; k++)
        bind_text(st, k + 2, r->value[k]);
    sqlite3_bind_int64(st, 10, max ? atoll(max) : 1);
    bind_text(st, 11, missing ? missing : "error");
    bind_text(st, 12, source);
    return sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : db_fail(db, errmsg);
}

/* One row of jfr_rules from one of libjfr's rules over facts. */
static int insert_rule(sqlite3 *db, sqlite3_stmt *st, const jfr_rule *r, char **errmsg)
{
    sqlite3_reset(st);
    bind_text(st, 1, r->id);
    bind_text(st, 2, r->severity == JFR_SEVERITY_WARNING ? "warning" : "info");
    bind_text(st, 3, r->title);
    bind_text(st, 4, r->evidence);
    bind_text(st, 5, r->subject);
    bind_text(st, 6, r->fact);
    bind_text(st, 7, NULL);
    bind_text(st, 8, r->condition);
    bind_text(st, 9, r->link);
    sqlite3_bind_int64(st, 10, r->max ? r->max : 1);
    bind_text(st, 11, "error");
    bind_text(st, 12, r->source ? r->source : "built-in");
    return sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : db_fail(db, errmsg);
}

static int insert_builtin(sqlite3 *db, sqlite3_stmt *st, char **errmsg)
{
    jfrsql_rule_text *texts;
    size_t n, nfacts;
    const jfr_rule *facts = jfr_findings_builtin_rules(&nfacts);
    int rc = jfrsql_rules_parse(&texts, &n, (const char *)jfrsql_rules_ini,
                                jfrsql_rules_ini_size, "sql/rules.ini", errmsg);

    for (size_t i = 0; i < n && rc == SQLITE_OK; i++)
        rc = insert_text(db, st, &texts[i], "built-in", errmsg);
    for (size_t i = 0; i < nfacts && rc == SQLITE_OK; i++)
        rc = insert_rule(db, st, &facts[i], errmsg);
    jfrsql_rule_texts_free(texts, n);
    return rc;
}

static bool has_rules_table(sqlite3 *db)
{
    sqlite3_stmt *st;
    bool found = false;

    if (sqlite3_prepare_v2(db,
                           "SELECT 1 FROM sqlite_temp_schema WHERE type = 'table' AND "
                           "name = 'jfr_rules'",
                           -1, &st, NULL) == SQLITE_OK)
        found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
}

int jfrsql_rules_table(sqlite3 *db, char **errmsg)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if (has_rules_table(db))
        return SQLITE_OK;
    if ((rc = sqlite3_exec(db, RULES_SCHEMA, NULL, NULL, NULL)) != SQLITE_OK ||
        (rc = sqlite3_prepare_v2(db,
                                 "INSERT INTO temp.jfr_rules(" RULES_COLUMNS
                                 ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                 -1, &st, NULL)) != SQLITE_OK)
        return db_fail(db, errmsg);
    rc = insert_builtin(db, st, errmsg);
    sqlite3_finalize(st);
    return rc;
}

/* ---- loading a rules file -------------------------------------------------------- */

/* A jfr_rule over the values of `r` (borrowed). */
static jfr_rule rule_of_text(const jfrsql_rule_text *r, const char *source)
{
    jfr_rule rule = JFR_RULE_INIT;
    const char *sev = r->value[JFRSQL_KEY_SEVERITY];

    rule.id = r->id;
    rule.severity =
        sev && strcmp(sev, "info") == 0 ? JFR_SEVERITY_INFO : JFR_SEVERITY_WARNING;
    rule.title = r->value[JFRSQL_KEY_TITLE];
    rule.evidence = r->value[JFRSQL_KEY_EVIDENCE];
    rule.subject = r->value[JFRSQL_KEY_SUBJECT];
    rule.fact = r->value[JFRSQL_KEY_FACT];
    rule.condition = r->value[JFRSQL_KEY_CONDITION];
    rule.link = r->value[JFRSQL_KEY_LINK];
    rule.max = r->value[JFRSQL_KEY_MAX] ? (unsigned)atoi(r->value[JFRSQL_KEY_MAX]) : 1;
    rule.source = source;
    return rule;
}

static bool builtin_id(sqlite3 *db, const char *id)
{
    sqlite3_stmt *st;
    bool found = false;

    if (sqlite3_prepare_v2(db,
                           "SELECT 1 FROM temp.jfr_rules WHERE id = ? AND source = "
                           "'built-in'",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
        found = sqlite3_step(st) == SQLITE_ROW;
    }
    sqlite3_finalize(st);
    return found;
}

/* What can be checked before the rules run: the id is not a built-in
 * rule's, and the templates and the condition parse (and name columns
 * of the fact, for a rule over a fact). */
static int check_texts(sqlite3 *db, const jfrsql_rule_text *texts, size_t n,
                       const char *name, char **errmsg)
{
    jfr_findings_options fo = JFR_FINDINGS_OPTIONS_INIT;
    jfr_findings *scratch;
    jfr_error err;
    int rc = SQLITE_OK;

    fo.flags = JFR_FINDINGS_NO_RULES;
    if (jfr_findings_new(&scratch, &fo, &err) < 0)
        return SQLITE_NOMEM;
    for (size_t i = 0; i < n && rc == SQLITE_OK; i++) {
        char *source = sqlite3_mprintf("%s:%d", name, texts[i].line);
        jfr_rule rule = rule_of_text(&texts[i], source);
        int jrc;
        if (!source) {
            rc = SQLITE_NOMEM;
        } else if (builtin_id(db, texts[i].id)) {
            *errmsg = sqlite3_mprintf("%s: rule \"%s\": a built-in rule has this id: "
                                      "choose another",
                                      source, texts[i].id);
            rc = SQLITE_ERROR;
        } else if ((jrc = jfr_findings_add_rule(NULL, scratch, &rule, &err)) < 0) {
            rc =
                jrc == JFR_ENOMEM ? SQLITE_NOMEM : say(errmsg, SQLITE_ERROR, err.message);
        }
        sqlite3_free(source);
    }
    jfr_findings_free(scratch);
    return rc;
}

int jfrsql_rules_load(sqlite3 *db, const char *text, size_t len, const char *name,
                      char **errmsg)
{
    jfrsql_rule_text *texts = NULL;
    sqlite3_stmt *st = NULL;
    size_t n = 0;
    int rc;

    *errmsg = NULL;
    if (!name)
        name = "(rules)";
    if ((rc = jfrsql_rules_table(db, errmsg)) != SQLITE_OK ||
        (rc = jfrsql_rules_parse(&texts, &n, text, len, name, errmsg)) != SQLITE_OK ||
        (rc = check_texts(db, texts, n, name, errmsg)) != SQLITE_OK) {
        jfrsql_rule_texts_free(texts, n);
        return rc;
    }
    if ((rc = sqlite3_exec(db, "SAVEPOINT jfr_load_rules", NULL, NULL, NULL)) !=
            SQLITE_OK ||
        (rc = sqlite3_prepare_v2(db,
                                 "INSERT INTO temp.jfr_rules(" RULES_COLUMNS
                                 ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                 -1, &st, NULL)) != SQLITE_OK)
        rc = db_fail(db, errmsg);
    for (size_t i = 0; i < n && rc == SQLITE_OK; i++) {
        char *source = sqlite3_mprintf("%s:%d", name, texts[i].line);
        rc = source ? insert_text(db, st, &texts[i], source, errmsg) : SQLITE_NOMEM;
        sqlite3_free(source);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_OK)
        sqlite3_exec(db, "ROLLBACK TO jfr_load_rules", NULL, NULL, NULL);
    sqlite3_exec(db, "RELEASE jfr_load_rules", NULL, NULL, NULL);
    jfrsql_rule_texts_free(texts, n);
    return rc;
}
