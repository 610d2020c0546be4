/* view_table.c - tables laid out as `jfr view` lays them out (doc/views.md
 * §5): preferred widths from every row, the table width chosen from them or
 * from --width, four rounds of handing out width, cells truncated with
 * "..." after falling back to their compact text. Lengths are counted in
 * UTF-16 code units, as Java counts them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "views.h"

#define MAX_PREFERRED_WIDTH 120
#define MIN_PREFERRED_WIDTH 40
#define PREFERRED_WIDTH     80
#define MINIMAL_CELL_WIDTH  2 /* one character and the separator */

void view_table_add(view_table *t, const char *const *full, const char *const *compact)
{
    if (t->nrows == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 64;
        t->full = xrealloc(t->full, t->cap * t->ncols, sizeof *t->full);
        t->compact = xrealloc(t->compact, t->cap * t->ncols, sizeof *t->compact);
    }
    for (size_t c = 0; c < t->ncols; c++) {
        const char *cut = compact ? compact[c] : NULL;
        t->full[t->nrows * t->ncols + c] = t->borrowed ? full[c] : xstrdup(full[c]);
        t->compact[t->nrows * t->ncols + c] = t->borrowed || !cut ? cut : xstrdup(cut);
    }
    t->nrows++;
}

void view_table_free(view_table *t)
{
    for (size_t i = 0; i < t->nrows * t->ncols && !t->borrowed; i++) {
        free((void *)(uintptr_t)t->full[i]); /* copies of view_table_add's */
        free((void *)(uintptr_t)t->compact[i]);
    }
    free(t->full);
    free(t->compact);
    t->full = t->compact = NULL;
    t->nrows = t->cap = 0;
}

static size_t text_length(const char *s)
{
    return utf16_length(s, strlen(s));
}

/* Write the first `units` UTF-16 code units of `s`; in ASCII-only mode each
 * non-ASCII character is one '?', as Java's encoder writes it. */
static void put_units(FILE *out, const char *s, size_t units, bool ascii_only)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t done = 0;

    while (*p && done < units) {
        unsigned char c = *p;
        size_t bytes = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        size_t k;

        for (k = 1; k < bytes && p[k]; k++)
            if ((p[k] & 0xC0) != 0x80)
                break;
        if (k < bytes)
            bytes = 1;
        if (c == '\t' || c == '\n' || c == '\r')
            putc(' ', out);
        else if (c < 0x80 || !ascii_only)
            fwrite(p, 1, bytes, out);
        else
            putc('?', out);
        done += bytes == 4 ? 2 : 1;
        p += bytes;
    }
}

static void put_spaces(FILE *out, size_t n)
{
    while (n--)
        putc(' ', out);
}

/* The byte offset of UTF-16 unit `units` of `s` (or its end). */
static size_t unit_offset(const char *s, size_t units)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t done = 0;

    while (*p && done < units) {
        unsigned char c = *p;
        size_t bytes = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        size_t k;
        for (k = 1; k < bytes && p[k]; k++)
            if ((p[k] & 0xC0) != 0x80)
                break;
        if (k < bytes)
            bytes = 1;
        done += bytes == 4 ? 2 : 1;
        p += bytes;
    }
    return (size_t)(p - (const unsigned char *)s);
}

/* One cell of content width `cw` (TableCell.setContent for one line). */
static void put_cell(FILE *out, const char *text, size_t cw, bool right, bool ascii_only,
                     bool truncate_begin)
{
    size_t len = text_length(text);

    if (len > cw && cw >= 3 && truncate_begin) {
        fputs("...", out);
        put_units(out, text + unit_offset(text, len - (cw - 3)), cw - 3, ascii_only);
    } else if (len == cw) {
        put_units(out, text, len, ascii_only);
    } else if (len > cw) {
        if (cw < 3) {
            /* the JDK keeps the last 3 - cw dots, cut to the cell */
            size_t dots = 3 - cw < cw ? 3 - cw : cw;
            put_units(out, "...", dots, false);
            put_spaces(out, cw - dots);
        } else {
            put_units(out, text, cw - 3, ascii_only);
            fputs("...", out);
        }
    } else if (right) {
        put_spaces(out, cw - len);
        put_units(out, text, len, ascii_only);
    } else {
        put_units(out, text, len, ascii_only);
        put_spaces(out, cw - len);
    }
}

/* TableRenderer.distribute: passes over the columns, each giving one more
 * to every column that qualifies; the amount left is checked between
 * passes only. */
static void distribute(size_t *widths, const size_t *preferred, const view_column *cols,
                       size_t ncols, int round, long target, long *total)
{
    long left = target - *total, last = -1;

    while (left > 0 && left != last) {
        last = left;
        for (size_t c = 0; c < ncols; c++) {
            bool give = round == 0   ? widths[c] < MINIMAL_CELL_WIDTH
                        : round == 1 ? widths[c] < preferred[c]
                        : round == 2 ? cols[c].flex || !(cols[c].right || cols[c].fixed)
                                     : true;
            if (give) {
                widths[c]++;
                (*total)++;
                left--;
            }
        }
    }
}

/* The length of the longest line of a cell's text. */
static size_t longest_line(const char *text)
{
    size_t best = 0;

    for (;;) {
        const char *nl = strchr(text, '\n');
        size_t len = nl ? utf16_length(text, (size_t)(nl - text)) : text_length(text);
        if (len > best)
            best = len;
        if (!nl)
            return best;
        text = nl + 1;
    }
}

/* The lines of a cell at most `height` high: its own lines, each long one
 * wrapped at the cell's width when the cell may take several lines. */
static size_t cell_lines(const char *text, size_t cw, int height, bool split,
                         char ***lines)
{
    size_t n = 0, cap = 4;
    size_t max = height > 1 ? (size_t)height : 1;
    const char *p = text;

    *lines = xcalloc(cap, sizeof **lines);
    while (n < max) {
        const char *nl = split ? strchr(p, '\n') : NULL;
        size_t linelen = nl ? (size_t)(nl - p) : strlen(p);
        char *line = xmalloc(linelen + 1);
        const char *q = line;

        memcpy(line, p, linelen);
        line[linelen] = '\0';
        while (n < max) {
            size_t units = text_length(q);
            size_t take = units;
            if (max > 1 && units > cw && cw > 0 && n + 1 < max)
                take = cw;
            if (n == cap) {
                cap *= 2;
                *lines = xrealloc(*lines, cap, sizeof **lines);
            }
            {
                size_t off = unit_offset(q, take);
                char *piece = xmalloc(off + 1);
                memcpy(piece, q, off);
                piece[off] = '\0';
                (*lines)[n++] = piece;
                q += off;
            }
            if (*q == '\0')
                break;
        }
        free(line);
        if (!nl)
            break;
        p = nl + 1;
    }
    return n;
}

static void put_row(FILE *out, const view_table *t, const size_t *widths,
                    const char *const *cells, const char *const *compact, bool ascii_only)
{
    char ***lines = xcalloc(t->ncols, sizeof *lines);
    size_t *nlines = xcalloc(t->ncols, sizeof *nlines);
    size_t height = 1;

    for (size_t c = 0; c < t->ncols; c++) {
        size_t cw = widths[c] - 1;
        const char *text = cells[c];

        if (compact && compact[c] && text_length(text) > cw &&
            t->cols[c].cell_height <= 1)
            text = compact[c];
        nlines[c] = cell_lines(text, cw, compact ? t->cols[c].cell_height : 1,
                               t->cols[c].lines, &lines[c]);
        if (nlines[c] > height)
            height = nlines[c];
    }
    for (size_t l = 0; l < height; l++) {
        for (size_t c = 0; c < t->ncols; c++) {
            size_t cw = widths[c] - 1;
            put_cell(out, l < nlines[c] ? lines[c][l] : "", cw, t->cols[c].right,
                     ascii_only, t->cols[c].truncate_begin);
            if (c + 1 < t->ncols)
                putc(' ', out);
        }
        putc('\n', out);
    }
    for (size_t c = 0; c < t->ncols; c++) {
        for (size_t l = 0; l < nlines[c]; l++)
            free(lines[c][l]);
        free(lines[c]);
    }
    free(lines);
    free(nlines);
}

void view_table_print(FILE *out, const view_table *t, int width, bool ascii_only)
{
    size_t *preferred = xcalloc(t->ncols, sizeof *preferred);
    size_t *widths = xcalloc(t->ncols, sizeof *widths);
    const char **labels = xcalloc(t->ncols, sizeof *labels);
    char **dashes = xcalloc(t->ncols, sizeof *dashes);
    size_t rows = t->limit && t->limit < t->nrows ? t->limit : t->nrows;
    long target, total = 0;

    if (width != 0 && (long)t->ncols * MINIMAL_CELL_WIDTH > width) {
        fputs("\nToo many columns to fit width.\n", out);
        goto done;
    }
    for (size_t c = 0; c < t->ncols; c++) {
        preferred[c] = text_length(t->cols[c].label) + 1;
        for (size_t r = 0; r < t->nrows; r++) {
            const char *text = t->full[r * t->ncols + c];
            size_t w = (t->cols[c].lines ? longest_line(text) : text_length(text)) + 1;
            if (w > preferred[c])
                preferred[c] = w;
        }
    }
    if (width != 0) {
        target = width;
    } else {
        long sum = 0;
        for (size_t c = 0; c < t->ncols; c++)
            sum += (long)preferred[c];
        target = sum > MAX_PREFERRED_WIDTH                   ? MAX_PREFERRED_WIDTH
                 : sum < MIN_PREFERRED_WIDTH && t->ncols < 3 ? MIN_PREFERRED_WIDTH
                 : sum < PREFERRED_WIDTH                     ? PREFERRED_WIDTH
                                                             : sum;
    }
    for (int round = 0; round < 4; round++)
        distribute(widths, preferred, t->cols, t->ncols, round, target, &total);

    if (t->title) { /* jfrtool sql's tables have none */
        size_t title_len = text_length(t->title) + (t->experimental ? 15 : 0);
        long pad = total - (long)title_len;
        fputc('\n', out);
        put_spaces(out, pad > 0 ? (size_t)pad / 2 : 0);
        put_units(out, t->title, SIZE_MAX, ascii_only);
        if (t->experimental)
            fputs(" (Experimental)", out);
        fputs("\n\n", out);
    }
    for (size_t c = 0; c < t->ncols; c++) {
        labels[c] = t->cols[c].label;
        dashes[c] = xmalloc(widths[c]);
        memset(dashes[c], '-', widths[c] - 1);
        dashes[c][widths[c] - 1] = '\0';
    }
    put_row(out, t, widths, labels, NULL, ascii_only);
    put_row(out, t, widths, (const char *const *)dashes, NULL, ascii_only);
    for (size_t r = 0; r < rows; r++)
        put_row(out, t, widths, &t->full[r * t->ncols], &t->compact[r * t->ncols],
                ascii_only);
    for (size_t c = 0; c < t->ncols; c++)
        free(dashes[c]);
done:
    free(preferred);
    free(widths);
    free(labels);
    free(dashes);
}

json_t *json_count(uint64_t v)
{
    return json_integer(v > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)v);
}

void view_json_print(FILE *out, json_t *j)
{
    json_tree_print(out, j, 15);
}
