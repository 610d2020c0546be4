/* writer_redact.c - redaction: the rules applied to a string, and a value
 * re-encoded with its redacted strings replaced (written as UTF-8). What is
 * not redacted is copied byte for byte, and the pool entries the written
 * value refers to are marked; a replaced string's own pool entry is not. */
#include <ctype.h>
#include <regex.h>

#include "writer_scrub_private.h"
#include "skip.h"

static const char redacted[] = JFR_REDACTED;
#define REDACTED_LEN (sizeof redacted - 1)

/* ---- rules on strings --------------------------------------------------------- */

static bool re_matches(const regex_t *re, const char *s, size_t len, jfrw_buf *tmp)
{
    tmp->len = 0;
    jfrw_bytes(tmp, s, len);
    jfrw_u8(tmp, 0);
    return !tmp->err && regexec(re, (const char *)tmp->data, 0, NULL, 0) == 0;
}

/* Each non-empty match of the rule's regex replaced. */
static bool apply_regex(const regex_t *re, const char *s, size_t len, jfrw_buf *out)
{
    size_t pos = 0;
    bool changed = false;
    regmatch_t m;

    while (pos <= len && regexec(re, s + pos, 1, &m, pos ? REG_NOTBOL : 0) == 0 &&
           m.rm_so >= 0) {
        size_t so = pos + (size_t)m.rm_so, eo = pos + (size_t)m.rm_eo;

        if (eo > len)
            break;
        jfrw_bytes(out, s + pos, so - pos);
        if (eo == so) { /* an empty match: step over one byte */
            if (so == len)
                break;
            jfrw_u8(out, (uint8_t)s[so]);
            pos = so + 1;
            continue;
        }
        jfrw_bytes(out, redacted, REDACTED_LEN);
        changed = true;
        pos = eo;
    }
    if (pos < len)
        jfrw_bytes(out, s + pos, len - pos);
    return changed;
}

/*
 * Command-line arguments (whitespace-separated): -KEY=VALUE, --KEY=VALUE
 * and -DKEY=VALUE lose VALUE, and --KEY the argument after it, when KEY
 * matches the key pattern.
 */
static bool apply_args(const regex_t *re, const char *s, size_t len, jfrw_buf *out,
                       jfrw_buf *tmp)
{
    bool changed = false, next_is_value = false;
    size_t i = 0;

    while (i < len) {
        size_t start = i, end, dashes = 0;
        const char *tok, *eq;

        while (i < len && isspace((unsigned char)s[i]))
            i++;
        jfrw_bytes(out, s + start, i - start);
        if (i == len)
            break;
        for (end = i; end < len && !isspace((unsigned char)s[end]); end++)
            ;
        tok = s + i;
        if (next_is_value) {
            jfrw_bytes(out, redacted, REDACTED_LEN);
            changed = true;
            next_is_value = false;
            i = end;
            continue;
        }
        while (dashes < 2 && i + dashes < end && tok[dashes] == '-')
            dashes++;
        eq = dashes ? memchr(tok, '=', end - i) : NULL;
        if (eq) {
            const char *key = tok + dashes;
            if (dashes == 1 && key < eq && *key == 'D')
                key++; /* -Dname=value */
            if (key < eq && re_matches(re, key, (size_t)(eq - key), tmp)) {
                jfrw_bytes(out, tok, (size_t)(eq - tok) + 1);
                jfrw_bytes(out, redacted, REDACTED_LEN);
                changed = true;
                i = end;
                continue;
            }
        } else if (dashes == 2 && end - i > 2 &&
                   re_matches(re, tok + 2, end - i - 2, tmp)) {
            next_is_value = true;
        }
        jfrw_bytes(out, tok, end - i);
        i = end;
    }
    return changed;
}

/* The whole value; an empty one, or one that says so already, stays. */
static bool redact_all(const char *s, size_t len, jfrw_buf *out)
{
    if (len == 0 || (len == REDACTED_LEN && memcmp(s, redacted, len) == 0))
        return false;
    jfrw_bytes(out, redacted, REDACTED_LEN);
    return true;
}

/* Apply rule `r` to `s`; the result goes to `out` (emptied first). */
static bool rule_apply(const jfrw_rule *r, const char *s, size_t len, const jfr_str *key,
                       jfrw_buf *out, jfrw_buf *tmp)
{
    out->len = 0;
    switch (r->kind) {
    case JFRW_RULE_KEYED:
        if (!key || !key->ptr || !re_matches(&r->re, key->ptr, key->len, tmp))
            return false;
        return redact_all(s, len, out);
    case JFRW_RULE_ALL:
        return redact_all(s, len, out);
    case JFRW_RULE_REGEX:
        return apply_regex(&r->re, s, len, out);
    case JFRW_RULE_ARGS:
        return apply_args(&r->re, s, len, out, tmp);
    }
    return false;
}

/* ---- values ------------------------------------------------------------------ */

/* What rewriting one value needs besides the plan. */
typedef struct rewrite {
    jfrw_chunk_plan *p;
    jfrw_kept *k;
    jfrw_buf *out;
    jfrw_buf a, b, tmp; /* successive results of the rules, and regex input */
} rewrite;

/* The string field `name` of the value of `t` at `at`, for a keyed rule. */
static jfr_str key_of(rewrite *w, const jfr_type *t, const jfrp_reader *at,
                      const char *name)
{
    jfr_str key = {NULL, 0};
    jfrp_reader r = *at;

    for (size_t i = 0; i < t->nfields && !r.err; i++) {
        const jfr_field *f = &t->fields[i];
        if (strcmp(f->name, name) == 0 && f->type && !f->array && !f->pooled &&
            f->type->kind == JFR_KIND_STRING) {
            if (jfrp_read_string(&key, &w->p->vctx, &r) < 0)
                key.ptr = NULL;
            return key;
        }
        jfrp_skip_field(&r, f);
    }
    return key;
}

/* One string field: the rules of (t, field) applied in order. */
static bool rewrite_string(rewrite *w, const jfr_type *t, uint32_t field, jfrp_reader *r,
                           const jfrp_reader *value_start)
{
    jfrw_chunk_plan *p = w->p;
    const uint8_t *start = r->p;
    jfr_str s, key = {NULL, 0};
    jfrw_buf *cur = NULL;
    bool changed = false, have_key = false;

    if (jfrp_read_string(&s, &p->vctx, r) < 0) {
        if (!r->err)
            jfrp_reader_fail(r, JFR_ECORRUPT);
        return false;
    }
    for (uint32_t i = 0; s.ptr && i < p->nrules[t->index]; i++) {
        const jfrw_rule *rule = &p->s->rules[p->rules[t->index][i].rule];
        jfrw_buf *next = cur == &w->a ? &w->b : &w->a;

        if (p->rules[t->index][i].field != field)
            continue;
        if (rule->kind == JFRW_RULE_KEYED && !have_key) {
            key = key_of(w, t, value_start, rule->key_field);
            have_key = true;
        }
        if (rule_apply(rule, cur ? (const char *)cur->data : s.ptr,
                       cur ? cur->len : s.len, &key, next, &w->tmp)) {
            cur = next;
            if (!changed)
                p->s->stats[rule->stat].count++;
            changed = true;
        }
    }
    if (changed) {
        jfrw_string(w->out, r->compressed, (const char *)cur->data, cur->len);
        return true;
    }
    /* unchanged: the bytes as they were, and the String entry they name */
    jfrp_reader again = *r;
    again.p = start;
    jfrw_refs_field(w->k, &again, &t->fields[field]);
    jfrw_bytes(w->out, start, (size_t)(r->p - start));
    return false;
}

static bool rewrite_struct(rewrite *w, const jfr_type *t, jfrp_reader *r);

/* One field: a string with rules, a struct that has some inside, or bytes
 * copied as they are. */
static bool rewrite_field(rewrite *w, const jfr_type *t, uint32_t i, jfrp_reader *r,
                          const jfrp_reader *value_start)
{
    const jfr_field *f = &t->fields[i];
    const uint8_t *start = r->p;
    bool changed = false;

    if (f->type && !f->pooled && !f->array && f->type->kind == JFR_KIND_STRING) {
        for (uint32_t j = 0; j < w->p->nrules[t->index]; j++)
            if (w->p->rules[t->index][j].field == i)
                return rewrite_string(w, t, i, r, value_start);
    }
    if (f->type && !f->pooled && f->type->kind == JFR_KIND_STRUCT &&
        jfrw_plan_redacts(w->p, f->type)) {
        if (!f->array)
            return rewrite_struct(w, f->type, r);
        uint64_t n = jfrp_array_count(r, f, w->p->c->rec->opts.max_array_length);
        jfrw_int(w->out, r->compressed, n, 4);
        for (uint64_t e = 0; e < n && !r->err; e++)
            changed |= rewrite_struct(w, f->type, r);
        return changed;
    }
    jfrw_refs_field(w->k, r, f);
    if (!r->err)
        jfrw_bytes(w->out, start, (size_t)(r->p - start));
    return false;
}

static bool rewrite_struct(rewrite *w, const jfr_type *t, jfrp_reader *r)
{
    jfrp_reader value_start = *r;
    bool changed = false;

    if (!t->decodable) {
        jfrp_reader_fail(r, JFR_ECORRUPT);
        return false;
    }
    for (uint32_t i = 0; i < t->nfields && !r->err; i++)
        changed |= rewrite_field(w, t, i, r, &value_start);
    return changed;
}

bool jfrw_redact_value(jfrw_chunk_plan *p, jfrw_kept *k, jfrp_reader *r,
                       const jfr_type *t, jfrw_buf *out)
{
    rewrite w = {p, k, out, {0}, {0}, {0}};
    bool changed;

    jfrw_buf_init(&w.a, out->al);
    jfrw_buf_init(&w.b, out->al);
    jfrw_buf_init(&w.tmp, out->al);
    jfrp_arena_reset(&p->scratch);
    changed = rewrite_struct(&w, t, r);
    if (w.a.err || w.b.err || w.tmp.err)
        out->err = JFR_ENOMEM;
    jfrw_buf_free(&w.a);
    jfrw_buf_free(&w.b);
    jfrw_buf_free(&w.tmp);
    return changed && !r->err;
}
