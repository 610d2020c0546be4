/* view_format.c - shares as the JDK's views print them, through Java's
 * "%.2f" (fmt_java_fixed: the shortest decimal that reads back as the
 * double, rounded half-up, doc/views.md §3.1, so 1.005 prints 1.01 where
 * C prints 1.00). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out_text.h"
#include "views.h"

void fmt_percent(strbuf *sb, uint64_t part, uint64_t total)
{
    double share = total ? ((double)part / (double)total) * 100.0 : 0.0;

    fmt_java_fixed(sb, share, 2);
    sb_putc(sb, '%');
}

double percent_value(uint64_t part, uint64_t total)
{
    strbuf sb = {0};
    double v;

    fmt_java_fixed(&sb, total ? ((double)part / (double)total) * 100.0 : 0.0, 2);
    v = strtod(sb_str(&sb), NULL);
    sb_free(&sb);
    return v;
}
