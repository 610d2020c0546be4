/* writer_scrub.c - a scrub: the filters of the JDK's `jfr scrub` (event
 * types, categories, threads), a time range and redactions; and what it
 * means for one chunk (the plan: which types are kept, which events pass
 * the thread and time filters, which fields are redacted). */
#include <stdio.h>
#include <stdlib.h>

#include "writer_scrub_private.h"

/* ---- the scrub ------------------------------------------------------------------ */

int jfr_scrub_new(jfr_scrub **out, const jfr_allocator *allocator)
{
    jfrp_alloc al;
    jfr_scrub *s;

    if (!out)
        return JFR_EINVAL;
    jfrp_alloc_init(&al, allocator);
    s = jfrp_calloc(&al, 1, sizeof *s);
    if (!s)
        return JFR_ENOMEM;
    s->al = al;
    *out = s;
    return JFR_OK;
}

static int scrub_fail(jfr_scrub *s, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int scrub_fail(jfr_scrub *s, int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(s->error, sizeof s->error, fmt, ap);
    va_end(ap);
    return code;
}

static char *dup_n(const jfrp_alloc *al, const char *p, size_t n)
{
    char *d = jfrp_malloc(al, n + 1);

    if (d) {
        memcpy(d, p, n);
        d[n] = '\0';
    }
    return d;
}

/* The JDK splits at commas and trims each item; empty items are dropped. */
static int split_items(jfr_scrub *s, jfrw_filter *f, const char *text)
{
    for (const char *p = text; *p;) {
        const char *end = strchr(p, ',');
        const char *a = p, *b = end ? end : p + strlen(p);

        p = end ? end + 1 : b;
        while (a < b && (*a == ' ' || *a == '\t'))
            a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (a == b)
            continue;
        char **items = jfrp_reallocarray(&s->al, f->items, f->nitems + 1, sizeof *items);
        if (!items)
            return JFR_ENOMEM;
        f->items = items;
        if (!(f->items[f->nitems] = dup_n(&s->al, a, (size_t)(b - a))))
            return JFR_ENOMEM;
        f->nitems++;
    }
    return 0;
}

int jfr_scrub_add_filter(jfr_scrub *s, jfr_scrub_filter kind, const char *filter)
{
    bool threads = kind == JFR_SCRUB_INCLUDE_THREADS || kind == JFR_SCRUB_EXCLUDE_THREADS;
    jfrw_filter *fs, *f;
    jfr_error err;
    int rc;

    if (!s)
        return JFR_EINVAL;
    if ((unsigned)kind > JFR_SCRUB_EXCLUDE_THREADS || !filter)
        return scrub_fail(s, JFR_EINVAL, "unknown filter kind or no filter");
    fs = jfrp_reallocarray(&s->al, s->filters, s->nfilters + 1, sizeof *fs);
    if (!fs)
        return scrub_fail(s, JFR_ENOMEM, "out of memory");
    s->filters = fs;
    f = &s->filters[s->nfilters];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    s->nfilters++;
    if (!threads) {
        rc =
            jfr_type_filter_new(&f->types, filter,
                                kind <= JFR_SCRUB_EXCLUDE_EVENTS ? JFR_FILTER_BY_NAME
                                                                 : JFR_FILTER_BY_CATEGORY,
                                &s->al.hooks, &err);
        return rc < 0 ? scrub_fail(s, rc, "%s", err.message) : JFR_OK;
    }
    if (split_items(s, f, filter) < 0)
        return scrub_fail(s, JFR_ENOMEM, "out of memory");
    if (f->nitems == 0)
        return scrub_fail(s, JFR_EINVAL, "no thread name in '%s'", filter);
    return JFR_OK;
}

int jfr_scrub_check(const jfr_scrub *s, const jfr_type_set *set, jfr_error *err)
{
    if (!s || !set)
        return JFR_EINVAL;
    for (size_t i = 0; i < s->nfilters; i++) {
        int rc;
        if (s->filters[i].types &&
            (rc = jfr_type_filter_check(NULL, s->filters[i].types, set, err)) != JFR_OK)
            return rc;
    }
    return JFR_OK;
}

int jfr_scrub_set_time_range(jfr_scrub *s, int64_t from_nanos, int64_t to_nanos)
{
    if (!s)
        return JFR_EINVAL;
    if (from_nanos && to_nanos && from_nanos >= to_nanos)
        return scrub_fail(s, JFR_EINVAL, "the time range ends before it starts");
    s->from = from_nanos;
    s->to = to_nanos;
    return JFR_OK;
}

/* The count "TYPE.FIELD" adds to: one per field, whichever rules apply. */
static int stat_for(jfr_scrub *s, const char *type, const char *field, size_t *out)
{
    size_t tl = strlen(type), fl = strlen(field);
    jfrw_stat *st;
    char *name;

    for (size_t i = 0; i < s->nstats; i++)
        if (strncmp(s->stats[i].name, type, tl) == 0 && s->stats[i].name[tl] == '.' &&
            strcmp(s->stats[i].name + tl + 1, field) == 0) {
            *out = i;
            return 0;
        }
    st = jfrp_reallocarray(&s->al, s->stats, s->nstats + 1, sizeof *st);
    if (!st)
        return JFR_ENOMEM;
    s->stats = st;
    if (!(name = jfrp_malloc(&s->al, tl + fl + 2)))
        return JFR_ENOMEM;
    memcpy(name, type, tl);
    name[tl] = '.';
    memcpy(name + tl + 1, field, fl + 1);
    s->stats[s->nstats] = (jfrw_stat){name, 0};
    *out = s->nstats++;
    return 0;
}

static int add_rule(jfr_scrub *s, const char *type, const char *field,
                    jfrw_rule_kind kind, const char *regex, int cflags,
                    const char *key_field)
{
    jfrw_rule *rs, *r;
    int rc;

    rs = jfrp_reallocarray(&s->al, s->rules, s->nrules + 1, sizeof *rs);
    if (!rs)
        return scrub_fail(s, JFR_ENOMEM, "out of memory");
    s->rules = rs;
    r = &s->rules[s->nrules];
    memset(r, 0, sizeof *r);
    r->kind = kind;
    if (regex && (rc = regcomp(&r->re, regex, REG_EXTENDED | cflags)) != 0) {
        char why[120];
        regerror(rc, &r->re, why, sizeof why);
        return scrub_fail(s, JFR_EINVAL, "bad regular expression '%s': %s", regex, why);
    }
    r->has_re = regex != NULL;
    s->nrules++; /* from here on freed with the scrub */
    r->type = dup_n(&s->al, type, strlen(type));
    r->field = dup_n(&s->al, field, strlen(field));
    r->key_field = key_field ? dup_n(&s->al, key_field, strlen(key_field)) : NULL;
    if (!r->type || !r->field || (key_field && !r->key_field) ||
        stat_for(s, type, field, &r->stat) < 0)
        return scrub_fail(s, JFR_ENOMEM, "out of memory");
    return JFR_OK;
}

int jfr_scrub_redact_field(jfr_scrub *s, const char *type, const char *field,
                           const char *regex)
{
    if (!s)
        return JFR_EINVAL;
    if (!type || !*type || !field || !*field)
        return scrub_fail(s, JFR_EINVAL, "a redaction needs a type and a field");
    return add_rule(s, type, field, regex ? JFRW_RULE_REGEX : JFRW_RULE_ALL, regex, 0,
                    NULL);
}

int jfr_scrub_redact_defaults(jfr_scrub *s, const char *key_regex)
{
    static const char *const keyed[] = {"jdk.InitialEnvironmentVariable",
                                        "jdk.InitialSystemProperty",
                                        "jdk.InitialSecurityProperty"};
    static const char *const args[][2] = {{"jdk.JVMInformation", "jvmArguments"},
                                          {"jdk.JVMInformation", "jvmFlags"},
                                          {"jdk.JVMInformation", "javaArguments"},
                                          {"jdk.SystemProcess", "commandLine"},
                                          {"jdk.ProcessStart", "command"}};
    const char *re = key_regex ? key_regex : JFR_REDACT_KEY_PATTERN;
    int rc;

    if (!s)
        return JFR_EINVAL;
    /* a value whose key looks secret goes whole; others may be command lines */
    for (size_t i = 0; i < sizeof keyed / sizeof keyed[0]; i++) {
        rc = add_rule(s, keyed[i], "value", JFRW_RULE_KEYED, re, REG_ICASE, "key");
        if (rc < 0)
            return rc;
        rc = add_rule(s, keyed[i], "value", JFRW_RULE_ARGS, re, REG_ICASE, NULL);
        if (rc < 0)
            return rc;
    }
    for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
        rc = add_rule(s, args[i][0], args[i][1], JFRW_RULE_ARGS, re, REG_ICASE, NULL);
        if (rc < 0)
            return rc;
    }
    return JFR_OK;
}

size_t jfr_scrub_redaction_count(const jfr_scrub *s)
{
    return s ? s->nstats : 0;
}

int jfr_scrub_redaction_at(const char **field, uint64_t *count, const jfr_scrub *s,
                           size_t i)
{
    if (!s || i >= s->nstats)
        return JFR_ENOTFOUND;
    if (field)
        *field = s->stats[i].name;
    if (count)
        *count = s->stats[i].count;
    return JFR_OK;
}

const char *jfr_scrub_error(const jfr_scrub *s)
{
    return s ? s->error : "no scrub";
}

void jfr_scrub_free(jfr_scrub *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nfilters; i++) {
        jfr_type_filter_free(s->filters[i].types);
        for (size_t j = 0; j < s->filters[i].nitems; j++)
            jfrp_free(&s->al, s->filters[i].items[j]);
        jfrp_free(&s->al, s->filters[i].items);
    }
    jfrp_free(&s->al, s->filters);
    for (size_t i = 0; i < s->nrules; i++) {
        if (s->rules[i].has_re)
            regfree(&s->rules[i].re);
        jfrp_free(&s->al, s->rules[i].type);
        jfrp_free(&s->al, s->rules[i].field);
        jfrp_free(&s->al, s->rules[i].key_field);
    }
    jfrp_free(&s->al, s->rules);
    for (size_t i = 0; i < s->nstats; i++)
        jfrp_free(&s->al, s->stats[i].name);
    jfrp_free(&s->al, s->stats);
    jfrp_free(&s->al, s);
}
