/* top_term.h - the terminal of `jfrtool top`, with no curses: raw keys
 * (no line editing, no echo), the alternate screen with the cursor hidden,
 * and the terminal given back as it was at exit and on the signals that
 * stop or end the process (Ctrl-Z, hangup, quit; SIGINT and SIGTERM end
 * the follow loop, which then leaves). */
#ifndef JFRTOOL_TOP_TERM_H
#define JFRTOOL_TOP_TERM_H

#include <stdbool.h>

/** Take the terminal when standard input and output are one; false (and
 * nothing changed) otherwise. */
bool term_enter(void);

/** Give the terminal back (safe to call more than once). */
void term_leave(void);

/** The next key pressed, or -1 when none is waiting (never blocks). */
int term_key(void);

/** The terminal's size; false when unknown. */
bool term_size(int *width, int *height);

/** True once after the terminal was resized or the process continued
 * after a stop: the screen is to be drawn whole again. */
bool term_redraw_needed(void);

#endif
