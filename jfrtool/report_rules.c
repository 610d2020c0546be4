/* report_rules.c - the report's rules (doc/report.md, "Findings"): the
 * recordings' tables with the rules of sql/ and of the --rules files on
 * one SQLite connection, their queries run while the profiles are read
 * in other threads and before the in-order pass (a rule's SQL error
 * stops the command), the analysis then fed its facts by both passes. The first pass reads the
 * tables' handles (report_read.c), whose chunks' records the queries
 * listed (libjfr's record index): it does not walk every chunk afresh.
 * Without SQLite, libjfr's own rules over facts only (report_read.c
 * makes them), and no --rules. */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "jfrtool.h"
#include "report.h"

#ifdef HAVE_SQLITE
#include "rules_load.h"

struct report_rules {
    rules_db rd;
};

static int open_input(jfr_recording **out, const char *file, jfr_error *err, void *user)
{
    return report_open(user, file, out, err);
}

/* The rules' SQL errors name the rule: the page is not written. */
static int sql_error(report *r, char *errmsg)
{
    warnx_("%s", errmsg ? errmsg : "out of memory");
    sqlite3_free(errmsg);
    report_rules_close(r);
    return EXIT_USAGE;
}

int report_rules_load(report *r, const char *const *rules, size_t nrules)
{
    report_rules *rr = xcalloc(1, sizeof *rr);

    r->rules = rr;
    rules_db_new(&rr->rd);
    for (size_t i = 0; i < nrules; i++)
        if (rules_db_load(&rr->rd, rules[i]) != EXIT_OK) {
            report_rules_close(r);
            return EXIT_USAGE;
        }
    return EXIT_OK;
}

int report_rules_run(report *r)
{
    jfr_findings_options fo = JFR_FINDINGS_OPTIONS_INIT;
    report_rules *rr = r->rules;
    char *errmsg = NULL;
    int status, rc;

    /* quiet: the first pass tells what is damaged, once; input that
     * cannot be read at all leaves libjfr's rules over facts */
    if (!rules_db_attach(&rr->rd, (const char *const *)r->files, (size_t)r->nfiles,
                         open_input, r, true, &status)) {
        report_rules_close(r);
        return EXIT_OK;
    }
    fo.flags = JFR_FINDINGS_NO_RULES;
    if (jfr_findings_new(&r->findings, &fo, NULL) < 0)
        diex(EXIT_INPUT, "out of memory");
    if ((rc = jfrsql_findings_add_rules(r->findings, rr->rd.db, rr->rd.cat, NULL, NULL,
                                        &errmsg)) == SQLITE_NOMEM)
        diex(EXIT_INPUT, "out of memory");
    if (rc != SQLITE_OK)
        return sql_error(r, errmsg);
    r->recs = xcalloc((size_t)r->nfiles + 1, sizeof *r->recs);
    for (int i = 0; i < r->nfiles; i++)
        r->recs[i] = jfrsql_catalog_recording(rr->rd.cat, (size_t)i);
    return EXIT_OK;
}

void report_rules_close(report *r)
{
    if (!r->rules)
        return;
    rules_db_close(&r->rules->rd); /* the handles of r->recs with it */
    free(r->rules);
    r->rules = NULL;
    free(r->recs);
    r->recs = NULL;
}
#else
int report_rules_load(report *r, const char *const *rules, size_t nrules)
{
    (void)r;
    (void)rules;
    if (nrules) {
        warnx_("report: --rules needs SQL, and this jfrtool was built without SQLite");
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int report_rules_run(report *r)
{
    (void)r;
    return EXIT_OK;
}

void report_rules_close(report *r)
{
    (void)r;
}
#endif
