/* view_rows_read.c - the rows of the row views (view_rows.h): each event
 * counts in the row of what its grouped field is, a thread, a class or its
 * top frame's method, by identity (jfr/identity.h) as the JDK's views
 * group (doc/views.md, "Rows are things, not names"): two unnamed virtual
 * threads, two loaders' classes of one name, a bridge method and its
 * target are rows of their own. Each distinct pool key of a chunk is
 * resolved once; only frame 0 of a stack trace is read. */
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "view_rows.h"

void rows_state_init(rows_state *st, const view_rows_spec *spec, bool jdk_order)
{
    memset(st, 0, sizeof *st);
    st->spec = spec;
    st->jdk_order = jdk_order;
    st->na_group = SIZE_MAX;
    if (jfr_identity_new(&st->ids, NULL) != JFR_OK)
        diex(EXIT_INPUT, "out of memory");
}

void rows_state_free(rows_state *st)
{
    view_groups_free(&st->groups);
    view_keymap_free(&st->keys);
    view_keymap_free(&st->methods);
    jfr_identity_free(st->ids);
    sb_free(&st->key);
    sb_free(&st->text);
}

static size_t na_group(rows_state *r)
{
    bool created;

    if (r->na_group == SIZE_MAX) {
        r->na_group = view_group_find(&r->groups, "N", 1, &created);
        if (created) {
            r->groups.v[r->na_group].text = xstrdup("N/A");
            r->groups.v[r->na_group].hash = 0; /* the null key */
        }
    }
    return r->na_group;
}

/* The JDK's row of a thing is its identity (doc/views.md, "Rows are things,
 * not names"): the group jfr/identity.h gives it, kept as the row's key. */
static size_t group_by_identity(rows_state *r, uint64_t identity, bool *created)
{
    sb_clear(&r->key);
    sb_putc(&r->key, 'G');
    /* big-endian: rows of one text and value in the order first met */
    for (int shift = 56; shift >= 0; shift -= 8)
        sb_putc(&r->key, (char)(identity >> shift));
    return view_group_find(&r->groups, r->key.ptr, r->key.len, created);
}

static uint64_t identity_of_key(const view_group *g)
{
    uint64_t v = 0;

    for (size_t i = 1; i < g->key_len && i <= 8; i++)
        v = v << 8 | (unsigned char)g->key[i];
    return v;
}

/* The method of frame 0 of stack trace `stack`: false when it has none. */
static bool top_method(const jfr_value *stack, jfr_value *method)
{
    jfr_value frames, frame;

    return jfr_value_field(&frames, stack, "frames") == JFR_OK &&
           jfr_value_element(&frame, &frames, 0) == JFR_OK &&
           jfr_value_field(method, &frame, "method") == JFR_OK &&
           method->kind == JFR_VALUE_OBJECT;
}

/* The row of the event's top frame: its method by identity, hashed as the
 * JDK's key (class id, name, descriptor) hashes. Only frame 0 is read. */
static size_t group_of_top_frame(rows_state *r, const jfr_value *stack)
{
    jfr_value method, type;
    jfr_str cls = {NULL, 0}, name = {NULL, 0}, desc = {NULL, 0};
    uint64_t identity, class_id = 0;
    size_t gi;
    bool created;
    uint32_t h;

    if (!top_method(stack, &method))
        return na_group(r);
    /* many stacks share a top method: its row is found by its key */
    if (method.pooled && (gi = view_keymap_get(&r->methods, method.key)) != SIZE_MAX)
        return gi;
    if (jfr_identity_group(&identity, r->ids, r->run, &method) != JFR_OK)
        return na_group(r);
    gi = group_by_identity(r, identity, &created);
    if (method.pooled)
        view_keymap_put(&r->methods, method.key, gi);
    if (!created)
        return gi;
    if (jfr_value_field(&type, &method, "type") == JFR_OK) {
        class_id = type.pooled ? type.key : 0;
        (void)jfr_value_string_field(&cls, &type, "name");
    }
    (void)jfr_value_string_field(&name, &method, "name");
    (void)jfr_value_string_field(&desc, &method, "descriptor");
    /* Histogram.MethodEquality.hashCode: r = 31 + h1; r += 31 * r + h2; ... */
    h = 31u + (uint32_t)java_long_hash(class_id);
    h = 32u * h + (uint32_t)java_string_hash(name.ptr ? name.ptr : "", name.len);
    h = 32u * h + (uint32_t)java_string_hash(desc.ptr ? desc.ptr : "", desc.len);
    r->groups.v[gi].hash = (int32_t)h;
    sb_clear(&r->text);
    view_method_text(&r->text, cls, name, desc, false);
    r->groups.v[gi].text = xstrdup(sb_str(&r->text));
    sb_clear(&r->text);
    view_method_text(&r->text, cls, name, desc, true);
    r->groups.v[gi].compact = xstrdup(sb_str(&r->text));
    return gi;
}

static size_t group_of_class(rows_state *r, const jfr_value *cls)
{
    jfr_str name = {NULL, 0};
    uint64_t identity;
    size_t gi;
    bool created;

    if (jfr_identity_group(&identity, r->ids, r->run, cls) != JFR_OK)
        return na_group(r);
    gi = group_by_identity(r, identity, &created);
    if (!created)
        return gi;
    (void)jfr_value_string_field(&name, cls, "name"); /* unreadable: no name */
    r->groups.v[gi].hash = java_long_hash(cls->pooled ? cls->key : 0);
    sb_clear(&r->text);
    view_class_text(&r->text, name, false);
    r->groups.v[gi].text = xstrdup(sb_str(&r->text));
    sb_clear(&r->text);
    view_class_text(&r->text, name, true);
    r->groups.v[gi].compact = xstrdup(sb_str(&r->text));
    return gi;
}

/* A thread shows its Java name, else its OS name (as `sql` shows threads). */
static size_t group_of_thread(rows_state *r, const jfr_value *thread)
{
    jfr_str name = {NULL, 0};
    uint64_t identity;
    size_t gi;
    bool created;

    if (jfr_value_string_field(&name, thread, "javaName") != JFR_OK || !name.ptr)
        (void)jfr_value_string_field(&name, thread, "osName");
    if (!name.ptr || jfr_identity_group(&identity, r->ids, r->run, thread) != JFR_OK)
        return na_group(r);
    gi = group_by_identity(r, identity, &created);
    if (!created)
        return gi;
    r->groups.v[gi].hash = java_long_hash(thread->pooled ? thread->key : 0);
    r->groups.v[gi].text = xstrndup(name.ptr, name.len);
    r->groups.v[gi].compact = xstrndup(name.ptr, name.len);
    return gi;
}

/* The event's fields `a` and `b` (indexes, a < b; -1: none), read in one
 * pass over its fields; a field not read is a null value. */
static void read_two_fields(const jfr_event *ev, int a, jfr_value *va, int b,
                            jfr_value *vb)
{
    jfr_value obj;
    jfr_cursor cur;
    int at = 0;

    memset(va, 0, sizeof *va);
    memset(vb, 0, sizeof *vb);
    if (jfr_event_value(&obj, ev) != JFR_OK || jfr_value_iter(&cur, &obj) != JFR_OK)
        return;
    if (a >= 0) {
        if (jfr_cursor_skip(&cur, (size_t)a) != JFR_OK ||
            jfr_cursor_next(va, &cur) != JFR_OK) {
            memset(va, 0, sizeof *va);
            return;
        }
        at = a + 1;
    }
    if (b >= 0 && (jfr_cursor_skip(&cur, (size_t)(b - at)) != JFR_OK ||
                   jfr_cursor_next(vb, &cur) != JFR_OK))
        memset(vb, 0, sizeof *vb);
}

/* The row of grouped value `v`, through the chunk-local cache of pool keys. */
static size_t group_of_value(rows_state *r, const jfr_value *value)
{
    jfr_value v = *value;
    size_t gi;

    if (v.pooled && (gi = view_keymap_get(&r->keys, v.key)) != SIZE_MAX)
        return gi;
    /* a key the pools lack is null wherever the chunk uses it */
    gi = v.kind == JFR_VALUE_NULL ? na_group(r)
         : r->spec->class_field   ? group_of_class(r, &v)
         : r->spec->thread_field  ? group_of_thread(r, &v)
                                  : group_of_top_frame(r, &v);
    if (v.pooled)
        view_keymap_put(&r->keys, v.key, gi);
    return gi;
}

/* Whether field `index` of `type` is an inline integer: a weight the field
 * reader gives as the generic read does. */
static bool is_integer_field(const jfr_type *type, int index)
{
    const jfr_field *f = index >= 0 ? jfr_type_field_at(type, (size_t)index) : NULL;
    jfr_kind k =
        f && jfr_field_type(f) ? jfr_type_kind(jfr_field_type(f)) : JFR_KIND_STRUCT;

    return f && !jfr_field_is_pooled(f) && !jfr_field_is_array(f) && k >= JFR_KIND_BYTE &&
           k <= JFR_KIND_LONG;
}

/* The row of an event whose grouped field's pool key (and weight) a field
 * reader has read: the chunk-local cache's row for that key, else, for a
 * stack trace whose top method has a row, that row (kept for the key);
 * SIZE_MAX when the event must be read whole (a field not read, a thing
 * not met yet). */
static size_t cached_group(rows_state *st, jfr_top_frames *tops,
                           const jfr_field_bits *bits, uint64_t *weight)
{
    uint64_t method;
    size_t gi;

    if (!bits[0].read || !bits[0].pooled || (st->spec->weight_field && !bits[1].read))
        return SIZE_MAX;
    if (st->spec->weight_field)
        *weight = !bits[1].pooled && bits[1].i > 0 ? (uint64_t)bits[1].i : 0;
    if ((gi = view_keymap_get(&st->keys, bits[0].bits)) != SIZE_MAX || !tops)
        return gi;
    /* a new stack trace: many share a top method the chunk has met */
    if (jfr_top_frames_method(&method, tops, bits[0].bits) != JFR_OK ||
        (gi = view_keymap_get(&st->methods, method)) == SIZE_MAX)
        return SIZE_MAX;
    view_keymap_put(&st->keys, bits[0].bits, gi);
    return gi;
}

/* The row and weight of an event read whole (its first event of a key). */
static size_t read_group(rows_state *st, const jfr_event *ev, int field_index,
                         int weight_index, uint64_t *weight)
{
    jfr_value grouped, w;

    if (weight_index < field_index)
        read_two_fields(ev, weight_index, &w, field_index, &grouped);
    else
        read_two_fields(ev, field_index, &grouped, weight_index, &w);
    if (st->spec->weight_field)
        *weight = w.kind == JFR_VALUE_INT && w.as.i > 0 ? (uint64_t)w.as.i : 0;
    return group_of_value(st, &grouped);
}

/* The walk's type names: `type`'s, then those of `pass` (may be NULL). */
static const char **walk_names(const jfr_type *type, const jfr_profile_pass *pass,
                               size_t *n)
{
    const char *const *more = NULL;
    size_t nmore = pass ? jfr_profile_pass_types(&more, pass) : 0;
    const char **names = xcalloc(nmore + 1, sizeof *names);

    names[0] = jfr_type_name(type);
    for (size_t i = 0; i < nmore; i++)
        names[i + 1] = more[i];
    *n = nmore + 1;
    return names;
}

int rows_read_chunk(rows_state *st, jfr_chunk *chunk, uint64_t ordinal,
                    const jfr_type *type, jfr_profile_pass *pass)
{
    const view_rows_spec *spec = st->spec;
    const char *fields[2] = {spec->class_field    ? spec->class_field
                             : spec->thread_field ? spec->thread_field
                                                  : "stackTrace",
                             spec->weight_field};
    int field_index = jfr_type_field_index(type, fields[0]);
    int weight_index = spec->weight_field ? jfr_type_field_index(type, fields[1]) : -1;
    jfr_field_reader *rd = NULL;
    jfr_top_frames *tops = NULL;
    jfr_event_iter *it;
    const jfr_event *ev;
    const char **names;
    size_t nnames;
    int rc;

    view_keymap_clear(&st->keys);
    view_keymap_clear(&st->methods);
    /* a weight of another kind is read whole, as before */
    if ((!spec->weight_field || is_integer_field(type, weight_index)) &&
        (rc = jfr_field_reader_new(&rd, type, fields, spec->weight_field ? 2 : 1,
                                   NULL)) != JFR_OK)
        return rc;
    if (!spec->class_field && !spec->thread_field &&
        (rc = jfr_top_frames_new(&tops, chunk)) != JFR_OK) {
        jfr_field_reader_free(rd);
        return rc;
    }
    names = walk_names(type, pass, &nnames);
    rc = jfr_event_iter_new(&it, chunk, names, nnames, 0);
    free(names);
    if (rc != JFR_OK) {
        jfr_top_frames_free(tops);
        jfr_field_reader_free(rd);
        return rc;
    }
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
        jfr_field_bits bits[2];
        uint64_t weight = 1;
        size_t gi = SIZE_MAX;

        if (pass)
            (void)jfr_profile_pass_add(pass, ev); /* its error: at its finish */
        if (jfr_event_type(ev) != type)
            continue;
        /* most events repeat a key the chunk met: only it is read */
        if (rd && jfr_field_reader_read(bits, rd, ev) == JFR_OK)
            gi = cached_group(st, tops, bits, &weight);
        if (gi == SIZE_MAX)
            gi = read_group(st, ev, field_index, weight_index, &weight);
        /* the dispatch position only matters for the JDK's order */
        view_group_add(&st->groups, gi, weight, ordinal,
                       st->jdk_order ? view_event_end_ticks(ev) : 0, st->seq++);
    }
    jfr_event_iter_free(it);
    jfr_top_frames_free(tops);
    jfr_field_reader_free(rd);
    return rc < 0 ? rc : JFR_OK;
}

void rows_merge(rows_state *st, rows_state *part)
{
    size_t n = jfr_identity_count(part->ids);
    uint64_t *map = xcalloc(n ? n : 1, sizeof *map);

    if (jfr_identity_merge(map, st->ids, st->run, part->ids) != JFR_OK)
        diex(EXIT_INPUT, "out of memory");
    /* in the order the chunk met them, as the sequential read meets them */
    for (size_t i = 0; i < part->groups.n; i++) {
        view_group *g = &part->groups.v[i];
        size_t gi;
        bool created = false;

        if (i == part->na_group) {
            gi = na_group(st);
        } else {
            uint64_t local = identity_of_key(g);
            gi = group_by_identity(st, local < n ? map[local] : local, &created);
        }
        if (created) {
            st->groups.v[gi].hash = g->hash;
            st->groups.v[gi].text = g->text;
            st->groups.v[gi].compact = g->compact;
            g->text = g->compact = NULL;
        }
        view_group_add_many(&st->groups, gi, g->count, g->weight);
    }
    free(map);
}
