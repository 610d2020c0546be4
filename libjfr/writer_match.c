/* writer_match.c - the names the JDK's `jfr scrub` filters take: globs
 * over event type names (full or after the last dot), category names (or
 * the acronym of a category of several words) and thread names. */
#include <ctype.h>

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

static bool glob_str(const char *text, const char *pat)
{
    return jfrw_glob(text, strlen(text), pat, strlen(pat));
}

/* "Java Virtual Machine" -> "JVM": the capital letters that start words. */
static bool acronym_is(const char *category, const char *want)
{
    char acronym[64];
    size_t n = 0;
    bool word_start = true;

    if (!strchr(category, ' '))
        return false;
    for (const char *c = category; *c; c++) {
        if (word_start && isupper((unsigned char)*c) && n + 1 < sizeof acronym)
            acronym[n++] = *c;
        word_start = isspace((unsigned char)*c) != 0;
    }
    acronym[n] = '\0';
    return strcmp(acronym, want) == 0;
}

static bool category_matches(const jfr_type *t, const char *item)
{
    for (size_t i = 0; i < t->nannotations; i++) {
        const jfr_annotation *a = &t->annotations[i];

        if (!a->type || strcmp(jfr_type_name(a->type), "jdk.jfr.Category") != 0)
            continue;
        for (size_t j = 0; j < a->count; j++)
            if (glob_str(a->values[j], item) || acronym_is(a->values[j], item))
                return true;
    }
    return false;
}

bool jfrw_filter_matches_type(const jfrw_filter *f, const jfr_type *t)
{
    const char *name = t->name, *dot = strrchr(name, '.');
    bool events =
        f->kind == JFR_SCRUB_INCLUDE_EVENTS || f->kind == JFR_SCRUB_EXCLUDE_EVENTS;

    for (size_t i = 0; i < f->nitems; i++) {
        if (events &&
            (glob_str(name, f->items[i]) || (dot && glob_str(dot + 1, f->items[i]))))
            return true;
        if (!events && category_matches(t, f->items[i]))
            return true;
    }
    return false;
}
