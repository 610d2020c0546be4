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
    char buf[1 << 16];
} numbuf;

static void nb_flush(numbuf *nb)
{
    fwrite(nb->buf, 1, nb->len, nb->out);
    nb->len = 0;
}

static void nb_putc(numbuf *nb, char c)
{
    if (nb->len == sizeof nb->buf)
        nb_flush(nb);
    nb->buf[nb->len++] = c;
}

static void nb_u64(numbuf *nb, uint64_t v)
{
    char digits[20];
    size_t n = 0;

    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (nb->len + n > sizeof nb->buf)
        nb_flush(nb);
    while (n)
        nb->buf[nb->len++] = digits[--n];
}

/* Whole numbers print without a fraction; scaled diff values keep three
 * decimals. */
static void number(numbuf *nb, double v)
{
    char text[64];
    int n;

    if (v >= 0 && v < 18446744073709551616.0 && v == (double)(uint64_t)v) {
        nb_u64(nb, (uint64_t)v);
        return;
    }
    if (v == (double)(int64_t)v)
        n = snprintf(text, sizeof text, "%lld", (long long)v);
    else
        n = snprintf(text, sizeof text, "%.3f", v);
    for (int i = 0; i < n && i < (int)sizeof text - 1; i++)
        nb_putc(nb, text[i]);
}

static void nb_puts(numbuf *nb, const char *s)
{
    for (; *s; s++)
        nb_putc(nb, *s);
}

/* What one array of the data holds. */
typedef enum field { F_NAME, F_KIND, F_DEPTH, F_VALUE, F_BASE } field;

/* One array of the data: "NAME":[v,v,...], field `f` of every node; the
 * name is index + 1 in `written` by name id. */
static void write_array(numbuf *nb, const flame_tree *t, const char *name, field f,
                        const uint32_t *written)
{
    static const unsigned need[] = {FLAME_NEED_NAME, FLAME_NEED_KIND, 0, FLAME_NEED_VALUE,
                                    FLAME_NEED_VALUE};
    flame_iter it;
    flame_node n;
    bool first = true;

    nb_puts(nb, name);
    nb_putc(nb, '[');
    flame_iter_init(&it, t, need[f]);
    while (flame_iter_next(&it, &n)) {
        if (!first)
            nb_putc(nb, ',');
        first = false;
        switch (f) {
        case F_NAME:
            nb_u64(nb, written[n.name_id] - 1);
            break;
        case F_KIND:
            nb_u64(nb, n.kind);
            break;
        case F_DEPTH:
            nb_u64(nb, n.depth);
            break;
        case F_VALUE:
            number(nb, n.value);
            break;
        case F_BASE:
            number(nb, n.base);
            break;
        }
    }
    nb_putc(nb, ']');
}

/* Nodes of several kinds: node, JIT, inlined, interpreted weights. */
static void write_mixes(numbuf *nb, const flame_tree *t)
{
    flame_iter it;
    flame_node n;
    bool first = true;

    nb_puts(nb, ",\"x\":[");
    flame_iter_init(&it, t, FLAME_NEED_MIX);
    for (size_t i = 0; flame_iter_next(&it, &n); i++) {
        if (!n.mixed)
            continue;
        if (!first)
            nb_putc(nb, ',');
        first = false;
        nb_u64(nb, i);
        nb_putc(nb, ',');
        number(nb, n.mix.jit);
        nb_putc(nb, ',');
        number(nb, n.mix.inlined);
        nb_putc(nb, ',');
        number(nb, n.mix.interpreted);
    }
    nb_putc(nb, ']');
}

static void write_data(FILE *out, const flame_tree *t, const char *title)
{
    strmap ix = {0};
    /* label -> index + 1 among the names written; equal texts share one */
    uint32_t *written = xcalloc(t->nnames ? t->nnames : 1, sizeof *written);
    size_t nwritten = 0;
    numbuf *nb = xmalloc(sizeof *nb);
    flame_iter it;
    flame_node n;

    fputs("const FLAME = {\"title\":", out);
    json_string(out, title);
    fprintf(out, ",\"unit\":\"%s\",\"mode\":\"%s\",\"names\":[", t->unit,
            t->diff ? "diff" : "normal");
    flame_iter_init(&it, t, FLAME_NEED_NAME);
    while (flame_iter_next(&it, &n)) {
        long k;

        if (written[n.name_id])
            continue;
        k = strmap_get(&ix, n.name);
        if (k < 0) {
            strmap_put(&ix, n.name, nwritten);
            if (nwritten)
                fputc(',', out);
            json_string(out, n.name);
            k = (long)nwritten++;
        }
        written[n.name_id] = (uint32_t)k + 1;
    }
    fputs("]", out);
    nb->out = out;
    nb->len = 0;
    write_array(nb, t, ",\"n\":", F_NAME, written);
    write_array(nb, t, ",\"k\":", F_KIND, written);
    write_array(nb, t, ",\"d\":", F_DEPTH, written);
    write_array(nb, t, ",\"v\":", F_VALUE, written);
    if (t->diff)
        write_array(nb, t, ",\"b\":", F_BASE, written);
    write_mixes(nb, t);
    nb_flush(nb);
    fputs("};\n", out);
    free(nb);
    strmap_free(&ix);
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
