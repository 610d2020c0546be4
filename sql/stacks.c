/* stacks.c - the text of stack traces (stackTrace.topFrame and
 * stackTrace.frames), kept per pool key: the events of a chunk share few
 * traces, so each is resolved and written once. */
#include <string.h>

#include "stacks.h"

char *jfrsql_method_text(jfr_str class_name, jfr_str method, jfr_str descriptor)
{
    size_t n = jfr_name_of_method(NULL, 0, class_name.ptr, class_name.len, method.ptr,
                                  method.len, descriptor.ptr, descriptor.len, 0);
    char *p = sqlite3_malloc64(n + 1);

    if (!p)
        return NULL;
    jfr_name_of_method(p, n, class_name.ptr, class_name.len, method.ptr, method.len,
                       descriptor.ptr, descriptor.len, 0);
    p[n] = '\0';
    return p;
}

static char *frame_text(const jfr_stacktrace *st, size_t i)
{
    jfr_frame f;

    if (jfr_stacktrace_frame(&f, st, i) != JFR_OK)
        return NULL;
    return jfrsql_method_text(f.class_name, f.method_name, f.descriptor);
}

/* Every frame, one per line; "" for an empty trace. */
static char *all_frames(const jfr_stacktrace *st, bool *nomem)
{
    sqlite3_str *out = sqlite3_str_new(NULL);
    size_t depth = jfr_stacktrace_depth(st);

    for (size_t i = 0; i < depth; i++) {
        char *t = frame_text(st, i);
        if (i > 0)
            sqlite3_str_appendchar(out, 1, '\n');
        sqlite3_str_appendall(out, t ? t : "null");
        sqlite3_free(t);
    }
    if (jfr_stacktrace_truncated(st))
        sqlite3_str_appendall(out, depth ? "\n..." : "...");
    if (sqlite3_str_errcode(out) != SQLITE_OK) {
        *nomem = true;
        sqlite3_free(sqlite3_str_finish(out));
        return NULL;
    }
    {
        char *s = sqlite3_str_finish(out);
        if (!s) /* an empty string is NULL: make it "" */
            s = sqlite3_mprintf("");
        if (!s)
            *nomem = true;
        return s;
    }
}

static size_t hash_key(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k;
}

static int grow(jfrsql_stacks *s)
{
    size_t cap = s->cap ? s->cap * 2 : 256, nslots = cap * 2;
    uint64_t *keys = sqlite3_realloc64(s->keys, cap * sizeof *keys);
    char **tops, **frames;
    int32_t *app;
    size_t *slots;

    if (!keys)
        return SQLITE_NOMEM;
    s->keys = keys;
    if (!(tops = sqlite3_realloc64(s->tops, cap * sizeof *tops)))
        return SQLITE_NOMEM;
    s->tops = tops;
    if (!(frames = sqlite3_realloc64(s->frames, cap * sizeof *frames)))
        return SQLITE_NOMEM;
    s->frames = frames;
    if (!(app = sqlite3_realloc64(s->app, cap * sizeof *app)))
        return SQLITE_NOMEM;
    s->app = app;
    if (!(slots = sqlite3_malloc64(nslots * sizeof *slots)))
        return SQLITE_NOMEM;
    memset(slots, 0, nslots * sizeof *slots);
    for (size_t i = 0; i < s->n; i++) {
        size_t h = hash_key(s->keys[i]) & (nslots - 1);
        while (slots[h])
            h = (h + 1) & (nslots - 1);
        slots[h] = i + 1;
    }
    sqlite3_free(s->slots);
    s->slots = slots;
    s->nslots = nslots;
    s->cap = cap;
    return SQLITE_OK;
}

/* The entry of `key`, added when new; SIZE_MAX when out of memory. */
static size_t entry(jfrsql_stacks *s, uint64_t key)
{
    size_t h;

    if (s->n == s->cap && grow(s) != SQLITE_OK)
        return SIZE_MAX;
    h = hash_key(key) & (s->nslots - 1);
    while (s->slots[h]) {
        if (s->keys[s->slots[h] - 1] == key)
            return s->slots[h] - 1;
        h = (h + 1) & (s->nslots - 1);
    }
    s->keys[s->n] = key;
    s->tops[s->n] = s->frames[s->n] = NULL;
    s->app[s->n] = -2;
    s->slots[h] = ++s->n;
    return s->n - 1;
}

const char *jfrsql_stack_text(jfrsql_stacks *s, jfr_chunk *chunk, uint64_t key, bool all,
                              bool *nomem)
{
    size_t i = entry(s, key);
    const jfr_stacktrace *st;
    char **slot;

    if (i == SIZE_MAX) {
        *nomem = true;
        return NULL;
    }
    slot = all ? &s->frames[i] : &s->tops[i];
    if (*slot)
        return *slot;
    if (jfr_chunk_stacktrace(&st, chunk, key) != JFR_OK)
        return NULL;
    if (all) {
        *slot = all_frames(st, nomem);
    } else {
        jfr_frame f;
        if (jfr_stacktrace_depth(st) == 0 || jfr_stacktrace_frame(&f, st, 0) != JFR_OK)
            return NULL;
        *slot = jfrsql_method_text(f.class_name, f.method_name, f.descriptor);
        *nomem = *slot == NULL;
    }
    return *slot;
}

int jfrsql_app_frame_index(int32_t *index, jfrsql_stacks *s, jfr_chunk *chunk,
                           uint64_t key)
{
    size_t i = entry(s, key), depth;
    const jfr_stacktrace *st;

    if (i == SIZE_MAX)
        return SQLITE_NOMEM;
    if (s->app[i] == -2) {
        if (jfr_chunk_stacktrace(&st, chunk, key) != JFR_OK)
            return SQLITE_ERROR;
        depth = jfr_stacktrace_depth(st);
        s->app[i] = -1;
        for (size_t f = 0; f < depth && f < INT32_MAX; f++) {
            jfr_frame fr;
            int rc;
            if (jfr_stacktrace_frame(&fr, st, f) != JFR_OK)
                break;
            if ((rc = jfr_chunk_method_is_application(chunk, fr.method_key)) ==
                JFR_ENOMEM)
                return SQLITE_NOMEM;
            if (rc == 1) {
                s->app[i] = (int32_t)f;
                break;
            }
        }
    }
    *index = s->app[i];
    return SQLITE_OK;
}

/* The method of frame 0 of stack trace `st`, read through the value API:
 * only that frame is decoded, and its method's text is made once per
 * method of the chunk (many traces share a top method). */
const char *jfrsql_top_frame_text(jfrsql_stacks *s, jfrsql_stacks *methods,
                                  const jfr_value *st, bool *nomem)
{
    jfr_value frames, frame, method, type;
    jfr_str cls = {NULL, 0}, name = {NULL, 0}, desc = {NULL, 0};
    size_t i = entry(s, st->key), m;
    char **slot;

    if (i == SIZE_MAX) {
        *nomem = true;
        return NULL;
    }
    if (s->tops[i])
        return s->tops[i];
    if (jfr_value_field(&frames, st, "frames") != JFR_OK ||
        jfr_value_element(&frame, &frames, 0) != JFR_OK ||
        jfr_value_field(&method, &frame, "method") != JFR_OK ||
        method.kind != JFR_VALUE_OBJECT)
        return NULL;
    if (method.pooled) {
        if ((m = entry(methods, method.key)) == SIZE_MAX) {
            *nomem = true;
            return NULL;
        }
        slot = &methods->tops[m];
    } else {
        slot = &s->tops[i];
    }
    if (!*slot) {
        if (jfr_value_field(&type, &method, "type") == JFR_OK)
            (void)jfr_value_string_field(&cls, &type, "name");
        (void)jfr_value_string_field(&name, &method, "name");
        (void)jfr_value_string_field(&desc, &method, "descriptor");
        if (!(*slot = jfrsql_method_text(cls, name, desc))) {
            *nomem = true;
            return NULL;
        }
    }
    if (slot != &s->tops[i] && !(s->tops[i] = sqlite3_mprintf("%s", *slot))) {
        *nomem = true;
        return NULL;
    }
    return *slot;
}

const char *jfrsql_stacks_text(jfrsql_stacks *s, const jfr_value *v,
                               char *(*make)(const jfr_value *, bool *), bool *nomem)
{
    size_t i = entry(s, v->key);

    if (i == SIZE_MAX) {
        *nomem = true;
        return NULL;
    }
    if (!s->tops[i])
        s->tops[i] = make(v, nomem);
    return s->tops[i];
}

void jfrsql_stacks_clear(jfrsql_stacks *s)
{
    for (size_t i = 0; i < s->n; i++) {
        sqlite3_free(s->tops[i]);
        sqlite3_free(s->frames[i]);
    }
    s->n = 0;
    if (s->slots)
        memset(s->slots, 0, s->nslots * sizeof *s->slots);
}

void jfrsql_stacks_free(jfrsql_stacks *s)
{
    jfrsql_stacks_clear(s);
    sqlite3_free(s->keys);
    sqlite3_free(s->tops);
    sqlite3_free(s->frames);
    sqlite3_free(s->app);
    sqlite3_free(s->slots);
    memset(s, 0, sizeof *s);
}
