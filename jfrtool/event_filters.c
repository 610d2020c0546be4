/* event_filters.c - see event_filters.h. */
#include <stdlib.h>
#include <string.h>

#include "event_filters.h"
#include "jfrtool.h"
#include "type_names.h"
#include "util.h"

int event_filters_take(event_filters *f, bool categories, const char *text)
{
    jfr_type_filter **slot = categories ? &f->categories : &f->events;
    const char *option = categories ? "--categories" : "--events";

    if (*slot) {
        warnx_("%s given twice: use %s A,B,C to name several", option, option);
        return EXIT_USAGE;
    }
    *slot = parse_type_filter(option, text,
                              categories ? JFR_FILTER_BY_CATEGORY : JFR_FILTER_BY_NAME);
    return *slot ? EXIT_OK : EXIT_USAGE;
}

bool event_filters_any(const event_filters *f)
{
    return f->events || f->categories;
}

bool event_filters_select(const event_filters *f, const jfr_type *t)
{
    return (!f->events || jfr_type_filter_matches(f->events, t)) &&
           (!f->categories || jfr_type_filter_matches(f->categories, t));
}

const char **event_filters_chunk_types(const event_filters *f, jfr_chunk *chunk,
                                       size_t *n)
{
    size_t count = jfr_chunk_type_count(chunk);
    const char **names;

    *n = 0;
    if (!event_filters_any(f))
        return NULL;
    names = xcalloc(count ? count : 1, sizeof *names);
    for (size_t i = 0; i < count; i++) {
        const jfr_type *t = jfr_chunk_type_at(chunk, i);
        if (event_filters_select(f, t))
            names[(*n)++] = jfr_type_name(t);
    }
    return names;
}

/* Whether every item of both filters selects a type of `set`, and some
 * type is selected by both. */
static bool filters_pass(const event_filters *f, const jfr_type_set *set)
{
    bool both = !f->events || !f->categories;

    if ((f->events && jfr_type_filter_check(NULL, f->events, set, NULL) != JFR_OK) ||
        (f->categories &&
         jfr_type_filter_check(NULL, f->categories, set, NULL) != JFR_OK))
        return false;
    for (size_t i = 0; i < jfr_type_set_count(set) && !both; i++)
        both = jfr_type_set_matches(set, i, f->events) &&
               jfr_type_set_matches(set, i, f->categories);
    return both;
}

/* Whether item `k` of `filter` selects no type of `set`. */
static bool selects_none(const jfr_type_filter *filter, size_t k, const jfr_type_set *set)
{
    jfr_type_filter *one;
    bool none = true;

    if (jfr_type_filter_new(&one, jfr_type_filter_item(filter, k),
                            jfr_type_filter_by(filter), NULL, NULL) < 0)
        return false;
    for (size_t i = 0; i < jfr_type_set_count(set) && none; i++)
        none = !jfr_type_set_matches(set, i, one);
    jfr_type_filter_free(one);
    return none;
}

/* The --events items that name a JDK's event type no input has (the
 * check lets them pass: the inputs' JDK does not record it) are noted,
 * once every input is looked at. */
static void note_absent_types(const jfr_type_filter *events, jfr_type_set *set,
                              char **files, int nfiles, int looked)
{
    size_t n = jfr_type_filter_item_count(events);
    bool any = false;

    for (size_t k = 0; k < n && !any; k++)
        any = selects_none(events, k, set);
    for (int i = looked; any && i < nfiles; i++)
        if (strcmp(files[i], "-") != 0)
            type_set_add_input(set, files[i], false);
    for (size_t k = 0; any && k < n; k++)
        if (selects_none(events, k, set))
            warnx_("note: no input has event type '%s', which their JDK does not record",
                   jfr_type_filter_item(events, k));
}

int event_filters_check_set(const event_filters *f, const jfr_type_set *set)
{
    int status = EXIT_OK;

    if (filters_pass(f, set))
        return EXIT_OK;
    if (f->events)
        status = check_type_filter(f->events, set);
    if (status == EXIT_OK && f->categories)
        status = check_type_filter(f->categories, set);
    if (status == EXIT_OK) {
        warnx_("no event type is both named by --events and in --categories");
        status = EXIT_USAGE;
    }
    return status;
}

/* The inputs are looked at until the names are all known (often the
 * first is enough). */
int event_filters_check(const event_filters *f, char **files, int nfiles)
{
    jfr_type_set *set;
    int status = EXIT_OK, i = 0;
    bool pass = false;

    if (!event_filters_any(f))
        return EXIT_OK;
    set = type_set_new();
    for (i = 0; i < nfiles && !pass; i++) {
        bool is_stdin = strcmp(files[i], "-") == 0;
        type_set_add_input(set, files[i], i == 0 || is_stdin);
        pass = filters_pass(f, set);
    }
    /* (no input read: its error says why, not a note) */
    if (pass && f->events && jfr_type_set_count(set))
        note_absent_types(f->events, set, files, nfiles, i);
    if (!pass && jfr_type_set_count(set))
        status = event_filters_check_set(f, set);
    jfr_type_set_free(set);
    return status;
}

void event_filters_free(event_filters *f)
{
    jfr_type_filter_free(f->events);
    jfr_type_filter_free(f->categories);
    f->events = f->categories = NULL;
}
