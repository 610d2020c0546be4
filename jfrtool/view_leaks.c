/* view_leaks.c - memory-leaks-by-class and memory-leaks-by-site: the rows
 * of JDK 25's `jfr view` of the same names (doc/views.md §1, §6).
 *
 * The samples are decoded by libjfr's leak analysis (jfr/leaks.h); here
 * they are grouped by the sampled object's class or by the first
 * application frame of the allocation stack. Every column is the value of
 * the group's last event, and only groups whose last event belongs to the
 * last batch of samples (same end time as the stream's last
 * jdk.OldObjectSample) are printed, ordered by allocation time; equal
 * times by name, or with --jdk-order in the JDK's HashMap order (the groups
 * are kept in view_groups for that: keyed as the JDK keys them). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fmt_pretty.h"
#include "jfrtool.h"
#include "out_text.h"
#include "views.h"

/* What a group shows: its last sample and last non-null allocation time. */
typedef struct leak_group {
    size_t last; /* index of the group's last sample */
    bool has_time;
    int64_t alloc_nanos;
} leak_group;

typedef struct leaks_view {
    const view_def *view;
    const view_ctx *ctx;
    bool by_site;
    jfr_leaks *lk;
    view_presence presence;
    const char *missing; /* the first field the JDK's query names that the
                          * first chunk's type lacks, or NULL */
    bool checked;
    uint64_t *chunk_of; /* per sample: the chunk ordinal it came from */
    size_t nchunk_of;
    view_groups groups; /* texts, keys and the JDK's order */
    leak_group *last;   /* per group */
} leaks_view;

/* ---- cells ---------------------------------------------------------------------- */

/* HH:mm:ss in the local time zone, as the JDK prints an Instant cell. */
static void time_cell(strbuf *sb, int64_t nanos)
{
    int64_t secs;
    int32_t ns;
    time_t t;
    struct tm tm;

    split_nanos(nanos, &secs, &ns);
    t = (time_t)secs;
    localtime_r(&t, &tm);
    sb_printf(sb, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* ---- grouping ------------------------------------------------------------------- */

/* The JDK resolves its query's fields against the first metadata that
 * declares the type (a JDK 11 jdk.OldObjectSample has no objectAge): the
 * first such field missing there is what it says instead of a table. */
static void check_fields(leaks_view *v, jfr_chunk *chunk)
{
    static const char *const by_class[] = {"allocationTime", "object", "objectAge",
                                           "lastKnownHeapUsage", NULL};
    static const char *const by_site[] = {"allocationTime", "stackTrace", "objectAge",
                                          "lastKnownHeapUsage", NULL};
    const jfr_type *t = jfr_chunk_event_type(chunk, v->view->event_types[0]);

    if (v->checked || !t)
        return;
    v->checked = true;
    for (const char *const *f = v->by_site ? by_site : by_class; *f; f++)
        if (jfr_type_field_index(t, *f) < 0) {
            v->missing = *f;
            return;
        }
}

static int leaks_chunk(const view_chunk *c, void *user)
{
    leaks_view *v = user;
    size_t before = jfr_leaks_sample_count(v->lk), after;

    view_note_type(&v->presence, c->chunk, c->ordinal, v->view->event_types[0]);
    check_fields(v, c->chunk);
    if (jfr_leaks_add_chunk(v->lk, c->chunk) < 0)
        view_report_chunk_error(c);
    after = jfr_leaks_sample_count(v->lk);
    v->chunk_of = xrealloc(v->chunk_of, after ? after : 1, sizeof *v->chunk_of);
    for (size_t i = before; i < after; i++)
        v->chunk_of[i] = c->ordinal;
    v->nchunk_of = after;
    return 0;
}

/* Sample a comes after sample b in the JDK's dispatch order: by chunk,
 * then end time, then file order. */
static bool later(const leaks_view *v, size_t a, size_t b)
{
    const jfr_leak_sample *x = jfr_leaks_sample_at(v->lk, a);
    const jfr_leak_sample *y = jfr_leaks_sample_at(v->lk, b);

    if (v->chunk_of[a] != v->chunk_of[b])
        return v->chunk_of[a] > v->chunk_of[b];
    if (x->end_nanos != y->end_nanos)
        return x->end_nanos > y->end_nanos;
    return a > b;
}

static size_t new_or_found(leaks_view *v, strbuf *key, bool *created)
{
    size_t gi = view_group_find(&v->groups, key->ptr, key->len, created);

    if (*created) {
        v->last = xrealloc(v->last, v->groups.n, sizeof *v->last);
        memset(&v->last[gi], 0, sizeof v->last[gi]);
    }
    return gi;
}

/* The group of the sampled object's class: keyed by name, hashed as the
 * JDK's key (the class id) hashes. */
static size_t class_group(leaks_view *v, const jfr_leak_sample *s, strbuf *key)
{
    const char *dot;
    bool created;
    size_t gi;

    sb_clear(key);
    if (s->object_type) {
        sb_putc(key, 'C');
        sb_puts(key, s->object_type);
    } else {
        sb_putc(key, 'N');
    }
    gi = new_or_found(v, key, &created);
    if (created) {
        view_group *g = &v->groups.v[gi];
        g->hash = s->object_type ? java_long_hash(s->object_class_key) : 0;
        g->text = xstrdup(s->object_type ? s->object_type : "N/A");
        dot = s->object_type ? strrchr(s->object_type, '.') : NULL;
        g->compact = dot ? xstrdup(dot + 1) : NULL;
    }
    return gi;
}

/* The group of the first application frame's method, hashed as the JDK's
 * method key (class id, name, descriptor). */
static size_t site_group(leaks_view *v, const jfr_leak_sample *s, strbuf *key)
{
    const jfr_leak_frame *f = s->app_frame >= 0 ? &s->frames[s->app_frame] : NULL;
    jfr_str cls, m, d;
    strbuf text = {0};
    bool created;
    size_t gi;
    uint32_t h;

    sb_clear(key);
    if (!f) {
        sb_putc(key, 'N');
        gi = new_or_found(v, key, &created);
        if (created)
            v->groups.v[gi].text = xstrdup("N/A");
        return gi;
    }
    cls = (jfr_str){f->class_name, f->class_name ? strlen(f->class_name) : 0};
    m = (jfr_str){f->method, f->method ? strlen(f->method) : 0};
    d = (jfr_str){f->descriptor, f->descriptor ? strlen(f->descriptor) : 0};
    sb_putc(key, 'M');
    sb_putn(key, cls.ptr ? cls.ptr : "", cls.len);
    sb_putc(key, '\0');
    sb_putn(key, m.ptr ? m.ptr : "", m.len);
    sb_putc(key, '\0');
    sb_putn(key, d.ptr ? d.ptr : "", d.len);
    gi = new_or_found(v, key, &created);
    if (!created)
        return gi;
    h = 31u + (uint32_t)java_long_hash(f->class_key);
    h = 32u * h + (uint32_t)java_string_hash(m.ptr ? m.ptr : "", m.len);
    h = 32u * h + (uint32_t)java_string_hash(d.ptr ? d.ptr : "", d.len);
    v->groups.v[gi].hash = (int32_t)h;
    view_method_text(&text, cls, m, d, false);
    v->groups.v[gi].text = xstrdup(sb_str(&text));
    sb_clear(&text);
    view_method_text(&text, cls, m, d, true);
    v->groups.v[gi].compact = xstrdup(sb_str(&text));
    sb_free(&text);
    return gi;
}

static void group_samples(leaks_view *v)
{
    size_t n = jfr_leaks_sample_count(v->lk);
    strbuf key = {0};

    for (size_t i = 0; i < n; i++) {
        const jfr_leak_sample *s = jfr_leaks_sample_at(v->lk, i);
        size_t gi = v->by_site ? site_group(v, s, &key) : class_group(v, s, &key);
        leak_group *g = &v->last[gi];

        view_group_add(&v->groups, gi, 0, v->chunk_of[i], s->end_nanos, i);
        if (v->groups.v[gi].count == 1 || later(v, i, g->last)) {
            g->last = i;
            if (s->has_allocation_time) {
                g->has_time = true;
                g->alloc_nanos = s->allocation_nanos;
            }
        }
    }
    sb_free(&key);
}

/* The groups of the last batch, in print order. Caller frees. */
static size_t *shown_groups(leaks_view *v, size_t *count)
{
    size_t n = jfr_leaks_sample_count(v->lk), last = 0, k = 0, *order;
    int64_t last_end;

    /* allocation time ascending, a null time first: as a weight that sorts
     * descending */
    for (size_t g = 0; g < v->groups.n; g++) {
        int64_t t = v->last[g].alloc_nanos > 0 ? v->last[g].alloc_nanos : 0;
        v->groups.v[g].weight =
            v->last[g].has_time ? (uint64_t)(INT64_MAX - t) : UINT64_MAX;
    }
    order = view_groups_order(&v->groups, true, v->ctx->jdk_order);
    for (size_t i = 1; i < n; i++)
        if (later(v, i, last))
            last = i;
    last_end = n ? jfr_leaks_sample_at(v->lk, last)->end_nanos : 0;
    for (size_t i = 0; i < v->groups.n; i++)
        if (jfr_leaks_sample_at(v->lk, v->last[order[i]].last)->end_nanos == last_end)
            order[k++] = order[i];
    *count = k;
    return order;
}

/* ---- output --------------------------------------------------------------------- */

static void print_table(const leaks_view *v, const size_t *order, size_t n)
{
    /* "Alloc. Time" is a fixed-width, left-aligned column in the JDK's
     * table; --cell-height and --truncate apply to every column */
    view_column cols[4] = {{.label = "Alloc. Time", .fixed = true},
                           {.label = v->by_site ? "Application Method" : "Object Class"},
                           {.label = "Object Age", .right = true},
                           {.label = "Heap Usage", .right = true}};
    view_table t = {0};
    strbuf time = {0}, age = {0}, heap = {0};

    view_columns_take_options(cols, 4, v->ctx);

    t.title = v->view->title;
    t.cols = cols;
    t.ncols = 4;
    for (size_t i = 0; i < n; i++) {
        const view_group *g = &v->groups.v[order[i]];
        const jfr_leak_sample *s = jfr_leaks_sample_at(v->lk, v->last[order[i]].last);
        const char *full[4], *compact[4] = {NULL, g->compact, NULL, NULL};

        sb_clear(&time);
        sb_clear(&age);
        sb_clear(&heap);
        if (s->has_allocation_time)
            time_cell(&time, s->allocation_nanos);
        else
            sb_puts(&time, "N/A");
        if (s->age_nanos >= 0)
            fmt_pretty_duration(&age, jduration_of_nanos(s->age_nanos));
        else
            sb_puts(&age, "N/A");
        if (s->heap_usage >= 0)
            fmt_pretty_bytes(&heap, s->heap_usage);
        else
            sb_puts(&heap, "N/A");
        full[0] = sb_str(&time);
        full[1] = g->text;
        full[2] = sb_str(&age);
        full[3] = sb_str(&heap);
        view_table_add(&t, full, compact);
    }
    view_table_print(v->ctx->out, &t, v->ctx->width, v->ctx->ascii_only);
    view_table_free(&t);
    sb_free(&time);
    sb_free(&age);
    sb_free(&heap);
}

static void print_json(const leaks_view *v, const size_t *order, size_t n)
{
    json_t *j = json_object(), *rows = json_array();
    strbuf sb = {0};

    json_object_set_new(j, "view", json_string(v->view->name));
    json_object_set_new(j, "title", json_string(v->view->title));
    json_object_set_new(j, "eventType", json_string(v->view->event_types[0]));
    json_object_set_new(j, "declared", json_boolean(v->presence.declared));
    json_object_set_new(j, "events", json_count(jfr_leaks_sample_count(v->lk)));
    json_object_set_new(j, "groups", json_count(v->groups.n));
    for (size_t i = 0; i < n; i++) {
        const view_group *g = &v->groups.v[order[i]];
        const jfr_leak_sample *s = jfr_leaks_sample_at(v->lk, v->last[order[i]].last);
        json_t *row = json_object();

        if (s->has_allocation_time) {
            int64_t secs;
            int32_t ns;
            sb_clear(&sb);
            split_nanos(s->allocation_nanos, &secs, &ns);
            fmt_iso_instant(&sb, secs, ns, 0);
            json_object_set_new(row, "allocationTime", json_string(sb_str(&sb)));
        } else {
            json_object_set_new(row, "allocationTime", json_null());
        }
        json_object_set_new(row, v->by_site ? "applicationMethod" : "objectClass",
                            json_string(g->text));
        json_object_set_new(row, "objectAgeNanos",
                            s->age_nanos >= 0 ? json_integer(s->age_nanos) : json_null());
        json_object_set_new(row, "heapUsage",
                            s->heap_usage >= 0 ? json_integer(s->heap_usage)
                                               : json_null());
        json_array_append_new(rows, row);
    }
    json_object_set_new(j, "rows", rows);
    view_json_print(v->ctx->out, j);
    json_decref(j);
    sb_free(&sb);
}

static int run_leaks(const view_def *view, const view_ctx *ctx, bool by_site)
{
    leaks_view v = {.view = view, .ctx = ctx, .by_site = by_site};
    jfr_leaks_options lo = JFR_LEAKS_OPTIONS_INIT;
    jfr_error err;
    size_t *order = NULL, n = 0;
    int status;

    if (jfr_leaks_new(&v.lk, &lo, &err) < 0)
        diex(EXIT_INPUT, "view: %s", err.message);
    status = view_for_each_chunk(ctx, leaks_chunk, &v);
    if (!v.presence.declared) {
        if (status == EXIT_OK)
            view_print_missing(view, ctx);
    } else if (v.missing) {
        view_print_missing_field(view, ctx, v.missing);
    } else {
        group_samples(&v);
        order = shown_groups(&v, &n);
        if (ctx->json)
            print_json(&v, order, n);
        else if (n == 0)
            view_print_no_events(view, ctx);
        else
            print_table(&v, order, n);
    }
    view_groups_free(&v.groups);
    free(v.last);
    free(order);
    free(v.chunk_of);
    jfr_leaks_free(v.lk);
    return status;
}

static int run_by_class(const view_def *view, const view_ctx *ctx)
{
    return run_leaks(view, ctx, false);
}

static int run_by_site(const view_def *view, const view_ctx *ctx)
{
    return run_leaks(view, ctx, true);
}

static const char *const leak_types[] = {"jdk.OldObjectSample", NULL};

const view_def view_memory_leaks_by_class = {
    "memory-leaks-by-class",
    "Memory Leak Candidates by Class",
    leak_types,
    run_by_class,
    "classes of old-object samples of the last batch, by allocation time",
    .cell_options = true};

const view_def view_memory_leaks_by_site = {
    "memory-leaks-by-site",
    "Memory Leak Candidates by Site",
    leak_types,
    run_by_site,
    "allocation sites of old-object samples of the last batch, by allocation time",
    .cell_options = true};
