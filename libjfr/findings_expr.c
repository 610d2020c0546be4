/* findings_expr.c - the two small languages of a rule (jfr/findings.h):
 * its condition, comparisons of columns with numbers joined by "and" and
 * "or", and its templates, text with "{column:format}" holes. Both are
 * parsed when the rule is added and resolved against the columns of what
 * it reads, so that a misspelt column is an error before any row. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "findings_private.h"

static char *dup_range(const jfrp_alloc *al, const char *s, size_t len)
{
    char *d = jfrp_malloc(al, len + 1);

    if (d) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

static bool name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.';
}

static const char *skip_space(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

/* ---- conditions ------------------------------------------------------------------ */

/* "and" or "or" (any case) followed by a space or the end: its length. */
static size_t keyword(const char *p, const char *word)
{
    size_t n = strlen(word);

    return strncasecmp(p, word, n) == 0 && !name_char(p[n]) ? n : 0;
}

static int parse_op(const char **p)
{
    static const struct {
        const char *text;
        int op;
    } ops[] = {{"<=", JFRP_OP_LE}, {">=", JFRP_OP_GE}, {"!=", JFRP_OP_NE},
               {"<>", JFRP_OP_NE}, {"==", JFRP_OP_EQ}, {"<", JFRP_OP_LT},
               {">", JFRP_OP_GT},  {"=", JFRP_OP_EQ}};

    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        size_t n = strlen(ops[i].text);
        if (strncmp(*p, ops[i].text, n) == 0) {
            *p += n;
            return ops[i].op;
        }
    }
    return -1;
}

/* The length of a decimal number at `s`: [+-]digits[.digits][e[+-]digits]
 * (no hex, inf or nan, which strtod would take). */
static size_t decimal_length(const char *s)
{
    size_t i = 0, digits = 0;

    if (s[i] == '+' || s[i] == '-')
        i++;
    for (; isdigit((unsigned char)s[i]); i++)
        digits++;
    if (s[i] == '.')
        for (i++; isdigit((unsigned char)s[i]); i++)
            digits++;
    if (!digits)
        return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-')
            j++;
        if (isdigit((unsigned char)s[j])) {
            while (isdigit((unsigned char)s[j]))
                j++;
            i = j;
        }
    }
    return i;
}

/* A number, optionally in binary byte units: "100", "0.05", "1 GiB". */
static bool parse_number(const char **p, double *out)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
    size_t len = decimal_length(*p);
    char buf[64];
    const char *q;

    if (len == 0 || len >= sizeof buf || name_char((*p)[len]))
        return false;
    memcpy(buf, *p, len);
    buf[len] = '\0';
    *out = strtod(buf, NULL);
    if (!isfinite(*out))
        return false;
    *p += len;
    q = skip_space(*p);
    for (size_t i = 0; i < 4; i++)
        if (strncmp(q, units[i], 3) == 0 && !name_char(q[3])) {
            *out *= ldexp(1.0, 10 * (int)(i + 1));
            *p = q + 3;
            break;
        }
    return true;
}

static int add_cmp(jfrp_cond *c, const jfrp_alloc *al, const jfrp_cmp *cmp)
{
    jfrp_cmp *v = jfrp_reallocarray(al, c->cmps, c->n + 1, sizeof *v);

    if (!v)
        return JFR_ENOMEM;
    c->cmps = v;
    c->cmps[c->n++] = *cmp;
    return JFR_OK;
}

int jfrp_cond_parse(jfrp_cond *c, const jfrp_alloc *al, const char *text, char *what,
                    size_t room)
{
    const char *p = skip_space(text ? text : "");
    bool starts = true;

    memset(c, 0, sizeof *c);
    while (*p) {
        jfrp_cmp cmp = {0};
        const char *name = p;
        size_t n, nlen;

        while (name_char(*p))
            p++;
        nlen = (size_t)(p - name);
        if (nlen == 0) {
            snprintf(what, room, "a column name expected at \"%.20s\"", p);
            return JFR_EINVAL;
        }
        cmp.starts_term = starts;
        p = skip_space(p);
        if ((cmp.op = parse_op(&p)) < 0) {
            snprintf(what, room, "a comparison (< <= > >= = !=) expected after \"%.*s\"",
                     (int)(p - name > 40 ? 40 : p - name), name);
            return JFR_EINVAL;
        }
        p = skip_space(p);
        if (!parse_number(&p, &cmp.number)) {
            snprintf(what, room, "a number expected at \"%.20s\"", p);
            return JFR_EINVAL;
        }
        if (!(cmp.name = dup_range(al, name, nlen)) || add_cmp(c, al, &cmp) < 0) {
            jfrp_free(al, cmp.name);
            return JFR_ENOMEM;
        }
        p = skip_space(p);
        if (!*p)
            break;
        if ((n = keyword(p, "and")) != 0) {
            starts = false;
        } else if ((n = keyword(p, "or")) != 0) {
            starts = true;
        } else {
            snprintf(what, room, "\"and\" or \"or\" expected at \"%.20s\"", p);
            return JFR_EINVAL;
        }
        p = skip_space(p + n);
        if (!*p) {
            snprintf(what, room, "a comparison expected after \"%s\"",
                     starts ? "or" : "and");
            return JFR_EINVAL;
        }
    }
    return JFR_OK;
}

static bool find_column(const char *name, const char *const *names, size_t n, size_t *col)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0) {
            *col = i;
            return true;
        }
    return false;
}

/* "unknown column \"x\" (columns: a, b, c)" */
static void unknown_column(char *what, size_t room, const char *name,
                           const char *const *names, size_t n)
{
    size_t len;

    snprintf(what, room, "unknown column \"%s\" (columns:", name);
    for (size_t i = 0; i < n && (len = strlen(what)) + 2 < room; i++)
        snprintf(what + len, room - len, "%s %s", i ? "," : "", names[i]);
    len = strlen(what);
    if (len + 2 < room)
        snprintf(what + len, room - len, ")");
}

bool jfrp_cond_resolve(jfrp_cond *c, const char *const *names, size_t n, char *what,
                       size_t room)
{
    for (size_t i = 0; i < c->n; i++)
        if (!find_column(c->cmps[i].name, names, n, &c->cmps[i].col)) {
            unknown_column(what, room, c->cmps[i].name, names, n);
            return false;
        }
    return true;
}

/* A cell as a number; false for NULL and text. */
static bool cell_number(const jfr_cell *cell, double *out)
{
    if (cell->type == JFR_CELL_INTEGER)
        *out = (double)cell->integer;
    else if (cell->type == JFR_CELL_REAL)
        *out = cell->real;
    else
        return false;
    return !isnan(*out);
}

static bool compare(const jfrp_cmp *cmp, const jfr_cell *row)
{
    double v;

    if (!cell_number(&row[cmp->col], &v))
        return false;
    switch (cmp->op) {
    case JFRP_OP_LT:
        return v < cmp->number;
    case JFRP_OP_LE:
        return v <= cmp->number;
    case JFRP_OP_GT:
        return v > cmp->number;
    case JFRP_OP_GE:
        return v >= cmp->number;
    case JFRP_OP_EQ:
        return v == cmp->number;
    default:
        return v != cmp->number;
    }
}

bool jfrp_cond_test(const jfrp_cond *c, const jfr_cell *row, double *value,
                    double *threshold)
{
    bool pass = false, term = true;

    *value = NAN;
    *threshold = 0;
    if (c->n == 0)
        return true;
    if (!cell_number(&row[c->cmps[0].col], value))
        *value = NAN;
    *threshold = c->cmps[0].number;
    for (size_t i = 0; i < c->n; i++) {
        if (i > 0 && c->cmps[i].starts_term) {
            pass = pass || term;
            term = true;
        }
        term = term && compare(&c->cmps[i], row);
    }
    return pass || term;
}

void jfrp_cond_free(jfrp_cond *c, const jfrp_alloc *al)
{
    for (size_t i = 0; i < c->n; i++)
        jfrp_free(al, c->cmps[i].name);
    jfrp_free(al, c->cmps);
    memset(c, 0, sizeof *c);
}

/* ---- templates ------------------------------------------------------------------- */

static int add_piece(jfrp_template *t, const jfrp_alloc *al, const jfrp_piece *piece)
{
    jfrp_piece *v = jfrp_reallocarray(al, t->pieces, t->n + 1, sizeof *v);

    if (!v)
        return JFR_ENOMEM;
    t->pieces = v;
    t->pieces[t->n++] = *piece;
    return JFR_OK;
}

/* "name", "name:.2f", "name:.1%", "name:d", "name:bytes" */
static int parse_hole(jfrp_piece *piece, const char *s, size_t len, char *what,
                      size_t room)
{
    const char *colon = memchr(s, ':', len);
    size_t nlen = colon ? (size_t)(colon - s) : len;

    bool ok = nlen > 0;

    for (size_t i = 0; i < nlen; i++)
        ok = ok && name_char(s[i]);
    if (!ok) {
        snprintf(what, room,
                 "\"{%.*s}\": a column name (letters, digits, _ and .) expected",
                 (int)(len > 40 ? 40 : len), s);
        return JFR_EINVAL;
    }
    piece->column = true;
    if (colon) {
        const char *f = colon + 1;
        size_t flen = len - nlen - 1;
        if (flen == 1 && *f == 'd') {
            piece->format = 'd';
        } else if (flen == 5 && strncmp(f, "bytes", 5) == 0) {
            piece->format = 'b';
        } else if (flen == 3 && f[0] == '.' && isdigit((unsigned char)f[1]) &&
                   (f[2] == 'f' || f[2] == '%')) {
            piece->format = f[2];
            piece->decimals = f[1] - '0';
        } else {
            snprintf(what, room,
                     "\"{%.*s}\": a format is .Nf, .N%%, d or bytes (N a digit)",
                     (int)(len > 40 ? 40 : len), s);
            return JFR_EINVAL;
        }
    }
    return JFR_OK;
}

int jfrp_template_parse(jfrp_template *t, const jfrp_alloc *al, const char *text,
                        char *what, size_t room)
{
    const char *p = text ? text : "";

    memset(t, 0, sizeof *t);
    while (*p) {
        jfrp_piece piece = {0};
        const char *start = p;
        size_t len;
        int rc;

        if (*p == '{' && p[1] != '{') {
            const char *close = strchr(p, '}');
            if (!close) {
                snprintf(what, room, "\"{\" without its \"}\" at \"%.20s\"", p);
                return JFR_EINVAL;
            }
            if ((rc = parse_hole(&piece, p + 1, (size_t)(close - p - 1), what, room)) < 0)
                return rc;
            start = p + 1;
            len = strcspn(start, ":}");
            p = close + 1;
        } else if (*p == '}' && p[1] != '}') {
            snprintf(what, room, "\"}\" without its \"{\" (write \"}}\" for a brace)");
            return JFR_EINVAL;
        } else if (*p == '{' || *p == '}') {
            len = 1; /* "{{" or "}}": one brace */
            p += 2;
        } else {
            len = strcspn(p, "{}");
            p += len;
        }
        if (!(piece.text = dup_range(al, start, len)) || add_piece(t, al, &piece) < 0) {
            jfrp_free(al, piece.text);
            return JFR_ENOMEM;
        }
    }
    return JFR_OK;
}

bool jfrp_template_resolve(jfrp_template *t, const char *const *names, size_t n,
                           char *what, size_t room)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->pieces[i].column &&
            !find_column(t->pieces[i].text, names, n, &t->pieces[i].col)) {
            unknown_column(what, room, t->pieces[i].text, names, n);
            return false;
        }
    return true;
}

void jfrp_bytes_text(char *buf, size_t room, double b)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;

    while (b >= 1024 && u < 4) {
        b /= 1024;
        u++;
    }
    snprintf(buf, room, "%.1f %s", b, units[u]);
}

/* One hole's text. */
static void hole_text(char *buf, size_t room, const jfrp_piece *piece,
                      const jfr_cell *cell)
{
    double v;

    if (cell->type == JFR_CELL_TEXT) {
        snprintf(buf, room, "%s", cell->text ? cell->text : "N/A");
        return;
    }
    if (!cell_number(cell, &v)) {
        snprintf(buf, room, "N/A");
        return;
    }
    switch (piece->format) {
    case 'f':
        snprintf(buf, room, "%.*f", piece->decimals, v);
        break;
    case '%':
        snprintf(buf, room, "%.*f%%", piece->decimals, 100.0 * v);
        break;
    case 'd':
        if (cell->type == JFR_CELL_INTEGER)
            snprintf(buf, room, "%lld", (long long)cell->integer);
        else
            snprintf(buf, room, "%.0f", v);
        break;
    case 'b':
        jfrp_bytes_text(buf, room, v);
        break;
    default:
        if (cell->type == JFR_CELL_INTEGER)
            snprintf(buf, room, "%lld", (long long)cell->integer);
        else
            snprintf(buf, room, "%.1f", v);
    }
}

char *jfrp_template_render(const jfrp_template *t, const jfr_cell *row,
                           const jfrp_alloc *al)
{
    size_t len = 0, cap = 64;
    char *out = jfrp_malloc(al, cap);

    if (!out)
        return NULL;
    out[0] = '\0';
    for (size_t i = 0; i < t->n; i++) {
        const jfrp_piece *piece = &t->pieces[i];
        char buf[64];
        const char *s = piece->text;
        size_t n;

        if (piece->column) {
            const jfr_cell *cell = &row[piece->col];
            if (cell->type == JFR_CELL_TEXT && cell->text) {
                s = cell->text; /* text of any length */
            } else {
                hole_text(buf, sizeof buf, piece, cell);
                s = buf;
            }
        }
        n = strlen(s);
        if (len + n + 1 > cap) {
            char *v;
            while (len + n + 1 > cap)
                cap *= 2;
            if (!(v = jfrp_realloc(al, out, cap))) {
                jfrp_free(al, out);
                return NULL;
            }
            out = v;
        }
        memcpy(out + len, s, n + 1);
        len += n;
    }
    return out;
}

void jfrp_template_free(jfrp_template *t, const jfrp_alloc *al)
{
    for (size_t i = 0; i < t->n; i++)
        jfrp_free(al, t->pieces[i].text);
    jfrp_free(al, t->pieces);
    memset(t, 0, sizeof *t);
}
