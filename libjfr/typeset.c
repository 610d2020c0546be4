/* typeset.c - the event types of a set of inputs (jfr/typefilter.h): what
 * a filter or a name is checked against, so that a name no input declares
 * is an error with the nearest names instead of an empty selection. */
#include <stdio.h>
#include <stdlib.h>

#include "typefilter.h"

/* How many names an error message suggests. */
#define SUGGESTIONS 3

/* One list of categories a declaration of the type had (they can differ
 * between JDK versions). */
typedef struct category_list {
    size_t n;
    const char **values;
} category_list;

typedef struct set_entry {
    const char *name; /* canonical: JFR 1.0's "com.oracle." dropped */
    const char *raw;  /* as first declared */
    size_t nlists;
    category_list *lists;
} set_entry;

struct jfr_type_set {
    jfrp_alloc al;
    jfrp_arena arena; /* names and categories */
    set_entry *entries;
    size_t count, cap;
    jfrp_map by_hash; /* hash of the name -> index + 1 (the first with it) */
};

static uint64_t name_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h | 1; /* never 0 */
}

static set_entry *find_entry(const jfr_type_set *set, const char *name)
{
    uint64_t v = jfrp_map_get(&set->by_hash, name_hash(name));

    if (!v)
        return NULL;
    if (strcmp(set->entries[v - 1].name, name) == 0)
        return &set->entries[v - 1];
    for (size_t i = 0; i < set->count; i++) /* two names, one hash */
        if (strcmp(set->entries[i].name, name) == 0)
            return &set->entries[i];
    return NULL;
}

int jfr_type_set_new(jfr_type_set **out, const jfr_allocator *allocator)
{
    jfrp_alloc al;
    jfr_type_set *set;

    if (!out)
        return JFR_EINVAL;
    jfrp_alloc_init(&al, allocator);
    if (!(*out = set = jfrp_calloc(&al, 1, sizeof *set)))
        return JFR_ENOMEM;
    set->al = al;
    jfrp_arena_init(&set->arena, &set->al);
    return JFR_OK;
}

void jfr_type_set_free(jfr_type_set *set)
{
    jfrp_alloc al;

    if (!set)
        return;
    al = set->al;
    jfrp_arena_free(&set->arena);
    jfrp_map_free(&set->by_hash, &al);
    jfrp_free(&al, set->entries);
    jfrp_free(&al, set);
}

static bool same_list(const category_list *l, const char *const *cats, size_t n)
{
    if (l->n != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (strcmp(l->values[i], cats[i]) != 0)
            return false;
    return true;
}

/* Keep `cats` as one more list of `e` unless it has that list. */
static int add_categories(jfr_type_set *set, set_entry *e, const char *const *cats,
                          size_t n)
{
    category_list *lists;
    const char **values;

    for (size_t i = 0; i < e->nlists; i++)
        if (same_list(&e->lists[i], cats, n))
            return JFR_OK;
    /* rare (a type that changed categories): a new array in the arena */
    lists = jfrp_arena_alloc(&set->arena, (e->nlists + 1) * sizeof *lists);
    values = jfrp_arena_calloc(&set->arena, n ? n : 1, sizeof *values);
    if (!lists || !values)
        return JFR_ENOMEM;
    for (size_t i = 0; i < n; i++)
        if (!(values[i] = jfrp_arena_strndup(&set->arena, cats[i], strlen(cats[i]))))
            return JFR_ENOMEM;
    if (e->nlists)
        memcpy(lists, e->lists, e->nlists * sizeof *lists);
    lists[e->nlists].n = n;
    lists[e->nlists].values = values;
    e->lists = lists;
    e->nlists++;
    return JFR_OK;
}

static int add_type(jfr_type_set *set, const jfr_type *type)
{
    const char *cats[JFRP_MAX_CATEGORIES];
    size_t ncats = jfrp_type_categories(type, cats);
    const char *name = jfrp_canonical_type_name(type->name);
    set_entry *e = find_entry(set, name);

    if (!e) {
        uint64_t h = name_hash(name);

        if (jfrp_grow_array(&set->al, (void **)&set->entries, &set->cap, set->count + 1,
                            sizeof *set->entries) < 0)
            return JFR_ENOMEM;
        e = &set->entries[set->count];
        memset(e, 0, sizeof *e);
        e->raw = jfrp_arena_strndup(&set->arena, type->name, strlen(type->name));
        if (!e->raw)
            return JFR_ENOMEM;
        e->name = jfrp_canonical_type_name(e->raw);
        set->count++;
        if (!jfrp_map_get(&set->by_hash, h) &&
            jfrp_map_put(&set->by_hash, &set->al, h, set->count) < 0)
            return JFR_ENOMEM;
    }
    return add_categories(set, e, cats, ncats);
}

int jfr_type_set_add_chunk(jfr_type_set *set, const jfr_chunk *chunk)
{
    size_t n = jfr_chunk_type_count(chunk);

    if (!set || !chunk)
        return JFR_EINVAL;
    for (size_t i = 0; i < n; i++) {
        const jfr_type *t = jfr_chunk_type_at(chunk, i);
        int rc;

        if (t->is_event && t->name && (rc = add_type(set, t)) < 0)
            return rc;
    }
    return JFR_OK;
}

int jfr_type_set_add_recording(jfr_type_set *set, jfr_recording *rec)
{
    jfr_chunk *chunk;
    int rc = JFR_OK, next;

    if (!set || !rec)
        return JFR_EINVAL;
    jfr_recording_rewind(rec);
    /* damage is passed over: next_chunk moves on after an error, and ends
     * (JFR_DONE) after one it cannot move past */
    while (rc == JFR_OK && (next = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE)
        if (next == JFR_OK)
            rc = jfr_type_set_add_chunk(set, chunk);
        else if (next == JFR_ENOMEM)
            rc = JFR_ENOMEM;
    jfr_recording_rewind(rec);
    return rc;
}

size_t jfr_type_set_count(const jfr_type_set *set)
{
    return set ? set->count : 0;
}

const char *jfr_type_set_name(const jfr_type_set *set, size_t i)
{
    return set && i < set->count ? set->entries[i].name : NULL;
}

static bool entry_selected(const set_entry *e, const char *item, jfr_filter_by by)
{
    /* the raw name: its canonical form is matched too */
    if (by == JFR_FILTER_BY_NAME)
        return jfrp_item_selects(item, by, e->raw, NULL, 0);
    for (size_t k = 0; k < e->nlists; k++)
        if (jfrp_item_selects(item, by, e->raw, e->lists[k].values, e->lists[k].n))
            return true;
    return false;
}

bool jfr_type_set_matches(const jfr_type_set *set, size_t i,
                          const jfr_type_filter *filter)
{
    size_t n = jfr_type_filter_item_count(filter);

    if (!set || i >= set->count)
        return false;
    for (size_t k = 0; k < n; k++)
        if (entry_selected(&set->entries[i], jfr_type_filter_item(filter, k),
                           jfr_type_filter_by(filter)))
            return true;
    return false;
}

/* ---- nearest names ------------------------------------------------------------ */

/* The distinct category elements of the set, or its names, for the search
 * of the nearest; NULL when out of memory. Freed by the caller. */
static const char **candidate_names(const jfr_type_set *set, jfr_filter_by by, size_t *n)
{
    size_t cap = set->count + 1;
    const char **names;

    if (by == JFR_FILTER_BY_CATEGORY)
        for (size_t i = 0; i < set->count; i++)
            for (size_t k = 0; k < set->entries[i].nlists; k++)
                cap += set->entries[i].lists[k].n;
    if (!(names = jfrp_calloc(&set->al, cap, sizeof *names)))
        return NULL;
    *n = 0;
    for (size_t i = 0; i < set->count; i++) {
        const set_entry *e = &set->entries[i];

        if (by == JFR_FILTER_BY_NAME) {
            names[(*n)++] = e->name;
            continue;
        }
        for (size_t k = 0; k < e->nlists; k++)
            for (size_t c = 0; c < e->lists[k].n; c++) {
                size_t j = 0;
                while (j < *n && strcmp(names[j], e->lists[k].values[c]) != 0)
                    j++;
                if (j == *n)
                    names[(*n)++] = e->lists[k].values[c];
            }
    }
    return names;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* For a glob: the candidates it matches when case is ignored, by name. */
static size_t glob_suggestions(const char **out, size_t max, const char *glob,
                               const char **names, size_t n)
{
    size_t found = 0;

    qsort(names, n, sizeof *names, by_text);
    for (size_t i = 0; i < n && found < max; i++)
        if (jfrp_glob_match(glob, names[i], true) ||
            jfrp_glob_match(glob, jfrp_short_type_name(names[i]), true))
            out[found++] = names[i];
    return found;
}

size_t jfr_type_set_nearest(const char **out, size_t max, const jfr_type_set *set,
                            const char *name, jfr_filter_by by)
{
    const char **names;
    size_t n, found;

    if (!out || !set || !name || max == 0 || !(names = candidate_names(set, by, &n)))
        return 0;
    if (jfrp_is_glob(name)) {
        found = glob_suggestions(out, max, name, names, n);
    } else {
        size_t *idx = jfrp_calloc(&set->al, max, sizeof *idx);

        found = idx ? jfr_nearest_names(idx, max, name, names, n) : 0;
        for (size_t i = 0; i < found; i++)
            out[i] = names[idx[i]];
        jfrp_free(&set->al, idx);
    }
    jfrp_free(&set->al, names);
    return found;
}

/* ---- checking ----------------------------------------------------------------- */

/* "unknown event type 'X' (did you mean A, B?)": as many suggestions as fit
 * whole in the error's message. */
static int fail_unknown(jfr_error *err, const jfr_type_set *set, const char *item,
                        jfr_filter_by by)
{
    const char *near[SUGGESTIONS];
    size_t n = jfr_type_set_nearest(near, SUGGESTIONS, set, item, by);
    char msg[JFR_ERROR_MESSAGE_SIZE];
    bool open = false;

    if (by == JFR_FILTER_BY_CATEGORY)
        snprintf(msg, sizeof msg, "no event type has category '%s'", item);
    else if (jfrp_is_glob(item))
        snprintf(msg, sizeof msg, "no event type matches '%s'", item);
    else
        snprintf(msg, sizeof msg, "unknown event type '%s'", item);
    /* " (did you mean " + name + "?)" must fit, then each ", " + name */
    for (size_t i = 0; i < n; i++) {
        char part[JFR_ERROR_MESSAGE_SIZE];

        snprintf(part, sizeof part, "%s%s", open ? ", " : " (did you mean ", near[i]);
        if (strlen(msg) + strlen(part) + 2 >= sizeof msg)
            break;
        jfrp_msg_append(msg, sizeof msg, part);
        open = true;
    }
    if (open)
        jfrp_msg_append(msg, sizeof msg, "?)");
    return jfrp_fail(err, JFR_ENOTFOUND, -1, 0, "%s", msg);
}

int jfr_type_filter_check(size_t *item, const jfr_type_filter *filter,
                          const jfr_type_set *set, jfr_error *err)
{
    size_t n = jfr_type_filter_item_count(filter);
    jfr_filter_by by = jfr_type_filter_by(filter);

    if (!filter || !set)
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "no filter or no set of types");
    for (size_t k = 0; k < n; k++) {
        const char *it = jfr_type_filter_item(filter, k);
        size_t i = 0;

        while (i < set->count && !entry_selected(&set->entries[i], it, by))
            i++;
        /* a JDK's type that these inputs' JDK does not have selects none */
        if (i == set->count && !(by == JFR_FILTER_BY_NAME && jfrp_jdk_event_type(it))) {
            if (item)
                *item = k;
            return fail_unknown(err, set, it, by);
        }
    }
    return JFR_OK;
}

/* The entries `name` selects into `hits` (up to `max`); their number. A
 * full name selects its type alone, even when it is another's short name. */
static size_t select_one(const jfr_type_set *set, const char *name, size_t *hits,
                         size_t max)
{
    const char *canonical = jfrp_canonical_type_name(name);
    const set_entry *e = find_entry(set, canonical);
    size_t n = 0;

    if (e) {
        hits[0] = (size_t)(e - set->entries);
        return 1;
    }
    for (size_t i = 0; i < set->count; i++)
        if (entry_selected(&set->entries[i], name, JFR_FILTER_BY_NAME) && n++ < max)
            hits[n - 1] = i;
    return n;
}

int jfr_type_set_resolve(const char **out, const jfr_type_set *set, const char *name,
                         jfr_error *err)
{
    size_t hits[SUGGESTIONS], n;
    char msg[JFR_ERROR_MESSAGE_SIZE];

    if (!out || !set || !name)
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "no name or no set of types");
    *out = NULL;
    n = select_one(set, name, hits, SUGGESTIONS);
    if (n == 0)
        return fail_unknown(err, set, name, JFR_FILTER_BY_NAME);
    if (n == 1) {
        *out = set->entries[hits[0]].name;
        return JFR_OK;
    }
    snprintf(msg, sizeof msg, "'%s' names %zu event types:", name, n);
    for (size_t i = 0; i < n && i < SUGGESTIONS; i++) {
        char part[JFR_ERROR_MESSAGE_SIZE];

        snprintf(part, sizeof part, "%s %s", i ? "," : "", set->entries[hits[i]].name);
        if (!jfrp_msg_append(msg, sizeof msg, part))
            break;
    }
    if (n > SUGGESTIONS)
        jfrp_msg_append(msg, sizeof msg, ", ...");
    return jfrp_fail(err, JFR_EINVAL, -1, 0, "%s", msg);
}
