/* flame_output.h - writing a flame tree as a self-contained HTML page
 * (flame_html.c, from the embedded jfrtool/flame.html) or as a standalone
 * SVG (flame_svg.c). */
#ifndef JFRTOOL_FLAME_OUTPUT_H
#define JFRTOOL_FLAME_OUTPUT_H

#include <stdio.h>

#include "flame_tree.h"
#include "select.h"

/** Write the HTML page. */
void flame_write_html(FILE *out, const flame_tree *t, const char *title);

/** Write the SVG document. */
void flame_write_svg(FILE *out, const flame_tree *t, const char *title);

/* Shared by the flame and diff commands (cmd_flame.c). */

/** getopt_long codes of the options flame and diff share. */
enum {
    FLAME_OPT_FORMAT = 0x200,
    FLAME_OPT_TITLE,
    FLAME_OPT_REVERSE,
    FLAME_OPT_FOLDED, /* diff only */
    FLAME_OPT_UNIT    /* diff only */
};

/** Their table entries (with -o and -h), after the command's own. */
/* clang-format off */
#define FLAME_OPTIONS \
    {"format", required_argument, NULL, FLAME_OPT_FORMAT}, \
    {"title", required_argument, NULL, FLAME_OPT_TITLE}, \
    {"reverse", no_argument, NULL, FLAME_OPT_REVERSE}, \
    {"output", required_argument, NULL, 'o'}, \
    {"help", no_argument, NULL, 'h'}
/* clang-format on */

/** What the shared options asked for. */
typedef struct flame_args {
    const char *output; /**< -o; NULL: standard output */
    const char *title;  /**< --title; NULL: made from the inputs */
    bool svg;           /**< --format svg (default html) */
    bool pprof;         /**< --format pprof (flame only: the profile, not a graph) */
    bool speedscope;    /**< --format speedscope (flame only, as pprof) */
    bool reverse;       /**< --reverse */
    bool folded;        /**< diff --folded: the inputs are folded stacks */
    const char *unit;   /**< diff --unit: samples, bytes or ns (folded input) */
} flame_args;

/**
 * Parse the options of command `cmd` (flame or diff) with table `opts`
 * into `s` and `a`. Returns -1 when the command should go on, else the exit
 * status to return (after --help, or a usage error).
 */
int flame_parse_options(int argc, char **argv, const struct option *opts,
                        const char *usage, select_opts *s, flame_args *a);

/** "WHAT: FILE FILE... (TOTAL)" with the files' base names and the
 * profile's total in its unit ("13.73 s", "1.2 GB", "1,234 samples");
 * free() it. */
char *flame_default_title(const select_result *r, char **files, int nfiles);
/** The total of profile `p` in its unit, as in the default titles. */
void flame_total_text(strbuf *sb, const jfr_profile *p);
/** "svg", "html" or "pprof" into `a`; -1 for anything else. */
int flame_parse_format(const char *arg, flame_args *a);
/** Write the tree to `output` (NULL: standard output), which is replaced
 * only when `status` (the inputs' reading) and the writing succeeded;
 * returns the command's exit status. */
int flame_emit(const flame_tree *t, bool svg, const char *title, const char *output,
               int status);

#endif
