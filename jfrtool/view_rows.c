/* view_rows.c - the views whose rows are events grouped by their top frame's
 * method, a class field or a thread field: hot-methods, cpu-time-hot-methods,
 * native-methods, allocation-by-site, allocation-by-class,
 * allocation-by-thread.
 *
 * Rows are the JDK's (doc/views.md §1-4): a row is a thing, by identity
 * (view_rows_read.c), the top frame is frame 0 whatever its kind, events
 * without a stack form one N/A row, shares are of all events. Equal rows
 * are ordered by text, then in the order first met (design.md §3), or
 * with --jdk-order in the JDK's hash-map order, for which the events are
 * read in one thread in their dispatch order; otherwise the chunks of a
 * file are read in ctx->jobs threads, each into rows of its own, merged in
 * chunk order with the same result. */
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "out_text.h"
#include "parallel.h"
#include "view_rows.h"

typedef struct rows_run {
    const view_def *view;
    const view_ctx *ctx;
    const view_rows_spec *spec;
    view_presence presence;
    rows_state st;
    jfr_profile *cpu_profile; /* the CPU-time lines (jfr_profile_cpu) */
    jfr_header last;          /* the header of the chunk before */
    bool have_last;
} rows_run;

/* Every chunk counts for the JVM runs of jfr/identity.h. */
static void next_run(rows_run *r, const jfr_header *h)
{
    if (r->have_last && !jfr_header_continues(&r->last, h))
        r->st.run++;
    r->last = *h;
    r->have_last = true;
}

/* A profile that keeps the CPU-time accounting of the chunk's samples and
 * lost samples (jfr_profile_cpu); NULL when the view has no such lines or
 * the chunk neither type. */
static jfr_profile *cpu_of_chunk(const rows_run *r, jfr_chunk *chunk, bool has_main,
                                 int *failed)
{
    jfr_profile *p;

    *failed = 0;
    if (!r->spec->cpu_lines ||
        (!has_main && !view_find_type(chunk, "jdk.CPUTimeSamplesLost")))
        return NULL;
    if (!(p = view_cpu_profile()))
        return NULL;
    if (jfr_profile_add_chunk(p, chunk) < 0)
        *failed = 1;
    return p;
}

static void add_cpu(rows_run *r, jfr_profile *p)
{
    if (!p)
        return;
    if (!r->cpu_profile)
        r->cpu_profile = p;
    else if (jfr_profile_merge(r->cpu_profile, p) == JFR_ENOMEM)
        diex(EXIT_INPUT, "out of memory");
    if (r->cpu_profile != p)
        jfr_profile_free(p);
}

/* The chunk's rows into `st` and, for the CPU-time lines, a profile of its
 * accounting (NULL: none), in one walk: the rows' walk hands the events to
 * the profile's pass (jfr_profile_pass). *rows_failed and *cpu_failed say
 * which read met an error. */
static jfr_profile *read_chunk(const rows_run *r, rows_state *st, jfr_chunk *chunk,
                               uint64_t ordinal, const jfr_type *main_type,
                               bool *rows_failed, int *cpu_failed)
{
    jfr_profile_pass *pass = NULL;
    jfr_profile *p = NULL;
    int walk;

    *rows_failed = false;
    if (!main_type) /* lost samples only, or nothing */
        return cpu_of_chunk(r, chunk, false, cpu_failed);
    *cpu_failed = 0;
    if (r->spec->cpu_lines && (p = view_cpu_profile()) &&
        jfr_profile_pass_new(&pass, p, chunk) < 0)
        *cpu_failed = 1;
    walk = rows_read_chunk(st, chunk, ordinal, main_type, pass);
    *rows_failed = walk < 0;
    if (pass && jfr_profile_pass_finish(pass, walk) < 0)
        *cpu_failed = 1;
    return p;
}

/* The sequential read: one chunk at a time into the run's rows. */
static int rows_chunk(const view_chunk *c, void *user)
{
    rows_run *r = user;
    const jfr_type *main_type = view_find_type(c->chunk, r->view->event_types[0]);
    jfr_profile *cpu;
    bool rows_failed;
    int failed;

    next_run(r, jfr_chunk_header(c->chunk));
    view_note_type(&r->presence, c->chunk, c->ordinal, r->view->event_types[0]);
    cpu = read_chunk(r, &r->st, c->chunk, c->ordinal, main_type, &rows_failed, &failed);
    if (rows_failed)
        view_report_chunk_error(c);
    add_cpu(r, cpu);
    if (failed)
        view_report_chunk_error(c);
    return 0;
}

/* ---- the threaded read: each chunk into rows of its own ---- */

typedef struct rows_part {
    view_declared declared;
    jfr_header header;
    rows_state st; /* run 0 */
    jfr_profile *cpu;
} rows_part;

static void *decode_part(jfr_chunk *chunk, jfr_recording *rec, const char *path,
                         strbuf *messages, void *user)
{
    const rows_run *r = user;
    const jfr_type *main_type = view_find_type(chunk, r->view->event_types[0]);
    rows_part *part = xcalloc(1, sizeof *part);
    bool rows_failed;
    int failed;

    part->declared = view_type_declared(chunk, r->view->event_types[0]);
    part->header = *jfr_chunk_header(chunk);
    rows_state_init(&part->st, r->spec, false);
    part->cpu = read_chunk(r, &part->st, chunk, 0, main_type, &rows_failed, &failed);
    if (failed || rows_failed)
        parallel_say(messages, path, jfr_recording_error(rec));
    return part;
}

static void merge_part(void *result, uint64_t ordinal, void *user)
{
    rows_run *r = user;
    rows_part *part = result;

    next_run(r, &part->header);
    view_note_declared(&r->presence, part->declared, ordinal);
    rows_merge(&r->st, &part->st);
    add_cpu(r, part->cpu);
    rows_state_free(&part->st);
    free(part);
}

/* The CPU-time accounting of the inputs. */
static const jfr_cpu_accounting *cpu_of(const rows_run *r)
{
    static const jfr_cpu_accounting none;

    return r->cpu_profile ? jfr_profile_cpu(r->cpu_profile) : &none;
}

static void print_json(const rows_run *r, const size_t *order, size_t shown)
{
    const view_rows_spec *spec = r->spec;
    uint64_t total =
        spec->weight_field ? r->st.groups.total_weight : r->st.groups.total_count;
    json_t *j = json_object(), *rows = json_array();

    json_object_set_new(j, "view", json_string(r->view->name));
    json_object_set_new(j, "title", json_string(r->view->title));
    json_object_set_new(j, "eventType", json_string(r->view->event_types[0]));
    json_object_set_new(j, "declared", json_boolean(r->presence.declared));
    json_object_set_new(j, "experimental", json_boolean(r->presence.experimental));
    json_object_set_new(j, "events", json_count(r->st.groups.total_count));
    if (spec->weight_field)
        json_object_set_new(j, "totalWeight", json_count(r->st.groups.total_weight));
    json_object_set_new(j, "groups", json_count(r->st.groups.n));
    json_object_set_new(j, "tableRows", json_count(shown));
    /* every row, in table order: the table shows the first tableRows */
    for (size_t i = 0; i < r->st.groups.n; i++) {
        const view_group *g = &r->st.groups.v[order[i]];
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
    uint64_t total =
        spec->weight_field ? r->st.groups.total_weight : r->st.groups.total_count;
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
    view_columns_take_options(cols, t.ncols, r->ctx);
    t.cols = cols;
    t.title = r->view->title;
    t.experimental = r->presence.experimental;
    t.limit = spec->limit;
    for (size_t i = 0; i < r->st.groups.n; i++) {
        const view_group *g = &r->st.groups.v[order[i]];
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
    static const view_parallel par = {decode_part, merge_part};
    rows_run r = {.view = view, .ctx = ctx, .spec = spec};
    size_t *order, shown;
    int status;

    rows_state_init(&r.st, spec, ctx->jdk_order);
    /* the JDK's order needs every event's dispatch position: one thread */
    status =
        view_for_each_chunk_parallel(ctx, rows_chunk, ctx->jdk_order ? NULL : &par, &r);
    if (!r.presence.declared) {
        if (status == EXIT_OK)
            view_print_missing(view, ctx);
    } else {
        order =
            view_groups_order(&r.st.groups, spec->weight_field != NULL, ctx->jdk_order);
        shown = spec->limit && spec->limit < r.st.groups.n ? spec->limit : r.st.groups.n;
        if (ctx->json)
            print_json(&r, order, shown);
        else if (r.st.groups.n == 0)
            view_print_no_events(view, ctx);
        else
            print_text(&r, order);
        if (!ctx->json && spec->cpu_lines && cpu_of(&r)->samples + cpu_of(&r)->lost > 0)
            view_cpu_print_lines(ctx->out, cpu_of(&r), ctx->weight_period);
        free(order);
    }
    rows_state_free(&r.st);
    jfr_profile_free(r.cpu_profile);
    return status;
}
