/* top_screen.h - drawing `jfrtool top`: the full screen of a terminal
 * (header lines, a row per method with its self and total share and a
 * sparkline of its share over the last minute, the keys), or a plain table
 * per interval for a log. */
#ifndef JFRTOOL_TOP_SCREEN_H
#define JFRTOOL_TOP_SCREEN_H

#include <stdbool.h>
#include <stdio.h>

#include "top_model.h"
#include "util.h"

/** What is shown. */
typedef struct top_view {
    top_kind kind;      /**< the kind asked for (cpu may show exec) */
    bool by_total;      /**< rows sorted by total share, else by self */
    bool paused;        /**< the screen is not updated */
    int window;         /**< seconds summed in the table */
    const char *target; /**< what is followed, as given */
    bool utf8;          /**< sparklines in block characters, else ASCII */
} top_view;

/** The screen for a terminal of `width` x `height`, in ANSI escapes, as of
 * `now_nanos` (the time of the JVM's last flush): the window is the seconds
 * up to the one that holds it. */
void top_draw_screen(strbuf *out, top_model *m, const top_view *v, int64_t now_nanos,
                     int width, int height);

/** One plain table of at most `rows` methods, for a pipe or a file. */
void top_print_table(FILE *out, top_model *m, const top_view *v, int64_t now_nanos,
                     size_t rows);

#endif
