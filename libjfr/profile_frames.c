/* profile_frames.c - frame names as design.md "Frame names" gives them
 * ("package.Class.method", class names with every '/' made a '.', as
 * jfr print shows them, jfr-format.md §10.7) and the interning of frames. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_struct.h"

int jfrp_profile_string(jfr_profile *p, const char *s, size_t len, uint32_t *id)
{
    return jfrp_intern_put(&p->strings, s, len, id, NULL);
}

static const char *string_at(const jfr_profile *p, uint32_t id)
{
    return jfrp_intern_key(&p->strings, id, NULL);
}

static int grow_frames(jfr_profile *p)
{
    size_t room = p->frames_room ? p->frames_room * 2 : 256;
    jfr_profile_frame *frames;
    uint8_t *match;

    frames = jfrp_reallocarray(&p->al, p->frames, room, sizeof *frames);
    if (!frames)
        return JFR_ENOMEM;
    p->frames = frames;
    match = jfrp_reallocarray(&p->al, p->frame_match, room, 1);
    if (!match)
        return JFR_ENOMEM;
    p->frame_match = match;
    p->frames_room = room;
    return 0;
}

/* N of a time root "[time N]", else INT64_MIN. */
static int64_t time_bucket_of(const char *name)
{
    const char *s;
    char *end;
    long long n;

    if (strncmp(name, "[time ", 6) != 0)
        return INT64_MIN;
    s = name + 6;
    if (!(*s == '-' || (*s >= '0' && *s <= '9')))
        return INT64_MIN;
    errno = 0;
    n = strtoll(s, &end, 10);
    if (errno || strcmp(end, "]") != 0)
        return INT64_MIN;
    return (int64_t)n;
}

/* The frame with `key`; a new frame gets its strings from the interned ids
 * and its include/exclude matches computed once. */
static int intern_frame(jfr_profile *p, const jfrp_frame_key *key, uint32_t class_id,
                        uint32_t method_id, uint32_t sig_id, jfr_frame_kind kind,
                        int32_t line, uint32_t *id)
{
    jfr_profile_frame *f;
    int added, rc;

    /* room first: a key interned without its frame would point past it */
    if (jfrp_intern_count(&p->frame_keys) >= p->frames_room && (rc = grow_frames(p)) < 0)
        return rc;
    if ((rc = jfrp_intern_put(&p->frame_keys, key, sizeof *key, id, &added)) < 0)
        return rc;
    if (!added)
        return 0;
    f = &p->frames[*id];
    f->name = string_at(p, key->name_id);
    f->class_name = key->synthetic ? NULL : string_at(p, class_id);
    f->method = string_at(p, method_id);
    f->signature = string_at(p, sig_id);
    f->line = line;
    f->kind = kind;
    f->synthetic = key->synthetic != 0;
    f->time_bucket = f->synthetic ? time_bucket_of(f->name) : INT64_MIN;
    p->frame_match[*id] = 0;
    if (p->has_include && regexec(&p->include_re, f->name, 0, NULL, 0) == 0)
        p->frame_match[*id] |= JFRP_MATCH_INCLUDE;
    if (p->has_exclude && regexec(&p->exclude_re, f->name, 0, NULL, 0) == 0)
        p->frame_match[*id] |= JFRP_MATCH_EXCLUDE;
    return 0;
}

int jfrp_profile_synthetic(jfr_profile *p, const char *name, uint32_t *id)
{
    jfrp_frame_key key;
    uint32_t empty;
    int rc;

    memset(&key, 0, sizeof key);
    if ((rc = jfrp_profile_string(p, name, strlen(name), &key.name_id)) < 0 ||
        (rc = jfrp_profile_string(p, "", 0, &empty)) < 0)
        return rc;
    key.line = -1;
    key.synthetic = 1;
    return intern_frame(p, &key, empty, key.name_id, empty, JFR_FRAME_UNKNOWN, -1, id);
}

int jfrp_profile_copy_frame(jfr_profile *p, const jfr_profile_frame *f, uint32_t *id)
{
    const char *cls = f->class_name ? f->class_name : "";
    jfrp_frame_key key;
    uint32_t class_id, method_id, sig_id;
    int rc;

    memset(&key, 0, sizeof key);
    if ((rc = jfrp_profile_string(p, f->name, strlen(f->name), &key.name_id)) < 0)
        return rc;
    key.line = f->line;
    key.kind = (p->flags & JFR_PROFILE_FRAME_KIND) ? (uint32_t)f->kind : 0;
    key.synthetic = f->synthetic;
    /* a frame met before (most of them when chunks are merged one by one)
     * needs none of its other strings */
    if (jfrp_intern_find(&p->frame_keys, &key, sizeof key, id))
        return 0;
    if ((rc = jfrp_profile_string(p, cls, strlen(cls), &class_id)) < 0 ||
        (rc = jfrp_profile_string(p, f->method, strlen(f->method), &method_id)) < 0 ||
        (rc = jfrp_profile_string(p, f->signature, strlen(f->signature), &sig_id)) < 0)
        return rc;
    return intern_frame(p, &key, class_id, method_id, sig_id, f->kind, f->line, id);
}

int jfrp_profile_frame_of_names(jfr_profile *p, const uint32_t names[4], int32_t line,
                                jfr_frame_kind kind, bool synthetic, uint32_t *id)
{
    jfrp_frame_key key;

    memset(&key, 0, sizeof key);
    key.name_id = names[0];
    key.line = line;
    key.kind = (p->flags & JFR_PROFILE_FRAME_KIND) ? (uint32_t)kind : 0;
    key.synthetic = synthetic;
    return intern_frame(p, &key, names[1], names[2], names[3], kind, line, id);
}

/* ---- resolved frames ---------------------------------------------------------- */

static int reserve(jfr_profile *p, size_t need)
{
    char *buf;
    size_t room;

    if (need <= p->buf_room)
        return 0;
    room = p->buf_room ? p->buf_room : 256;
    while (room < need) {
        if (room > SIZE_MAX / 2)
            return JFR_ENOMEM;
        room *= 2;
    }
    buf = jfrp_realloc(&p->al, p->buf, room);
    if (!buf)
        return JFR_ENOMEM;
    p->buf = buf;
    p->buf_room = room;
    return 0;
}

/* Intern the frame name of a method and its parts: ids[0] full name,
 * [1] class, [2] method, [3] signature. */
static int method_names(jfr_profile *p, const jfr_str *klass, const jfr_str *method,
                        const jfr_str *descriptor, uint32_t ids[4])
{
    const char *cls = klass->ptr, *meth = method->ptr;
    size_t clen = cls ? jfrp_name_len(cls, klass->len) : 0;
    size_t mlen = meth ? jfrp_name_len(meth, method->len) : strlen("[unknown]");
    size_t plen = 0, at = 0, need;
    int rc;

    if (!meth)
        meth = "[unknown]";
    if (p->flags & JFR_PROFILE_SIGNATURES)
        plen = jfr_name_of_params(NULL, 0, descriptor->ptr,
                                  jfrp_name_len(descriptor->ptr, descriptor->len),
                                  JFR_NAME_SIMPLE);
    need = clen + 1 + mlen + plen + 1;
    if (need < clen || (rc = reserve(p, need)) < 0)
        return JFR_ENOMEM;
    for (size_t i = 0; i < clen; i++)
        p->buf[at++] = cls[i] == '/' ? '.' : cls[i];
    if (p->flags & JFR_PROFILE_NORMALIZE)
        at = jfr_name_normalize(p->buf, at);
    clen = at;
    if ((rc = jfrp_profile_string(p, p->buf, at, &ids[1])) < 0)
        return rc;
    if (clen)
        p->buf[at++] = '.';
    memcpy(p->buf + at, meth, mlen);
    at += mlen;
    if ((rc = jfrp_profile_string(p, meth, mlen, &ids[2])) < 0)
        return rc;
    if (plen)
        jfr_name_of_params(p->buf + at, plen, descriptor->ptr,
                           jfrp_name_len(descriptor->ptr, descriptor->len),
                           JFR_NAME_SIMPLE);
    if ((rc = jfrp_profile_string(p, p->buf + at, plen, &ids[3])) < 0)
        return rc;
    at += plen;
    return jfrp_profile_string(p, p->buf, at, &ids[0]);
}

int jfrp_profile_class_frame(jfr_profile *p, jfr_chunk *chunk, const jfr_field *field,
                             uint64_t key, jfr_frame_kind kind, uint32_t *id)
{
    jfr_profile_frame f;
    jfr_str name;
    size_t need, len;
    int rc;

    *id = UINT32_MAX;
    if ((rc = jfrp_chunk_class_name(&name, chunk, field, key)) < 0)
        return rc == JFR_ENOMEM ? rc : 0; /* unreadable: no class frame */
    name.len = jfrp_name_len(name.ptr, name.len);
    if (!name.ptr || !name.len)
        return 0;
    /* "[Ljava/lang/Object;" is "java.lang.Object[]", as jfr print shows it */
    need = jfr_name_of_class(NULL, 0, name.ptr, name.len, 0) + 1;
    if ((rc = reserve(p, need)) < 0)
        return rc;
    len = jfr_name_of_class(p->buf, need, name.ptr, name.len, 0);
    if (p->flags & JFR_PROFILE_NORMALIZE)
        len = jfr_name_normalize(p->buf, len);
    p->buf[len] = '\0';
    memset(&f, 0, sizeof f);
    f.name = p->buf;
    f.class_name = p->buf;
    f.method = "";
    f.signature = "";
    f.line = -1;
    f.kind = kind;
    f.time_bucket = INT64_MIN;
    return jfrp_profile_copy_frame(p, &f, id);
}

/* Method `key` of the chunk: class name, name, descriptor (null when the
 * file does not define them or they cannot be read: a profile shows such a
 * frame as "[unknown]" rather than giving up; only running out of memory
 * stops it). */
static int resolve_method(jfr_profile *p, jfr_chunk *c, const jfrp_raw_frame *f,
                          uint32_t ids[4])
{
    static const jfrp_method none;
    const jfrp_method *m = NULL;
    int rc = 0;

    if (f->has_method)
        m = jfrp_chunk_method(c, f->method_key, &rc);
    if (rc == JFR_ENOMEM)
        return rc;
    if (!m)
        m = &none;
    return method_names(p, &m->class_name, &m->name, &m->descriptor, ids);
}

static int cached_names(jfr_profile *p, jfrp_name_cache *c, jfr_chunk *chunk,
                        const jfrp_raw_frame *f, uint32_t ids[4])
{
    /* frames without a method share the key UINT64_MAX */
    uint64_t key = f->has_method ? f->method_key : UINT64_MAX;
    uint64_t hit = jfrp_map_get(&c->map, key);
    int rc;

    if (hit) {
        memcpy(ids, c->ids[hit - 1], sizeof c->ids[0]);
        return 0;
    }
    if ((rc = resolve_method(p, chunk, f, ids)) < 0)
        return rc;
    if ((rc = jfrp_grow_array(&p->al, (void **)&c->ids, &c->room, c->count + 1,
                              sizeof c->ids[0])) < 0)
        return rc;
    memcpy(c->ids[c->count], ids, sizeof c->ids[0]);
    c->count++;
    return jfrp_map_put(&c->map, &p->al, key, c->count);
}

void jfrp_name_cache_free(jfr_profile *p, jfrp_name_cache *cache)
{
    jfrp_map_free(&cache->map, &p->al);
    jfrp_free(&p->al, cache->ids);
    jfrp_free(&p->al, cache->frames);
    jfrp_index_free(&cache->frame_index, &p->al);
    memset(cache, 0, sizeof *cache);
}

static uint64_t frame_hash(const jfrp_raw_frame *f)
{
    uint64_t h =
        f->method_key * 0x9e3779b97f4a7c15ULL ^
        ((uint64_t)(uint32_t)f->line << 8 | (uint64_t)f->kind << 1 | f->has_method) *
            0xc2b2ae3d27d4eb4fULL;

    return h ^ h >> 32;
}

static bool same_frame(const jfrp_frame_entry *e, const jfrp_raw_frame *f)
{
    return e->method_key == f->method_key && e->line == f->line && e->kind == f->kind &&
           e->has_method == f->has_method;
}

static uint64_t frame_rehash(const void *ctx, uint32_t entry)
{
    const jfrp_frame_entry *e = &((const jfrp_name_cache *)ctx)->frames[entry];
    jfrp_raw_frame f = {e->method_key, e->line, (jfr_frame_kind)e->kind,
                        e->has_method != 0};

    return frame_hash(&f);
}

static int frame_uncached(jfr_profile *p, jfrp_name_cache *cache, jfr_chunk *chunk,
                          const jfrp_raw_frame *f, jfr_frame_kind kind, uint32_t *id)
{
    jfrp_frame_key key;
    uint32_t ids[4];
    int rc;

    memset(&key, 0, sizeof key);
    if ((rc = cached_names(p, cache, chunk, f, ids)) < 0)
        return rc;
    key.name_id = ids[0];
    key.line = f->line;
    key.kind = (p->flags & JFR_PROFILE_FRAME_KIND) ? (uint32_t)f->kind : 0;
    return intern_frame(p, &key, ids[1], ids[2], ids[3], kind, key.line, id);
}

int jfrp_profile_frame(jfr_profile *p, jfrp_name_cache *cache, jfr_chunk *chunk,
                       const jfrp_raw_frame *raw, uint32_t *id)
{
    jfrp_raw_frame f = *raw;
    jfrp_frame_entry *e;
    uint64_t h;
    size_t i;
    int rc;

    /* what the profile does not tell apart is not part of the key */
    jfrp_frame_as_key(p, &f);
    h = frame_hash(&f);
    if (cache->frame_index.cap) {
        for (i = jfrp_index_first(&cache->frame_index, h); cache->frame_index.slots[i];
             i = jfrp_index_next(&cache->frame_index, i)) {
            const jfrp_frame_entry *hit = &cache->frames[cache->frame_index.slots[i] - 1];
            if (same_frame(hit, &f)) {
                *id = hit->id;
                return 0;
            }
        }
    }
    if ((rc = jfrp_index_reserve(&cache->frame_index, &p->al, 1024, frame_rehash,
                                 cache)) < 0 ||
        (rc = jfrp_grow_array(&p->al, (void **)&cache->frames, &cache->frames_room,
                              cache->nframes + 1, sizeof *cache->frames)) < 0)
        return rc;
    /* a new frame keeps the kind it was first seen with */
    if ((rc = frame_uncached(p, cache, chunk, &f, raw->kind, id)) < 0)
        return rc;
    e = &cache->frames[cache->nframes];
    e->method_key = f.method_key;
    e->line = f.line;
    e->kind = (uint8_t)f.kind;
    e->has_method = f.has_method;
    e->id = *id;
    jfrp_index_insert(&cache->frame_index, h, (uint32_t)cache->nframes++);
    return 0;
}
