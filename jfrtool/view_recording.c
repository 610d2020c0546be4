/* view_recording.c - what the `recording` view shows: every event of every
 * type counted, the first and the last in the JDK's order and the last
 * jdk.Shutdown's reason. Chunks are read in threads (parallel.h) and taken
 * in order, so the outcome is that of one sequential walk.
 *
 * The JDK takes FIRST and LAST startTime in its dispatch order: chunk by
 * chunk, each chunk's events by end time. So the first is the event of the
 * first chunk with events that ends first, the last the event of the last
 * chunk with events that ends last (the later of equal ends). */
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "parallel.h"
#include "view_generic.h"

/* One chunk's share. */
typedef struct chunk_part {
    uint64_t count;
    bool any;
    int64_t first, last; /* epoch nanoseconds */
    char *reason;        /* its last jdk.Shutdown's reason, or NULL */
} chunk_part;

/* Where a type's startTime and duration are (-1: it has none), found once
 * per type of a chunk instead of by name per event. */
typedef struct type_fields {
    int start, duration;
    bool shutdown, known;
} type_fields;

static type_fields fields_of(const jfr_type *t)
{
    const char *name = jfr_type_name(t);

    return (type_fields){
        .start = jfr_type_field_index(t, "startTime"),
        .duration = jfr_type_field_index(t, "duration"),
        .shutdown = strcmp(name, "jdk.Shutdown") == 0 ||
                    strcmp(name, "com.oracle.jdk.Shutdown") == 0,
        .known = true,
    };
}

static int64_t int_field(const jfr_value *event, int index)
{
    jfr_value v;

    if (index < 0 || jfr_value_field_at(&v, event, (size_t)index) != JFR_OK ||
        v.kind != JFR_VALUE_INT)
        return 0;
    return v.as.i;
}

static char *shutdown_reason(const jfr_value *event, char *previous)
{
    jfr_str str = {0};

    if (jfr_value_string_field(&str, event, "reason") != JFR_OK || !str.ptr)
        return previous;
    free(previous);
    return xstrndup(str.ptr, str.len);
}

static void *decode_chunk(jfr_chunk *chunk, jfr_recording *rec, const char *path,
                          strbuf *messages, void *user)
{
    size_t ntypes = jfr_chunk_type_count(chunk);
    type_fields *fields = xcalloc(ntypes ? ntypes : 1, sizeof *fields);
    chunk_part *part = xcalloc(1, sizeof *part);
    int64_t min_end = 0, min_start = 0, max_end = 0, max_start = 0;
    jfr_event_iter *it;
    const jfr_event *ev;
    int rc;

    (void)user;
    if (jfr_event_iter_new(&it, chunk, NULL, 0, 0) != JFR_OK) {
        parallel_say(messages, path, jfr_recording_error(rec));
        free(fields);
        return part;
    }
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
        const jfr_type *t = jfr_event_type(ev);
        type_fields *f;
        jfr_value obj;
        int64_t start = 0, end;

        if (!t)
            continue;
        f = &fields[jfr_type_index(t)];
        if (!f->known)
            *f = fields_of(t);
        if (jfr_event_value(&obj, ev) == JFR_OK) {
            start = int_field(&obj, f->start);
            end = start + int_field(&obj, f->duration);
            if (f->shutdown)
                part->reason = shutdown_reason(&obj, part->reason);
        } else {
            end = start;
        }
        part->count++;
        if (!part->any || end < min_end) {
            min_end = end;
            min_start = start;
        }
        if (!part->any || end >= max_end) {
            max_end = end;
            max_start = start;
        }
        part->any = true;
    }
    if (rc < 0) /* the events before the damage are counted */
        parallel_say(messages, path, jfr_recording_error(rec));
    jfr_event_iter_free(it);
    if (part->any) {
        part->first = jfr_chunk_ticks_to_epoch_nanos(chunk, min_start);
        part->last = jfr_chunk_ticks_to_epoch_nanos(chunk, max_start);
    }
    free(fields);
    return part;
}

static void merge_chunk(void *result, size_t chunk_index, void *user)
{
    chunk_part *part = result;
    gv_recording_info *info = user;

    (void)chunk_index;
    if (!part)
        return;
    info->count += part->count;
    if (part->any) {
        if (!info->has_first) {
            info->first = part->first;
            info->has_first = true;
        }
        info->last = part->last;
        info->has_last = true;
    }
    if (part->reason) {
        free(info->reason);
        info->reason = part->reason;
    }
    free(part);
}

int gview_recording_info(const view_ctx *ctx, gv_recording_info *info)
{
    static const parallel_ops ops = {decode_chunk, merge_chunk};
    int status = EXIT_OK;

    memset(info, 0, sizeof *info);
    for (int f = 0; f < ctx->nfiles; f++) {
        const char *name = input_name(ctx->files[f]);
        jfr_recording *rec = open_recording(ctx->files[f], &status);
        bool damaged = false;

        if (!rec)
            continue;
        parallel_read(rec, name, ctx->jobs, &ops, info, &damaged);
        close_recording(rec);
    }
    return status;
}
