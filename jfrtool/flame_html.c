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

#define DATA_LINE  "/*@@FLAME_DATA@@*/"
#define TITLE_MARK "@@TITLE@@"

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

/* Whole numbers print without a fraction; scaled diff values keep three
 * decimals. */
static void number(FILE *out, double v)
{
    if (v == (double)(int64_t)v)
        fprintf(out, "%lld", (long long)v);
    else
        fprintf(out, "%.3f", v);
}

static void write_data(FILE *out, const flame_tree *t, const char *title)
{
    strmap ix = {0};
    size_t *name_of = xcalloc(t->count ? t->count : 1, sizeof *name_of);
    size_t nnames = 0;

    fputs("const FLAME = {\"title\":", out);
    json_string(out, title);
    fprintf(out, ",\"unit\":\"%s\",\"mode\":\"%s\",\"names\":[", t->unit,
            t->diff ? "diff" : "normal");
    for (size_t i = 0; i < t->count; i++) {
        long k = strmap_get(&ix, t->nodes[i].name);
        if (k < 0) {
            strmap_put(&ix, t->nodes[i].name, nnames);
            if (nnames)
                fputc(',', out);
            json_string(out, t->nodes[i].name);
            k = (long)nnames++;
        }
        name_of[i] = (size_t)k;
    }
    fputs("],\"n\":[", out);
    for (size_t i = 0; i < t->count; i++)
        fprintf(out, "%s%zu", i ? "," : "", name_of[i]);
    fputs("],\"k\":[", out);
    for (size_t i = 0; i < t->count; i++)
        fprintf(out, "%s%u", i ? "," : "", t->nodes[i].kind);
    fputs("],\"d\":[", out);
    for (size_t i = 0; i < t->count; i++)
        fprintf(out, "%s%u", i ? "," : "", t->nodes[i].depth);
    fputs("],\"v\":[", out);
    for (size_t i = 0; i < t->count; i++) {
        if (i)
            fputc(',', out);
        number(out, t->nodes[i].value);
    }
    fputc(']', out);
    if (t->diff) {
        fputs(",\"b\":[", out);
        for (size_t i = 0; i < t->count; i++) {
            if (i)
                fputc(',', out);
            number(out, t->nodes[i].base);
        }
        fputc(']', out);
    }
    fputs("};\n", out);
    strmap_free(&ix);
    free(name_of);
}

/* The first `needle` in [p, end), or NULL (memmem is not in C11). */
static const char *find(const char *p, const char *end, const char *needle)
{
    size_t n = strlen(needle);

    for (; (size_t)(end - p) >= n; p++)
        if (*p == *needle && memcmp(p, needle, n) == 0)
            return p;
    return NULL;
}

void flame_write_html(FILE *out, const flame_tree *t, const char *title)
{
    const char *p = (const char *)flame_template, *end = p + flame_template_size;

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *line_end = nl ? nl + 1 : end;
        size_t len = (size_t)(line_end - p);
        const char *mark;

        if (len >= sizeof DATA_LINE - 1 &&
            strncmp(p, DATA_LINE, sizeof DATA_LINE - 1) == 0 &&
            (len == sizeof DATA_LINE - 1 || p[sizeof DATA_LINE - 1] == '\n')) {
            write_data(out, t, title);
            p = line_end;
            continue;
        }
        /* the title marker, as often as it appears on the line */
        while ((mark = find(p, line_end, TITLE_MARK))) {
            fwrite(p, 1, (size_t)(mark - p), out);
            markup_text(out, title, SIZE_MAX);
            p = mark + sizeof TITLE_MARK - 1;
        }
        fwrite(p, 1, (size_t)(line_end - p), out);
        p = line_end;
    }
}
