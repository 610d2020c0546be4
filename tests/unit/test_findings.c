/* test_findings.c - rules as rows (jfr/findings.h): adding a rule checks
 * its id, fact, condition and templates, naming the rule and its source;
 * the rows a caller adds are tested against the condition as they come
 * (at most `max` kept); findings come rule after rule with their
 * templates filled; the built-in rules are valid rows over known facts;
 * every allocation failure is a clean JFR_ENOMEM. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jfr.h"

static jfr_findings *empty(void)
{
    jfr_findings_options o = JFR_FINDINGS_OPTIONS_INIT;
    jfr_findings *f = NULL;
    jfr_error err;

    o.flags = JFR_FINDINGS_NO_RULES;
    cr_assert_eq(jfr_findings_new(&f, &o, &err), JFR_OK, "%s", err.message);
    return f;
}

static jfr_rule rule(const char *id, const char *condition, const char *title,
                     const char *evidence)
{
    jfr_rule r = JFR_RULE_INIT;

    r.id = id;
    r.condition = condition;
    r.title = title;
    r.evidence = evidence;
    r.source = "t.rules:7";
    return r;
}

/* Add `r` with columns `cols`; its index. */
static size_t add(jfr_findings *f, jfr_rule r, const char *const *cols, size_t n)
{
    jfr_error err;
    size_t k;

    cr_assert_eq(jfr_findings_add_rule(&k, f, &r, &err), JFR_OK, "%s", err.message);
    cr_assert_eq(jfr_findings_set_columns(f, k, cols, n, &err), JFR_OK, "%s",
                 err.message);
    return k;
}

/* The findings of `f` as evaluated now (jfr_findings_count builds nothing). */
static size_t evaluated(jfr_findings *f)
{
    cr_assert_eq(jfr_findings_evaluate(f), JFR_OK);
    return jfr_findings_count(f);
}

static jfr_cell num(double v)
{
    jfr_cell c = {JFR_CELL_REAL, 0, v, NULL};
    return c;
}

static jfr_cell integer(int64_t v)
{
    jfr_cell c = {JFR_CELL_INTEGER, v, 0, NULL};
    return c;
}

static jfr_cell text(const char *s)
{
    jfr_cell c = {JFR_CELL_TEXT, 0, 0, s};
    return c;
}

static const jfr_cell null_cell = {JFR_CELL_NULL, 0, 0, NULL};

/* The error of adding `r` (the analysis is left as it was). */
static const char *add_error(jfr_rule r)
{
    static jfr_error err;
    jfr_findings *f = empty();
    int rc = jfr_findings_add_rule(NULL, f, &r, &err);

    cr_assert_eq(rc, JFR_EINVAL, "added: %s", r.id ? r.id : "(null)");
    cr_assert_eq(jfr_findings_rule_count(f), 0);
    jfr_findings_free(f);
    return err.message;
}

static const char *columns_error(jfr_rule r, const char *const *cols, size_t n)
{
    static jfr_error err;
    jfr_findings *f = empty();
    size_t k;

    cr_assert_eq(jfr_findings_add_rule(&k, f, &r, &err), JFR_OK, "%s", err.message);
    cr_assert_eq(jfr_findings_set_columns(f, k, cols, n, &err), JFR_EINVAL);
    jfr_findings_free(f);
    return err.message;
}

Test(findings, bad_rules_name_the_rule_and_its_source)
{
    jfr_rule r = rule("x", "a > 1", "T", "E");
    static const char *const cols[] = {"a", "b"};

    r.id = "has space";
    cr_assert(strstr(add_error(r), "t.rules:7: rule \"has space\": an id is"));
    r = rule("x", "a >", "T", "E");
    cr_assert(
        strstr(add_error(r), "t.rules:7: rule \"x\": condition: a number expected"));
    r = rule("x", "a > 1 and", "T", "E");
    cr_assert(strstr(add_error(r), "condition: a comparison expected after \"and\""));
    r = rule("x", "a 1", "T", "E");
    cr_assert(strstr(add_error(r), "condition: a comparison (< <= > >= = !=) expected"));
    r = rule("x", "a > 1 b > 2", "T", "E");
    cr_assert(strstr(add_error(r), "\"and\" or \"or\" expected"));
    r = rule("x", "a > 0x10", "T", "E");
    cr_assert(strstr(add_error(r), "a number expected at \"0x10\""),
              "hex is not a number");
    r = rule("x", "", "T {a", "E");
    cr_assert(strstr(add_error(r), "template: \"{\" without its \"}\""));
    r = rule("x", "", "T", "E {a:.2g}");
    cr_assert(strstr(add_error(r), "a format is .Nf, .N%, d or bytes"));
    r = rule("x", "", "T }", "E");
    cr_assert(strstr(add_error(r), "\"}\" without its \"{\""));
    r = rule("x", "", NULL, "E");
    cr_assert(strstr(add_error(r), "a title and an evidence are needed"));
    r = rule("x", "", "T", "E");
    r.fact = "no-such-fact";
    cr_assert(strstr(add_error(r), "unknown fact \"no-such-fact\""));
    r = rule("x", "", "T", "E");
    r.severity = (jfr_severity)7;
    cr_assert(strstr(add_error(r), "severity is warning or info"));
    /* a fact's columns are known when the rule is added */
    r = rule("x", "shar > 1", "T", "E");
    r.fact = "threads";
    cr_assert(strstr(add_error(r), "condition: unknown column \"shar\" (columns: thread, "
                                   "share, samples, threads, sampler)"));
    r = rule("x", "", "T {nope}", "E");
    r.fact = "cpu-time";
    cr_assert(strstr(add_error(r), "title: unknown column \"nope\""));
    /* a caller's columns when it names them */
    r = rule("x", "c > 1", "T", "E");
    cr_assert(strstr(columns_error(r, cols, 2), "condition: unknown column \"c\" "
                                                "(columns: a, b)"));
    r = rule("x", "", "T", "E {c:d}");
    cr_assert(strstr(columns_error(r, cols, 2), "evidence: unknown column \"c\""));
    r = rule("x", "", "T", "E");
    r.subject = "{zz}";
    cr_assert(strstr(columns_error(r, cols, 2), "subject: unknown column \"zz\""));
    {
        static const char *const twice[] = {"a", "a"};
        r = rule("x", "", "T", "E");
        cr_assert(strstr(columns_error(r, twice, 2), "column \"a\" named twice"));
    }
}

Test(findings, conditions_join_comparisons_with_and_before_or)
{
    static const char *const cols[] = {"a", "b", "c"};
    jfr_findings *f = empty();
    size_t k = add(f, rule("r", "a >= 1 and b < 2 or c = 3", "T", "E"), cols, 3);
    struct {
        jfr_cell a, b, c;
        bool fires;
    } rows[] = {
        {integer(1), num(1.5), integer(0), true}, /* a and b */
        {integer(1), num(2), integer(0), false},  /* b fails */
        {integer(0), num(0), integer(3), true},   /* c */
        {null_cell, num(0), num(3.0), true},      /* NULL fails a, c holds */
        {text("5"), num(0), integer(2), false},   /* text is no number */
        {num(NAN), num(0), integer(2), false},    /* nor is NaN */
    };

    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        jfr_findings *g = empty();
        size_t j = add(g, rule("r", "a >= 1 and b < 2 or c = 3", "T", "E"), cols, 3);
        jfr_cell row[3] = {rows[i].a, rows[i].b, rows[i].c};
        jfr_findings_add_row(g, j, row);
        cr_expect_eq(evaluated(g), rows[i].fires ? 1u : 0u, "row %zu", i);
        jfr_findings_free(g);
    }
    (void)k;
    jfr_findings_free(f);
}

Test(findings, the_getters_build_nothing)
{
    static const char *const cols[] = {"n"};
    jfr_findings *f = empty();
    jfr_rule r = rule("r", "n > 0", "T{n}", "E");
    jfr_cell one = integer(1), two = integer(2);
    size_t k;

    r.max = 2;
    k = add(f, r, cols, 1);
    jfr_findings_add_row(f, k, &one);
    cr_assert_eq(jfr_findings_count(f), 0, "not evaluated yet");
    cr_assert_null(jfr_findings_at(f, 0));
    cr_assert_eq(jfr_findings_evaluate(f), JFR_OK);
    cr_assert_eq(jfr_findings_count(f), 1);
    cr_assert_str_eq(jfr_findings_at(f, 0)->title, "T1");
    cr_assert_eq(jfr_findings_evaluate(f), JFR_OK, "again, nothing added: the same");
    cr_assert_eq(jfr_findings_count(f), 1);
    jfr_findings_add_row(f, k, &two);
    cr_assert_eq(jfr_findings_count(f), 0, "a row added: evaluate again");
    cr_assert_null(jfr_findings_at(f, 0));
    cr_assert_eq(jfr_findings_evaluate(f), JFR_OK);
    cr_assert_eq(jfr_findings_count(f), 2);
    cr_assert_str_eq(jfr_findings_at(f, 1)->title, "T2");
    cr_assert_eq(jfr_findings_evaluate(NULL), JFR_EINVAL);
    jfr_findings_free(f);
}

Test(findings, numbers_take_binary_byte_units)
{
    static const char *const cols[] = {"rate"};
    jfr_findings *f = empty();
    size_t k = add(f, rule("r", "rate >= 1 GiB", "T", "E"), cols, 1);
    jfr_cell below = num(1073741823), at = num(1073741824);
    const jfr_finding *x;

    jfr_findings_add_row(f, k, &below);
    cr_assert_eq(evaluated(f), 0);
    jfr_findings_add_row(f, k, &at);
    cr_assert_eq(evaluated(f), 1);
    x = jfr_findings_at(f, 0);
    cr_assert_eq(x->value, 1073741824.0);
    cr_assert_eq(x->threshold, 1073741824.0, "the first comparison's number");
    jfr_findings_free(f);
}

Test(findings, templates_format_each_column)
{
    static const char *const cols[] = {"i", "r", "share", "bytes", "name", "none", "at"};
    jfr_findings *f = empty();
    jfr_rule r = rule("fmt", "", "{name}: {i} {{braces}}",
                      "{i} {r} {r:.3f} {r:d} {share:.1%} {share:.0%} {bytes:bytes} "
                      "{none} {name:.2f}");
    size_t k;
    jfr_cell row[] = {integer(42),       num(2.25), num(0.125),      num(1610612736),
                      text("a.B.field"), null_cell, integer(1234567)};
    const jfr_finding *x;

    r.subject = "{name}";
    r.link = "#leaks";
    k = add(f, r, cols, 7);
    cr_assert_eq(jfr_findings_add_row(f, k, row), JFR_DONE,
                 "max 1: the rule has its row");
    cr_assert_eq(evaluated(f), 1);
    x = jfr_findings_at(f, 0);
    cr_assert_str_eq(x->title, "a.B.field: 42 {braces}");
    cr_assert_str_eq(x->evidence, "42 2.2 2.250 2 12.5% 12% 1.5 GiB N/A a.B.field");
    cr_assert_str_eq(x->subject, "a.B.field");
    cr_assert_str_eq(x->link, "#leaks");
    cr_assert_str_eq(x->source, "t.rules:7");
    cr_assert_str_eq(x->id, "fmt");
    cr_assert_eq(x->at_nanos, 1234567);
    cr_assert(isnan(x->value), "no condition: no value");
    cr_assert_eq(x->rule, k);
    jfr_findings_free(f);
}

Test(findings, max_rows_that_pass_are_kept_in_order)
{
    static const char *const cols[] = {"n", "name"};
    jfr_findings *f = empty();
    jfr_rule r = rule("many", "n > 10", "{name}", "{n}");
    size_t k;
    int rcs[5];
    static const int ns[] = {5, 11, 3, 12, 13};
    static const char *const names[] = {"a", "b", "c", "d", "e"};

    r.max = 2;
    k = add(f, r, cols, 2);
    for (int i = 0; i < 5; i++) {
        jfr_cell row[2] = {integer(ns[i]), text(names[i])};
        rcs[i] = jfr_findings_add_row(f, k, row);
    }
    cr_assert_eq(rcs[0], JFR_OK, "a row that does not pass");
    cr_assert_eq(rcs[1], JFR_OK);
    cr_assert_eq(rcs[2], JFR_OK);
    cr_assert_eq(rcs[3], JFR_DONE, "the second that passes: the rule has its max");
    cr_assert_eq(rcs[4], JFR_DONE, "more are not kept");
    cr_assert_eq(evaluated(f), 2);
    cr_assert_str_eq(jfr_findings_at(f, 0)->title, "b");
    cr_assert_str_eq(jfr_findings_at(f, 1)->title, "d");
    jfr_findings_free(f);
}

Test(findings, rules_are_evaluated_in_their_order)
{
    static const char *const cols[] = {"v"};
    jfr_findings *f = empty();
    size_t k1 = add(f, rule("first", "v > 0", "one", "e"), cols, 1);
    size_t k2 = add(f, rule("second", "v > 0", "two", "e"), cols, 1);
    jfr_cell one = integer(1);

    jfr_findings_add_row(f, k2, &one);
    jfr_findings_add_row(f, k1, &one);
    cr_assert_eq(evaluated(f), 2);
    cr_assert_str_eq(jfr_findings_at(f, 0)->id, "first");
    cr_assert_str_eq(jfr_findings_at(f, 1)->id, "second");
    cr_assert_null(jfr_findings_at(f, 2));
    cr_assert_eq(jfr_findings_rule_count(f), 2);
    cr_assert_str_eq(jfr_findings_rule_at(f, 1)->id, "second");
    cr_assert_null(jfr_findings_rule_at(f, 2));
    jfr_findings_free(f);
}

Test(findings, a_fact_rule_has_no_rows_of_its_caller)
{
    jfr_findings *f = empty();
    jfr_rule r = rule("ex", "per_second >= 0", "T", "{throwables:.0f}");
    static const char *const cols[] = {"x"};
    jfr_cell cell = integer(1);
    jfr_error err;
    size_t k;

    r.fact = "exceptions";
    cr_assert_eq(jfr_findings_add_rule(&k, f, &r, &err), JFR_OK, "%s", err.message);
    cr_assert_eq(jfr_findings_set_columns(f, k, cols, 1, &err), JFR_EINVAL);
    cr_assert_eq(jfr_findings_add_row(f, k, &cell), JFR_EINVAL);
    /* the exceptions fact always has its row: nothing thrown, 0 per second */
    cr_assert_eq(evaluated(f), 1);
    cr_assert_str_eq(jfr_findings_at(f, 0)->evidence, "0");
    jfr_findings_free(f);
}

Test(findings, builtin_rules_are_valid_rows_over_known_facts)
{
    size_t nrules, nfacts;
    const jfr_rule *rules = jfr_findings_builtin_rules(&nrules);
    const jfr_fact *facts = jfr_findings_facts(&nfacts);
    jfr_findings *f;
    jfr_error err;

    cr_assert_gt(nrules, 0);
    cr_assert_eq(jfr_findings_new(&f, NULL, &err), JFR_OK, "%s", err.message);
    cr_assert_eq(jfr_findings_rule_count(f), nrules);
    for (size_t i = 0; i < nrules; i++) {
        bool known = false;
        cr_assert_not_null(rules[i].fact, "%s: a built-in rule of libjfr reads a fact",
                           rules[i].id);
        for (size_t j = 0; j < nfacts; j++)
            known = known || strcmp(facts[j].name, rules[i].fact) == 0;
        cr_assert(known, "%s reads %s", rules[i].id, rules[i].fact);
        cr_assert_str_eq(jfr_findings_rule_at(f, i)->id, rules[i].id);
    }
    /* nothing fed: only the exceptions fact has a row, and it does not fire */
    cr_assert_eq(evaluated(f), 0);
    jfr_findings_free(f);
}

Test(findings, bad_arguments)
{
    jfr_findings_options o = JFR_FINDINGS_OPTIONS_INIT;
    jfr_findings *f = NULL;
    jfr_rule r = rule("x", "", "T", "E");
    jfr_error err;

    o.version = 99;
    cr_assert_eq(jfr_findings_new(&f, &o, &err), JFR_EINVAL);
    cr_assert_null(f);
    f = empty();
    r.version = 2;
    cr_assert_eq(jfr_findings_add_rule(NULL, f, &r, &err), JFR_EINVAL);
    cr_assert_eq(jfr_findings_add_rule(NULL, NULL, &r, &err), JFR_EINVAL);
    cr_assert_eq(jfr_findings_add_rule(NULL, f, NULL, &err), JFR_EINVAL);
    cr_assert_eq(jfr_findings_set_columns(f, 5, NULL, 0, &err), JFR_EINVAL);
    cr_assert_eq(jfr_findings_add_row(f, 0, NULL), JFR_EINVAL);
    cr_assert_eq(jfr_findings_add_recordings(NULL, NULL, 0), JFR_EINVAL);
    cr_assert_eq(jfr_findings_add_recordings(f, NULL, 0), JFR_OK,
                 "no recording: nothing");
    jfr_findings_free(f);
    jfr_findings_free(NULL);
}

/* ---- allocation failures --------------------------------------------------------- */

static long budget; /* allocations left; < 0: no limit */

static void *fail_malloc(size_t n, void *ctx)
{
    (void)ctx;
    if (budget == 0)
        return NULL;
    if (budget > 0)
        budget--;
    return malloc(n);
}

static void *fail_realloc(void *p, size_t n, void *ctx)
{
    (void)ctx;
    if (budget == 0)
        return NULL;
    if (budget > 0)
        budget--;
    return realloc(p, n);
}

static void fail_free(void *p, void *ctx)
{
    (void)ctx;
    free(p);
}

/* Everything an analysis does with a caller's rows, under `budget`. */
static int exercise(void)
{
    static const jfr_allocator al = {fail_malloc, fail_realloc, fail_free, NULL};
    static const char *const cols[] = {"n", "name"};
    jfr_findings_options o = JFR_FINDINGS_OPTIONS_INIT;
    jfr_rule r = rule("sweep", "n > 1 or n < -1", "{name} {n}", "{n:bytes} of {name}");
    jfr_findings *f;
    jfr_error err;
    size_t k;
    int rc;

    o.allocator = &al;
    if ((rc = jfr_findings_new(&f, &o, &err)) < 0)
        return rc;
    r.subject = "{name}";
    r.max = 3;
    if ((rc = jfr_findings_add_rule(&k, f, &r, &err)) >= 0 &&
        (rc = jfr_findings_set_columns(f, k, cols, 2, &err)) >= 0) {
        for (int i = 0; i < 4 && rc >= 0; i++) {
            jfr_cell row[2] = {integer(i * 1000), text("a rather long name of a thing")};
            rc = jfr_findings_add_row(f, k, row);
        }
        if (rc >= 0)
            rc = jfr_findings_evaluate(f);
        if (rc >= 0 && jfr_findings_count(f) != 3)
            rc = JFR_EINVAL; /* evaluated, but not as it should be */
    }
    jfr_findings_free(f);
    return rc < 0 ? rc : JFR_OK;
}

Test(findings, every_allocation_failure_is_enomem)
{
    long n;

    for (n = 0;; n++) {
        int rc;
        budget = n;
        rc = exercise();
        if (rc == JFR_OK)
            break;
        cr_assert_eq(rc, JFR_ENOMEM, "allocation %ld: %s", n, jfr_strerror(rc));
    }
    budget = -1;
    cr_assert_gt(n, 10, "the sweep went through the allocations");
}
