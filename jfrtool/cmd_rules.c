/* cmd_rules.c - jfrtool rules: the findings of `jfrtool report`'s rules
 * (the built-in ones and a user's rules files) as text or JSON, with an
 * exit status a CI job can test (doc/report.md "Rules", doc/jfrtool.1).
 * The rules are rows of sql/'s table jfr_rules; libjfr evaluates them. */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "rules_load.h"
#include "util.h"

const char usage_rules[] =
    "Usage: jfrtool rules [--rules FILE]... [--json] FILE...\n"
    "       jfrtool rules [--rules FILE]... [--json] --list\n"
    "\n"
    "Check recordings against the rules of `jfrtool report`'s findings (long GC\n"
    "pauses, lock contention, deoptimization storms, a high allocation rate,\n"
    "many exceptions, safepoint bias, lost CPU-time samples, one thread\n"
    "dominating CPU, leak candidates; doc/report.md) and against the rules of\n"
    "your own in FILE (SQL over the recording's tables, or the library's\n"
    "facts), and print what they find. Several files are read as one\n"
    "recording.\n"
    "\n"
    "  --rules FILE  add the rules of FILE (doc/report.md, \"Rules of your own\";\n"
    "                '-': standard input); may be given more than once\n"
    "  --json        print JSON: files, rules, skipped, warnings, infos and\n"
    "                findings (id, rule, severity, title, evidence, value,\n"
    "                threshold, at, atNanos, subject, link, source)\n"
    "  --list        print the rules instead (no FILE read)\n"
    "\n"
    "Exit status: 0 no warning (notes may be printed), 3 a rule fired a\n"
    "warning, 1 usage error (a rules file or a rule's SQL that is wrong\n"
    "included), 2 an input that could not be read at all.\n";

/* A rule the recording lacks a table or column for. */
typedef struct skip {
    char *id, *source, *why;
} skip;

typedef struct run {
    skip *skipped;
    size_t nskipped;
    int64_t origin; /* epoch ns of the earliest chunk start */
} run;

static void on_skip(const char *id, const char *source, const char *why, void *user)
{
    run *ru = user;

    ru->skipped = xrealloc(ru->skipped, ru->nskipped + 1, sizeof *ru->skipped);
    ru->skipped[ru->nskipped].id = xstrdup(id);
    ru->skipped[ru->nskipped].source = xstrdup(source);
    ru->skipped[ru->nskipped].why = xstrdup(why);
    ru->nskipped++;
}

/* The earliest chunk start of the inputs, 0 when none (jfr_chunks). */
static int64_t origin_of(sqlite3 *db)
{
    sqlite3_stmt *st;
    int64_t origin = 0;

    if (sqlite3_prepare_v2(db, "SELECT min(start) FROM temp.jfr_chunks", -1, &st, NULL) ==
            SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        origin = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return origin;
}

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *finding_json(const run *ru, const jfr_finding *x)
{
    json_t *j = json_object();

    json_object_set_new(j, "id", json_string(x->key));
    json_object_set_new(j, "rule", json_string(x->id));
    json_object_set_new(
        j, "severity",
        json_string(x->severity == JFR_SEVERITY_WARNING ? "warning" : "info"));
    json_object_set_new(j, "title", json_string(x->title));
    json_object_set_new(j, "evidence", json_string(x->evidence));
    json_object_set_new(j, "value",
                        isfinite(x->value) ? json_real(x->value) : json_null());
    json_object_set_new(j, "threshold", json_real(x->threshold));
    json_object_set_new(
        j, "at",
        x->at_nanos ? json_real((double)jfr_nanos_between(ru->origin, x->at_nanos) / 1e9)
                    : json_null());
    json_object_set_new(j, "atNanos",
                        x->at_nanos ? json_integer(x->at_nanos) : json_null());
    json_object_set_new(j, "subject", str_or_null(x->subject));
    json_object_set_new(j, "link", str_or_null(x->link));
    json_object_set_new(j, "source", json_string(x->source));
    return j;
}

static void print_json(const run *ru, jfr_findings *f, char **files, int nfiles,
                       size_t warnings, size_t infos)
{
    json_t *root = json_object(), *arr = json_array(), *sk = json_array();
    size_t n = jfr_findings_count(f);

    for (int i = 0; i < nfiles; i++)
        json_array_append_new(arr, json_string(files[i]));
    json_object_set_new(root, "files", arr);
    json_object_set_new(root, "rules",
                        json_integer((json_int_t)jfr_findings_rule_count(f)));
    for (size_t i = 0; i < ru->nskipped; i++)
        json_array_append_new(sk, json_pack("{s:s, s:s, s:s}", "id", ru->skipped[i].id,
                                            "source", ru->skipped[i].source, "why",
                                            ru->skipped[i].why));
    json_object_set_new(root, "skipped", sk);
    json_object_set_new(root, "warnings", json_integer((json_int_t)warnings));
    json_object_set_new(root, "infos", json_integer((json_int_t)infos));
    arr = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, finding_json(ru, jfr_findings_at(f, i)));
    json_object_set_new(root, "findings", arr);
    json_dumpf(root, stdout,
               JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
    fputc('\n', stdout);
    json_decref(root);
}

static void print_text(const run *ru, jfr_findings *f, size_t warnings, size_t infos)
{
    size_t n = jfr_findings_count(f);

    for (size_t i = 0; i < n; i++) {
        const jfr_finding *x = jfr_findings_at(f, i);
        printf("%s %s: %s", x->severity == JFR_SEVERITY_WARNING ? "WARNING" : "INFO",
               x->key, x->title);
        if (strcmp(x->source, "built-in") != 0)
            printf(" (%s)", x->source);
        printf("\n    %s", x->evidence);
        if (x->at_nanos)
            printf("; at %.3f s",
                   (double)jfr_nanos_between(ru->origin, x->at_nanos) / 1e9);
        putchar('\n');
    }
    if (n)
        putchar('\n');
    printf("%zu warning%s, %zu note%s from %zu rules\n", warnings,
           warnings == 1 ? "" : "s", infos, infos == 1 ? "" : "s",
           jfr_findings_rule_count(f));
    for (size_t i = 0; i < ru->nskipped; i++)
        printf("left out: %s (%s): %s\n", ru->skipped[i].id, ru->skipped[i].source,
               ru->skipped[i].why);
}

/* ---- --list ------------------------------------------------------------------------ */

static int list_rules(sqlite3 *db, bool json)
{
    static const char *const cols[] = {"id",      "severity", "title",   "evidence",
                                       "subject", "fact",     "query",   "condition",
                                       "link",    "max",      "missing", "source"};
    json_t *arr = json_array();
    sqlite3_stmt *st;

    if (sqlite3_prepare_v2(db,
                           "SELECT id, severity, title, evidence, subject, fact, query, "
                           "condition, link, max, missing, source FROM temp.jfr_rules "
                           "ORDER BY rowid",
                           -1, &st, NULL) != SQLITE_OK)
        diex(EXIT_INPUT, "%s", sqlite3_errmsg(db));
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *v[12];
        for (int i = 0; i < 12; i++)
            v[i] = (const char *)sqlite3_column_text(st, i);
        if (json) {
            json_t *j = json_object();
            for (int i = 0; i < 12; i++)
                json_object_set_new(j, cols[i],
                                    i == 9 ? json_integer(sqlite3_column_int64(st, 9))
                                           : str_or_null(v[i]));
            json_array_append_new(arr, j);
            continue;
        }
        printf("%s (%s, %s): %s\n    reads %s%s; fires when %s\n", v[0], v[1], v[11],
               v[2], v[5] ? "the fact " : "", v[5] ? v[5] : "SQL",
               v[7] && *v[7] ? v[7] : "always");
    }
    sqlite3_finalize(st);
    if (json) {
        json_dumpf(arr, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        fputc('\n', stdout);
    }
    json_decref(arr);
    return EXIT_OK;
}

/* ---- the command ------------------------------------------------------------------ */

typedef struct options {
    const char **rules; /* --rules files */
    size_t nrules;
    bool json, list;
} options;

static int load_all(rules_db *rd, const options *o)
{
    for (size_t i = 0; i < o->nrules; i++)
        if (rules_db_load(rd, o->rules[i]) != EXIT_OK)
            return EXIT_USAGE;
    return EXIT_OK;
}

static int list_only(const options *o)
{
    rules_db rd;
    int status;

    rules_db_new(&rd);
    status = load_all(&rd, o);
    if (status == EXIT_OK)
        status = list_rules(rd.db, o->json);
    rules_db_close(&rd);
    return status;
}

/* "Recording damaged", as the report's page has it, then the rules'. */
static void add_damage(jfr_findings *f, size_t problems)
{
    jfr_rule rule = JFR_RULE_INIT;
    jfr_cell cell = {JFR_CELL_INTEGER, (int64_t)problems, 0, NULL};
    const char *col = "problems";
    size_t k;

    (void)f;
    rule.id = "damaged";
    rule.title = "Recording damaged";
    rule.evidence = problems == 1
                        ? "{problems} problem reading the input; the findings are from "
                          "what could be read"
                        : "{problems} problems reading the input; the findings are from "
                          "what could be read";
    rule.link = "#lost";
    rule.source = "jfrtool";
    if (jfr_findings_add_rule(&k, f, &rule, NULL) < 0 ||
        jfr_findings_set_columns(f, k, &col, 1, NULL) < 0 ||
        jfr_findings_add_row(f, k, &cell) < 0)
        diex(EXIT_INPUT, "out of memory");
}

static int check(const options *o, char **files, int nfiles)
{
    run ru;
    rules_db rd;
    jfr_findings *f;
    size_t warnings = 0, infos = 0, n;
    int status;

    memset(&ru, 0, sizeof ru);
    rules_db_new(&rd);
    /* a rules file that is wrong fails before the recordings are read */
    if (load_all(&rd, o) != EXIT_OK) {
        rules_db_close(&rd);
        return EXIT_USAGE;
    }
    if (!rules_db_attach(&rd, (const char *const *)files, (size_t)nfiles, NULL, NULL,
                         false, &status)) {
        rules_db_close(&rd);
        return status;
    }
    if (!(f = rules_db_findings(&rd, on_skip, &ru))) {
        rules_db_close(&rd);
        return EXIT_USAGE;
    }
    if (jfrsql_findings_read(f, rd.cat) != SQLITE_OK)
        diex(EXIT_INPUT, "out of memory");
    ru.origin = origin_of(rd.db);
    if (rd.problems)
        add_damage(f, rd.problems);
    if (jfr_findings_evaluate(f) != JFR_OK)
        diex(EXIT_INPUT, "out of memory");
    n = jfr_findings_count(f);
    for (size_t i = 0; i < n; i++)
        jfr_findings_at(f, i)->severity == JFR_SEVERITY_WARNING ? warnings++ : infos++;
    if (o->json)
        print_json(&ru, f, files, nfiles, warnings, infos);
    else
        print_text(&ru, f, warnings, infos);
    jfr_findings_free(f);
    rules_db_close(&rd);
    for (size_t i = 0; i < ru.nskipped; i++) {
        free(ru.skipped[i].id);
        free(ru.skipped[i].source);
        free(ru.skipped[i].why);
    }
    free(ru.skipped);
    status = command_status(status);
    if (status != EXIT_OK)
        return status;
    return warnings ? EXIT_WARNING : EXIT_OK;
}

int cmd_rules(int argc, char **argv)
{
    static const struct option opts[] = {
        {"rules", required_argument, NULL, 'r'},
        {"json", no_argument, NULL, 'J'},
        {"list", no_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},
        {0},
    };
    options o;
    int c, status;

    memset(&o, 0, sizeof o);
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'r':
            o.rules = xrealloc(o.rules, o.nrules + 1, sizeof *o.rules);
            o.rules[o.nrules++] = optarg;
            break;
        case 'J':
            o.json = true;
            break;
        case 'l':
            o.list = true;
            break;
        case 'h':
            fputs(usage_rules, stdout);
            free(o.rules);
            return EXIT_OK;
        default:
            fputs(usage_rules, stderr);
            free(o.rules);
            return EXIT_USAGE;
        }
    }
    if (o.list ? optind < argc : optind >= argc) {
        if (o.list)
            warnx_("rules: --list reads no recording");
        fputs(usage_rules, stderr);
        free(o.rules);
        return EXIT_USAGE;
    }
    for (size_t i = 0; i < o.nrules; i++)
        for (int k = optind; k < argc; k++)
            if (strcmp(o.rules[i], "-") == 0 && strcmp(argv[k], "-") == 0) {
                warnx_("rules: standard input cannot be both the rules and a recording");
                free(o.rules);
                return EXIT_USAGE;
            }
    status = o.list ? list_only(&o) : check(&o, argv + optind, argc - optind);
    free(o.rules);
    return status;
}
