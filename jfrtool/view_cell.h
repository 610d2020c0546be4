/* view_cell.h - one cell of a view's table as the JDK's TableCell fills it
 * (view_cell.c, doc/views.md §5): its lines, each exactly the column's
 * content width, from a text (aligned, cut with "...", or wrapped over the
 * cell's height) or from several values one a line (a stack's frames, a
 * set), each cut to the width and sorted when all of them fit. */
#ifndef JFRTOOL_VIEW_CELL_H
#define JFRTOOL_VIEW_CELL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct view_cell {
    size_t width;        /**< content width in UTF-16 units (the column's - 1) */
    size_t height;       /**< lines the cell may take (at least 1) */
    bool right;          /**< padded at the left */
    bool truncate_begin; /**< cut at the beginning: "...end" */
    char **lines;        /**< each `width` units long */
    size_t nlines, cap;
} view_cell;

/** The cell holds `text` (the JDK's TableCell.setContent): aligned when
 * shorter than the width, else in lines of the width, cut with "..." where
 * longer than the cell. */
void view_cell_set_text(view_cell *k, const char *text);

/** The cell holds values one a line (the JDK's multi-line cells of stack
 * traces and sets): `values` and `compacts` ('\n'-separated; `compacts`
 * NULL or one per value), each value cut to the width after falling back
 * to its compact form; the first `height` values only, else all of them
 * in lexical order. */
void view_cell_set_values(view_cell *k, const char *values, const char *compacts);

/** Print line `i` (spaces past the cell's lines); non-ASCII as '?' when
 * `ascii_only`. */
void view_cell_put_line(FILE *out, const view_cell *k, size_t i, bool ascii_only);

/** Empty the cell (its lines freed); view_cell_free also frees the array. */
void view_cell_clear(view_cell *k);
void view_cell_free(view_cell *k);

/** Length in UTF-16 units of `s`, of its first `bytes` bytes; the byte
 * offset of its unit `units`. */
size_t view_text_units(const char *s);
size_t view_unit_count(const char *s, size_t bytes);
size_t view_unit_offset(const char *s, size_t units);

/** Write the first `units` UTF-16 units of `s` (when `ascii_only`, each
 * non-ASCII unit as '?', as the JDK writes it: a character beyond the BMP
 * as "??"). Control characters go out as they are: the cells made of
 * strings have none left (jfrsql_cell_text). */
void view_put_units(FILE *out, const char *s, size_t units, bool ascii_only);

#endif
