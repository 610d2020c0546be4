/* cells.c - one column of one event: follow the column's path through the
 * event's fields (indexes resolved once per chunk) and give the value in
 * the column's form (doc/sql.md, "Columns"). Only the columns a query
 * reads are ever decoded. */
#include <string.h>

#include "cells.h"

static bool column_used(const jfrsql_row *row, size_t c)
{
    return (row->used >> (c < 63 ? c : 63)) & 1;
}

int jfrsql_resolve(jfrsql_row *row, const jfr_type *type)
{
    const jfrsql_table *t = row->table;
    size_t nfields = jfr_type_field_count(type);

    if (nfields > row->top_cap) {
        jfr_value *v = sqlite3_realloc64(row->top, nfields * sizeof *v);
        bool *u;
        if (!v)
            return SQLITE_NOMEM;
        row->top = v;
        if (!(u = sqlite3_realloc64(row->top_used, nfields * sizeof *u)))
            return SQLITE_NOMEM;
        row->top_used = u;
        row->top_cap = nfields;
    }
    if (nfields)
        memset(row->top_used, 0, nfields * sizeof *row->top_used);
    row->ntop = 0;
    row->have_top = false;
    for (size_t c = 0; c < t->ncols; c++) {
        const jfrsql_column *col = &t->cols[c];
        const jfr_type *cur = type;

        row->steps[c][0] = -1;
        for (int k = 0; k < col->depth; k++) {
            int i = cur ? jfr_type_field_index(cur, col->path[k]) : -1;
            if (i < 0) {
                row->steps[c][0] = -1;
                break;
            }
            row->steps[c][k] = i;
            cur = jfr_field_type(jfr_type_field_at(cur, (size_t)i));
        }
        if (row->steps[c][0] < 0 || !column_used(row, c))
            continue;
        row->top_used[row->steps[c][0]] = true;
        if (row->steps[c][0] >= row->ntop)
            row->ntop = row->steps[c][0] + 1;
    }
    return SQLITE_OK;
}

/* Read the fields used columns start with, in one walk over the event's
 * first row->ntop fields (the others are stepped over). */
static bool read_top(jfrsql_row *row)
{
    jfr_cursor cur;
    int n = 0;

    if (!row->have_obj) {
        if (jfr_event_value(&row->obj, row->ev) != JFR_OK)
            return false;
        row->have_obj = true;
    }
    if (row->obj.kind != JFR_VALUE_OBJECT || jfr_value_iter(&cur, &row->obj) != JFR_OK)
        return false;
    while (n < row->ntop && (row->top_used[n] ? jfr_cursor_next(&row->top[n], &cur)
                                              : jfr_cursor_skip(&cur, 1)) == JFR_OK)
        n++;
    if (n < row->ntop)
        return false;
    row->have_top = true;
    return true;
}

/* Follow column `c`'s path from the event; false when it leads nowhere. */
static bool follow(jfrsql_row *row, size_t c, jfr_value *out)
{
    const jfrsql_column *col = &row->table->cols[c];
    jfr_value a, b;

    if (row->steps[c][0] < 0)
        return false;
    if (row->steps[c][0] < row->ntop && row->top_used[row->steps[c][0]] &&
        (row->have_top || read_top(row))) {
        a = row->top[row->steps[c][0]];
        for (int k = 1; k < col->depth; k++) {
            if (a.kind != JFR_VALUE_OBJECT ||
                jfr_value_field_at(&b, &a, (size_t)row->steps[c][k]) != JFR_OK)
                return false;
            a = b;
        }
        *out = a;
        return a.kind != JFR_VALUE_NULL;
    }
    if (!row->have_obj) {
        if (jfr_event_value(&row->obj, row->ev) != JFR_OK)
            return false;
        row->have_obj = true;
    }
    a = row->obj;
    for (int k = 0; k < col->depth; k++) {
        if (a.kind != JFR_VALUE_OBJECT ||
            jfr_value_field_at(&b, &a, (size_t)row->steps[c][k]) != JFR_OK)
            return false;
        a = b;
    }
    *out = a;
    return a.kind != JFR_VALUE_NULL;
}

/* An instant or a duration in nanoseconds; other units as they are. */
static int64_t nanos(const jfrsql_row *row, jfr_time_unit unit, int64_t v)
{
    int64_t ns;

    jfr_chunk_time_nanos(&ns, row->chunk, unit, v);
    return ns;
}

/* endTime: the startTime `v` plus the event's duration, as the JDK's
 * RecordedEvent.getEndTime() takes it (ticks added before they become
 * nanoseconds) and JFR_ITER_BY_END_TIME sorts by. */
static void result_end_time(sqlite3_context *ctx, const jfrsql_row *row,
                            const jfrsql_column *col, const jfr_value *start)
{
    const jfr_type *type = jfr_event_type(row->ev);
    int i = type ? jfr_type_field_index(type, "duration") : -1;
    jfr_time_unit du =
        i < 0 ? JFR_TIME_NONE : jfr_field_time_unit(jfr_type_field_at(type, (size_t)i));
    jfr_value d;
    int64_t end, dur;

    if (start->kind != JFR_VALUE_INT) {
        sqlite3_result_null(ctx);
        return;
    }
    if (du == JFR_TIME_NONE || jfr_event_field(&d, row->ev, "duration") != JFR_OK ||
        d.kind != JFR_VALUE_INT) {
        sqlite3_result_int64(ctx, nanos(row, col->unit, start->as.i));
        return;
    }
    if (col->unit == JFR_TIME_EPOCH_TICKS && du == JFR_TIME_TICKS) {
        end = nanos(row, col->unit, (int64_t)((uint64_t)start->as.i + (uint64_t)d.as.i));
    } else {
        end = nanos(row, col->unit, start->as.i);
        dur = nanos(row, du, d.as.i);
        end = (int64_t)((uint64_t)end + (uint64_t)dur);
    }
    sqlite3_result_int64(ctx, end);
}

static void result_str(sqlite3_context *ctx, jfr_str s)
{
    if (!s.ptr)
        sqlite3_result_null(ctx);
    else
        sqlite3_result_text64(ctx, s.ptr, s.len, SQLITE_TRANSIENT, SQLITE_UTF8);
}

static void result_value(sqlite3_context *ctx, const jfrsql_row *row,
                         const jfrsql_column *col, const jfr_value *v)
{
    switch (v->kind) {
    case JFR_VALUE_BOOLEAN:
        sqlite3_result_int(ctx, v->as.boolean);
        break;
    case JFR_VALUE_INT:
        if (col->render == RENDER_TIMESTAMP || col->render == RENDER_TIMESPAN)
            /* Long.MIN_VALUE and MAX_VALUE stay: "no value" and "forever" */
            sqlite3_result_int64(ctx, v->as.i == INT64_MIN || v->as.i == INT64_MAX
                                          ? v->as.i
                                          : nanos(row, col->unit, v->as.i));
        else if (col->render == RENDER_UNSIGNED && row->jdk_integers)
            sqlite3_result_int64(ctx, v->as.i);
        else if (col->render == RENDER_UNSIGNED && v->bits > (uint64_t)INT64_MAX)
            sqlite3_result_double(ctx, (double)v->bits);
        else if (col->render == RENDER_UNSIGNED)
            sqlite3_result_int64(ctx, (sqlite3_int64)v->bits);
        else
            sqlite3_result_int64(ctx, v->as.i);
        break;
    case JFR_VALUE_FLOAT:
        sqlite3_result_double(ctx, v->as.f);
        break;
    case JFR_VALUE_STRING:
        result_str(ctx, v->as.str);
        break;
    default:
        sqlite3_result_null(ctx);
    }
}

/* The texts of classes, threads and methods, in sqlite3_malloc'd memory;
 * NULL for a value without one (or when memory ran out: *nomem). */
static char *copy_str(jfr_str s, bool *nomem)
{
    char *p;

    if (!s.ptr)
        return NULL;
    if (!(p = sqlite3_malloc64(s.len + 1))) {
        *nomem = true;
        return NULL;
    }
    memcpy(p, s.ptr, s.len);
    p[s.len] = '\0';
    return p;
}

static char *class_text(const jfr_value *cls, bool *nomem)
{
    jfr_str name;
    size_t n;
    char *p;

    if (jfr_value_string_field(&name, cls, "name") != JFR_OK || !name.ptr)
        return NULL;
    n = jfr_name_of_class(NULL, 0, name.ptr, name.len, 0);
    if (!(p = sqlite3_malloc64(n + 1))) {
        *nomem = true;
        return NULL;
    }
    jfr_name_of_class(p, n, name.ptr, name.len, 0);
    p[n] = '\0';
    return p;
}

static char *thread_text(const jfr_value *thread, bool *nomem)
{
    jfr_str name = {NULL, 0};

    if (jfr_value_string_field(&name, thread, "javaName") != JFR_OK || !name.ptr)
        (void)jfr_value_string_field(&name, thread, "osName");
    return copy_str(name, nomem);
}

static char *method_text(const jfr_value *m, bool *nomem)
{
    jfr_value type;
    jfr_str cls = {NULL, 0}, name = {NULL, 0}, desc = {NULL, 0};
    char *p;

    if (jfr_value_field(&type, m, "type") == JFR_OK)
        (void)jfr_value_string_field(&cls, &type, "name");
    (void)jfr_value_string_field(&name, m, "name");
    (void)jfr_value_string_field(&desc, m, "descriptor");
    p = jfrsql_method_text(cls, name, desc);
    *nomem = p == NULL;
    return p;
}

/* The text `make` gives for `v`, made once per pool key of the chunk when
 * `v` is pooled: events mostly name the same few threads and classes. */
static void result_text_of(sqlite3_context *ctx, jfrsql_stacks *cache, const jfr_value *v,
                           char *(*make)(const jfr_value *, bool *))
{
    bool nomem = false;
    const char *text;
    char *own;

    if (!v->pooled) {
        own = make(v, &nomem);
        if (own)
            sqlite3_result_text(ctx, own, -1, sqlite3_free);
        else if (nomem)
            sqlite3_result_error_nomem(ctx);
        else
            sqlite3_result_null(ctx);
        return;
    }
    text = jfrsql_stacks_text(cache, v, make, &nomem);
    if (text)
        sqlite3_result_text(ctx, text, -1, SQLITE_TRANSIENT);
    else if (nomem)
        sqlite3_result_error_nomem(ctx);
    else
        sqlite3_result_null(ctx);
}

static void result_stack(sqlite3_context *ctx, jfrsql_row *row, const jfr_value *st,
                         bool all)
{
    const char *text;
    bool nomem = false;

    if (!st->pooled) {
        sqlite3_result_null(ctx); /* traces are always pooled in practice */
        return;
    }
    text = all ? jfrsql_stack_text(&row->stacks, row->chunk, st->key, true, &nomem)
               : jfrsql_top_frame_text(&row->stacks, &row->methods, st, &nomem);
    if (nomem)
        sqlite3_result_error_nomem(ctx);
    else if (text)
        sqlite3_result_text(ctx, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_result_null(ctx);
}

/* The identity columns: a group number, or the frames' groups. */
static void result_identity(sqlite3_context *ctx, jfrsql_row *row, jfrsql_render render,
                            const jfr_value *v)
{
    uint64_t group;
    bool nomem = false;
    const char *text;
    int rc;

    if (render == RENDER_FRAMES_IDENTITY) {
        text = jfrsql_frames_identity(&row->ids, row->identity, row->run, v, &nomem);
        if (nomem)
            sqlite3_result_error_nomem(ctx);
        else if (text)
            sqlite3_result_text(ctx, text, -1, SQLITE_TRANSIENT);
        else
            sqlite3_result_null(ctx);
        return;
    }
    rc = render == RENDER_TOP_FRAME_IDENTITY
             ? jfrsql_top_frame_identity(&group, &row->ids, row->identity, row->run, v)
             : jfrsql_identity(&group, &row->ids, row->identity, row->run, v);
    if (rc == SQLITE_NOMEM)
        sqlite3_result_error_nomem(ctx);
    else if (rc == SQLITE_OK && group <= INT64_MAX)
        sqlite3_result_int64(ctx, (sqlite3_int64)group);
    else
        sqlite3_result_null(ctx);
}

/* The method of the first frame of trace `st` that is application code
 * (jfr_chunk_method_is_application, its index found once per trace):
 * SQLITE_OK, SQLITE_MISMATCH when none. */
static int app_frame_method(jfr_value *method, jfrsql_row *row, const jfr_value *st)
{
    jfr_value frames, frame;
    int32_t index;
    int rc;

    if (!st->pooled)
        return SQLITE_MISMATCH; /* traces are always pooled in practice */
    if ((rc = jfrsql_app_frame_index(&index, &row->stacks, row->chunk, st->key)) !=
        SQLITE_OK)
        return rc == SQLITE_NOMEM ? rc : SQLITE_MISMATCH;
    if (index < 0 || jfr_value_field(&frames, st, "frames") != JFR_OK ||
        jfr_value_element(&frame, &frames, (size_t)index) != JFR_OK ||
        jfr_value_field(method, &frame, "method") != JFR_OK)
        return SQLITE_MISMATCH;
    return SQLITE_OK;
}

/* X.topApplicationFrame and its identity. */
static void result_app_frame(sqlite3_context *ctx, jfrsql_row *row, jfrsql_render render,
                             const jfr_value *st)
{
    jfr_value method;
    int rc = app_frame_method(&method, row, st);

    if (rc == SQLITE_NOMEM)
        sqlite3_result_error_nomem(ctx);
    else if (rc != SQLITE_OK)
        sqlite3_result_null(ctx);
    else if (render == RENDER_APP_FRAME)
        result_text_of(ctx, &row->methods, &method, method_text);
    else
        result_identity(ctx, row, RENDER_IDENTITY, &method);
}

/* X.topFrame.method.type and its identity: the class of frame 0's method. */
static void result_top_frame_type(sqlite3_context *ctx, jfrsql_row *row,
                                  jfrsql_render render, const jfr_value *st)
{
    jfr_value frames, frame, method, type;

    if (jfr_value_field(&frames, st, "frames") != JFR_OK ||
        jfr_value_element(&frame, &frames, 0) != JFR_OK ||
        jfr_value_field(&method, &frame, "method") != JFR_OK ||
        method.kind != JFR_VALUE_OBJECT ||
        jfr_value_field(&type, &method, "type") != JFR_OK ||
        type.kind != JFR_VALUE_OBJECT)
        sqlite3_result_null(ctx);
    else if (render == RENDER_TOP_FRAME_TYPE)
        result_text_of(ctx, &row->classes, &type, class_text);
    else
        result_identity(ctx, row, RENDER_IDENTITY, &type);
}

void jfrsql_cell(sqlite3_context *ctx, jfrsql_row *row, size_t c)
{
    const jfrsql_column *col = &row->table->cols[c];
    jfr_value v;

    if (col->render == RENDER_CHUNK) {
        sqlite3_result_int64(ctx, jfr_chunk_index(row->chunk));
        return;
    }
    if (col->render == RENDER_FILE) {
        sqlite3_result_text(ctx, row->file, -1, SQLITE_STATIC);
        return;
    }
    if (col->render == RENDER_OFFSET) {
        sqlite3_result_int64(ctx, (sqlite3_int64)jfr_event_offset(row->ev));
        return;
    }
    if (!follow(row, c, &v)) {
        sqlite3_result_null(ctx);
        return;
    }
    switch (col->render) {
    case RENDER_CLASS:
        result_text_of(ctx, &row->classes, &v, class_text);
        break;
    case RENDER_THREAD:
        result_text_of(ctx, &row->threads, &v, thread_text);
        break;
    case RENDER_METHOD:
        result_text_of(ctx, &row->methods, &v, method_text);
        break;
    case RENDER_TOP_FRAME:
    case RENDER_FRAMES:
        result_stack(ctx, row, &v, col->render == RENDER_FRAMES);
        break;
    case RENDER_IDENTITY:
    case RENDER_TOP_FRAME_IDENTITY:
    case RENDER_FRAMES_IDENTITY:
        result_identity(ctx, row, col->render, &v);
        break;
    case RENDER_APP_FRAME:
    case RENDER_APP_FRAME_IDENTITY:
        result_app_frame(ctx, row, col->render, &v);
        break;
    case RENDER_TOP_FRAME_TYPE:
    case RENDER_TOP_FRAME_TYPE_IDENTITY:
        result_top_frame_type(ctx, row, col->render, &v);
        break;
    case RENDER_END_TIME:
        result_end_time(ctx, row, col, &v);
        break;
    default:
        result_value(ctx, row, col, &v);
    }
}
