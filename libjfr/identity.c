/* identity.c - groups of threads, classes, class loaders, methods and event
 * types by identity (jfr/identity.h).
 *
 * Three interned tables make the rule:
 *   known:  (run, kind, identity in the run) -> group, so that a thing met
 *           again costs one lookup;
 *   names:  (run, kind, name) -> how many things of that name the run has
 *           shown so far (a counter beside each id);
 *   groups: (kind, name, k) -> the group: the k-th thing of a name in any
 *           run is the same group.
 * Within one run each identity gets its own k, so things the run tells
 * apart stay apart; across runs the k-th of a name meet. */
#include <string.h>

#include "jfr_private.h"
#include "intern.h"
#include "jfr/identity.h"

enum kind { KIND_THREAD = 1, KIND_CLASS, KIND_LOADER, KIND_METHOD, KIND_TYPE };

struct jfr_identity {
    jfrp_alloc al;
    jfrp_intern known;
    uint64_t *known_group; /* by id of `known` */
    uint32_t *known_name;  /* by id of `known`: the id of its name in `names` */
    size_t known_room, known_name_room;
    jfrp_intern names;
    uint32_t *name_count; /* by id of `names` */
    size_t names_room;
    jfrp_intern groups;
    /* scratch for keys */
    char *buf;
    size_t len, room;
};

bool jfr_header_continues(const jfr_header *prev, const jfr_header *next)
{
    int64_t end;

    if (!prev || !next ||
        __builtin_add_overflow(prev->start_nanos, prev->duration_nanos, &end))
        return false;
    return next->start_nanos == end && next->ticks_per_second == prev->ticks_per_second &&
           next->major == prev->major;
}

int jfr_identity_new(jfr_identity **out, const jfr_allocator *allocator)
{
    jfrp_alloc al;
    jfr_identity *ids;

    if (!out)
        return JFR_EINVAL;
    jfrp_alloc_init(&al, allocator);
    *out = ids = jfrp_calloc(&al, 1, sizeof *ids);
    if (!ids)
        return JFR_ENOMEM;
    ids->al = al;
    jfrp_intern_init(&ids->known, &ids->al);
    jfrp_intern_init(&ids->names, &ids->al);
    jfrp_intern_init(&ids->groups, &ids->al);
    return JFR_OK;
}

void jfr_identity_free(jfr_identity *ids)
{
    if (!ids)
        return;
    jfrp_intern_free(&ids->known);
    jfrp_intern_free(&ids->names);
    jfrp_intern_free(&ids->groups);
    jfrp_free(&ids->al, ids->known_group);
    jfrp_free(&ids->al, ids->known_name);
    jfrp_free(&ids->al, ids->name_count);
    jfrp_free(&ids->al, ids->buf);
    jfrp_free(&ids->al, ids);
}

/* ---- keys ---------------------------------------------------------------- */

static int put(jfr_identity *ids, const void *p, size_t n)
{
    int rc = jfrp_grow_array(&ids->al, (void **)&ids->buf, &ids->room, ids->len + n, 1);

    if (rc < 0)
        return rc;
    if (n)
        memcpy(ids->buf + ids->len, p, n);
    ids->len += n;
    return 0;
}

static int put_u64(jfr_identity *ids, uint64_t v)
{
    return put(ids, &v, sizeof v);
}

/* A string and its terminator (a null one as a lone 0xFF: no UTF-8 byte). */
static int put_str(jfr_identity *ids, jfr_str s)
{
    static const unsigned char null_mark = 0xFF, end = 0;
    int rc = s.ptr ? put(ids, s.ptr, s.len) : put(ids, &null_mark, 1);

    return rc < 0 ? rc : put(ids, &end, 1);
}

static int put_field(jfr_identity *ids, const jfr_value *obj, const char *name)
{
    jfr_str s = {NULL, 0};
    int rc = jfr_value_string_field(&s, obj, name);

    return rc < 0 ? rc : put_str(ids, s);
}

/* ---- what a value is ------------------------------------------------------ */

static bool named(const jfr_type *t, const char *jdk_name)
{
    const char *n = t ? jfr_type_name(t) : NULL;

    if (!n)
        return false;
    if (strcmp(n, jdk_name) == 0)
        return true;
    /* JFR 1.0: com.oracle.jfr.types.X for jdk.types.X */
    return strncmp(jdk_name, "jdk.types.", 10) == 0 &&
           strncmp(n, "com.oracle.jfr.types.", 21) == 0 &&
           strcmp(n + 21, jdk_name + 10) == 0;
}

static int kind_of(const jfr_value *v)
{
    if (named(v->type, "java.lang.Thread"))
        return KIND_THREAD;
    if (named(v->type, "java.lang.Class"))
        return KIND_CLASS;
    if (named(v->type, "jdk.types.ClassLoader"))
        return KIND_LOADER;
    if (named(v->type, "jdk.types.Method"))
        return KIND_METHOD;
    return 0;
}

/* The name of a class loader: its class's name and its own. */
static int put_loader_name(jfr_identity *ids, const jfr_value *loader)
{
    jfr_value type;
    int rc;

    if (loader->kind != JFR_VALUE_OBJECT)
        return put_str(ids, (jfr_str){NULL, 0});
    if ((rc = jfr_value_field(&type, loader, "type")) < 0 && rc != JFR_ENOTFOUND)
        return rc;
    if ((rc = put_field(ids, &type, "name")) < 0)
        return rc;
    return put_field(ids, loader, "name");
}

/* The name of a class: its own and its loader's. */
static int put_class_name(jfr_identity *ids, const jfr_value *cls)
{
    jfr_value loader;
    int rc;

    if ((rc = put_field(ids, cls, "name")) < 0)
        return rc;
    if ((rc = jfr_value_field(&loader, cls, "classLoader")) < 0 && rc != JFR_ENOTFOUND)
        return rc;
    return loader.kind == JFR_VALUE_OBJECT ? put_field(ids, &loader, "name")
                                           : put_str(ids, (jfr_str){NULL, 0});
}

/* The name that matches `v` across runs. */
static int put_name(jfr_identity *ids, int kind, const jfr_value *v)
{
    jfr_value cls;
    int rc;

    switch (kind) {
    case KIND_THREAD:
        rc = put_field(ids, v, "javaName");
        return rc < 0 ? rc : put_field(ids, v, "osName");
    case KIND_CLASS:
        return put_class_name(ids, v);
    case KIND_LOADER:
        return put_loader_name(ids, v);
    default: /* a method */
        if ((rc = jfr_value_field(&cls, v, "type")) < 0 && rc != JFR_ENOTFOUND)
            return rc;
        if ((rc = cls.kind == JFR_VALUE_OBJECT ? put_class_name(ids, &cls)
                                               : put_str(ids, (jfr_str){NULL, 0})) < 0 ||
            (rc = put_field(ids, v, "name")) < 0)
            return rc;
        return put_field(ids, v, "descriptor");
    }
}

/* What `v` is within its run: its pool key (a method: its class's key, its
 * name and its descriptor); a value without a key, its name. */
static int put_identity(jfr_identity *ids, int kind, const jfr_value *v)
{
    jfr_value cls;
    int rc;

    if (kind != KIND_METHOD)
        return v->pooled ? put_u64(ids, v->key) : put_name(ids, kind, v);
    if ((rc = jfr_value_field(&cls, v, "type")) < 0 && rc != JFR_ENOTFOUND)
        return rc;
    if (cls.pooled)
        rc = put_u64(ids, cls.key);
    else if (cls.kind == JFR_VALUE_OBJECT)
        rc = put_class_name(ids, &cls);
    else
        rc = put_str(ids, (jfr_str){NULL, 0});
    if (rc < 0 || (rc = put_field(ids, v, "name")) < 0)
        return rc;
    return put_field(ids, v, "descriptor");
}

/* ---- the tables ----------------------------------------------------------- */

/* The group of the thing whose name is buf[from..len), preceded by its
 * run and kind: the next k of that name in the run. *name_id: the name's
 * id in `names`. */
static int new_group(jfr_identity *ids, size_t from, uint64_t *group, uint32_t *name_id)
{
    size_t name_len = ids->len - from;
    uint32_t k, g;
    int added, rc;

    /* (run, kind, name): buf holds run and kind before the name */
    if ((rc = jfrp_intern_put(&ids->names, ids->buf + from - 9, name_len + 9, name_id,
                              &added)) < 0)
        return rc;
    if (added) {
        if ((rc = jfrp_grow_array(&ids->al, (void **)&ids->name_count, &ids->names_room,
                                  (size_t)*name_id + 1, sizeof *ids->name_count)) < 0)
            return rc;
        ids->name_count[*name_id] = 0;
    }
    k = ids->name_count[*name_id]++;
    /* (kind, name, k) */
    if ((rc = put(ids, &k, sizeof k)) < 0 ||
        (rc = jfrp_intern_put(&ids->groups, ids->buf + from - 1, name_len + 1 + sizeof k,
                              &g, NULL)) < 0)
        return rc;
    *group = g;
    return JFR_OK;
}

/* The entry of the identity in buf[0..len) (run, kind, identity) in
 * `known`, with room for its group and name; *known_group: its group, or
 * UINT64_MAX when it has none yet. */
static int known_entry(jfr_identity *ids, uint32_t *id)
{
    int added, rc;

    if ((rc = jfrp_intern_put(&ids->known, ids->buf, ids->len, id, &added)) < 0 ||
        (rc = jfrp_grow_array(&ids->al, (void **)&ids->known_group, &ids->known_room,
                              (size_t)*id + 1, sizeof *ids->known_group)) < 0 ||
        (rc = jfrp_grow_array(&ids->al, (void **)&ids->known_name, &ids->known_name_room,
                              (size_t)*id + 1, sizeof *ids->known_name)) < 0)
        return rc;
    if (added)
        ids->known_group[*id] = UINT64_MAX; /* set by the caller, unless that fails */
    return JFR_OK;
}

/* Look up the identity in buf[0..len) (run, kind, identity); when new, put
 * the name after it and give it a group. */
static int group_of_key(jfr_identity *ids, uint64_t run, int kind, const jfr_value *v,
                        const jfr_type *type, uint64_t *group)
{
    size_t from;
    uint32_t id, name_id;
    int rc;
    unsigned char k = (unsigned char)kind;

    if ((rc = known_entry(ids, &id)) < 0)
        return rc;
    if (ids->known_group[id] != UINT64_MAX) {
        *group = ids->known_group[id];
        return JFR_OK;
    }
    /* the name, preceded by run and kind, after the key */
    if ((rc = put_u64(ids, run)) < 0 || (rc = put(ids, &k, 1)) < 0)
        return rc;
    from = ids->len;
    rc = type ? put_str(ids, (jfr_str){jfr_type_name(type), strlen(jfr_type_name(type))})
              : put_name(ids, kind, v);
    if (rc < 0 || (rc = new_group(ids, from, group, &name_id)) < 0)
        return rc;
    ids->known_group[id] = *group;
    ids->known_name[id] = name_id;
    return JFR_OK;
}

static int start_key(jfr_identity *ids, uint64_t run, int kind)
{
    unsigned char k = (unsigned char)kind;

    ids->len = 0;
    return put_u64(ids, run) < 0 || put(ids, &k, 1) < 0 ? JFR_ENOMEM : 0;
}

int jfr_identity_group(uint64_t *group, jfr_identity *ids, uint64_t run,
                       const jfr_value *v)
{
    jfr_value method;
    int kind, rc;

    if (!group || !ids || !v || v->kind != JFR_VALUE_OBJECT)
        return JFR_EINVAL;
    if (named(v->type, "jdk.types.StackFrame")) {
        if ((rc = jfr_value_field(&method, v, "method")) < 0)
            return rc == JFR_ENOTFOUND ? JFR_EINVAL : rc;
        return jfr_identity_group(group, ids, run, &method);
    }
    if (!(kind = kind_of(v)))
        return JFR_EINVAL;
    if ((rc = start_key(ids, run, kind)) < 0 || (rc = put_identity(ids, kind, v)) < 0)
        return rc;
    return group_of_key(ids, run, kind, v, NULL, group);
}

int jfr_identity_type_group(uint64_t *group, jfr_identity *ids, uint64_t run,
                            const jfr_type *type)
{
    int rc;

    if (!group || !ids || !type)
        return JFR_EINVAL;
    if ((rc = start_key(ids, run, KIND_TYPE)) < 0 ||
        (rc = put_u64(ids, jfr_type_id(type))) < 0)
        return rc;
    return group_of_key(ids, run, KIND_TYPE, NULL, type, group);
}

size_t jfr_identity_count(const jfr_identity *ids)
{
    return ids ? jfrp_intern_count(&ids->groups) : 0;
}

/* Take entry `i` of part's `known` into `ids` as run `run`: its group there. */
static int merge_entry(jfr_identity *ids, uint64_t run, const jfr_identity *part,
                       uint32_t i, uint64_t *group)
{
    size_t len, name_len, from;
    const uint8_t *key = jfrp_intern_key(&part->known, i, &len);
    const uint8_t *name = jfrp_intern_key(&part->names, part->known_name[i], &name_len);
    uint64_t part_run;
    uint32_t id, name_id;
    int rc;

    memcpy(&part_run, key, sizeof part_run);
    if (part_run != 0 || len < 9 || name_len < 9)
        return JFR_EINVAL;
    /* (run, kind, identity) */
    ids->len = 0;
    if ((rc = put_u64(ids, run)) < 0 || (rc = put(ids, key + 8, len - 8)) < 0 ||
        (rc = known_entry(ids, &id)) < 0)
        return rc;
    if (ids->known_group[id] == UINT64_MAX) {
        /* new to `ids`: (run, kind, name) after it */
        if ((rc = put_u64(ids, run)) < 0 || (rc = put(ids, key + 8, 1)) < 0)
            return rc;
        from = ids->len;
        if ((rc = put(ids, name + 9, name_len - 9)) < 0 ||
            (rc = new_group(ids, from, group, &name_id)) < 0)
            return rc;
        ids->known_group[id] = *group;
        ids->known_name[id] = name_id;
    }
    *group = ids->known_group[id];
    return JFR_OK;
}

int jfr_identity_merge(uint64_t *map, jfr_identity *ids, uint64_t run,
                       const jfr_identity *part)
{
    size_t n;
    int rc;

    if (!ids || !part || ids == part || (!map && jfr_identity_count(part) > 0))
        return JFR_EINVAL;
    n = jfrp_intern_count(&part->known);
    for (size_t i = 0; i < n; i++) {
        uint64_t group;
        if (part->known_group[i] == UINT64_MAX)
            continue; /* a failed lookup left it without one */
        if ((rc = merge_entry(ids, run, part, (uint32_t)i, &group)) < 0)
            return rc;
        map[part->known_group[i]] = group;
    }
    return JFR_OK;
}
