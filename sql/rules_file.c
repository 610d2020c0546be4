/* rules_file.c - the rules file format (doc/report.md, "Rules of your
 * own"): INI-like, one [section] per rule named by its id, `key = value`
 * lines, values continued on lines that start with a space or a tab, and
 * comment lines starting with '#' or ';'. The built-in SQL rules
 * (sql/rules.ini) are written in it too. Parsing checks the keys and
 * their plain values; the templates, the condition and the query are
 * checked when the rule is added to an analysis (rules.c). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

static const char *const keys[JFRSQL_RULE_KEYS] = {
    "severity", "title",     "evidence", "subject", "fact",
    "query",    "condition", "link",     "max",     "missing"};

const char *jfrsql_rule_key(size_t i)
{
    return i < JFRSQL_RULE_KEYS ? keys[i] : NULL;
}

static int key_index(const char *key, size_t len)
{
    for (size_t i = 0; i < JFRSQL_RULE_KEYS; i++)
        if (strlen(keys[i]) == len && strncmp(keys[i], key, len) == 0)
            return (int)i;
    return -1;
}

void jfrsql_rule_texts_free(jfrsql_rule_text *rules, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        sqlite3_free(rules[i].id);
        for (size_t k = 0; k < JFRSQL_RULE_KEYS; k++)
            sqlite3_free(rules[i].value[k]);
    }
    sqlite3_free(rules);
}

typedef struct parser {
    const char *name; /* for messages */
    int line;
    jfrsql_rule_text *rules;
    size_t n, cap;
    int key; /* the key a continuation line adds to, -1: none */
    char *err;
} parser;

/* "ci.rules:12: rule "x": what", naming rule `r` (NULL: none). */
static int fail_rule(parser *ps, const jfrsql_rule_text *r, const char *what)
{
    ps->err =
        r ? sqlite3_mprintf("%s:%d: rule \"%s\": %s", ps->name, ps->line, r->id, what)
          : sqlite3_mprintf("%s:%d: %s", ps->name, ps->line, what);
    return SQLITE_ERROR;
}

/* The same about the rule being read. */
static int fail(parser *ps, const char *what)
{
    return fail_rule(ps, ps->n ? &ps->rules[ps->n - 1] : NULL, what);
}

static bool id_char(char c)
{
    return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-';
}

/* "[id]" */
static int section(parser *ps, const char *s, size_t len)
{
    size_t n = len;
    jfrsql_rule_text *r;

    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n < 3 || s[n - 1] != ']')
        return fail_rule(ps, NULL, "a section is [ID] on a line of its own");
    for (size_t i = 1; i + 1 < n; i++)
        if (!id_char(s[i]))
            return fail_rule(ps, NULL, "a rule id is letters, digits, '.', '_' and '-'");
    if (n - 2 > 64)
        return fail_rule(ps, NULL, "a rule id is at most 64 characters");
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? 2 * ps->cap : 8;
        jfrsql_rule_text *v = sqlite3_realloc64(ps->rules, cap * sizeof *v);
        if (!v)
            return SQLITE_NOMEM;
        ps->rules = v;
        ps->cap = cap;
    }
    r = &ps->rules[ps->n];
    memset(r, 0, sizeof *r);
    r->line = ps->line;
    if (!(r->id = sqlite3_mprintf("%.*s", (int)(n - 2), s + 1)))
        return SQLITE_NOMEM;
    ps->n++;
    ps->key = -1;
    return SQLITE_OK;
}

static const char *trim(const char *s, size_t *len)
{
    while (*len && isspace((unsigned char)*s)) {
        s++;
        (*len)--;
    }
    while (*len && isspace((unsigned char)s[*len - 1]))
        (*len)--;
    return s;
}

/* "key = value" */
static int assignment(parser *ps, const char *line, size_t len)
{
    const char *eq = memchr(line, '=', len), *key, *value;
    size_t klen, vlen;
    jfrsql_rule_text *r;
    int k;

    if (!ps->n)
        return fail(ps, "a [section] naming the rule comes before its keys");
    r = &ps->rules[ps->n - 1];
    if (!eq)
        return fail(ps, "a line is [ID], KEY = VALUE, a comment (# or ;) or an "
                        "indented continuation");
    klen = (size_t)(eq - line);
    key = trim(line, &klen);
    vlen = len - (size_t)(eq + 1 - line);
    value = trim(eq + 1, &vlen);
    if ((k = key_index(key, klen)) < 0) {
        char *what = sqlite3_mprintf(
            "unknown key \"%.*s\" (keys: severity, title, evidence, subject, fact, "
            "query, condition, link, max, missing)",
            (int)(klen > 40 ? 40 : klen), key);
        int rc = what ? fail(ps, what) : SQLITE_NOMEM;
        sqlite3_free(what);
        return rc;
    }
    if (r->value[k]) {
        char *what = sqlite3_mprintf("\"%s\" given twice", keys[k]);
        int rc = what ? fail(ps, what) : SQLITE_NOMEM;
        sqlite3_free(what);
        return rc;
    }
    if (!(r->value[k] = sqlite3_mprintf("%.*s", (int)vlen, value)))
        return SQLITE_NOMEM;
    r->key_line[k] = ps->line;
    ps->key = k;
    return SQLITE_OK;
}

/* An indented line: more of the last key's value, after a line break in
 * a query (where "--" comments end at the line's end), after a space in
 * the rest. */
static int continuation(parser *ps, const char *line, size_t len)
{
    jfrsql_rule_text *r;
    const char *s = trim(line, &len);
    char *v;

    if (len == 0)
        return SQLITE_OK;
    if (!ps->n || ps->key < 0)
        return fail(ps, "an indented line continues a KEY = VALUE line");
    r = &ps->rules[ps->n - 1];
    v = sqlite3_mprintf("%s%s%.*s", r->value[ps->key],
                        *r->value[ps->key] ? (ps->key == JFRSQL_KEY_QUERY ? "\n" : " ")
                                           : "",
                        (int)len, s);
    if (!v)
        return SQLITE_NOMEM;
    sqlite3_free(r->value[ps->key]);
    r->value[ps->key] = v;
    return SQLITE_OK;
}

static int parse_line(parser *ps, const char *line, size_t len)
{
    size_t n = len;

    if (n && line[n - 1] == '\r')
        n--;
    if (n == 0 || line[0] == '#' || line[0] == ';')
        return SQLITE_OK;
    if (line[0] == ' ' || line[0] == '\t')
        return continuation(ps, line, n);
    trim(line, &n);
    if (n == 0) /* spaces only */
        return SQLITE_OK;
    if (line[0] == '[')
        return section(ps, line, n);
    return assignment(ps, line, n);
}

/* What a rule needs, and the values of the keys that have few. */
static int check_rule(parser *ps, const jfrsql_rule_text *r)
{
    const char *const *v = (const char *const *)r->value;

    ps->line = r->line;
    if (!v[JFRSQL_KEY_TITLE] || !*v[JFRSQL_KEY_TITLE] || !v[JFRSQL_KEY_EVIDENCE])
        return fail_rule(ps, r, "\"title\" and \"evidence\" are needed");
    if (!v[JFRSQL_KEY_QUERY] == !v[JFRSQL_KEY_FACT])
        return fail_rule(ps, r,
                         "either \"query\" (SQL) or \"fact\" says what the rule reads");
    if (v[JFRSQL_KEY_SEVERITY] && strcmp(v[JFRSQL_KEY_SEVERITY], "warning") != 0 &&
        strcmp(v[JFRSQL_KEY_SEVERITY], "info") != 0)
        return fail_rule(ps, r, "\"severity\" is warning or info");
    if (v[JFRSQL_KEY_MISSING] && strcmp(v[JFRSQL_KEY_MISSING], "error") != 0 &&
        strcmp(v[JFRSQL_KEY_MISSING], "skip") != 0)
        return fail_rule(ps, r, "\"missing\" is error or skip");
    if (v[JFRSQL_KEY_MAX]) {
        char *end;
        long max = strtol(v[JFRSQL_KEY_MAX], &end, 10);
        if (*end || !*v[JFRSQL_KEY_MAX] || max < 1 || max > 1000)
            return fail_rule(ps, r, "\"max\" is a number from 1 to 1000");
    }
    return SQLITE_OK;
}

int jfrsql_rules_parse(jfrsql_rule_text **out, size_t *n, const char *text, size_t len,
                       const char *name, char **errmsg)
{
    parser ps = {name ? name : "(rules)", 0, NULL, 0, 0, -1, NULL};
    const char *p = text, *end = text + len;
    int rc = SQLITE_OK;

    *out = NULL;
    *n = 0;
    *errmsg = NULL;
    while (p < end && rc == SQLITE_OK) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t linelen = nl ? (size_t)(nl - p) : (size_t)(end - p);
        ps.line++;
        if (memchr(p, '\0', linelen)) {
            rc = fail(&ps, "a NUL byte: not a text file");
            break;
        }
        rc = parse_line(&ps, p, linelen);
        p += linelen + (nl ? 1 : 0);
    }
    for (size_t i = 0; i < ps.n && rc == SQLITE_OK; i++)
        rc = check_rule(&ps, &ps.rules[i]);
    if (rc != SQLITE_OK) {
        jfrsql_rule_texts_free(ps.rules, ps.n);
        *errmsg = rc == SQLITE_NOMEM ? NULL : ps.err;
        if (rc == SQLITE_NOMEM)
            sqlite3_free(ps.err);
        return rc;
    }
    *out = ps.rules;
    *n = ps.n;
    return SQLITE_OK;
}
