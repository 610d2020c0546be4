/* view_scan.c - what every view does with its inputs: walk the chunks of
 * all files as one recording, note which event types they declare, read a
 * few fields, and print the JDK's messages for missing types and empty
 * views (doc/views.md §8). */
#include <string.h>

#include "jfrtool.h"
#include "parallel.h"
#include "views.h"

/* One input's chunks through parallel_read: a view's decode and merge, or
 * its per-chunk function (then in order, in this thread). Chunk ordinals
 * count over all inputs. */
typedef struct scan_run {
    const view_parallel *par;
    view_chunk_fn fn;
    void *user;
    const char *path;
    uint64_t base; /* chunks of the earlier inputs */
    uint64_t next; /* ordinal of the next chunk fn sees */
    bool stopped;  /* fn asked to stop */
} scan_run;

static void *scan_decode(jfr_chunk *chunk, jfr_recording *rec, const char *path,
                         strbuf *messages, void *user)
{
    scan_run *sr = user;

    if (sr->par)
        return sr->par->decode(chunk, rec, path, messages, sr->user);
    if (!sr->stopped) {
        view_chunk c = {chunk, sr->next++, sr->path, rec};
        sr->stopped = sr->fn(&c, sr->user) != 0;
    }
    return NULL;
}

static void scan_merge(void *result, size_t chunk_index, void *user)
{
    const scan_run *sr = user;

    if (sr->par)
        sr->par->merge(result, sr->base + chunk_index, sr->user);
}

int view_for_each_chunk(const view_ctx *ctx, view_chunk_fn fn, void *user)
{
    return view_for_each_chunk_parallel(ctx, fn, NULL, user);
}

int view_for_each_chunk_parallel(const view_ctx *ctx, view_chunk_fn fn,
                                 const view_parallel *par, void *user)
{
    static const parallel_ops ops = {scan_decode, scan_merge};
    int status = EXIT_OK;
    uint64_t ordinal = 0;
    bool damaged = false;

    for (int i = 0; i < ctx->nfiles; i++) {
        scan_run sr = {par, fn, user, ctx->files[i], ordinal, ordinal, false};
        jfr_recording *rec;

        if (!(rec = open_recording(ctx->files[i], &status)))
            continue;
        /* a per-chunk function keeps state of its own: chunks in order */
        ordinal +=
            parallel_read(rec, ctx->files[i], par ? ctx->jobs : 1, &ops, &sr, &damaged);
        close_recording(rec);
    }
    if (ordinal == 0 && status == EXIT_OK)
        status = EXIT_INPUT;
    return status;
}

void view_report_chunk_error(const view_chunk *c)
{
    report_error(input_name(c->path), jfr_recording_error(c->rec));
}

/* "jdk.CPUTimeSample" -> "CPUTimeSample": the name as view.ini writes it. */
static const char *short_name(const char *type_name)
{
    return strncmp(type_name, "jdk.", 4) == 0 ? type_name + 4 : type_name;
}

const jfr_type *view_find_type(jfr_chunk *chunk, const char *name)
{
    /* JFR 1.0 (JDK 9/10) names are found by the library */
    return jfr_chunk_event_type(chunk, name);
}

view_declared view_type_declared(jfr_chunk *chunk, const char *type_name)
{
    const jfr_type *t = view_find_type(chunk, type_name);
    view_declared d = {t != NULL, false, jfr_chunk_header(chunk)->major == 1};

    if (t)
        d.experimental = jfr_type_annotation_value(t, "jdk.jfr.Experimental") != NULL;
    return d;
}

void view_note_declared(view_presence *p, view_declared d, uint64_t ordinal)
{
    if (ordinal == 0)
        p->first_jfr10 = d.jfr10;
    if (!d.declared)
        return;
    if (ordinal == 0)
        p->first_declares = true;
    if (!p->declared)
        p->experimental = d.experimental;
    p->declared = true;
}

void view_note_type(view_presence *p, jfr_chunk *chunk, uint64_t ordinal,
                    const char *type_name)
{
    view_note_declared(p, view_type_declared(chunk, type_name), ordinal);
}

int64_t view_event_int(const jfr_event *ev, const char *field)
{
    jfr_value v;

    if (jfr_event_field(&v, ev, field) != JFR_OK || v.kind != JFR_VALUE_INT)
        return 0;
    return v.as.i;
}

bool view_event_bool(const jfr_event *ev, const char *field)
{
    jfr_value v;

    return jfr_event_field(&v, ev, field) == JFR_OK && v.kind == JFR_VALUE_BOOLEAN &&
           v.as.boolean;
}

int64_t view_event_end_ticks(const jfr_event *ev)
{
    const jfr_type *t = jfr_event_type(ev);
    int64_t start = jfr_event_start_ticks(ev);

    if (t && jfr_type_field_by_name(t, "duration"))
        return start + view_event_int(ev, "duration");
    return start;
}

void view_print_missing(const view_def *view, const view_ctx *ctx)
{
    if (ctx->json) {
        json_t *j = json_object();
        json_object_set_new(j, "view", json_string(view->name));
        json_object_set_new(j, "title", json_string(view->title));
        json_object_set_new(j, "eventType", json_string(view->event_types[0]));
        json_object_set_new(j, "declared", json_false());
        json_object_set_new(j, "rows", json_array());
        view_json_print(ctx->out, j);
        json_decref(j);
        return;
    }
    fprintf(ctx->out,
            "Can't find event type named '%s'. 'SHOW EVENTS' will list available event "
            "types.\nMissing event found for %s\n",
            short_name(view->event_types[0]), view->name);
}

void view_say_missing_field(const view_ctx *ctx, const char *view, const char *title,
                            const char *type, const char *short_type, const char *field)
{
    if (ctx->json) {
        json_t *j = json_object();
        json_object_set_new(j, "view", json_string(view));
        json_object_set_new(j, "title", json_string(title));
        json_object_set_new(j, "missingField", json_string(field));
        json_object_set_new(j, "rows", json_array());
        view_json_print(ctx->out, j);
        json_decref(j);
        return;
    }
    fprintf(ctx->out,
            "Can't find field named '%s' in %s.\nUse 'SHOW FIELDS %s' to list available "
            "fields.\nMissing event found for %s\n",
            field, type, short_type, view);
}

void view_print_missing_field(const view_def *view, const view_ctx *ctx,
                              const char *field)
{
    const char *type = view->event_types[0];

    view_say_missing_field(ctx, view->name, view->title, type, short_name(type), field);
}

void view_print_no_events(const view_def *view, const view_ctx *ctx)
{
    fprintf(ctx->out, "\nNo events found for '%s'.\n", view->title);
}
