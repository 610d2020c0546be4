/* profile_groups.c - which of a profile's sources a chunk reads
 * (jfr_profile_source.group and .states, doc/profiles.md "Profile kinds").
 * What stands for a kind is decided per chunk from what the chunk holds:
 * the walk counts every group apart, and the first group with an event,
 * or with an event type the chunk's jdk.ActiveSetting events turn on, is
 * kept. Which types the metadata declares decides nothing: a JDK 17
 * declares jdk.ObjectAllocationSample even when it records none. */
#include <string.h>

#include "profile_struct.h"

static int find_type(const jfrp_chunk_type *types, size_t n, const jfr_type *t)
{
    for (size_t i = 0; i < n; i++)
        if (types[i].type == t)
            return (int)i;
    return -1;
}

int jfrp_groups_types(jfrp_chunk_type **out, size_t *n, const jfr_type **setting,
                      const jfr_profile *p, jfr_chunk *c)
{
    jfrp_chunk_type *types;
    uint32_t groups = 0;

    *out = NULL;
    *n = 0;
    *setting = NULL;
    types = jfrp_calloc(&p->al, p->nsources ? p->nsources : 1, sizeof *types);
    if (!types)
        return JFR_ENOMEM;
    for (size_t i = 0; i < p->nsources; i++) {
        const jfrp_source *src = &p->sources[i];
        const jfr_type *t = jfr_chunk_event_type(c, src->event_type);
        int at;

        if (!t)
            continue;
        if ((at = find_type(types, *n, t)) < 0) {
            at = (int)(*n)++;
            types[at].type = t;
            types[at].source = src;
        }
        types[at].groups |= 1u << src->group;
        types[at].all_states |= src->states ? 0 : 1u << src->group;
        types[at].filtered |= src->states != NULL;
        groups |= 1u << src->group;
    }
    /* one group declared: nothing to choose, no settings to read */
    if (groups & (groups - 1))
        *setting = jfr_chunk_event_type(c, "jdk.ActiveSetting");
    *out = types;
    return JFR_OK;
}

static bool state_listed(char *const *states, const char *name, size_t len)
{
    for (; *states; states++)
        if (strlen(*states) == len && memcmp(*states, name, len) == 0)
            return true;
    return false;
}

/* The name of thread state `key`: jdk.types.ThreadState is a pool of
 * objects with a string field "name" (or, from other writers, strings). */
static int state_name(jfr_str *out, jfr_chunk *c, const jfr_field *field, uint64_t key)
{
    jfr_value v, inner;
    int rc;

    out->ptr = NULL;
    out->len = 0;
    if ((rc = jfrp_pool_value(&v, c, field->type, key)) < 0 ||
        (rc = jfr_value_unwrap(&inner, &v)) < 0)
        return rc;
    if (inner.kind == JFR_VALUE_STRING) {
        *out = inner.as.str;
        return 0;
    }
    if (inner.kind == JFR_VALUE_OBJECT &&
        (rc = jfr_value_string_field(out, &inner, "name")) < 0)
        return rc == JFR_ENOTFOUND ? 0 : rc;
    return 0;
}

int jfrp_groups_state_keep(uint32_t *mask, const jfr_profile *p, jfr_chunk *c,
                           const jfrp_chunk_type *ct, const jfr_field *field,
                           uint64_t key)
{
    jfr_str name;
    int rc;

    *mask = ct->groups;
    if ((rc = state_name(&name, c, field, key)) < 0)
        return rc;
    if (!name.ptr)
        return 0; /* a state the chunk does not define: kept */
    *mask = 0;
    for (size_t i = 0; i < p->nsources; i++) {
        const jfrp_source *src = &p->sources[i];
        if (jfr_chunk_event_type(c, src->event_type) == ct->type &&
            (!src->states || state_listed(src->states, name.ptr, name.len)))
            *mask |= 1u << src->group;
    }
    return 0;
}

uint32_t jfrp_groups_enabled_by(const jfr_event *ev, const jfrp_chunk_type *types,
                                size_t n)
{
    jfr_value v, id;
    jfr_str name, value;
    const jfr_type *t;
    int at;

    /* the type first: most settings are of types no kind reads */
    if (jfr_event_field(&id, ev, "id") < 0 || id.kind != JFR_VALUE_INT ||
        !(t = jfr_chunk_type_by_id(jfr_event_chunk(ev), (uint64_t)id.as.i)) ||
        (at = find_type(types, n, t)) < 0 || !types[at].all_states)
        return 0;
    if (jfr_event_value(&v, ev) < 0 || jfr_value_string_field(&name, &v, "name") < 0 ||
        !name.ptr || strcmp(name.ptr, "enabled") != 0 ||
        jfr_value_string_field(&value, &v, "value") < 0 || !value.ptr ||
        strcmp(value.ptr, "true") != 0)
        return 0;
    return types[at].all_states;
}

unsigned jfrp_groups_choose(uint32_t present, uint32_t enabled)
{
    uint32_t any = present | enabled;

    for (unsigned g = 0; g < JFRP_MAX_GROUPS; g++)
        if (any & (1u << g))
            return g;
    return JFRP_NO_GROUP;
}
