/* flame_html.c - the HTML flame graph: jfrtool/flame.html (embedded at
 * build time as flame_template[], see Makefile.am) with its data line
 * replaced by "const FLAME = {...};" and "@@TITLE@@" by the escaped title
 * (the rules in flame.html's header comment and
 * tests/browser/make-sample-data.py). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flame_output.h"
#include "util.h"

extern const unsigned char flame_template[];
extern const size_t flame_template_size;

#define DATA_LINE "/*@@FLAME_DATA@@*/"

/* A JSON string. '<' is escaped too, so no name can end the <script>. */
static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

/* The node arrays are millions of numbers: they go through a buffer of
 * our own instead of one fprintf each. */
typedef struct numbuf {
    FILE *out;
    size_t len;
    /* the last weight written and its text: a chain of nodes, one stack
     * deep, repeats its weight */
    double last;
    size_t last_len;
    char last_text[64];
    char buf[1 << 16];
} numbuf;

static void nb_flush(numbuf *nb)
{
    fwrite(nb->buf, 1, nb->len, nb->out);
    nb->len = 0;
}

/* Where the next `n` bytes go. */
static char *nb_room(numbuf *nb, size_t n)
{
    if (nb->len + n > sizeof nb->buf)
        nb_flush(nb);
    return nb->buf + nb->len;
}

static void nb_putc(numbuf *nb, char c)
{
    *nb_room(nb, 1) = c;
    nb->len++;
}

static void nb_puts(numbuf *nb, const char *s)
{
    for (; *s; s++)
        nb_putc(nb, *s);
}

static void nb_u64(numbuf *nb, uint64_t v)
{
    nb->len += format_u64(nb_room(nb, 20), v);
}

/* The text of `v` in nb->last_text, nb->last_len bytes long. Whole numbers
 * print without a fraction; scaled diff values keep three decimals. */
static void number_text(numbuf *nb, double v)
{
    char *text = nb->last_text;
    int n;

    if (nb->last_len && v == nb->last)
        return;
    if (v >= 0 && v < 18446744073709551616.0 && v == (double)(uint64_t)v)
        n = (int)format_u64(text, (uint64_t)v);
    else if (v == (double)(int64_t)v)
        n = snprintf(text, sizeof nb->last_text, "%lld", (long long)v);
    else
        n = snprintf(text, sizeof nb->last_text, "%.3f", v);
    nb->last = v;
    nb->last_len = n < (int)sizeof nb->last_text ? (size_t)n : sizeof nb->last_text - 1;
}

/* `v` at `p`, which has room for a whole nb->last_text. */
static char *put_number(numbuf *nb, char *p, double v)
{
    number_text(nb, v);
    /* a copy of fixed size is a few moves */
    memcpy(p, nb->last_text, sizeof nb->last_text);
    return p + nb->last_len;
}

static void number(numbuf *nb, double v)
{
    char *p = nb_room(nb, sizeof nb->last_text);

    nb->len = (size_t)(put_number(nb, p, v) - nb->buf);
}

/* What one array of the data holds. */
typedef enum field { F_NAME, F_KIND, F_DEPTH, F_VALUE, F_BASE } field;

/* Field `f` of the nodes of `b`, each after a comma. */
static char *put_field(numbuf *nb, char *p, const flame_batch *b, field f,
                       const uint32_t *written)
{
    size_t n = b->count;

    switch (f) {
    case F_NAME:
        for (size_t j = 0; j < n; j++) {
            *p++ = ',';
            p += format_u64(p, written[b->name[j]] - 1);
        }
        break;
    case F_KIND:
        for (size_t j = 0; j < n; j++) {
            *p++ = ',';
            *p++ = (char)('0' + b->kind[j]); /* below 8 */
        }
        break;
    case F_DEPTH:
        for (size_t j = 0; j < n; j++) {
            *p++ = ',';
            p += format_u64(p, b->depth[j]);
        }
        break;
    case F_VALUE:
    case F_BASE:
        for (size_t j = 0; j < n; j++) {
            *p++ = ',';
            p = put_number(nb, p, f == F_VALUE ? b->value[j] : b->base[j]);
        }
        break;
    }
    return p;
}

/* One array of the data: "NAME":[v,v,...], field `f` of every node; the
 * name is index + 1 in `written` by name id. */
static void write_array(numbuf *nb, const flame_tree *t, const char *name, field f,
                        const uint32_t *written, flame_batch *b)
{
    static const unsigned need[] = {FLAME_NEED_NAME, FLAME_NEED_KIND, 0, FLAME_NEED_VALUE,
                                    FLAME_NEED_VALUE};
    flame_iter it;

    nb_puts(nb, name);
    flame_iter_init(&it, t, need[f]);
    while (flame_iter_read(&it, b) > 0) {
        /* a comma and a number of the longest text, per node */
        char *start = nb_room(nb, FLAME_BATCH * (1 + sizeof nb->last_text));
        char *end = put_field(nb, start, b, f, written);

        if (b->first == 0) /* the tree has a node: the root */
            *start = '[';
        nb->len = (size_t)(end - nb->buf);
    }
    nb_putc(nb, ']');
}

/* Nodes of several kinds: node, JIT, inlined, interpreted weights. */
static void write_mixes(numbuf *nb, const flame_tree *t)
{
    size_t n;
    const flame_mixed *m = flame_tree_mixed(t, &n);

    nb_puts(nb, ",\"x\":[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            nb_putc(nb, ',');
        nb_u64(nb, m[i].node);
        nb_putc(nb, ',');
        number(nb, m[i].mix.jit);
        nb_putc(nb, ',');
        number(nb, m[i].mix.inlined);
        nb_putc(nb, ',');
        number(nb, m[i].mix.interpreted);
    }
    nb_putc(nb, ']');
}

/* Each distinct label once, in the order nodes first use it; `written`
 * gets index + 1 by name id. */
static void write_names(FILE *out, const flame_tree *t, uint32_t *written, flame_batch *b)
{
    strmap ix = {0};
    size_t nwritten = 0;
    flame_iter it;

    flame_iter_init(&it, t, FLAME_NEED_NAME);
    while (flame_iter_read(&it, b) > 0) {
        for (size_t j = 0; j < b->count; j++) {
            const char *name = t->names[b->name[j]];
            long k;

            if (written[b->name[j]])
                continue;
            k = strmap_get(&ix, name);
            if (k < 0) {
                strmap_put(&ix, name, nwritten);
                if (nwritten)
                    fputc(',', out);
                json_string(out, name);
                k = (long)nwritten++;
            }
            written[b->name[j]] = (uint32_t)k + 1;
        }
    }
    strmap_free(&ix);
}

static void write_data(FILE *out, const flame_tree *t, const char *title)
{
    /* label -> index + 1 among the names written; equal texts share one */
    uint32_t *written = xcalloc(t->nnames ? t->nnames : 1, sizeof *written);
    numbuf *nb = xcalloc(1, sizeof *nb);
    flame_batch *b = xmalloc(sizeof *b);

    fputs("const FLAME = {\"title\":", out);
    json_string(out, title);
    if (t->hint && *t->hint) {
        fputs(",\"hint\":", out);
        json_string(out, t->hint);
    }
    fprintf(out, ",\"unit\":\"%s\",\"mode\":\"%s\",\"names\":[", t->unit,
            t->diff ? "diff" : "normal");
    write_names(out, t, written, b);
    fputs("]", out);
    nb->out = out;
    write_array(nb, t, ",\"n\":", F_NAME, written, b);
    write_array(nb, t, ",\"k\":", F_KIND, written, b);
    write_array(nb, t, ",\"d\":", F_DEPTH, written, b);
    write_array(nb, t, ",\"v\":", F_VALUE, written, b);
    if (t->diff)
        write_array(nb, t, ",\"b\":", F_BASE, written, b);
    write_mixes(nb, t);
    nb_flush(nb);
    fputs("};\n", out);
    free(b);
    free(nb);
    free(written);
}

typedef struct page {
    const flame_tree *t;
    const char *title;
} page;

static void page_data(FILE *out, void *user)
{
    const page *pg = user;

    write_data(out, pg->t, pg->title);
}

void flame_write_html(FILE *out, const flame_tree *t, const char *title)
{
    page pg = {t, title};

    fill_template(out, flame_template, flame_template_size, DATA_LINE, title, page_data,
                  &pg);
}
