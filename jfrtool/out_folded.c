/* out_folded.c - folded (collapsed) stacks, the input of flamegraph.pl
 * and other flame-graph tools: the library writes them
 * (jfr_profile_write_folded; design.md §3 "Folded stacks"), this file
 * sends its pieces to the output stream. */
#include <stdio.h>

#include "jfrtool.h"
#include "out_folded.h"
#include "util.h"

/* jfr_profile_write_folded's sink: stops at the first failed write,
 * which the stream's close reports. */
static int write_piece(void *user, const char *text, size_t len)
{
    return fwrite(text, 1, len, user) == len ? JFR_OK : JFR_EIO;
}

void folded_print(const jfr_profile *p, const select_opts *s, FILE *out)
{
    unsigned flags = (s->lines ? JFR_FRAME_TEXT_LINES : 0) |
                     (s->annotate ? JFR_FRAME_TEXT_ANNOTATE : 0);

    if (jfr_profile_write_folded(p, flags, write_piece, out) == JFR_ENOMEM)
        diex(EXIT_INPUT, "out of memory");
}

int folded_write_profile(FILE *out, const profile_output *po)
{
    folded_print(po->r->profile, po->s, out);
    return 0;
}
