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

/* One array of the data: "NAME":[v,v,...] from get(t, i). */
static void write_array(numbuf *nb, const flame_tree *t, const char *name,
                        double (*get)(const flame_tree *t, size_t i))
{
    for (const char *p = name; *p; p++)
        nb_putc(nb, *p);
    nb_putc(nb, '[');
    for (size_t i = 0; i < t->count; i++) {
        if (i)
            nb_putc(nb, ',');
        number(nb, get(t, i));
    }
    nb_putc(nb, ']');
}

static double kind_at(const flame_tree *t, size_t i)
{
    return t->kind[i];
}

static double depth_at(const flame_tree *t, size_t i)
{
    return t->depth[i];
}

static double value_at(const flame_tree *t, size_t i)
{
    return t->value[i];
}

static double base_at(const flame_tree *t, size_t i)
{
    return t->base[i];
}

static void write_data(FILE *out, const flame_tree *t, const char *title)
{
    strmap ix = {0};
    /* label -> index + 1 among the names written; equal texts share one */
    uint32_t *written = xcalloc(t->nnames ? t->nnames : 1, sizeof *written);
    size_t nwritten = 0;
    numbuf *nb = xmalloc(sizeof *nb);

    fputs("const FLAME = {\"title\":", out);
    json_string(out, title);
    fprintf(out, ",\"unit\":\"%s\",\"mode\":\"%s\",\"names\":[", t->unit,
            t->diff ? "diff" : "normal");
    for (size_t i = 0; i < t->count; i++) {
        uint32_t name = t->name[i];
        long k;

        if (written[name])
            continue;
        k = strmap_get(&ix, t->names[name]);
        if (k < 0) {
            strmap_put(&ix, t->names[name], nwritten);
            if (nwritten)
                fputc(',', out);
            json_string(out, t->names[name]);
            k = (long)nwritten++;
        }
        written[name] = (uint32_t)k + 1;
    }
    fputs("]", out);
    nb->out = out;
    nb->len = 0;
    for (const char *p = ",\"n\":["; *p; p++)
        nb_putc(nb, *p);
    for (size_t i = 0; i < t->count; i++) {
        if (i)
            nb_putc(nb, ',');
        nb_u64(nb, written[t->name[i]] - 1);
    }
    nb_putc(nb, ']');
    write_array(nb, t, ",\"k\":", kind_at);
    write_array(nb, t, ",\"d\":", depth_at);
    write_array(nb, t, ",\"v\":", value_at);
    if (t->diff)
        write_array(nb, t, ",\"b\":", base_at);
    /* nodes of several kinds: node, JIT, inlined, interpreted weights */
    for (const char *p = ",\"x\":["; *p; p++)
        nb_putc(nb, *p);
    for (size_t i = 0; i < t->nmix; i++) {
        if (i)
            nb_putc(nb, ',');
        nb_u64(nb, t->mix[i].node);
        nb_putc(nb, ',');
        number(nb, t->mix[i].jit);
        nb_putc(nb, ',');
        number(nb, t->mix[i].inlined);
        nb_putc(nb, ',');
        number(nb, t->mix[i].interpreted);
    }
    nb_putc(nb, ']');
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
