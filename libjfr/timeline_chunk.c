/* timeline_chunk.c - reading a chunk into a thread-state timeline: which
 * event makes which state on which thread (the rules below; the table of
 * jfr/timeline.h and doc/report.md say the same), what the tooltip tells
 * (the monitor's class, the path, the host) and the stack's top frame. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "map.h"
#include "timeline_private.h"

/* What an event's detail is made of. */
enum detail {
    D_NONE,
    D_MONITOR,  /* monitorClass */
    D_PARKED,   /* parkedClass */
    D_PATH,     /* path */
    D_SOCKET,   /* host (else address) and port */
    D_PAUSE,    /* name and gcId */
    D_SP_BEGIN, /* safepointId: opens a safepoint */
    D_SP_END    /* safepointId: ends the one opened */
};

typedef struct rule {
    const char *type;
    jfr_thread_state state;
    const char *thread_field; /* NULL: every thread (no lane) */
    enum detail detail;
    bool point; /* a point in time, whatever its duration field says */
} rule;

static const rule rules[] = {
    {"jdk.ExecutionSample", JFR_STATE_RUNNING, "sampledThread", D_NONE, true},
    {"jdk.CPUTimeSample", JFR_STATE_RUNNING, "sampledThread", D_NONE, true},
    {"jdk.NativeMethodSample", JFR_STATE_NATIVE, "sampledThread", D_NONE, true},
    {"jdk.JavaMonitorEnter", JFR_STATE_BLOCKED, "eventThread", D_MONITOR, false},
    {"jdk.JavaMonitorWait", JFR_STATE_WAITING, "eventThread", D_MONITOR, false},
    {"jdk.ThreadPark", JFR_STATE_PARKED, "eventThread", D_PARKED, false},
    {"jdk.ThreadSleep", JFR_STATE_SLEEPING, "eventThread", D_NONE, false},
    {"jdk.FileRead", JFR_STATE_FILE_IO, "eventThread", D_PATH, false},
    {"jdk.FileWrite", JFR_STATE_FILE_IO, "eventThread", D_PATH, false},
    {"jdk.SocketRead", JFR_STATE_SOCKET_IO, "eventThread", D_SOCKET, false},
    {"jdk.SocketWrite", JFR_STATE_SOCKET_IO, "eventThread", D_SOCKET, false},
    /* the started or ended thread, not the one that started it */
    {"jdk.ThreadStart", JFR_STATE_STARTED, "thread", D_NONE, true},
    {"jdk.VirtualThreadStart", JFR_STATE_STARTED, "eventThread", D_NONE, true},
    {"jdk.ThreadEnd", JFR_STATE_ENDED, "thread", D_NONE, true},
    {"jdk.VirtualThreadEnd", JFR_STATE_ENDED, "eventThread", D_NONE, true},
    {"jdk.GCPhasePause", JFR_STATE_GC_PAUSE, NULL, D_PAUSE, false},
    {"jdk.SafepointBegin", JFR_STATE_SAFEPOINT, NULL, D_SP_BEGIN, false},
    {"jdk.SafepointEnd", JFR_STATE_SAFEPOINT, NULL, D_SP_END, false},
};

#define NRULES (sizeof rules / sizeof *rules)

typedef struct chunk_pass {
    jfr_timeline *tl;
    jfr_chunk *chunk;
    jfrp_map lanes;      /* thread pool key -> lane + 1 */
    jfrp_map frames;     /* stack trace key -> its top frame's text */
    jfrp_map safepoints; /* safepointId -> kept interval + 1 */
    char *buf;           /* scratch for names */
    size_t buf_room, len;
} chunk_pass;

/* ---- text ---------------------------------------------------------------------------- */

static int put(chunk_pass *ps, const char *s, size_t n)
{
    int rc;

    if ((rc = jfrp_grow_array(&ps->tl->al, (void **)&ps->buf, &ps->buf_room,
                              ps->len + n + 1, 1)) < 0)
        return rc;
    if (s && n)
        memcpy(ps->buf + ps->len, s, n);
    ps->len += n;
    ps->buf[ps->len] = '\0';
    return 0;
}

/* A class name in Java form ("java.lang.Object"). */
static int put_class(chunk_pass *ps, const jfr_str *name)
{
    size_t n = jfr_name_of_class(NULL, 0, name->ptr, name->len, 0);
    int rc;

    if ((rc = put(ps, NULL, n)) < 0)
        return rc;
    jfr_name_of_class(ps->buf + ps->len - n, n, name->ptr, name->len, 0);
    return 0;
}

/* The name of the class in class field `field` of the event, if any. */
static int class_field(chunk_pass *ps, const jfr_event *ev, const char *field)
{
    jfr_value v;
    jfr_str name = {NULL, 0};
    int rc;

    if (jfr_event_field(&v, ev, field) < 0 || v.kind != JFR_VALUE_OBJECT)
        return 0;
    if ((rc = jfr_value_string_field(&name, &v, "name")) < 0)
        return rc;
    return name.ptr ? put_class(ps, &name) : 0;
}

static int string_field(chunk_pass *ps, const jfr_event *ev, const char *field)
{
    jfr_value v, u;

    if (jfr_event_field(&v, ev, field) < 0 || jfr_value_unwrap(&u, &v) < 0 ||
        u.kind != JFR_VALUE_STRING || !u.as.str.ptr)
        return 0;
    return put(ps, u.as.str.ptr, u.as.str.len);
}

static int number_text(chunk_pass *ps, const char *before, double v)
{
    char num[48];

    if (isnan(v))
        return 0;
    snprintf(num, sizeof num, "%s%.0f", before, v);
    return put(ps, num, strlen(num));
}

/* The detail text of an event into ps->buf. */
static int detail_text(chunk_pass *ps, const jfr_event *ev, enum detail d)
{
    int rc = 0;

    ps->len = 0;
    switch (d) {
    case D_MONITOR:
        return class_field(ps, ev, "monitorClass");
    case D_PARKED:
        return class_field(ps, ev, "parkedClass");
    case D_PATH:
        return string_field(ps, ev, "path");
    case D_SOCKET:
        if ((rc = string_field(ps, ev, "host")) < 0)
            return rc;
        if (ps->len == 0 && (rc = string_field(ps, ev, "address")) < 0)
            return rc;
        return number_text(ps, ":", jfr_event_number(ev, "port"));
    case D_PAUSE:
        if ((rc = string_field(ps, ev, "name")) < 0)
            return rc;
        return number_text(ps, " #", jfr_event_number(ev, "gcId"));
    case D_SP_BEGIN:
    case D_SP_END:
        return number_text(ps, "safepoint ", jfr_event_number(ev, "safepointId"));
    default:
        return put(ps, "", 0);
    }
}

/* "pkg.Class.method" of the stack's top frame, made once per stack trace
 * of the chunk; "" without a stack. */
static int top_frame(chunk_pass *ps, const jfr_event *ev, const char **out)
{
    const jfr_stacktrace *st;
    jfr_frame f;
    uint64_t hit;
    int rc;

    *out = "";
    if (jfr_event_stacktrace(&st, ev) < 0 || jfr_stacktrace_frame(&f, st, 0) < 0)
        return 0;
    if ((hit = jfrp_map_get(&ps->frames, jfr_stacktrace_key(st)))) {
        *out = (const char *)(uintptr_t)hit;
        return 0;
    }
    ps->len = 0;
    if ((rc = put_class(ps, &f.class_name)) < 0 || (rc = put(ps, ".", 1)) < 0 ||
        (rc = put(ps, f.method_name.ptr, f.method_name.ptr ? f.method_name.len : 0)) <
            0 ||
        (rc = jfrp_timeline_string(ps->tl, ps->buf, ps->len, out)) < 0)
        return rc;
    return jfrp_map_put(&ps->frames, &ps->tl->al, jfr_stacktrace_key(st),
                        (uint64_t)(uintptr_t)*out);
}

/* ---- threads ----------------------------------------------------------------------------- */

static int64_t int_field(const jfr_value *obj, const char *name)
{
    jfr_value v;

    if (jfr_value_field(&v, obj, name) < 0)
        return 0;
    return v.kind == JFR_VALUE_INT       ? v.as.i
           : v.kind == JFR_VALUE_BOOLEAN ? v.as.boolean
                                         : 0;
}

/* The thread of a java.lang.Thread value, named as the profiles name it:
 * the Java name and id, else the OS ones. */
static int describe(jfrp_tl_thread_desc *d, const jfr_value *tv)
{
    jfr_value g;
    jfr_str os = {NULL, 0};
    int rc;

    memset(d, 0, sizeof *d);
    if ((rc = jfr_value_string_field(&d->name, tv, "javaName")) < 0 ||
        (rc = jfr_value_string_field(&os, tv, "osName")) < 0)
        return rc;
    d->tid = int_field(tv, "javaThreadId");
    d->os_thread_id = int_field(tv, "osThreadId");
    d->is_virtual = int_field(tv, "virtual") != 0;
    if (!d->name.ptr)
        d->name = os;
    if (d->tid == 0)
        d->tid = d->os_thread_id;
    if (jfr_value_field(&g, tv, "group") == 0 && g.kind == JFR_VALUE_OBJECT &&
        (rc = jfr_value_string_field(&d->group, &g, "name")) < 0)
        return rc;
    if (!d->name.ptr)
        d->name = (jfr_str){"unknown", 7};
    return 0;
}

static int lane_of(chunk_pass *ps, const jfr_event *ev, const char *field, uint32_t *lane)
{
    jfrp_tl_thread_desc d;
    jfr_value tv;
    uint64_t hit, key = UINT64_MAX; /* no thread: a key of its own */
    int rc;

    if (jfr_type_field_index(jfr_event_type(ev), field) < 0)
        field = "eventThread"; /* ThreadStart/End before the field existed */
    if (jfr_event_field(&tv, ev, field) < 0 || tv.kind != JFR_VALUE_OBJECT)
        tv.kind = JFR_VALUE_NULL;
    else if (tv.pooled)
        key = tv.key;
    if ((tv.kind == JFR_VALUE_NULL || tv.pooled) &&
        (hit = jfrp_map_get(&ps->lanes, key))) {
        *lane = (uint32_t)(hit - 1);
        return 0;
    }
    if (tv.kind == JFR_VALUE_NULL) {
        memset(&d, 0, sizeof d);
        d.name = (jfr_str){"unknown", 7};
    } else if ((rc = describe(&d, &tv)) < 0) {
        return rc;
    }
    if ((rc = jfrp_timeline_lane(ps->tl, &d, lane)) < 0)
        return rc;
    if (tv.kind == JFR_VALUE_NULL || tv.pooled)
        return jfrp_map_put(&ps->lanes, &ps->tl->al, key, (uint64_t)*lane + 1);
    return 0;
}

/* ---- events -------------------------------------------------------------------------------- */

static int take_safepoint_end(chunk_pass *ps, const jfr_event *ev, int64_t start)
{
    double id = jfr_event_number(ev, "safepointId");
    double d = jfr_event_timespan_nanos(ev, "duration");
    uint64_t kept;

    if (isnan(id) || !(kept = jfrp_map_get(&ps->safepoints, (uint64_t)(int64_t)id)))
        return 0;
    jfrp_timeline_extend(ps->tl, (size_t)kept,
                         start + (isnan(d) || d < 0 ? 0 : (int64_t)d));
    return 0;
}

static int take(chunk_pass *ps, const rule *r, const jfr_event *ev)
{
    jfr_timeline_interval iv;
    double d;
    size_t kept;
    int rc;

    memset(&iv, 0, sizeof iv);
    iv.start_nanos = jfr_chunk_ticks_to_epoch_nanos(ps->chunk, jfr_event_start_ticks(ev));
    if (r->detail == D_SP_END)
        return take_safepoint_end(ps, ev, iv.start_nanos);
    d = r->point ? 0 : jfr_event_timespan_nanos(ev, "duration");
    iv.duration_nanos = isnan(d) || d < 0 ? 0 : d >= 9.2e18 ? INT64_MAX : (int64_t)d;
    iv.state = r->state;
    iv.thread = JFR_TIMELINE_ALL_THREADS;
    iv.top_frame = "";
    if (r->thread_field && (rc = lane_of(ps, ev, r->thread_field, &iv.thread)) < 0)
        return rc;
    if ((rc = jfrp_timeline_string(ps->tl, r->type, strlen(r->type), &iv.event_type)) <
            0 ||
        (rc = detail_text(ps, ev, r->detail)) < 0 ||
        (rc = jfrp_timeline_string(ps->tl, ps->buf, ps->len, &iv.detail)) < 0)
        return rc;
    if (!r->point && r->thread_field && (rc = top_frame(ps, ev, &iv.top_frame)) < 0)
        return rc;
    if ((rc = jfrp_timeline_add(ps->tl, &iv, &kept)) < 0)
        return rc;
    if (r->detail == D_SP_BEGIN && kept) {
        double id = jfr_event_number(ev, "safepointId");
        if (!isnan(id))
            return jfrp_map_put(&ps->safepoints, &ps->tl->al, (uint64_t)(int64_t)id,
                                kept);
    }
    return 0;
}

static int read_events(chunk_pass *ps, const jfr_type *const *types,
                       const char *const *names, size_t n)
{
    jfr_event_iter *it;
    const jfr_event *ev;
    int rc;

    if ((rc = jfr_event_iter_new(&it, ps->chunk, names, n, 0)) < 0)
        return rc;
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
        const jfr_type *t = jfr_event_type(ev);
        for (size_t i = 0; i < NRULES; i++)
            if (types[i] == t) {
                rc = take(ps, &rules[i], ev);
                break;
            }
        if (rc < 0)
            break;
    }
    jfr_event_iter_free(it);
    return rc == JFR_DONE ? JFR_OK : rc;
}

int jfr_timeline_add_chunk(jfr_timeline *tl, jfr_chunk *chunk)
{
    const jfr_type *types[NRULES];
    const char *names[NRULES];
    chunk_pass ps;
    size_t n = 0;
    int rc;

    if (!tl || !chunk || tl->finished)
        return JFR_EINVAL;
    for (size_t i = 0; i < NRULES; i++)
        if ((types[i] = jfr_chunk_event_type(chunk, rules[i].type)))
            names[n++] = jfr_type_name(types[i]);
    if (n == 0)
        return JFR_OK;
    memset(&ps, 0, sizeof ps);
    ps.tl = tl;
    ps.chunk = chunk;
    rc = read_events(&ps, types, names, n);
    jfrp_map_free(&ps.lanes, &tl->al);
    jfrp_map_free(&ps.frames, &tl->al);
    jfrp_map_free(&ps.safepoints, &tl->al);
    jfrp_free(&tl->al, ps.buf);
    return rc;
}
