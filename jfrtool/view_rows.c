/* view_rows.c - the views whose rows are events grouped by their top frame's
 * method or by a class field: hot-methods, cpu-time-hot-methods,
 * native-methods, allocation-by-site, allocation-by-class.
 *
 * Rows are the JDK's (doc/views.md §1-4): the top frame is frame 0 whatever
 * its kind, events without a stack form one N/A row, shares are of all
 * events. Equal rows are ordered by text (design.md §3), or with
 * --jdk-order in the JDK's hash-map order. A row is a method (or class) by name, so the same method merges
 * across files and across recordings of different JVMs, where the JDK
 * keys by the class's pool id.
 *
 * Rows by top frame come from libjfr's profile API (jfr/profile.h: the
 * leaf of each merged stack, with JFR_PROFILE_SIGNATURES). Two things the
 * API does not expose are read here from the events instead: the class
 * field of allocation-by-class, and for --jdk-order each event's position
 * in the JDK's dispatch order and its class pool id (the JDK's hash key).
 * On that path each distinct stack trace (or class) of a chunk is resolved
 * once; the events of the chunk then only look up its row. */
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "out_text.h"
#include "parallel.h"
#include "views.h"

typedef struct rows_run {
    const view_def *view;
    const view_ctx *ctx;
    const view_rows_spec *spec;
    view_presence presence;
    view_groups groups;
    view_keymap keys;         /* chunk-local stack trace or class key -> group */
    size_t na_group;          /* SIZE_MAX until needed */
    uint64_t seq;             /* events read, in file order */
    jfr_profile *cpu_profile; /* the CPU-time lines, when not from profile */
    strbuf key, text;
    bool use_profile; /* rows by top frame from jfr/profile.h */
    jfr_profile *profile;
} rows_run;

static size_t na_group(rows_run *r)
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

/* The pool key of the class of the event's top frame's method (the JDK's
 * key is that id), 0 when the file does not say. */
static uint64_t top_frame_class_id(const jfr_value *stack)
{
    jfr_value frames, frame, method, type;

    if (jfr_value_field(&frames, stack, "frames") != JFR_OK ||
        jfr_value_element(&frame, &frames, 0) != JFR_OK ||
        jfr_value_field(&method, &frame, "method") != JFR_OK ||
        jfr_value_field(&type, &method, "type") != JFR_OK || !type.pooled)
        return 0;
    return type.key;
}

static size_t group_of_top_frame(rows_run *r, const jfr_event *ev, const jfr_value *stack)
{
    const jfr_stacktrace *st;
    jfr_frame f;
    uint64_t class_id;
    size_t gi;
    bool created;
    uint32_t h;

    if (jfr_event_stacktrace(&st, ev) != JFR_OK || jfr_stacktrace_depth(st) == 0 ||
        jfr_stacktrace_frame(&f, st, 0) != JFR_OK)
        return na_group(r);
    sb_clear(&r->key);
    sb_putc(&r->key, 'M');
    if (f.class_name.ptr)
        sb_putn(&r->key, f.class_name.ptr, f.class_name.len);
    sb_putc(&r->key, '\0');
    if (f.method_name.ptr)
        sb_putn(&r->key, f.method_name.ptr, f.method_name.len);
    sb_putc(&r->key, '\0');
    if (f.descriptor.ptr)
        sb_putn(&r->key, f.descriptor.ptr, f.descriptor.len);
    gi = view_group_find(&r->groups, r->key.ptr, r->key.len, &created);
    if (!created)
        return gi;
    class_id = top_frame_class_id(stack);
    /* Histogram.MethodEquality.hashCode: r = 31 + h1; r += 31 * r + h2; ... */
    h = 31u + (uint32_t)java_long_hash(class_id);
    h = 32u * h + (uint32_t)java_string_hash(f.method_name.ptr ? f.method_name.ptr : "",
                                             f.method_name.len);
    h = 32u * h + (uint32_t)java_string_hash(f.descriptor.ptr ? f.descriptor.ptr : "",
                                             f.descriptor.len);
    r->groups.v[gi].hash = (int32_t)h;
    sb_clear(&r->text);
    view_method_text(&r->text, f.class_name, f.method_name, f.descriptor, false);
    r->groups.v[gi].text = xstrdup(sb_str(&r->text));
    sb_clear(&r->text);
    view_method_text(&r->text, f.class_name, f.method_name, f.descriptor, true);
    r->groups.v[gi].compact = xstrdup(sb_str(&r->text));
    return gi;
}

static size_t group_of_class(rows_run *r, const jfr_value *cls)
{
    jfr_str name;
    size_t gi;
    bool created;

    (void)jfr_value_string_field(&name, cls, "name"); /* unreadable: no name */
    sb_clear(&r->key);
    sb_putc(&r->key, 'C');
    if (name.ptr)
        sb_putn(&r->key, name.ptr, name.len);
    gi = view_group_find(&r->groups, r->key.ptr, r->key.len, &created);
    if (!created)
        return gi;
    r->groups.v[gi].hash = java_long_hash(cls->pooled ? cls->key : 0);
    sb_clear(&r->text);
    view_class_text(&r->text, name, false);
    r->groups.v[gi].text = xstrdup(sb_str(&r->text));
    sb_clear(&r->text);
    view_class_text(&r->text, name, true);
    r->groups.v[gi].compact = xstrdup(sb_str(&r->text));
    return gi;
}

/* A thread by its Java name, else its OS name (as `sql` shows threads). */
static size_t group_of_thread(rows_run *r, const jfr_value *thread)
{
    jfr_str name = {NULL, 0};
    size_t gi;
    bool created;

    if (jfr_value_string_field(&name, thread, "javaName") != JFR_OK || !name.ptr)
        (void)jfr_value_string_field(&name, thread, "osName");
    if (!name.ptr)
        return na_group(r);
    sb_clear(&r->key);
    sb_putc(&r->key, 'T');
    sb_putn(&r->key, name.ptr, name.len);
    gi = view_group_find(&r->groups, r->key.ptr, r->key.len, &created);
    if (!created)
        return gi;
    r->groups.v[gi].hash = java_long_hash(thread->pooled ? thread->key : 0);
    r->groups.v[gi].text = xstrndup(name.ptr, name.len);
    r->groups.v[gi].compact = xstrndup(name.ptr, name.len);
    return gi;
}

/* The row of one event, through the chunk-local cache of pool keys. */
static size_t group_of_event(rows_run *r, const jfr_event *ev)
{
    const char *field = r->spec->class_field    ? r->spec->class_field
                        : r->spec->thread_field ? r->spec->thread_field
                                                : "stackTrace";
    jfr_value v;
    size_t gi;

    if (jfr_event_field(&v, ev, field) != JFR_OK || v.kind == JFR_VALUE_NULL)
        return na_group(r);
    if (v.pooled && (gi = view_keymap_get(&r->keys, v.key)) != SIZE_MAX)
        return gi;
    gi = r->spec->class_field    ? group_of_class(r, &v)
         : r->spec->thread_field ? group_of_thread(r, &v)
                                 : group_of_top_frame(r, ev, &v);
    if (v.pooled)
        view_keymap_put(&r->keys, v.key, gi);
    return gi;
}

static jfr_profile_options profile_options(const rows_run *r, const jfr_type *type)
{
    jfr_profile_options opts = JFR_PROFILE_OPTIONS_INIT;

    /* the chunk's own name (JFR 1.0 prefixes it with com.oracle.) */
    opts.event_type = type ? jfr_type_name(type) : r->view->event_types[0];
    opts.weight_field = r->spec->weight_field;
    /* rows are top frames: the rest of each stack is never read */
    opts.flags = JFR_PROFILE_SIGNATURES | JFR_PROFILE_TOP_FRAME;
    return opts;
}

/* Feed the chunk to the profile, made at the first chunk with the type (or,
 * for the CPU-time lines, with lost samples). */
static int profile_chunk(rows_run *r, const view_chunk *c, const jfr_type *type)
{
    if (!r->profile) {
        jfr_profile_options opts = profile_options(r, type);
        jfr_error err;

        if (jfr_profile_new(&r->profile, &opts, &err) < 0) {
            report_error(c->path, &err);
            return -1;
        }
    }
    if (jfr_profile_add_chunk(r->profile, c->chunk) < 0)
        view_report_chunk_error(c);
    return 0;
}

/* ---- the same in threads (--jobs): one profile per chunk ---- */

typedef struct rows_part {
    view_declared declared;
    jfr_profile *profile; /* NULL when the chunk has neither type */
} rows_part;

static void *decode_part(jfr_chunk *chunk, jfr_recording *rec, const char *path,
                         strbuf *messages, void *user)
{
    const rows_run *r = user;
    const jfr_type *main_type = view_find_type(chunk, r->view->event_types[0]);
    const jfr_type *lost_type = view_find_type(chunk, "jdk.CPUTimeSamplesLost");
    rows_part *part = xcalloc(1, sizeof *part);
    jfr_profile_options opts = profile_options(r, main_type);
    jfr_error err;

    part->declared = view_type_declared(chunk, r->view->event_types[0]);
    if (!main_type && !(r->spec->cpu_lines && lost_type))
        return part;
    if (jfr_profile_new(&part->profile, &opts, &err) < 0)
        parallel_say(messages, path, &err);
    else if (jfr_profile_add_chunk(part->profile, chunk) < 0)
        parallel_say(messages, path, jfr_recording_error(rec));
    return part;
}

static void merge_part(void *result, uint64_t ordinal, void *user)
{
    rows_run *r = user;
    rows_part *part = result;

    view_note_declared(&r->presence, part->declared, ordinal);
    if (!r->profile) {
        r->profile = part->profile;
        part->profile = NULL;
    } else if (part->profile &&
               jfr_profile_merge(r->profile, part->profile) == JFR_ENOMEM) {
        diex(EXIT_INPUT, "out of memory");
    }
    /* a chunk naming the type differently (JFR 1.0 after 2.0) adds nothing,
     * as in the sequential read */
    jfr_profile_free(part->profile);
    free(part);
}

/* The rows of the profile: the leaf (top frame) of every merged stack. */
static void rows_from_profile(rows_run *r)
{
    const jfr_profile *p = r->profile;
    bool weighted = r->spec->weight_field != NULL;

    for (size_t i = 0; p && i < jfr_profile_stack_count(p); i++) {
        const jfr_profile_frame *f;
        const uint32_t *frames;
        uint64_t weight;
        size_t depth, gi;
        bool created;

        if (jfr_profile_stack(p, i, &weight, &frames, &depth) < 0 || depth == 0 ||
            !(f = jfr_profile_frame_at(p, frames[depth - 1])))
            continue;
        if (f->synthetic) { /* [no stack trace] */
            gi = na_group(r);
        } else {
            sb_clear(&r->text);
            sb_printf(&r->text, "%s.%s%s", f->class_name, f->method, f->signature);
            sb_clear(&r->key);
            sb_putc(&r->key, 'P');
            sb_puts(&r->key, sb_str(&r->text));
            gi = view_group_find(&r->groups, r->key.ptr, r->key.len, &created);
            if (created) {
                r->groups.v[gi].text = xstrdup(sb_str(&r->text));
                sb_clear(&r->text);
                sb_printf(&r->text, "%s.%s(%s)", f->class_name, f->method,
                          strcmp(f->signature, "()") == 0 ? "" : "...");
                r->groups.v[gi].compact = xstrdup(sb_str(&r->text));
            }
        }
        /* a weighted profile keeps weights only; counts are its total */
        view_group_add_many(&r->groups, gi, weighted ? 0 : weight, weight);
    }
    if (p && weighted)
        r->groups.total_count = jfr_profile_samples(p);
}

static int rows_chunk(const view_chunk *c, void *user)
{
    rows_run *r = user;
    jfr_chunk *chunk = c->chunk;
    uint64_t ordinal = c->ordinal;
    const jfr_type *main_type = view_find_type(chunk, r->view->event_types[0]);
    const jfr_type *lost_type = view_find_type(chunk, "jdk.CPUTimeSamplesLost");
    const char *types[2];
    size_t ntypes = 0;
    jfr_event_iter *it;
    const jfr_event *ev;
    int rc;

    view_note_type(&r->presence, chunk, ordinal, r->view->event_types[0]);
    if (r->use_profile && (main_type || (r->spec->cpu_lines && lost_type))) {
        /* the profile counts the CPU-time lines too (jfr_profile_cpu) */
        return profile_chunk(r, c, main_type) < 0 ? 1 : 0;
    }
    if (main_type)
        types[ntypes++] = jfr_type_name(main_type);
    if (r->spec->cpu_lines && lost_type)
        types[ntypes++] = jfr_type_name(lost_type);
    if (ntypes == 0 || r->use_profile)
        return 0;
    view_keymap_clear(&r->keys);
    if (r->spec->cpu_lines) {
        /* the library's accounting (jfr_profile_cpu), as the fast path's */
        if (!r->cpu_profile && !(r->cpu_profile = view_cpu_profile()))
            return 1;
        if (jfr_profile_add_chunk(r->cpu_profile, chunk) < 0)
            view_report_chunk_error(c);
    }
    if (!main_type || jfr_event_iter_new(&it, chunk, types, 1, 0) != JFR_OK)
        return 0;
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
        uint64_t weight = 1;
        size_t gi;

        if (jfr_event_type(ev) != main_type)
            continue;
        if (r->spec->weight_field) {
            int64_t w = view_event_int(ev, r->spec->weight_field);
            weight = w > 0 ? (uint64_t)w : 0;
        }
        gi = group_of_event(r, ev);
        view_group_add(&r->groups, gi, weight, ordinal, view_event_end_ticks(ev),
                       r->seq++);
    }
    if (rc < 0)
        view_report_chunk_error(c);
    jfr_event_iter_free(it);
    return 0;
}

/* The CPU-time accounting: the rows' profile's, or the one kept beside
 * the rows when they are not made from a profile. */
static const jfr_cpu_accounting *cpu_of(const rows_run *r)
{
    static const jfr_cpu_accounting none;
    const jfr_profile *p = r->use_profile ? r->profile : r->cpu_profile;

    return p ? jfr_profile_cpu(p) : &none;
}

static void print_json(const rows_run *r, const size_t *order, size_t shown)
{
    const view_rows_spec *spec = r->spec;
    uint64_t total = spec->weight_field ? r->groups.total_weight : r->groups.total_count;
    json_t *j = json_object(), *rows = json_array();

    json_object_set_new(j, "view", json_string(r->view->name));
    json_object_set_new(j, "title", json_string(r->view->title));
    json_object_set_new(j, "eventType", json_string(r->view->event_types[0]));
    json_object_set_new(j, "declared", json_boolean(r->presence.declared));
    json_object_set_new(j, "experimental", json_boolean(r->presence.experimental));
    json_object_set_new(j, "events", json_count(r->groups.total_count));
    if (spec->weight_field)
        json_object_set_new(j, "totalWeight", json_count(r->groups.total_weight));
    json_object_set_new(j, "groups", json_count(r->groups.n));
    json_object_set_new(j, "tableRows", json_count(shown));
    /* every row, in table order: the table shows the first tableRows */
    for (size_t i = 0; i < r->groups.n; i++) {
        const view_group *g = &r->groups.v[order[i]];
        json_t *row = json_object();
        json_object_set_new(row, spec->key_json, json_string(g->text));
        if (spec->weight_field)
            json_object_set_new(row, "weight", json_count(g->weight));
        else
            json_object_set_new(row, "samples", json_count(g->count));
        if (spec->share_label)
            json_object_set_new(row, "percent",
                                json_real(percent_value(
                                    spec->weight_field ? g->weight : g->count, total)));
        json_array_append_new(rows, row);
    }
    json_object_set_new(j, "rows", rows);
    if (spec->cpu_lines)
        json_object_set_new(j, "cpuTime",
                            view_cpu_json(cpu_of(r), r->ctx->weight_period));
    view_json_print(r->ctx->out, j);
    json_decref(j);
}

static void print_text(const rows_run *r, const size_t *order)
{
    const view_rows_spec *spec = r->spec;
    uint64_t total = spec->weight_field ? r->groups.total_weight : r->groups.total_count;
    view_column cols[3];
    view_table t = {0};
    strbuf count = {0}, share = {0}, raw_share = {0};

    /* a top frame's column: fixed in JFR 1.0 files, as the JDK's are there */
    cols[t.ncols++] = (view_column){.label = spec->key_label,
                                    .fixed = r->presence.first_jfr10 &&
                                             !spec->class_field && !spec->thread_field};
    if (spec->show_count)
        cols[t.ncols++] = (view_column){.label = "Samples", .right = true};
    if (spec->share_label)
        cols[t.ncols++] = (view_column){.label = spec->share_label, .right = true};
    t.cols = cols;
    t.title = r->view->title;
    t.experimental = r->presence.experimental;
    t.limit = spec->limit;
    for (size_t i = 0; i < r->groups.n; i++) {
        const view_group *g = &r->groups.v[order[i]];
        const char *full[3], *compact[3] = {g->compact, NULL, NULL};
        size_t c = 0;

        full[c++] = g->text;
        if (spec->show_count) {
            sb_clear(&count);
            fmt_grouped(&count, (int64_t)g->count);
            full[c++] = sb_str(&count);
        }
        if (spec->share_label) {
            uint64_t v = spec->weight_field ? g->weight : g->count;
            sb_clear(&share);
            fmt_percent(&share, v, total);
            /* The JDK's compact text of a share is the raw value formatted
             * as a share (27 samples: "2700.00%"); it shows only when the
             * cell is too narrow, as its first digits. */
            sb_clear(&raw_share);
            fmt_java_fixed(&raw_share, (double)v * 100.0, 2);
            sb_putc(&raw_share, '%');
            compact[c] = sb_str(&raw_share);
            full[c++] = sb_str(&share);
        }
        view_table_add(&t, full, compact);
    }
    view_table_print(r->ctx->out, &t, r->ctx->width, r->ctx->ascii_only);
    view_table_free(&t);
    sb_free(&count);
    sb_free(&share);
    sb_free(&raw_share);
}

int view_rows_run(const view_def *view, const view_ctx *ctx, const view_rows_spec *spec)
{
    rows_run r = {.view = view,
                  .ctx = ctx,
                  .spec = spec,
                  .na_group = SIZE_MAX,
                  .use_profile =
                      !spec->class_field && !spec->thread_field && !ctx->jdk_order};
    static const view_parallel par = {decode_part, merge_part};
    size_t *order, shown;
    int status =
        view_for_each_chunk_parallel(ctx, rows_chunk, r.use_profile ? &par : NULL, &r);

    if (r.use_profile)
        rows_from_profile(&r);

    if (!r.presence.declared) {
        if (status == EXIT_OK)
            view_print_missing(view, ctx);
    } else {
        order = view_groups_order(&r.groups, spec->weight_field != NULL, ctx->jdk_order);
        shown = spec->limit && spec->limit < r.groups.n ? spec->limit : r.groups.n;
        if (ctx->json)
            print_json(&r, order, shown);
        else if (r.groups.n == 0)
            view_print_no_events(view, ctx);
        else
            print_text(&r, order);
        if (!ctx->json && spec->cpu_lines && cpu_of(&r)->samples + cpu_of(&r)->lost > 0)
            view_cpu_print_lines(ctx->out, cpu_of(&r), ctx->weight_period);
        free(order);
    }
    view_groups_free(&r.groups);
    view_keymap_free(&r.keys);
    jfr_profile_free(r.profile);
    jfr_profile_free(r.cpu_profile);
    sb_free(&r.key);
    sb_free(&r.text);
    return status;
}
