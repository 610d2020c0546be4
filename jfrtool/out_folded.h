/* out_folded.h - a profile as folded stacks (out_folded.c), the format
 * `jfrtool folded` writes by default. */
#ifndef JFRTOOL_OUT_FOLDED_H
#define JFRTOOL_OUT_FOLDED_H

#include <stdio.h>

#include <jfr.h>

#include "formats.h"
#include "select.h"

/** Write the folded stacks of profile `p` to `out`: frames named by `s`
 * (--lines, --annotate), lines sorted by bytes, equal lines merged. */
void folded_print(const jfr_profile *p, const select_opts *s, FILE *out);

/** The "folded" row's writer (formats.c): folded_print of the selection;
 * returns 0. */
int folded_write_profile(FILE *out, const profile_output *po);

#endif
