/* view_table.c - tables laid out as `jfr view` lays them out (doc/views.md
 * §5): preferred widths from every row, the table width chosen from them or
 * from --width, four rounds of handing out width, each cell filled as the
 * JDK's TableCell fills it (view_cell.c). Lengths are counted in UTF-16
 * code units, as Java counts them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "view_cell.h"
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

void view_columns_take_options(view_column *cols, size_t n, const view_ctx *ctx)
{
    for (size_t c = 0; c < n; c++) {
        cols[c].cell_height = ctx->cell_height;
        cols[c].truncate_begin = ctx->truncate == 1;
    }
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

/* The one-line text of a cell (the JDK's row text, which sizes the
 * column): a stack's top frame, a set's values joined by ", ", else the
 * text itself. Returns `text` or a string made in `*made`. */
static const char *row_text(const view_column *col, const char *text, char **made)
{
    const char *nl = text && col->lines ? strchr(text, '\n') : NULL;
    char *j;

    *made = NULL;
    if (!nl)
        return text;
    if (!col->set)
        return *made = xstrndup(text, (size_t)(nl - text));
    j = *made = xmalloc(2 * strlen(text) + 1);
    for (const char *p = text; *p; p++) {
        if (*p == '\n') {
            *j++ = ',';
            *j++ = ' ';
        } else {
            *j++ = *p;
        }
    }
    *j = '\0';
    return *made;
}

/* TableRenderer.setCellContent: values one a line where the cell is
 * taller than one line, else the row text, or its compact form where it
 * is longer than the cell. */
static void set_cell(view_cell *k, const view_column *col, const char *text,
                     const char *compact)
{
    char *made = NULL, *made_compact = NULL;
    const char *line;

    if (col->lines && k->height > 1) {
        view_cell_set_values(k, text, compact);
        return;
    }
    line = row_text(col, text, &made);
    if (compact && view_text_units(line) > k->height * k->width)
        line = row_text(col, compact, &made_compact);
    view_cell_set_text(k, line);
    free(made);
    free(made_compact);
}

/* Print the cells' lines side by side, as many as the tallest has. */
static void put_cells(FILE *out, const view_cell *cells, size_t ncols, bool ascii_only)
{
    size_t height = 0;

    for (size_t c = 0; c < ncols; c++)
        if (cells[c].nlines > height)
            height = cells[c].nlines;
    for (size_t l = 0; l < height; l++) {
        for (size_t c = 0; c < ncols; c++) {
            view_cell_put_line(out, &cells[c], l, ascii_only);
            if (c + 1 < ncols)
                putc(' ', out);
        }
        putc('\n', out);
    }
}

/* The preferred widths: each column's label and the row texts of every
 * row (the limit applied later), plus the separator. */
static void preferred_widths(const view_table *t, size_t *preferred)
{
    for (size_t c = 0; c < t->ncols; c++) {
        preferred[c] = view_text_units(t->cols[c].label) + 1;
        for (size_t r = 0; r < t->nrows; r++) {
            char *made;
            size_t w =
                view_text_units(row_text(&t->cols[c], t->full[r * t->ncols + c], &made));
            if (w + 1 > preferred[c])
                preferred[c] = w + 1;
            free(made);
        }
    }
}

/* TableRenderer.determineTableWidth, or --width. */
static long table_width(const view_table *t, const size_t *preferred, int width)
{
    long sum = 0;

    if (width != 0)
        return width;
    for (size_t c = 0; c < t->ncols; c++)
        sum += (long)preferred[c];
    return sum > MAX_PREFERRED_WIDTH                   ? MAX_PREFERRED_WIDTH
           : sum < MIN_PREFERRED_WIDTH && t->ncols < 3 ? MIN_PREFERRED_WIDTH
           : sum < PREFERRED_WIDTH                     ? PREFERRED_WIDTH
                                                       : sum;
}

static void put_title(FILE *out, const view_table *t, long total, bool ascii_only)
{
    size_t title_len = view_text_units(t->title) + (t->experimental ? 15 : 0);
    long pad = total - (long)title_len;

    fputc('\n', out);
    for (long i = 0; i < (pad > 0 ? pad / 2 : 0); i++)
        putc(' ', out);
    view_put_units(out, t->title, SIZE_MAX, ascii_only);
    if (t->experimental)
        fputs(" (Experimental)", out);
    fputs("\n\n", out);
}

/* The header row and its dashes, cut or wrapped as any cell. */
static void put_header(FILE *out, const view_table *t, view_cell *cells, bool ascii_only)
{
    for (size_t c = 0; c < t->ncols; c++)
        view_cell_set_text(&cells[c], t->cols[c].label);
    put_cells(out, cells, t->ncols, ascii_only);
    for (size_t c = 0; c < t->ncols; c++) {
        char *dashes = xmalloc(cells[c].width + 1);
        memset(dashes, '-', cells[c].width);
        dashes[cells[c].width] = '\0';
        view_cell_set_text(&cells[c], dashes);
        free(dashes);
    }
    put_cells(out, cells, t->ncols, ascii_only);
}

void view_table_print(FILE *out, const view_table *t, int width, bool ascii_only)
{
    size_t *preferred = xcalloc(t->ncols, sizeof *preferred);
    size_t *widths = xcalloc(t->ncols, sizeof *widths);
    view_cell *cells = xcalloc(t->ncols, sizeof *cells);
    size_t rows = t->limit && t->limit < t->nrows ? t->limit : t->nrows;
    long target, total = 0, min_width = (long)t->ncols * MINIMAL_CELL_WIDTH;

    /* the JDK's check without --width is against its widest automatic
     * table; jfrtool sql's tables (no title) print whatever their width */
    if (width != 0 ? min_width > width : t->title && min_width > MAX_PREFERRED_WIDTH) {
        fputs("\nToo many columns to fit width.\n", out);
        goto done;
    }
    preferred_widths(t, preferred);
    target = table_width(t, preferred, width);
    for (int round = 0; round < 4; round++)
        distribute(widths, preferred, t->cols, t->ncols, round, target, &total);
    if (t->title) /* jfrtool sql's tables have none */
        put_title(out, t, total, ascii_only);
    for (size_t c = 0; c < t->ncols; c++)
        cells[c] = (view_cell){
            .width = widths[c] - 1,
            .height = t->cols[c].cell_height > 1 ? (size_t)t->cols[c].cell_height : 1,
            .right = t->cols[c].right,
            .truncate_begin = t->cols[c].truncate_begin};
    put_header(out, t, cells, ascii_only);
    for (size_t r = 0; r < rows; r++) {
        for (size_t c = 0; c < t->ncols; c++)
            set_cell(&cells[c], &t->cols[c], t->full[r * t->ncols + c],
                     t->compact[r * t->ncols + c]);
        put_cells(out, cells, t->ncols, ascii_only);
    }
    for (size_t c = 0; c < t->ncols; c++)
        view_cell_free(&cells[c]);
done:
    free(preferred);
    free(widths);
    free(cells);
}

json_t *json_count(uint64_t v)
{
    return json_integer(v > (uint64_t)INT64_MAX ? INT64_MAX : (json_int_t)v);
}

void view_json_print(FILE *out, json_t *j)
{
    json_tree_print(out, j, 15);
}
