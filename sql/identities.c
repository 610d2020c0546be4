/* identities.c - the identity columns: a value's group by libjfr's rule
 * (jfr/identity.h), kept per (type, pool key) of the chunk being read, so
 * that the events of a chunk, which name few threads, classes and stack
 * traces, look each up once. */
#include <string.h>

#include "identities.h"

/* An entry of a chunk: by (pool type, key), a group or a frames text. */
struct jfrsql_id_entry {
    const jfr_type *type; /* pool types are the chunk's: keys are per type */
    uint64_t key;
    uint64_t group;
    char *frames; /* stack traces: the groups of their frames */
};

static size_t slot_of(const jfr_type *type, uint64_t key, size_t cap)
{
    uint64_t h = key ^ ((uint64_t)(uintptr_t)type * 0x9e3779b97f4a7c15ULL);

    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return (size_t)h & (cap - 1);
}

/* The entry of (type, key), added (group UINT64_MAX) when new; NULL when
 * out of memory. Open addressing, kept at most half full. */
static struct jfrsql_id_entry *entry(jfrsql_ids *c, const jfr_type *type, uint64_t key)
{
    size_t h;

    if (2 * (c->n + 1) > c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 256;
        struct jfrsql_id_entry *v = sqlite3_malloc64(cap * sizeof *v);
        if (!v)
            return NULL;
        memset(v, 0, cap * sizeof *v);
        for (size_t i = 0; i < c->cap; i++) {
            if (!c->v[i].type)
                continue;
            h = slot_of(c->v[i].type, c->v[i].key, cap);
            while (v[h].type)
                h = (h + 1) & (cap - 1);
            v[h] = c->v[i];
        }
        sqlite3_free(c->v);
        c->v = v;
        c->cap = cap;
    }
    h = slot_of(type, key, c->cap);
    while (c->v[h].type) {
        if (c->v[h].type == type && c->v[h].key == key)
            return &c->v[h];
        h = (h + 1) & (c->cap - 1);
    }
    c->v[h] = (struct jfrsql_id_entry){type, key, UINT64_MAX, NULL};
    c->n++;
    return &c->v[h];
}

static jfr_identity *identity_of(jfr_identity **owner)
{
    if (!*owner && jfr_identity_new(owner, NULL) != JFR_OK)
        return NULL;
    return *owner;
}

int jfrsql_identity(uint64_t *group, jfrsql_ids *c, jfr_identity **owner, uint64_t run,
                    const jfr_value *v)
{
    jfr_identity *ids = identity_of(owner);
    struct jfrsql_id_entry *e = NULL;
    int rc;

    if (!ids)
        return SQLITE_NOMEM;
    if (v->pooled && v->type) {
        if (!(e = entry(c, v->type, v->key)))
            return SQLITE_NOMEM;
        if (e->group != UINT64_MAX) {
            *group = e->group;
            return SQLITE_OK;
        }
    }
    rc = jfr_identity_group(group, ids, run, v);
    if (rc == JFR_ENOMEM)
        return SQLITE_NOMEM;
    if (rc < 0)
        return SQLITE_MISMATCH;
    if (e)
        e->group = *group;
    return SQLITE_OK;
}

/* "g1 g2 ...": the groups of the frames' methods, innermost first, the
 * frames read in one walk (an element by index costs a walk of its own). */
static char *frames_text(jfrsql_ids *c, jfr_identity **owner, uint64_t run,
                         const jfr_value *st, bool *nomem)
{
    sqlite3_str *out = sqlite3_str_new(NULL);
    jfr_value frames, frame, method;
    jfr_cursor cur;
    uint64_t group;
    char *s;
    bool first = true;

    if (jfr_value_field(&frames, st, "frames") != JFR_OK ||
        frames.kind != JFR_VALUE_ARRAY || jfr_value_iter(&cur, &frames) != JFR_OK) {
        sqlite3_free(sqlite3_str_finish(out));
        return NULL;
    }
    while (jfr_cursor_next(&frame, &cur) == JFR_OK) {
        int rc = SQLITE_MISMATCH;
        if (jfr_value_field(&method, &frame, "method") == JFR_OK &&
            method.kind == JFR_VALUE_OBJECT)
            rc = jfrsql_identity(&group, c, owner, run, &method);
        if (rc == SQLITE_NOMEM) {
            *nomem = true;
            break;
        }
        if (!first)
            sqlite3_str_appendchar(out, 1, ' ');
        first = false;
        if (rc == SQLITE_OK)
            sqlite3_str_appendf(out, "%llu", (unsigned long long)group);
        else
            sqlite3_str_appendall(out, "-"); /* a frame without a method */
    }
    if (*nomem || sqlite3_str_errcode(out) != SQLITE_OK) {
        *nomem = true;
        sqlite3_free(sqlite3_str_finish(out));
        return NULL;
    }
    s = sqlite3_str_finish(out);
    if (!s && !(s = sqlite3_mprintf(""))) /* no frames: "" */
        *nomem = true;
    return s;
}

const char *jfrsql_frames_identity(jfrsql_ids *c, jfr_identity **owner, uint64_t run,
                                   const jfr_value *st, bool *nomem)
{
    struct jfrsql_id_entry *e;
    char *text;

    if (!st->pooled || !st->type)
        return NULL; /* traces are always pooled in practice */
    if (!(e = entry(c, st->type, st->key))) {
        *nomem = true;
        return NULL;
    }
    if (e->frames)
        return e->frames;
    if (!(text = frames_text(c, owner, run, st, nomem)))
        return NULL;
    /* the frames' entries may have moved the table */
    if (!(e = entry(c, st->type, st->key))) {
        sqlite3_free(text);
        *nomem = true;
        return NULL;
    }
    e->frames = text;
    return text;
}

int jfrsql_top_frame_identity(uint64_t *group, jfrsql_ids *c, jfr_identity **owner,
                              uint64_t run, const jfr_value *st)
{
    struct jfrsql_id_entry *e;
    jfr_value frames, frame, method;
    int rc;

    if (!st->pooled || !st->type)
        return SQLITE_MISMATCH;
    if (!(e = entry(c, st->type, st->key)))
        return SQLITE_NOMEM;
    if (e->group != UINT64_MAX) {
        *group = e->group;
        return SQLITE_OK;
    }
    if (jfr_value_field(&frames, st, "frames") != JFR_OK ||
        jfr_value_element(&frame, &frames, 0) != JFR_OK ||
        jfr_value_field(&method, &frame, "method") != JFR_OK ||
        method.kind != JFR_VALUE_OBJECT)
        return SQLITE_MISMATCH; /* no frame: NULL, as the text */
    if ((rc = jfrsql_identity(group, c, owner, run, &method)) != SQLITE_OK)
        return rc;
    if (!(e = entry(c, st->type, st->key)))
        return SQLITE_NOMEM;
    e->group = *group;
    return SQLITE_OK;
}

void jfrsql_ids_clear(jfrsql_ids *c)
{
    for (size_t i = 0; i < c->cap; i++)
        sqlite3_free(c->v[i].frames);
    if (c->v)
        memset(c->v, 0, c->cap * sizeof *c->v);
    c->n = 0;
}

void jfrsql_ids_free(jfrsql_ids *c)
{
    jfrsql_ids_clear(c);
    sqlite3_free(c->v);
    memset(c, 0, sizeof *c);
}
