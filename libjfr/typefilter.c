/* typefilter.c - filters of event types (jfr/typefilter.h): the JDK tool's
 * filter syntax, parsed once, matched against a chunk's types. */
#include <stdlib.h>

#include "typefilter.h"

struct jfr_type_filter {
    jfrp_alloc al;
    jfr_filter_by by;
    size_t nitems;
    char **items; /* point into text */
    char *text;   /* the items, each NUL-terminated */
};

/* ---- globs ------------------------------------------------------------------- */

static unsigned char fold_byte(unsigned char c, bool fold)
{
    return fold && c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/* Past the UTF-8 character at s (continuation bytes 10xxxxxx follow it). */
static const char *next_char(const char *s)
{
    s++;
    while (((unsigned char)*s & 0xC0) == 0x80)
        s++;
    return s;
}

bool jfrp_glob_match(const char *pattern, const char *text, bool fold)
{
    const char *p = pattern, *t = text, *star = NULL, *star_text = NULL;

    /* the usual two pointers: on a mismatch after a '*', let that '*' take
     * one more character and try again; linear in practice, never recursive */
    while (*t) {
        if (*p == '*') {
            star = ++p;
            star_text = t;
        } else if (*p == '?') {
            p++;
            t = next_char(t);
        } else if (*p && fold_byte((unsigned char)*p, fold) ==
                             fold_byte((unsigned char)*t, fold)) {
            p++;
            t++;
        } else if (star) {
            p = star;
            t = star_text = next_char(star_text);
        } else {
            return false;
        }
    }
    while (*p == '*')
        p++;
    return *p == '\0';
}

bool jfrp_is_glob(const char *s)
{
    return strpbrk(s, "*?") != NULL;
}

/* ---- names and categories ------------------------------------------------------ */

const char *jfrp_canonical_type_name(const char *name)
{
    /* JDK 9 and 10 (JFR 1.0) named their events com.oracle.jdk.X */
    return strncmp(name, "com.oracle.jdk.", 15) == 0 ? name + 11 : name;
}

const char *jfrp_short_type_name(const char *name)
{
    const char *dot = strrchr(name, '.');

    return dot ? dot + 1 : name;
}

size_t jfrp_type_categories(const jfr_type *type, const char **out)
{
    size_t n = 0;

    for (size_t i = 0; i < type->nannotations; i++) {
        const jfr_annotation *a = &type->annotations[i];

        if (!a->type || strcmp(a->type->name, "jdk.jfr.Category") != 0)
            continue;
        /* a String[]: "value-0", "value-1", ... (one element: "value") */
        for (size_t k = 0; k < a->count && n < JFRP_MAX_CATEGORIES; k++)
            if (strncmp(a->names[k], "value", 5) == 0)
                out[n++] = a->values[k];
        break;
    }
    return n;
}

static bool is_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1C && c <= 0x1F);
}

/* "Java Virtual Machine" spelt "JVM": the capital letters that start words,
 * for categories of several words only (the JDK's rule). */
static bool is_acronym_of(const char *item, const char *category)
{
    bool word_start = true;
    const char *a = item;

    if (!strchr(category, ' '))
        return false;
    for (const char *c = category; *c; c++) {
        if (word_start && *c >= 'A' && *c <= 'Z' && *a++ != *c)
            return false;
        word_start = is_space((unsigned char)*c);
    }
    return *a == '\0';
}

bool jfrp_item_selects(const char *item, jfr_filter_by by, const char *raw,
                       const char *const *cats, size_t ncats)
{
    const char *canonical = jfrp_canonical_type_name(raw);

    if (by == JFR_FILTER_BY_NAME)
        return jfrp_glob_match(item, raw, false) ||
               (canonical != raw && jfrp_glob_match(item, canonical, false)) ||
               jfrp_glob_match(item, jfrp_short_type_name(raw), false);
    for (size_t i = 0; i < ncats; i++)
        if (jfrp_glob_match(item, cats[i], false) || is_acronym_of(item, cats[i]))
            return true;
    return false;
}

/* ---- the filter ---------------------------------------------------------------- */

/* Split `text` at commas into trimmed, non-empty items in place. */
static size_t split_items(char *text, char **items)
{
    size_t n = 0;

    for (char *s = text;;) {
        char *comma = strchr(s, ','), *end = comma ? comma : s + strlen(s);

        /* Java's trim: every character up to and including the space */
        while (s < end && (unsigned char)*s <= ' ')
            s++;
        while (end > s && (unsigned char)end[-1] <= ' ')
            end--;
        if (end > s) {
            if (items)
                items[n] = s;
            n++;
            if (items)
                *end = '\0';
        }
        if (!comma)
            return n;
        s = comma + 1;
    }
}

int jfr_type_filter_new(jfr_type_filter **out, const char *text, jfr_filter_by by,
                        const jfr_allocator *allocator, jfr_error *err)
{
    jfr_type_filter *f;
    jfrp_alloc al;
    size_t len;

    if (!out)
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "no place for the filter");
    *out = NULL;
    if (!text || (by != JFR_FILTER_BY_NAME && by != JFR_FILTER_BY_CATEGORY))
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "a filter needs text and a kind");
    jfrp_alloc_init(&al, allocator);
    if (!(f = jfrp_calloc(&al, 1, sizeof *f)))
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    f->al = al;
    f->by = by;
    len = strlen(text);
    if (!(f->text = jfrp_malloc(&al, len + 1))) {
        jfr_type_filter_free(f);
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    }
    memcpy(f->text, text, len + 1);
    /* counted first (that pass writes nothing), split second */
    f->nitems = split_items(f->text, NULL);
    if (f->nitems == 0) {
        jfr_type_filter_free(f);
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "empty %s filter '%s'",
                         by == JFR_FILTER_BY_NAME ? "event type" : "category", text);
    }
    if (!(f->items = jfrp_calloc(&al, f->nitems, sizeof *f->items))) {
        jfr_type_filter_free(f);
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    }
    split_items(f->text, f->items);
    *out = f;
    return JFR_OK;
}

void jfr_type_filter_free(jfr_type_filter *filter)
{
    jfrp_alloc al;

    if (!filter)
        return;
    al = filter->al;
    jfrp_free(&al, filter->items);
    jfrp_free(&al, filter->text);
    jfrp_free(&al, filter);
}

jfr_filter_by jfr_type_filter_by(const jfr_type_filter *filter)
{
    return filter ? filter->by : JFR_FILTER_BY_NAME;
}

size_t jfr_type_filter_item_count(const jfr_type_filter *filter)
{
    return filter ? filter->nitems : 0;
}

const char *jfr_type_filter_item(const jfr_type_filter *filter, size_t i)
{
    return filter && i < filter->nitems ? filter->items[i] : NULL;
}

bool jfr_type_filter_item_matches(const jfr_type_filter *filter, size_t i,
                                  const jfr_type *type)
{
    const char *cats[JFRP_MAX_CATEGORIES];
    size_t ncats = 0;

    if (!filter || !type || i >= filter->nitems || !type->is_event)
        return false;
    if (filter->by == JFR_FILTER_BY_CATEGORY)
        ncats = jfrp_type_categories(type, cats);
    return jfrp_item_selects(filter->items[i], filter->by, type->name, cats, ncats);
}

bool jfr_type_filter_matches(const jfr_type_filter *filter, const jfr_type *type)
{
    const char *cats[JFRP_MAX_CATEGORIES];
    size_t ncats = 0;

    if (!filter || !type || !type->is_event)
        return false;
    if (filter->by == JFR_FILTER_BY_CATEGORY)
        ncats = jfrp_type_categories(type, cats);
    for (size_t i = 0; i < filter->nitems; i++)
        if (jfrp_item_selects(filter->items[i], filter->by, type->name, cats, ncats))
            return true;
    return false;
}

bool jfrp_msg_append(char *msg, size_t size, const char *s)
{
    size_t have = strlen(msg), add = strlen(s);

    if (add >= size - have)
        return false;
    memcpy(msg + have, s, add + 1);
    return true;
}
