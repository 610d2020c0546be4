/* report_read.c - the report's first pass, chunk by chunk in file order:
 * the overview (JVM, OS, settings), the timelines' points, the leak
 * analysis, and what could not be read. Everything here is a handful of
 * event types, read through libjfr's generic values. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "report.h"

void series_add(series *s, const double *vals, const char *text)
{
    if (s->count == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        for (size_t c = 0; c < s->ncols; c++)
            s->v[c] = xrealloc(s->v[c], s->cap, sizeof *s->v[c]);
        s->text = xrealloc(s->text, s->cap, sizeof *s->text);
    }
    for (size_t c = 0; c < s->ncols; c++)
        s->v[c][s->count] = vals[c];
    s->text[s->count] = text ? xstrdup(text) : NULL;
    s->count++;
}

void series_free(series *s)
{
    for (size_t c = 0; c < s->ncols; c++)
        free(s->v[c]);
    for (size_t i = 0; i < s->count; i++)
        free(s->text[i]);
    free(s->text);
}

static void kv_set(kv **list, size_t *n, const char *key, const char *value, bool replace)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*list)[i].key, key) == 0) {
            if (replace) {
                free((*list)[i].value);
                (*list)[i].value = xstrdup(value);
            }
            return;
        }
    *list = xrealloc(*list, *n + 1, sizeof **list);
    (*list)[*n].key = xstrdup(key);
    (*list)[*n].value = xstrdup(value);
    (*n)++;
}

void report_info(report *r, const char *key, const char *value)
{
    kv_set(&r->info, &r->ninfo, key, value, false);
}

void report_lost(report *r, const char *fmt, ...)
{
    va_list ap;
    char *line;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    line = xmalloc((size_t)(n > 0 ? n : 0) + 1);
    va_start(ap, fmt);
    vsnprintf(line, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
    va_end(ap);
    r->lost = xrealloc(r->lost, r->nlost + 1, sizeof *r->lost);
    r->lost[r->nlost++] = line;
}

/* ---- reading fields ------------------------------------------------------------ */

/* A string field (through a one-field pool type such as GCName) into sb;
 * false when there is none. */
static bool text(const jfr_event *ev, const char *name, strbuf *sb)
{
    jfr_value v, u;

    sb_clear(sb);
    if (jfr_event_field(&v, ev, name) < 0)
        return false;
    if (jfr_value_unwrap(&u, &v) < 0)
        return false;
    if (u.kind == JFR_VALUE_STRING) {
        sb_putn(sb, u.as.str.ptr ? u.as.str.ptr : "", u.as.str.len);
        return true;
    }
    if (u.kind == JFR_VALUE_INT) {
        sb_printf(sb, "%lld", (long long)u.as.i);
        return true;
    }
    if (u.kind == JFR_VALUE_BOOLEAN) {
        sb_puts(sb, u.as.boolean ? "true" : "false");
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
    report *r;
    jfr_chunk *chunk;
    strbuf a, b;
    uint64_t max_setting_events;
} pass;

static double time_ms(const pass *ps, const jfr_event *ev)
{
    int64_t t = jfr_chunk_ticks_to_epoch_nanos(ps->chunk, jfr_event_start_ticks(ev));

    if (t > ps->r->end)
        ps->r->end = t;
    return (double)(t - ps->r->origin) / 1e6;
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
        if (strcmp(setting_names[i], sb_str(&ps->a)) == 0)
            break;
    if (i == sizeof setting_names / sizeof *setting_names)
        return;
    {
        strbuf key = {0};
        sb_printf(&key, "%s %s", tname, sb_str(&ps->a));
        if (text(ev, "value", &ps->b))
            kv_set(&ps->r->settings, &ps->r->nsettings, sb_str(&key), sb_str(&ps->b),
                   true);
        sb_free(&key);
    }
}

static void info_field(pass *ps, const jfr_event *ev, const char *field, const char *key)
{
    if (text(ev, field, &ps->a) && ps->a.len)
        report_info(ps->r, key, sb_str(&ps->a));
}

/* The OS line: from /etc/os-release text, PRETTY_NAME and the uname line
 * ("uname:Darwin 18.7.0 ..."); anything else as it is. */
static void os_text(report *r, const char *os, strbuf *out)
{
    static const char pretty_key[] = "PRETTY_NAME=\"", uname_key[] = "uname:";
    const char *pretty = strstr(os, pretty_key);
    const char *uname = strstr(os, uname_key);

    sb_clear(out);
    if (pretty) {
        const char *from = pretty + strlen(pretty_key), *q = strchr(from, '"');
        sb_putn(out, from, q ? (size_t)(q - from) : strcspn(from, "\n"));
    }
    if (uname) {
        const char *from = uname + strlen(uname_key);
        from += strspn(from, " ");
        if (out->len)
            sb_puts(out, "; ");
        sb_putn(out, from, strcspn(from, "\n"));
    }
    report_info(r, "OS", out->len ? sb_str(out) : os);
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
        (brand = strstr(sb_str(&ps->a), brand_key)) != NULL) {
        const char *from = brand + strlen(brand_key);
        size_t len = strcspn(from, ",\n");
        sb_clear(&ps->b);
        sb_putn(&ps->b, from, len);
        if (len) {
            report_info(ps->r, "CPU", sb_str(&ps->b));
            return;
        }
    }
    if (!text(ev, "cpu", &ps->a) || !ps->a.len)
        return;
    sb_clear(&ps->b);
    for (at = sb_str(&ps->a); (null = strstr(at, " (null)")) != NULL; at = null + 7)
        sb_putn(&ps->b, at, (size_t)(null - at));
    sb_puts(&ps->b, at);
    report_info(ps->r, "CPU", sb_str(&ps->b));
}

/* "1 socket, 6 cores, 12 hardware threads", from jdk.CPUInformation. */
static void cpu_count_text(pass *ps, const jfr_event *ev)
{
    static const char *const field[] = {"sockets", "cores", "hwThreads"};
    static const char *const one[] = {"socket", "core", "hardware thread"};
    static const char *const many[] = {"sockets", "cores", "hardware threads"};

    sb_clear(&ps->b);
    for (int i = 0; i < 3; i++) {
        double n = jfr_event_number(ev, field[i]);
        if (isnan(n))
            continue;
        sb_printf(&ps->b, "%s%.0f %s", ps->b.len ? ", " : "", n,
                  n == 1 ? one[i] : many[i]);
    }
    if (ps->b.len)
        report_info(ps->r, "Processors", sb_str(&ps->b));
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
            os_text(ps->r, sb_str(&ps->a), &ps->b);
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
            sb_clear(&ps->a);
            sb_printf(&ps->a, "%.0f MiB", max / 1048576.0);
            report_info(ps->r, "Max heap", sb_str(&ps->a));
        }
        break;
    }
    }
}

static void take(pass *ps, int which, const jfr_event *ev)
{
    report *r = ps->r;
    double v[6];

    switch (which) {
    case E_CPU:
        v[0] = time_ms(ps, ev);
        v[1] = jfr_event_number(ev, "jvmUser");
        v[2] = jfr_event_number(ev, "jvmSystem");
        v[3] = jfr_event_number(ev, "machineTotal");
        series_add(&r->series[S_CPU], v, NULL);
        break;
    case E_HEAP:
        v[0] = time_ms(ps, ev);
        v[1] = jfr_event_number(ev, "heapUsed");
        v[2] = jfr_event_number(ev, "gcId");
        series_add(&r->series[S_HEAP], v,
                   text(ev, "when", &ps->a) ? sb_str(&ps->a) : NULL);
        break;
    case E_GC:
        v[0] = time_ms(ps, ev);
        v[1] = jfr_event_timespan_nanos(ev, "duration") / 1e6;
        v[2] = jfr_event_timespan_nanos(ev, "longestPause") / 1e6;
        v[3] = jfr_event_timespan_nanos(ev, "sumOfPauses") / 1e6;
        v[4] = jfr_event_number(ev, "gcId");
        if (text(ev, "name", &ps->a) && text(ev, "cause", &ps->b))
            sb_printf(&ps->a, " (%s)", sb_str(&ps->b));
        series_add(&r->series[S_GC], v, sb_str(&ps->a));
        break;
    case E_PAUSE:
        v[0] = time_ms(ps, ev);
        v[1] = jfr_event_timespan_nanos(ev, "duration") / 1e6;
        v[2] = jfr_event_number(ev, "gcId");
        series_add(&r->series[S_PAUSE], v,
                   text(ev, "name", &ps->a) ? sb_str(&ps->a) : NULL);
        break;
    case E_THREADS:
        v[0] = time_ms(ps, ev);
        v[1] = jfr_event_number(ev, "activeCount");
        v[2] = jfr_event_number(ev, "daemonCount");
        series_add(&r->series[S_THREADS], v, NULL);
        break;
    case E_SAFEPT:
        v[0] = time_ms(ps, ev);
        v[1] = jfr_event_timespan_nanos(ev, "duration") / 1e6;
        v[2] = jfr_event_number(ev, "totalThreadCount");
        series_add(&r->series[S_SAFEPT], v, NULL);
        break;
    case E_CPU_LOST:
        v[0] = time_ms(ps, ev);
        v[1] = jfr_event_number(ev, "lostSamples");
        series_add(&r->series[S_CPU_LOST], v, NULL);
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

static void read_chunk(pass *ps, jfr_chunk *chunk, jfr_recording *rec, const char *name)
{
    const jfr_type *types[NEVENTS];
    const char *names[NEVENTS];
    size_t n = 0;
    jfr_event_iter *it;
    const jfr_event *ev;
    const jfr_header *h = jfr_chunk_header(chunk);
    int rc;

    ps->chunk = chunk;
    if (h->start_nanos + h->duration_nanos > ps->r->end)
        ps->r->end = h->start_nanos + h->duration_nanos;
    for (int i = 0; i < NEVENTS; i++) {
        types[i] = jfr_chunk_event_type(chunk, event_names[i]);
        if (types[i])
            names[n++] = jfr_type_name(types[i]);
    }
    if (n == 0)
        return;
    if (jfr_event_iter_new(&it, chunk, names, n, 0) < 0)
        diex(EXIT_INPUT, "out of memory");
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
        const jfr_type *t = jfr_event_type(ev);
        for (int i = 0; i < NEVENTS; i++)
            if (types[i] == t) {
                take(ps, i, ev);
                break;
            }
    }
    jfr_event_iter_free(it);
    if (rc < 0) {
        strbuf sb = {0};
        const jfr_error *err = jfr_recording_error(rec);
        report_error(name, err);
        format_error(&sb, name, err);
        report_lost(ps->r, "%s (the rest of that chunk is not shown)", sb_str(&sb));
        sb_free(&sb);
    }
}

static void setup_series(report *r)
{
    static const struct {
        const char *name;
        const char *cols[6];
    } defs[NSERIES] = {
        {"cpu", {"t", "jvmUser", "jvmSystem", "machineTotal"}},
        {"heap", {"t", "heapUsed", "gcId"}},
        {"gc", {"t", "duration", "longestPause", "sumOfPauses", "gcId"}},
        {"pause", {"t", "duration", "gcId"}},
        {"threads", {"t", "activeCount", "daemonCount"}},
        {"safepoints", {"t", "duration", "totalThreadCount"}},
        {"cpuLost", {"t", "lostSamples"}},
    };

    for (int i = 0; i < NSERIES; i++) {
        r->series[i].name = defs[i].name;
        for (size_t c = 0; c < 6 && defs[i].cols[c]; c++) {
            r->series[i].cols[c] = defs[i].cols[c];
            r->series[i].ncols = c + 1;
        }
    }
}

static void say(report *r, const char *name, const jfr_error *err)
{
    strbuf sb = {0};

    report_error(name, err);
    format_error(&sb, name, err);
    report_lost(r, "%s", sb_str(&sb));
    sb_free(&sb);
}

int report_read(report *r)
{
    jfr_leaks_options lo = JFR_LEAKS_OPTIONS_INIT;
    jfr_error err;
    pass ps;
    bool any = false;
    int status = EXIT_OK;

    memset(&ps, 0, sizeof ps);
    ps.r = r;
    setup_series(r);
    if (jfr_leaks_new(&r->leaks, &lo, &err) < 0)
        diex(EXIT_INPUT, "report: %s", err.message);
    if (!r->findings && jfr_findings_new(&r->findings, NULL, &err) < 0)
        diex(EXIT_INPUT, "report: %s", err.message);
    {
        jfr_rate_options ro = JFR_RATE_OPTIONS_INIT;
        ro.kind = "alloc";
        ro.bucket_nanos = r->bucket_ns;
        ro.bucket_origin_nanos = r->origin;
        if (jfr_rate_new(&r->alloc_rate, &ro, &err) < 0)
            diex(EXIT_INPUT, "report: %s", err.message);
    }
    for (int f = 0; f < r->nfiles; f++) {
        const char *path = r->files[f];
        const char *name = strcmp(path, "-") == 0 ? "(standard input)" : path;
        jfr_recording *rec;
        jfr_chunk *chunk;
        int rc;

        /* the rules' tables' handle when there is one (report_rules.c):
         * this walk leaves it the record lists the rules' queries use */
        if (r->recs && r->recs[f]) {
            rec = r->recs[f];
            jfr_recording_rewind(rec);
        } else if (report_open(r, path, &rec, &err) < 0) {
            say(r, name, &err);
            status = EXIT_INPUT;
            continue;
        }
        r->bytes += jfr_recording_size(rec);
        for (;;) {
            rc = jfr_recording_next_chunk(&chunk, rec);
            if (rc == JFR_DONE)
                break;
            if (rc < 0) {
                say(r, name, jfr_recording_error(rec));
                continue;
            }
            if (r->chunks == 0 && r->origin == 0)
                r->origin = jfr_chunk_header(chunk)->start_nanos;
            any = true;
            r->chunks++;
            read_chunk(&ps, chunk, rec, name);
            if (jfr_leaks_add_chunk(r->leaks, chunk) < 0)
                say(r, name, jfr_recording_error(rec));
            /* its events were read above: an error was told there */
            (void)jfr_findings_add_chunk(r->findings, chunk);
            if (jfr_rate_add_chunk(r->alloc_rate, chunk) == JFR_ENOMEM)
                diex(EXIT_INPUT, "out of memory");
            report_threads_add_chunk(r, chunk);
            if (jfr_chunk_warning(chunk))
                say(r, name, jfr_chunk_warning(chunk));
        }
        if (!(r->recs && r->recs[f]))
            jfr_recording_free(rec);
    }
    sb_free(&ps.a);
    sb_free(&ps.b);
    if (jfr_leaks_build_trees(r->leaks) < 0)
        diex(EXIT_INPUT, "out of memory");
    if (!any && status == EXIT_OK)
        status = EXIT_INPUT;
    return status;
}
