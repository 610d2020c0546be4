/* findings.c - an analysis of jfr/findings.h: its rules (rows of data,
 * jfr_rule), the rows the caller adds for rules that read no fact, and
 * the evaluation, which is one loop over the rules: each rule's rows (a
 * fact's, findings_facts.c, or the caller's) are tested against its
 * condition and the first that pass are written with its templates
 * (findings_expr.c). */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings_private.h"

static char *dup_string(const jfrp_alloc *al, const char *s)
{
    size_t n;
    char *d;

    if (!s)
        return NULL;
    n = strlen(s) + 1;
    if ((d = jfrp_malloc(al, n)))
        memcpy(d, s, n);
    return d;
}

/* Free a string the analysis copied and points to as const. */
static void free_text(const jfrp_alloc *al, const char *s)
{
    jfrp_free(al, (void *)(uintptr_t)s);
}

static void free_rule(jfrp_rule *r, const jfrp_alloc *al)
{
    free_text(al, r->row.id);
    free_text(al, r->row.title);
    free_text(al, r->row.evidence);
    free_text(al, r->row.subject);
    free_text(al, r->row.fact);
    free_text(al, r->row.condition);
    free_text(al, r->row.link);
    free_text(al, r->row.source);
    jfrp_cond_free(&r->cond, al);
    jfrp_template_free(&r->title, al);
    jfrp_template_free(&r->evidence, al);
    jfrp_template_free(&r->subject, al);
    for (size_t i = 0; i < r->ncolumns; i++)
        jfrp_free(al, r->columns[i]);
    jfrp_free(al, r->columns);
    for (size_t i = 0; i < r->nrows * r->ncolumns; i++)
        if (r->cells[i].type == JFR_CELL_TEXT)
            free_text(al, r->cells[i].text);
    jfrp_free(al, r->cells);
}

int jfr_findings_new(jfr_findings **out, const jfr_findings_options *opts, jfr_error *err)
{
    const jfr_rule *builtin;
    size_t n;
    jfr_findings *f;
    jfrp_alloc al;

    if (!out)
        return JFR_EINVAL;
    *out = NULL;
    if (opts && (opts->version < 1 || opts->version > JFR_FINDINGS_OPTIONS_VERSION))
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "findings: unknown options version");
    jfrp_alloc_init(&al, opts ? opts->allocator : NULL);
    if (!(f = jfrp_calloc(&al, 1, sizeof *f)))
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    f->al = al;
    if (!(opts && opts->version >= 2 && (opts->flags & JFR_FINDINGS_NO_RULES))) {
        builtin = jfr_findings_builtin_rules(&n);
        for (size_t i = 0; i < n; i++) {
            int rc = jfr_findings_add_rule(NULL, f, &builtin[i], err);
            if (rc < 0) {
                jfr_findings_free(f);
                return rc;
            }
        }
    }
    *out = f;
    return JFR_OK;
}

/* ---- rules ----------------------------------------------------------------------- */

static bool valid_id(const char *id)
{
    size_t n = id ? strlen(id) : 0;

    if (n == 0 || n > 64)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(id[i] >= 'a' && id[i] <= 'z') && !(id[i] >= 'A' && id[i] <= 'Z') &&
            !(id[i] >= '0' && id[i] <= '9') && !strchr("._-", id[i]))
            return false;
    return true;
}

/* "ci.rules:12: rule "x": what" */
static int rule_fail(jfr_error *err, int code, const jfr_rule *rule, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int rule_fail(jfr_error *err, int code, const jfr_rule *rule, const char *fmt, ...)
{
    char what[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return jfrp_fail(err, code, -1, 0, "%s: rule \"%.64s\": %s",
                     rule->source ? rule->source : "built-in", rule->id ? rule->id : "",
                     what);
}

static size_t fact_index(const char *name)
{
    size_t n;
    const jfr_fact *facts = jfr_findings_facts(&n);

    for (size_t i = 0; i < n; i++)
        if (strcmp(facts[i].name, name) == 0)
            return i;
    return SIZE_MAX;
}

/* Check the templates and the condition against the rule's columns. */
static int resolve(jfrp_rule *r, const char *const *names, size_t n, jfr_error *err)
{
    char what[400];

    if (!jfrp_cond_resolve(&r->cond, names, n, what, sizeof what))
        return rule_fail(err, JFR_EINVAL, &r->row, "condition: %s", what);
    if (!jfrp_template_resolve(&r->title, names, n, what, sizeof what))
        return rule_fail(err, JFR_EINVAL, &r->row, "title: %s", what);
    if (!jfrp_template_resolve(&r->evidence, names, n, what, sizeof what))
        return rule_fail(err, JFR_EINVAL, &r->row, "evidence: %s", what);
    if (!jfrp_template_resolve(&r->subject, names, n, what, sizeof what))
        return rule_fail(err, JFR_EINVAL, &r->row, "subject: %s", what);
    r->at_col = SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], "at") == 0)
            r->at_col = i;
    return JFR_OK;
}

static int resolve_fact(jfrp_rule *r, jfr_error *err)
{
    const jfr_fact *fact = &jfr_findings_facts(NULL)[r->fact];
    const char *names[JFRP_FACT_MAX_COLS];

    for (size_t i = 0; i < fact->ncolumns; i++)
        names[i] = fact->columns[i].name;
    return resolve(r, names, fact->ncolumns, err);
}

/* Copy and parse `rule` into `r`. */
static int take_rule(jfrp_rule *r, const jfrp_alloc *al, const jfr_rule *rule,
                     jfr_error *err)
{
    char what[400];
    int rc;

    r->row = *rule;
    r->row.version = JFR_RULE_VERSION;
    r->row.max = rule->max ? rule->max : 1;
    r->row.id = dup_string(al, rule->id);
    r->row.title = dup_string(al, rule->title);
    r->row.evidence = dup_string(al, rule->evidence);
    r->row.subject =
        dup_string(al, rule->subject && *rule->subject ? rule->subject : NULL);
    r->row.fact = dup_string(al, rule->fact && *rule->fact ? rule->fact : NULL);
    r->row.condition = dup_string(al, rule->condition ? rule->condition : "");
    r->row.link = dup_string(al, rule->link && *rule->link ? rule->link : NULL);
    r->row.source = dup_string(al, rule->source ? rule->source : "built-in");
    r->fact = SIZE_MAX;
    if (!r->row.id || !r->row.title || !r->row.evidence || !r->row.condition ||
        !r->row.source || (rule->subject && *rule->subject && !r->row.subject) ||
        (rule->fact && *rule->fact && !r->row.fact) ||
        (rule->link && *rule->link && !r->row.link))
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    if ((rc = jfrp_cond_parse(&r->cond, al, r->row.condition, what, sizeof what)) < 0)
        return rc == JFR_ENOMEM ? jfrp_fail(err, rc, -1, 0, "out of memory")
                                : rule_fail(err, rc, rule, "condition: %s", what);
    if ((rc = jfrp_template_parse(&r->title, al, r->row.title, what, sizeof what)) < 0 ||
        (rc = jfrp_template_parse(&r->evidence, al, r->row.evidence, what, sizeof what)) <
            0 ||
        (rc = jfrp_template_parse(&r->subject, al, r->row.subject, what, sizeof what)) <
            0)
        return rc == JFR_ENOMEM ? jfrp_fail(err, rc, -1, 0, "out of memory")
                                : rule_fail(err, rc, rule, "template: %s", what);
    if (r->row.fact && (r->fact = fact_index(r->row.fact)) == SIZE_MAX)
        return rule_fail(err, JFR_EINVAL, rule, "unknown fact \"%.64s\"", r->row.fact);
    return r->row.fact ? resolve_fact(r, err) : JFR_OK;
}

int jfr_findings_add_rule(size_t *index, jfr_findings *f, const jfr_rule *rule,
                          jfr_error *err)
{
    jfrp_rule *r;
    int rc;

    if (!f || !rule)
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "findings: no analysis or no rule");
    if (rule->version < 1 || rule->version > JFR_RULE_VERSION)
        return rule_fail(err, JFR_EINVAL, rule, "unknown jfr_rule version %u",
                         rule->version);
    if (!valid_id(rule->id))
        return rule_fail(err, JFR_EINVAL, rule,
                         "an id is 1 to 64 letters, digits, '.', '_' and '-'");
    if (rule->severity != JFR_SEVERITY_INFO && rule->severity != JFR_SEVERITY_WARNING)
        return rule_fail(err, JFR_EINVAL, rule, "severity is warning or info");
    if (!rule->title || !*rule->title || !rule->evidence)
        return rule_fail(err, JFR_EINVAL, rule, "a title and an evidence are needed");
    if (jfrp_grow_array(&f->al, (void **)&f->rules, &f->rules_cap, f->nrules + 1,
                        sizeof *f->rules) < 0)
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    r = &f->rules[f->nrules];
    memset(r, 0, sizeof *r);
    if ((rc = take_rule(r, &f->al, rule, err)) < 0) {
        free_rule(r, &f->al);
        return rc;
    }
    f->valid = false;
    if (index)
        *index = f->nrules;
    f->nrules++;
    return JFR_OK;
}

size_t jfr_findings_rule_count(const jfr_findings *f)
{
    return f ? f->nrules : 0;
}

const jfr_rule *jfr_findings_rule_at(const jfr_findings *f, size_t i)
{
    return f && i < f->nrules ? &f->rules[i].row : NULL;
}

int jfr_findings_set_columns(jfr_findings *f, size_t rule, const char *const *names,
                             size_t n, jfr_error *err)
{
    jfrp_rule *r;

    if (!f || rule >= f->nrules || (n && !names))
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "findings: no such rule");
    r = &f->rules[rule];
    if (r->row.fact || r->columns_set)
        return rule_fail(err, JFR_EINVAL, &r->row, "%s",
                         r->row.fact ? "it reads a fact: its columns are the fact's"
                                     : "its columns are named already");
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(names[i], names[j]) == 0)
                return rule_fail(err, JFR_EINVAL, &r->row, "column \"%.64s\" named twice",
                                 names[i]);
    if (!(r->columns = jfrp_calloc(&f->al, n ? n : 1, sizeof *r->columns)))
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    for (size_t i = 0; i < n; i++, r->ncolumns++)
        if (!(r->columns[i] = dup_string(&f->al, names[i] ? names[i] : "")))
            return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    r->columns_set = true;
    f->valid = false;
    return resolve(r, (const char *const *)r->columns, r->ncolumns, err);
}

int jfr_findings_add_row(jfr_findings *f, size_t rule, const jfr_cell *cells)
{
    jfrp_rule *r;
    jfr_cell *row;

    if (!f || rule >= f->nrules || !f->rules[rule].columns_set ||
        (f->rules[rule].ncolumns && !cells))
        return JFR_EINVAL;
    r = &f->rules[rule];
    if (r->nrows >= r->row.max)
        return JFR_DONE;
    {
        double value, threshold;
        if (!jfrp_cond_test(&r->cond, cells, &value, &threshold))
            return JFR_OK; /* a row that does not pass is not kept */
    }
    if (jfrp_grow_array(&f->al, (void **)&r->cells, &r->cells_cap,
                        (r->nrows + 1) * (r->ncolumns ? r->ncolumns : 1),
                        sizeof *r->cells) < 0)
        return JFR_ENOMEM;
    row = &r->cells[r->nrows * r->ncolumns];
    for (size_t i = 0; i < r->ncolumns; i++) {
        row[i] = cells[i];
        if (cells[i].type == JFR_CELL_TEXT && !cells[i].text)
            row[i].type = JFR_CELL_NULL;
        if (row[i].type == JFR_CELL_TEXT &&
            !(row[i].text = dup_string(&f->al, cells[i].text))) {
            for (size_t k = 0; k < i; k++)
                if (row[k].type == JFR_CELL_TEXT)
                    free_text(&f->al, row[k].text);
            return JFR_ENOMEM;
        }
    }
    r->nrows++;
    f->valid = false;
    return r->nrows >= r->row.max ? JFR_DONE : JFR_OK;
}

/* ---- evaluation ------------------------------------------------------------------ */

static char *keep(jfr_findings *f, char *s)
{
    if (!s)
        return NULL;
    if (jfrp_grow_array(&f->al, (void **)&f->strings, &f->strings_room, f->nstrings + 1,
                        sizeof *f->strings) < 0) {
        jfrp_free(&f->al, s);
        return NULL;
    }
    f->strings[f->nstrings++] = s;
    return s;
}

static void clear(jfr_findings *f)
{
    for (size_t i = 0; i < f->nstrings; i++)
        jfrp_free(&f->al, f->strings[i]);
    f->nstrings = 0;
    f->nitems = 0;
}

/* A finding of rule `k` from `row`, which passed its condition. */
static bool add(jfr_findings *f, size_t k, const jfr_cell *row, double value,
                double threshold)
{
    const jfrp_rule *r = &f->rules[k];
    char *title = keep(f, jfrp_template_render(&r->title, row, &f->al));
    char *evidence = keep(f, jfrp_template_render(&r->evidence, row, &f->al));
    char *subject =
        r->subject.n ? keep(f, jfrp_template_render(&r->subject, row, &f->al)) : NULL;
    jfr_finding *it;

    if (!title || !evidence || (r->subject.n && !subject) ||
        jfrp_grow_array(&f->al, (void **)&f->items, &f->room, f->nitems + 1,
                        sizeof *f->items) < 0)
        return false;
    it = &f->items[f->nitems++];
    memset(it, 0, sizeof *it);
    it->id = r->row.id;
    it->severity = r->row.severity;
    it->title = title;
    it->evidence = evidence;
    it->value = value;
    it->threshold = threshold;
    if (r->at_col != SIZE_MAX) {
        const jfr_cell *at = &row[r->at_col];
        it->at_nanos =
            at->type == JFR_CELL_INTEGER ? at->integer
            : at->type == JFR_CELL_REAL && isfinite(at->real) && fabs(at->real) < 9e18
                ? (int64_t)at->real
                : 0;
    }
    it->subject = subject;
    it->link = r->row.link;
    it->source = r->row.source;
    it->rule = k;
    return true;
}

/* The finding's key: its rule's id, numbered when the rule may fire
 * several times (leak-1, leak-2). */
static bool name_it(jfr_findings *f, jfr_finding *it, const jfrp_rule *r, size_t nth)
{
    char buf[96];

    if (r->row.max <= 1) {
        it->key = r->row.id;
        return true;
    }
    snprintf(buf, sizeof buf, "%s-%zu", r->row.id, nth);
    return (it->key = keep(f, dup_string(&f->al, buf))) != NULL;
}

static bool evaluate_rule(jfr_findings *f, size_t k)
{
    jfr_cell facts[JFRP_FACT_MAX_ROWS][JFRP_FACT_MAX_COLS];
    const jfrp_rule *r = &f->rules[k];
    size_t nrows, width, fired = 0;
    const jfr_cell *cells;

    if (r->fact != SIZE_MAX) {
        nrows = jfrp_fact_rows(&f->facts, r->fact, facts);
        cells = &facts[0][0];
        width = JFRP_FACT_MAX_COLS;
    } else {
        nrows = r->nrows;
        cells = r->cells;
        width = r->ncolumns;
    }
    for (size_t i = 0; i < nrows && fired < r->row.max; i++) {
        const jfr_cell *row = cells + i * width;
        double value, threshold;
        if (!jfrp_cond_test(&r->cond, row, &value, &threshold))
            continue;
        if (!add(f, k, row, value, threshold) ||
            !name_it(f, &f->items[f->nitems - 1], r, fired + 1))
            return false;
        fired++;
    }
    return true;
}

static bool evaluate(jfr_findings *f)
{
    clear(f);
    for (size_t k = 0; k < f->nrules; k++)
        if (!evaluate_rule(f, k))
            return false;
    f->valid = true;
    return true;
}

int jfr_findings_evaluate(jfr_findings *f)
{
    if (!f)
        return JFR_EINVAL;
    if (!f->valid && !evaluate(f))
        return JFR_ENOMEM;
    return JFR_OK;
}

size_t jfr_findings_count(const jfr_findings *f)
{
    return f && f->valid ? f->nitems : 0;
}

const jfr_finding *jfr_findings_at(const jfr_findings *f, size_t i)
{
    if (i >= jfr_findings_count(f))
        return NULL;
    return &f->items[i];
}

void jfr_findings_free(jfr_findings *f)
{
    if (!f)
        return;
    clear(f);
    jfrp_free(&f->al, f->strings);
    jfrp_free(&f->al, f->items);
    for (size_t i = 0; i < f->nrules; i++)
        free_rule(&f->rules[i], &f->al);
    jfrp_free(&f->al, f->rules);
    jfrp_facts_free(&f->facts, &f->al);
    jfrp_free(&f->al, f);
}
