/* flame_output.h - writing a flame tree as a self-contained HTML page
 * (flame_html.c, from the embedded jfrtool/flame.html) or as a standalone
 * SVG (flame_svg.c). */
#ifndef JFRTOOL_FLAME_OUTPUT_H
#define JFRTOOL_FLAME_OUTPUT_H

#include <stdio.h>

#include "flame_tree.h"

/** Write the HTML page. */
void flame_write_html(FILE *out, const flame_tree *t, const char *title);

/** Write the SVG document. */
void flame_write_svg(FILE *out, const flame_tree *t, const char *title);

/* Shared by the flame and diff commands (cmd_flame.c). */
/** "WHAT: FILE FILE..." with the files' base names; free() it. */
char *flame_default_title(const char *what, char **files, int nfiles);
/** "svg" or "html" into *svg; -1 for anything else. */
int flame_parse_format(const char *arg, bool *svg);
/** Write the tree to `output` (NULL: standard output); an exit status. */
int flame_emit(const flame_tree *t, bool svg, const char *title, const char *output);

#endif
