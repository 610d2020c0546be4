/* report_data_events.c - the events a report reads in its walk: the
 * overview (JVM, OS, CPU, GC, heap), the settings of the event types it
 * shows, and the timelines' points. A handful of event types, read
 * through the generic values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_data_private.h"

static void overview(jfr_report_data *d, const char *key, const char *value)
{
    jfrp_rows_set(d, &d->overview, key, value, false);
}

/* ---- reading fields ------------------------------------------------------------ */

/* A string field (through a one-field pool type such as GCName) into sb;
 * false when there is none. */
static bool text(const jfr_event *ev, const char *name, jfrp_rdtext *sb)
{
    jfr_value v, u;

    jfrp_rdtext_clear(sb);
    if (jfr_event_field(&v, ev, name) < 0)
        return false;
    if (jfr_value_unwrap(&u, &v) < 0)
        return false;
    if (u.kind == JFR_VALUE_STRING) {
        jfrp_rdtext_putn(sb, u.as.str.ptr ? u.as.str.ptr : "", u.as.str.len);
        return true;
    }
    if (u.kind == JFR_VALUE_INT) {
        jfrp_rdtext_printf(sb, "%lld", (long long)u.as.i);
        return true;
    }
    if (u.kind == JFR_VALUE_BOOLEAN) {
        jfrp_rdtext_puts(sb, u.as.boolean ? "true" : "false");
        return true;
    }
    return false;
}

/* ---- events ---------------------------------------------------------------------- */

enum {
    E_CPU,
    E_HEAP,
    E_GC,
    E_PAUSE,
    E_THREADS,
    E_SAFEPT,
    E_CPU_LOST,
    E_JVM,
    E_OS,
    E_CPUINFO,
    E_GCCONF,
    E_HEAPCONF,
    E_SETTING,
    NEVENTS
};

static const char *const event_names[NEVENTS] = {"jdk.CPULoad",
                                                 "jdk.GCHeapSummary",
                                                 "jdk.GarbageCollection",
                                                 "jdk.GCPhasePause",
                                                 "jdk.JavaThreadStatistics",
                                                 "jdk.SafepointBegin",
                                                 "jdk.CPUTimeSamplesLost",
                                                 "jdk.JVMInformation",
                                                 "jdk.OSInformation",
                                                 "jdk.CPUInformation",
                                                 "jdk.GCConfiguration",
                                                 "jdk.GCHeapConfiguration",
                                                 "jdk.ActiveSetting"};

/* Event types whose settings the overview shows, and the settings. */
static const char *const setting_types[] = {
    "jdk.CPUTimeSample",      "jdk.ExecutionSample",
    "jdk.NativeMethodSample", "jdk.ObjectAllocationSample",
    "jdk.OldObjectSample",    "jdk.JavaMonitorEnter",
    "jdk.ThreadPark",         "jdk.JavaExceptionThrow",
    "jdk.FileRead",           "jdk.SocketRead",
    "jdk.GarbageCollection"};
static const char *const setting_names[] = {"enabled",   "period", "throttle",
                                            "threshold", "cutoff", "stackTrace"};

typedef struct pass {
    jfr_report_data *d;
    jfr_chunk *chunk;
    jfrp_rdtext a, b;
} pass;

static double time_ms(const pass *ps, const jfr_event *ev)
{
    int64_t t = jfr_chunk_ticks_to_epoch_nanos(ps->chunk, jfr_event_start_ticks(ev));

    if (t > ps->d->summary.end_nanos)
        ps->d->summary.end_nanos = t;
    return (double)jfr_nanos_between(ps->d->summary.origin_nanos, t) / 1e6;
}

static void take_setting(pass *ps, const jfr_event *ev)
{
    const jfr_type *t;
    const char *tname;
    double id = jfr_event_number(ev, "id");
    size_t i;

    if (isnan(id) || id < 0 || !text(ev, "name", &ps->a))
        return;
    t = jfr_chunk_type_by_id(ps->chunk, (uint64_t)id);
    if (!t)
        return;
    tname = jfr_type_name(t);
    for (i = 0; i < sizeof setting_types / sizeof *setting_types; i++)
        if (strcmp(setting_types[i], tname) == 0)
            break;
    if (i == sizeof setting_types / sizeof *setting_types)
        return;
    for (i = 0; i < sizeof setting_names / sizeof *setting_names; i++)
        if (strcmp(setting_names[i], jfrp_rdtext_str(&ps->a)) == 0)
            break;
    if (i == sizeof setting_names / sizeof *setting_names)
        return;
    {
        jfrp_rdtext key = {0};
        jfrp_rdtext_printf(&key, "%s %s", tname, jfrp_rdtext_str(&ps->a));
        if (text(ev, "value", &ps->b))
            jfrp_rows_set(ps->d, &ps->d->settings, jfrp_rdtext_str(&key),
                          jfrp_rdtext_str(&ps->b), true);
        jfrp_rdtext_free(&key);
    }
}

static void info_field(pass *ps, const jfr_event *ev, const char *field, const char *key)
{
    if (text(ev, field, &ps->a) && ps->a.len)
        overview(ps->d, key, jfrp_rdtext_str(&ps->a));
}

/* The OS line: from /etc/os-release text, PRETTY_NAME and the uname line
 * ("uname:Darwin 18.7.0 ..."); anything else as it is. */
static void os_text(jfr_report_data *d, const char *os, jfrp_rdtext *out)
{
    static const char pretty_key[] = "PRETTY_NAME=\"", uname_key[] = "uname:";
    const char *pretty = strstr(os, pretty_key);
    const char *uname = strstr(os, uname_key);

    jfrp_rdtext_clear(out);
    if (pretty) {
        const char *from = pretty + strlen(pretty_key), *q = strchr(from, '"');
        jfrp_rdtext_putn(out, from, q ? (size_t)(q - from) : strcspn(from, "\n"));
    }
    if (uname) {
        const char *from = uname + strlen(uname_key);
        from += strspn(from, " ");
        if (out->len)
            jfrp_rdtext_puts(out, "; ");
        jfrp_rdtext_putn(out, from, strcspn(from, "\n"));
    }
    overview(d, "OS", out->len ? jfrp_rdtext_str(out) : os);
}

/* The CPU line: the brand the description names ("Brand: Intel(R)
 * Core(TM) i7-8850H CPU @ 2.60GHz, Vendor: ..."), else the cpu field,
 * where the JVM writes "(null)" for a family it does not know ("Intel
 * (null) (HT) SSE ..."): that word is left out. */
static void cpu_text(pass *ps, const jfr_event *ev)
{
    static const char brand_key[] = "Brand: ";
    const char *brand, *at, *null;

    if (text(ev, "description", &ps->a) &&
        (brand = strstr(jfrp_rdtext_str(&ps->a), brand_key)) != NULL) {
        const char *from = brand + strlen(brand_key);
        size_t len = strcspn(from, ",\n");
        jfrp_rdtext_clear(&ps->b);
        jfrp_rdtext_putn(&ps->b, from, len);
        if (len) {
            overview(ps->d, "CPU", jfrp_rdtext_str(&ps->b));
            return;
        }
    }
    if (!text(ev, "cpu", &ps->a) || !ps->a.len)
        return;
    jfrp_rdtext_clear(&ps->b);
    for (at = jfrp_rdtext_str(&ps->a); (null = strstr(at, " (null)")) != NULL;
         at = null + 7)
        jfrp_rdtext_putn(&ps->b, at, (size_t)(null - at));
    jfrp_rdtext_puts(&ps->b, at);
    overview(ps->d, "CPU", jfrp_rdtext_str(&ps->b));
}

/* "1 socket, 6 cores, 12 hardware threads", from jdk.CPUInformation. */
static void cpu_count_text(pass *ps, const jfr_event *ev)
{
    static const char *const field[] = {"sockets", "cores", "hwThreads"};
    static const char *const one[] = {"socket", "core", "hardware thread"};
    static const char *const many[] = {"sockets", "cores", "hardware threads"};

    jfrp_rdtext_clear(&ps->b);
    for (int i = 0; i < 3; i++) {
        double n = jfr_event_number(ev, field[i]);
        if (isnan(n))
            continue;
        jfrp_rdtext_printf(&ps->b, "%s%.0f %s", ps->b.len ? ", " : "", n,
                           n == 1 ? one[i] : many[i]);
    }
    if (ps->b.len)
        overview(ps->d, "Processors", jfrp_rdtext_str(&ps->b));
}

/* The overview's lines from the events that describe the JVM and the
 * machine. */
static void take_info(pass *ps, int which, const jfr_event *ev)
{
    switch (which) {
    case E_JVM:
        info_field(ps, ev, "jvmName", "JVM");
        info_field(ps, ev, "jvmVersion", "JVM version");
        info_field(ps, ev, "javaArguments", "Java arguments");
        info_field(ps, ev, "jvmArguments", "JVM arguments");
        info_field(ps, ev, "pid", "Process id");
        break;
    case E_OS:
        if (text(ev, "osVersion", &ps->a))
            os_text(ps->d, jfrp_rdtext_str(&ps->a), &ps->b);
        break;
    case E_CPUINFO:
        cpu_text(ps, ev);
        cpu_count_text(ps, ev);
        break;
    case E_GCCONF:
        info_field(ps, ev, "youngCollector", "Young collector");
        info_field(ps, ev, "oldCollector", "Old collector");
        break;
    case E_HEAPCONF: {
        double max = jfr_event_number(ev, "maxSize");
        if (!isnan(max)) {
            jfrp_rdtext_clear(&ps->a);
            jfrp_rdtext_printf(&ps->a, "%.0f MiB", max / 1048576.0);
            overview(ps->d, "Max heap", jfrp_rdtext_str(&ps->a));
        }
        break;
    }
    }
}

static void take(pass *ps, int which, const jfr_event *ev)
{
    jfr_report_data *d = ps->d;
    double v[6];

    switch (which) {
    case E_CPU:
        v[0] = time_ms(ps, ev);
        v[1] = jfr_event_number(ev, "jvmUser");
        v[2] = jfr_event_number(ev, "jvmSystem");
        v[3] = jfr_event_number(ev, "machineTotal");
        jfrp_series_add(d, JFRP_S_CPU, v, NULL);
        break;
    case E_HEAP:
        v[0] = time_ms(ps, ev);
        v[1] = jfr_event_number(ev, "heapUsed");
        v[2] = jfr_event_number(ev, "gcId");
        jfrp_series_add(d, JFRP_S_HEAP, v,
                        text(ev, "when", &ps->a) ? jfrp_rdtext_str(&ps->a) : NULL);
        break;
    case E_GC:
        v[0] = time_ms(ps, ev);
        v[1] = jfr_event_timespan_nanos(ev, "duration") / 1e6;
        v[2] = jfr_event_timespan_nanos(ev, "longestPause") / 1e6;
        v[3] = jfr_event_timespan_nanos(ev, "sumOfPauses") / 1e6;
        v[4] = jfr_event_number(ev, "gcId");
        if (text(ev, "name", &ps->a) && text(ev, "cause", &ps->b))
            jfrp_rdtext_printf(&ps->a, " (%s)", jfrp_rdtext_str(&ps->b));
        jfrp_series_add(d, JFRP_S_GC, v, jfrp_rdtext_str(&ps->a));
        break;
    case E_PAUSE:
        v[0] = time_ms(ps, ev);
        v[1] = jfr_event_timespan_nanos(ev, "duration") / 1e6;
        v[2] = jfr_event_number(ev, "gcId");
        jfrp_series_add(d, JFRP_S_PAUSE, v,
                        text(ev, "name", &ps->a) ? jfrp_rdtext_str(&ps->a) : NULL);
        break;
    case E_THREADS:
        v[0] = time_ms(ps, ev);
        v[1] = jfr_event_number(ev, "activeCount");
        v[2] = jfr_event_number(ev, "daemonCount");
        jfrp_series_add(d, JFRP_S_THREADS, v, NULL);
        break;
    case E_SAFEPT:
        v[0] = time_ms(ps, ev);
        v[1] = jfr_event_timespan_nanos(ev, "duration") / 1e6;
        v[2] = jfr_event_number(ev, "totalThreadCount");
        jfrp_series_add(d, JFRP_S_SAFEPT, v, NULL);
        break;
    case E_CPU_LOST:
        v[0] = time_ms(ps, ev);
        v[1] = jfr_event_number(ev, "lostSamples");
        jfrp_series_add(d, JFRP_S_CPU_LOST, v, NULL);
        break;
    case E_JVM:
    case E_OS:
    case E_CPUINFO:
    case E_GCCONF:
    case E_HEAPCONF:
        take_info(ps, which, ev);
        break;
    case E_SETTING:
        take_setting(ps, ev);
        break;
    }
}

bool jfrp_report_read_chunk(jfr_report_data *d, jfr_chunk *chunk)
{
    const jfr_type *types[NEVENTS];
    const char *names[NEVENTS];
    size_t n = 0;
    jfr_event_iter *it;
    const jfr_event *ev;
    pass ps;
    int rc;

    memset(&ps, 0, sizeof ps);
    ps.d = d;
    ps.chunk = chunk;
    for (int i = 0; i < NEVENTS; i++) {
        types[i] = jfr_chunk_event_type(chunk, event_names[i]);
        if (types[i])
            names[n++] = jfr_type_name(types[i]);
    }
    if (n == 0)
        return true;
    if (jfr_event_iter_new(&it, chunk, names, n, 0) < 0) {
        d->no_memory = true;
        return true;
    }
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
        const jfr_type *t = jfr_event_type(ev);
        for (int i = 0; i < NEVENTS; i++)
            if (types[i] == t) {
                take(&ps, i, ev);
                break;
            }
    }
    jfr_event_iter_free(it);
    d->no_memory |= ps.a.failed || ps.b.failed;
    jfrp_rdtext_free(&ps.a);
    jfrp_rdtext_free(&ps.b);
    return rc >= 0;
}
