/* decimal_text.h - doubles as printf's "%.Nf" and "%.17g" write them,
 * without printf's cost where the text can be had exactly by arithmetic:
 * an SVG flame graph writes seven numbers a box, a diff page scaled
 * weights. */
#ifndef JFRTOOL_DECIMAL_TEXT_H
#define JFRTOOL_DECIMAL_TEXT_H

#include <stddef.h>

/** Room for any text of these functions: "%.3f" of DBL_MAX is 313 bytes. */
#define DECIMAL_TEXT_ROOM 320

/** `v` as snprintf's "%.*f" with `decimals` (0 to 3) writes it, into
 * `buf` (DECIMAL_TEXT_ROOM bytes); returns the text's length. */
size_t fixed_text(char *buf, double v, int decimals);

/** `v` as snprintf's "%.17g" writes it (every double reads back the
 * same), into `buf` (DECIMAL_TEXT_ROOM bytes); returns the length. */
size_t g17_text(char *buf, double v);

#endif
