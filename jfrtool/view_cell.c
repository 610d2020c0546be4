/* view_cell.c - a cell's lines as the JDK's TableCell makes them
 * (view_cell.h). Lengths are counted in UTF-16 code units, as Java counts
 * them; every line is exactly the cell's content width. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "view_cell.h"

#define ELLIPSIS "..."

/* The bytes of the UTF-8 character at `p` (1 for a bad sequence). */
static size_t char_bytes(const unsigned char *p)
{
    size_t bytes = *p < 0x80 ? 1 : *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC0 ? 2 : 1;
    size_t k;

    for (k = 1; k < bytes && p[k]; k++)
        if ((p[k] & 0xC0) != 0x80)
            break;
    return k < bytes ? 1 : bytes;
}

size_t view_text_units(const char *s)
{
    return view_unit_count(s, SIZE_MAX);
}

size_t view_unit_count(const char *s, size_t bytes)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t units = 0;

    for (size_t done = 0; p[done] && done < bytes;) {
        size_t n = char_bytes(p + done);
        units += n == 4 ? 2 : 1;
        done += n;
    }
    return units;
}

size_t view_unit_offset(const char *s, size_t units)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t done = 0;

    while (*p && done < units) {
        size_t bytes = char_bytes(p);
        done += bytes == 4 ? 2 : 1;
        p += bytes;
    }
    return (size_t)(p - (const unsigned char *)s);
}

void view_put_units(FILE *out, const char *s, size_t units, bool ascii_only)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t done = 0;

    while (*p && done < units) {
        const unsigned char *run = p;
        size_t bytes;

        /* characters written as they are, in one call: a view of thousands
         * of rows was mostly stdio's locking, a call per character */
        while (*p && done < units && (*p < 0x80 || !ascii_only)) {
            bytes = char_bytes(p);
            done += bytes == 4 ? 2 : 1;
            p += bytes;
        }
        if (p > run)
            fwrite(run, 1, (size_t)(p - run), out);
        if (!*p || done >= units)
            break;
        bytes = char_bytes(p);
        /* one '?' per UTF-16 unit: beyond the BMP the JDK's string has
         * two (the U+FFFD pair its reader makes of a HotSpot symbol's
         * surrogates), and the column width counts both */
        putc('?', out);
        if (bytes == 4 && done + 1 < units)
            putc('?', out);
        done += bytes == 4 ? 2 : 1;
        p += bytes;
    }
}

/* Take `line` (malloc'd) as the cell's next line. */
static void push(view_cell *k, char *line)
{
    if (k->nlines == k->cap) {
        k->cap = k->cap ? k->cap * 2 : 4;
        k->lines = xrealloc(k->lines, k->cap, sizeof *k->lines);
    }
    k->lines[k->nlines++] = line;
}

/* `bytes` bytes of `s` with `pad` spaces before (`left`) or after them. */
static char *padded(const char *s, size_t bytes, size_t pad, bool left)
{
    char *line = xmalloc(bytes + pad + 1);

    memset(line, ' ', pad);
    memcpy(line + (left ? pad : 0), s, bytes);
    memset(line + (left ? 0 : bytes), ' ', pad);
    line[bytes + pad] = '\0';
    return line;
}

/* TableCell.add: `text` in lines of the width, over at most the cell's
 * size, the last one padded. */
static void add(view_cell *k, const char *text)
{
    size_t len = view_text_units(text), size = k->height * k->width;

    for (size_t index = 0; index < size && k->width > 0; index += k->width) {
        size_t from = view_unit_offset(text, index);
        if (index + k->width >= len) {
            push(k, padded(text + from, strlen(text + from), k->width - (len - index),
                           false));
            return;
        }
        push(k, padded(text + from, view_unit_offset(text + from, k->width), 0, false));
    }
}

/* TableCell.truncate: `text` cut to `size` units with "..." at the end or
 * the beginning; below 3 units, the JDK's first 3 - size dots. */
static char *truncated(const view_cell *k, const char *text, size_t size)
{
    size_t keep, len = view_text_units(text);
    char *cut;

    if (size < 3)
        return xstrndup(ELLIPSIS, 3 - size);
    keep = size - 3;
    if (k->truncate_begin) {
        const char *tail = text + view_unit_offset(text, len - keep);
        cut = xmalloc(strlen(tail) + 4);
        memcpy(cut, ELLIPSIS, 3);
        strcpy(cut + 3, tail);
    } else {
        size_t head = view_unit_offset(text, keep);
        cut = xmalloc(head + 4);
        memcpy(cut, text, head);
        strcpy(cut + head, ELLIPSIS);
    }
    return cut;
}

/* TableCell.addAligned: one line, padded to the width. */
static void add_aligned(view_cell *k, const char *text)
{
    size_t len = view_text_units(text);

    push(k, padded(text, strlen(text), k->width - len, k->right));
}

void view_cell_set_text(view_cell *k, const char *text)
{
    size_t len = view_text_units(text), size = k->height * k->width;

    view_cell_clear(k);
    if (len == size) {
        add(k, text);
    } else if (len > size) {
        char *cut = truncated(k, text, size);
        add(k, cut);
        free(cut);
    } else if (len < k->width) {
        add_aligned(k, text);
    } else {
        add(k, text); /* several lines, and it fits */
    }
}

/* TableCell.addLine: one value, cut to the width. */
static void add_line(view_cell *k, const char *text)
{
    if (view_text_units(text) > k->width) {
        char *cut = truncated(k, text, k->width);
        add(k, cut);
        free(cut);
    } else {
        add_aligned(k, text);
    }
}

static int compare_lines(const void *a, const void *b)
{
    /* UTF-8 byte order is code point order: Java's String order but for
     * supplementary characters against U+E000..U+FFFF */
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The line of `s` that starts at `*p` (then past it), as a new string;
 * NULL when `*p` is NULL. */
static char *next_value(const char **p)
{
    const char *s = *p, *nl;
    char *value;

    if (!s)
        return NULL;
    nl = strchr(s, '\n');
    value = xstrndup(s, nl ? (size_t)(nl - s) : strlen(s));
    *p = nl ? nl + 1 : NULL;
    return value;
}

void view_cell_set_values(view_cell *k, const char *values, const char *compacts)
{
    const char *v = values, *c = compacts;
    size_t n = 0;

    view_cell_clear(k);
    for (char *value; (value = next_value(&v)) != NULL; n++) {
        char *compact = next_value(&c);
        if (n == k->height) { /* more than the cell shows: as they come */
            free(value);
            free(compact);
            return;
        }
        add_line(k, compact && view_text_units(value) > k->width ? compact : value);
        free(value);
        free(compact);
    }
    qsort(k->lines, k->nlines, sizeof *k->lines, compare_lines);
}

void view_cell_put_line(FILE *out, const view_cell *k, size_t i, bool ascii_only)
{
    if (i < k->nlines) {
        view_put_units(out, k->lines[i], SIZE_MAX, ascii_only);
        return;
    }
    for (size_t j = 0; j < k->width; j++)
        putc(' ', out);
}

void view_cell_clear(view_cell *k)
{
    for (size_t i = 0; i < k->nlines; i++)
        free(k->lines[i]);
    k->nlines = 0;
}

void view_cell_free(view_cell *k)
{
    view_cell_clear(k);
    free(k->lines);
    k->lines = NULL;
    k->cap = 0;
}
