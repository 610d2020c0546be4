/* writer_match.c - the glob of the JDK's `jfr scrub` thread filters over
 * thread names (event types and categories are named by the library's
 * rule, typefilter.c). */

#include "writer_scrub_private.h"

/* Bytes of the UTF-8 character starting with byte `c` (1 for bad bytes). */
static size_t char_len(unsigned char c)
{
    if (c >= 0xf0 && c < 0xf8)
        return 4;
    if (c >= 0xe0)
        return c < 0xf0 ? 3 : 1;
    if (c >= 0xc0)
        return 2;
    return 1;
}

/* Iterative, with one backtrack point for the last '*': linear in
 * practice, never exponential whatever the pattern. */
bool jfrw_glob(const char *t, size_t tlen, const char *p, size_t plen)
{
    size_t ti = 0, pi = 0, star_p = SIZE_MAX, star_t = 0;

    while (ti < tlen) {
        if (pi < plen && p[pi] == '*') {
            star_p = ++pi;
            star_t = ti;
        } else if (pi < plen && p[pi] == '?') {
            pi++;
            ti += char_len((unsigned char)t[ti]);
        } else if (pi < plen && p[pi] == t[ti]) {
            pi++;
            ti++;
        } else if (star_p != SIZE_MAX) {
            pi = star_p;
            star_t += char_len((unsigned char)t[star_t]);
            ti = star_t;
        } else {
            return false;
        }
    }
    while (pi < plen && p[pi] == '*')
        pi++;
    return pi == plen && ti == tlen;
}
