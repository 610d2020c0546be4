/* findings.c - the rules of jfr/findings.h: facts gathered from chunks
 * (garbage collections, contended monitor enters, exception statistics),
 * from the caller's profiles (CPU-time accounting, samples by thread,
 * allocation by time bucket) and from a leak analysis, then a fixed list
 * of rules with thresholds (doc/report.md). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfr/findings.h"
#include "jfr_private.h"
#include "profile_private.h"

/* Thresholds (doc/report.md, "Findings"). */
#define GC_PAUSE_MS        100.0              /* one pause this long */
#define GC_PAUSE_SHARE     0.05               /* or pauses taking this share */
#define ALLOC_RATE_MEAN    (512.0 * 1048576)  /* bytes/s over the recording */
#define ALLOC_RATE_PEAK    (1024.0 * 1048576) /* bytes/s in one time bucket */
#define LOCK_BLOCKED_MS    100.0              /* blocked entering monitors */
#define LOCK_EVENTS        5                  /* contended enters at least */
#define EXCEPTION_RATE     100.0              /* throwables per second */
#define BIAS_SHARE         0.10               /* CPU-time samples at a safepoint */
#define LOST_SHARE         0.05               /* CPU-time samples lost */
#define THREAD_SHARE       0.75               /* of the samples on one thread */
#define MIN_SAMPLES        100                /* before shares mean anything */
#define THREAD_MIN_THREADS 4
#define MAX_LEAKS          3

/* Samples by thread of a profile made with JFR_PROFILE_THREADS. */
typedef struct thread_facts {
    bool present;
    uint64_t samples;
    size_t threads;
    double top_share;
    char *top; /* "main tid=1" */
} thread_facts;

typedef struct leak_facts {
    char *site; /* Class.field */
    char *type;
    uint64_t samples;
    double share, relevance;
} leak_facts;

struct jfr_findings {
    jfrp_alloc al;
    bool has_span;
    int64_t start, end;
    uint64_t gcs;
    double longest_ms, pause_sum_ms;
    int64_t longest_at;
    char longest_name[128];
    uint64_t monitor_enters;
    double monitor_ns;
    bool has_exstat;
    double ex_prev, ex_total;
    uint64_t exception_events;
    bool has_cpu;
    jfr_cpu_accounting cpu;
    thread_facts cpu_threads, exec_threads;
    bool has_alloc;
    uint64_t alloc_total;
    double alloc_peak;
    bool alloc_peak_from_rate; /* jfr_findings_add_rate gave the peak */
    int64_t alloc_peak_at;
    leak_facts leaks[MAX_LEAKS];
    size_t nleaks;
    /* results */
    bool valid;
    jfr_finding *items;
    size_t nitems, room;
    char **strings; /* what the items point to */
    size_t nstrings, strings_room;
};

static char *dup_string(jfr_findings *f, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = jfrp_malloc(&f->al, n);

    if (d)
        memcpy(d, s, n);
    return d;
}

int jfr_findings_new(jfr_findings **out, const jfr_findings_options *opts, jfr_error *err)
{
    jfr_findings *f;
    jfrp_alloc al;

    if (!out)
        return JFR_EINVAL;
    *out = NULL;
    if (opts && (opts->version < 1 || opts->version > JFR_FINDINGS_OPTIONS_VERSION))
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "findings: unknown options version");
    jfrp_alloc_init(&al, opts ? opts->allocator : NULL);
    if (!(f = jfrp_calloc(&al, 1, sizeof *f)))
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    f->al = al;
    *out = f;
    return JFR_OK;
}

/* ---- chunks ----------------------------------------------------------------------- */

/* A timespan field in ms; NAN when absent. */
static double ms(const jfr_event *ev, const char *name)
{
    return jfr_event_timespan_nanos(ev, name) / 1e6;
}

/* "G1New (G1 Evacuation Pause)" */
static void gc_name(const jfr_event *ev, char *buf, size_t room)
{
    jfr_value v, u;
    jfr_str name = {NULL, 0}, cause = {NULL, 0};

    if (jfr_event_field(&v, ev, "name") == 0 && jfr_value_unwrap(&u, &v) == 0 &&
        u.kind == JFR_VALUE_STRING)
        name = u.as.str;
    if (jfr_event_field(&v, ev, "cause") == 0 && jfr_value_unwrap(&u, &v) == 0 &&
        u.kind == JFR_VALUE_STRING)
        cause = u.as.str;
    snprintf(buf, room, "%.*s%s%.*s%s",
             name.ptr ? (int)(name.len > 60 ? 60 : name.len) : 2,
             name.ptr ? name.ptr : "GC", cause.ptr ? " (" : "",
             cause.ptr ? (int)(cause.len > 60 ? 60 : cause.len) : 0,
             cause.ptr ? cause.ptr : "", cause.ptr ? ")" : "");
}

int jfr_findings_add_chunk(jfr_findings *f, jfr_chunk *chunk)
{
    static const char *const names[] = {"jdk.GarbageCollection", "jdk.JavaMonitorEnter",
                                        "jdk.ExceptionStatistics"};
    const jfr_type *types[3];
    const char *present[3];
    size_t n = 0;
    const jfr_header *h;
    jfr_event_iter *it;
    const jfr_event *ev;
    int rc;

    if (!f || !chunk)
        return JFR_EINVAL;
    f->valid = false;
    h = jfr_chunk_header(chunk);
    {
        int64_t end =
            h->duration_nanos > 0 && h->start_nanos <= INT64_MAX - h->duration_nanos
                ? h->start_nanos + h->duration_nanos
                : h->start_nanos;
        if (!f->has_span || h->start_nanos < f->start)
            f->start = h->start_nanos;
        if (!f->has_span || end > f->end)
            f->end = end;
        f->has_span = true;
    }
    for (size_t i = 0; i < 3; i++)
        if ((types[i] = jfr_chunk_event_type(chunk, names[i])))
            present[n++] = jfr_type_name(types[i]);
    if (n == 0)
        return JFR_OK;
    if ((rc = jfr_event_iter_new(&it, chunk, present, n, 0)) < 0)
        return rc;
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
        const jfr_type *t = jfr_event_type(ev);
        if (t == types[0]) {
            double longest = ms(ev, "longestPause"), sum = ms(ev, "sumOfPauses");
            f->gcs++;
            if (!isnan(sum) && sum > 0)
                f->pause_sum_ms += sum;
            if (!isnan(longest) && longest > f->longest_ms) {
                f->longest_ms = longest;
                f->longest_at =
                    jfr_chunk_ticks_to_epoch_nanos(chunk, jfr_event_start_ticks(ev));
                gc_name(ev, f->longest_name, sizeof f->longest_name);
            }
        } else if (t == types[1]) {
            double d = ms(ev, "duration");
            f->monitor_enters++;
            if (!isnan(d) && d > 0)
                f->monitor_ns += d * 1e6;
        } else if (t == types[2]) {
            double v = jfr_event_number(ev, "throwables");
            if (isnan(v))
                continue;
            /* a cumulative count; a smaller one is a new JVM */
            if (f->has_exstat)
                f->ex_total += v >= f->ex_prev ? v - f->ex_prev : v;
            f->ex_prev = v;
            f->has_exstat = true;
        }
    }
    jfr_event_iter_free(it);
    return rc < 0 ? rc : JFR_OK;
}

/* ---- profiles ---------------------------------------------------------------------- */

/* Weights by frame id of each stack's time root and thread root. */
static int root_weights(const jfr_profile *p, const jfrp_alloc *al, double **out)
{
    size_t nframes = jfr_profile_frame_count(p), nstacks = jfr_profile_stack_count(p);
    double *w = jfrp_calloc(al, nframes ? nframes : 1, sizeof *w);

    *out = w;
    if (!w)
        return JFR_ENOMEM;
    for (size_t i = 0; i < nstacks; i++) {
        uint64_t weight;
        const uint32_t *frames;
        size_t depth;

        if (jfr_profile_stack(p, i, &weight, &frames, &depth) < 0)
            continue;
        for (size_t k = 0; k < depth && k < 2; k++) {
            const jfr_profile_frame *fr = jfr_profile_frame_at(p, frames[k]);
            if (!fr->synthetic)
                break;
            w[frames[k]] += (double)weight;
        }
    }
    return JFR_OK;
}

static int thread_facts_of(jfr_findings *f, const jfr_profile *p, thread_facts *tf)
{
    double *w, total = (double)jfr_profile_total(p), best = 0;
    size_t nframes = jfr_profile_frame_count(p);
    const char *top = NULL;
    int rc;

    tf->samples += jfr_profile_samples(p);
    if (!(p->flags & JFR_PROFILE_THREADS) || total <= 0)
        return JFR_OK;
    if ((rc = root_weights(p, &f->al, &w)) < 0)
        return rc;
    tf->present = true;
    tf->threads = 0;
    for (size_t i = 0; i < nframes; i++) {
        const jfr_profile_frame *fr = jfr_profile_frame_at(p, (uint32_t)i);
        if (!fr->synthetic || strncmp(fr->name, "[thread ", 8) != 0 || w[i] <= 0)
            continue;
        tf->threads++;
        if (w[i] > best) {
            best = w[i];
            top = fr->name + 8;
        }
    }
    tf->top_share = best / total;
    jfrp_free(&f->al, tf->top);
    tf->top = NULL;
    if (top) {
        size_t len = strlen(top);
        if ((tf->top = jfrp_malloc(&f->al, len)) != NULL) {
            memcpy(tf->top, top, len - 1); /* without the closing ']' */
            tf->top[len - 1] = '\0';
        }
    }
    jfrp_free(&f->al, w);
    return JFR_OK;
}

/* A window of time and the bytes allocated in it. */
typedef struct window {
    int64_t index;
    double bytes;
} window;

static int by_window(const void *a, const void *b)
{
    int64_t x = ((const window *)a)->index, y = ((const window *)b)->index;

    return x < y ? -1 : x > y;
}

/* Buckets per window of one second (or one bucket when they are longer). */
static int64_t buckets_per_window(int64_t bucket_nanos)
{
    return bucket_nanos >= 1000000000 ? 1
                                      : (1000000000 + bucket_nanos - 1) / bucket_nanos;
}

/* floor(b / per): buckets before the origin are negative */
static int64_t window_of(int64_t b, int64_t per)
{
    return b >= 0 ? b / per : -((-(b + 1)) / per) - 1;
}

/* The allocation peak over windows of one second (or one bucket when the
 * buckets are longer): whole buckets summed, whatever their width, so the
 * rule does not depend on how finely the caller cut the time. */
static int alloc_facts(jfr_findings *f, const jfr_profile *p)
{
    size_t nframes = jfr_profile_frame_count(p), n = 0;
    int64_t per, width;
    window *win;
    double *w;
    int rc;

    f->has_alloc = true;
    f->alloc_total += jfr_profile_total(p);
    if (p->bucket_nanos <= 0 || f->alloc_peak_from_rate)
        return JFR_OK;
    per = buckets_per_window(p->bucket_nanos);
    width = per * p->bucket_nanos;
    if ((rc = root_weights(p, &f->al, &w)) < 0)
        return rc;
    if (!(win = jfrp_calloc(&f->al, nframes ? nframes : 1, sizeof *win))) {
        jfrp_free(&f->al, w);
        return JFR_ENOMEM;
    }
    for (size_t i = 0; i < nframes; i++) {
        int64_t b = jfr_profile_frame_at(p, (uint32_t)i)->time_bucket;
        if (b == INT64_MIN || w[i] <= 0)
            continue;
        win[n].index = window_of(b, per);
        win[n++].bytes = w[i];
    }
    qsort(win, n, sizeof *win, by_window);
    for (size_t i = 0; i < n;) {
        double sum = 0;
        size_t j = i;
        for (; j < n && win[j].index == win[i].index; j++)
            sum += win[j].bytes;
        if (sum / ((double)width / 1e9) > f->alloc_peak) {
            f->alloc_peak = sum / ((double)width / 1e9);
            f->alloc_peak_at = p->bucket_origin + win[i].index * width;
        }
        i = j;
    }
    jfrp_free(&f->al, win);
    jfrp_free(&f->al, w);
    return JFR_OK;
}

int jfr_findings_add_rate(jfr_findings *f, const char *kind, const jfr_rate *rate)
{
    int64_t first, per, width, w0, w1;
    size_t n;

    if (!f || !kind || !rate)
        return JFR_EINVAL;
    if (strcmp(kind, "alloc") != 0)
        return JFR_OK;
    f->valid = false;
    f->alloc_peak_from_rate = true;
    f->alloc_peak = 0;
    f->alloc_peak_at = 0;
    first = jfr_rate_first_bucket(rate);
    n = jfr_rate_bucket_count(rate);
    per = buckets_per_window(jfr_rate_bucket_nanos(rate));
    width = per * jfr_rate_bucket_nanos(rate);
    if (!n)
        return JFR_OK;
    w0 = window_of(first, per);
    w1 = window_of(first + (int64_t)n - 1, per);
    for (int64_t w = w0; w <= w1; w++) {
        double sum = 0;
        for (int64_t b = w * per; b < (w + 1) * per; b++)
            sum += jfr_rate_bucket(rate, b);
        if (sum / ((double)width / 1e9) > f->alloc_peak) {
            f->alloc_peak = sum / ((double)width / 1e9);
            f->alloc_peak_at = jfr_rate_origin_nanos(rate) + w * width;
        }
    }
    return JFR_OK;
}

int jfr_findings_add_profile(jfr_findings *f, const char *kind, const jfr_profile *p)
{
    if (!f || !kind || !p)
        return JFR_EINVAL;
    f->valid = false;
    if (strcmp(kind, "cpu") == 0) {
        const jfr_cpu_accounting *a = jfr_profile_cpu(p);
        f->has_cpu = true;
        f->cpu.samples += a->samples;
        f->cpu.biased += a->biased;
        f->cpu.lost += a->lost;
        f->cpu.failed += a->failed;
        return thread_facts_of(f, p, &f->cpu_threads);
    }
    if (strcmp(kind, "exec") == 0)
        return thread_facts_of(f, p, &f->exec_threads);
    if (strcmp(kind, "alloc") == 0)
        return alloc_facts(f, p);
    if (strcmp(kind, "exceptions") == 0)
        f->exception_events += jfr_profile_samples(p);
    return JFR_OK;
}

/* ---- leaks --------------------------------------------------------------------------- */

int jfr_findings_add_leaks(jfr_findings *f, jfr_leaks *lk)
{
    size_t n;

    if (!f || !lk)
        return JFR_EINVAL;
    f->valid = false;
    n = jfr_leaks_candidate_count(lk);
    for (size_t i = 0; i < n && f->nleaks < MAX_LEAKS; i++) {
        const jfr_leak_candidate *c = jfr_leaks_candidate_at(lk, i);
        const jfr_leak_node *site = jfr_leaks_node_at(lk, c->site);
        const jfr_leak_node *node = jfr_leaks_node_at(lk, c->node);
        const jfr_leak_node *parent = site ? jfr_leaks_node_at(lk, site->parent) : NULL;
        const char *holder = jfr_leaks_holder_name(lk, c->site);
        leak_facts *l = &f->leaks[f->nleaks];
        char buf[512];

        if (site && site->field)
            snprintf(buf, sizeof buf, "%s.%s", holder ? holder : "?", site->field);
        else if (site && site->array_index >= 0)
            snprintf(buf, sizeof buf, "%s[%d]",
                     parent && parent->type ? parent->type : "?", (int)site->array_index);
        else
            snprintf(buf, sizeof buf, "%s", site && site->type ? site->type : "?");
        l->site = dup_string(f, buf);
        l->type = dup_string(f, node && node->type ? node->type : "?");
        if (!l->site || !l->type) {
            jfrp_free(&f->al, l->site);
            jfrp_free(&f->al, l->type);
            return JFR_ENOMEM;
        }
        l->samples = c->samples;
        l->share = c->share_of_all;
        l->relevance = c->relevance;
        f->nleaks++;
    }
    return JFR_OK;
}

/* ---- the rules --------------------------------------------------------------------- */

static char *keep(jfr_findings *f, char *s)
{
    if (!s)
        return NULL;
    if (jfrp_grow_array(&f->al, (void **)&f->strings, &f->strings_room, f->nstrings + 1,
                        sizeof *f->strings) < 0) {
        jfrp_free(&f->al, s);
        return NULL;
    }
    f->strings[f->nstrings++] = s;
    return s;
}

static char *format(jfr_findings *f, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return keep(f, dup_string(f, buf));
}

static bool add(jfr_findings *f, const char *id, jfr_severity sev, char *title,
                char *evidence, double value, double threshold, int64_t at,
                const char *subject)
{
    jfr_finding *it;

    if (!title || !evidence ||
        jfrp_grow_array(&f->al, (void **)&f->items, &f->room, f->nitems + 1,
                        sizeof *f->items) < 0)
        return false;
    it = &f->items[f->nitems++];
    memset(it, 0, sizeof *it);
    it->id = id;
    it->severity = sev;
    it->title = title;
    it->evidence = evidence;
    it->value = value;
    it->threshold = threshold;
    it->at_nanos = at;
    it->subject = subject ? keep(f, dup_string(f, subject)) : NULL;
    return true;
}

static void bytes_text(char *buf, size_t room, double b)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;

    while (b >= 1024 && u < 4) {
        b /= 1024;
        u++;
    }
    snprintf(buf, room, "%.1f %s", b, units[u]);
}

static void clear(jfr_findings *f)
{
    for (size_t i = 0; i < f->nstrings; i++)
        jfrp_free(&f->al, f->strings[i]);
    f->nstrings = 0;
    f->nitems = 0;
}

static bool evaluate(jfr_findings *f)
{
    double secs = f->has_span ? (double)(f->end - f->start) / 1e9 : 0;
    bool ok = true;

    clear(f);
    if (secs < 0.001)
        secs = 0.001;
    if (f->longest_ms >= GC_PAUSE_MS || f->pause_sum_ms / 1e3 >= GC_PAUSE_SHARE * secs)
        ok &=
            add(f, "gc-pauses", JFR_SEVERITY_WARNING, format(f, "Long GC pauses"),
                format(f,
                       "%llu collections; longest pause %.1f ms (%s); pauses %.1f ms in "
                       "all, %.1f%% of the recording",
                       (unsigned long long)f->gcs, f->longest_ms,
                       f->longest_name[0] ? f->longest_name : "GC", f->pause_sum_ms,
                       100.0 * f->pause_sum_ms / 1e3 / secs),
                f->longest_ms, GC_PAUSE_MS, f->longest_at, NULL);
    if (f->has_alloc) {
        double mean = (double)f->alloc_total / secs;
        if (mean >= ALLOC_RATE_MEAN || f->alloc_peak >= ALLOC_RATE_PEAK) {
            char a[32], b[32];
            bytes_text(a, sizeof a, mean);
            bytes_text(b, sizeof b, f->alloc_peak);
            ok &= add(
                f, "alloc-rate", JFR_SEVERITY_WARNING, format(f, "High allocation rate"),
                format(f, "mean %s/s; peak %s/s (estimated from allocation samples)", a,
                       b),
                f->alloc_peak > mean ? f->alloc_peak : mean, ALLOC_RATE_PEAK,
                f->alloc_peak_at, NULL);
        }
    }
    if (f->monitor_enters >= LOCK_EVENTS && f->monitor_ns / 1e6 >= LOCK_BLOCKED_MS)
        ok &=
            add(f, "lock-contention", JFR_SEVERITY_WARNING, format(f, "Lock contention"),
                format(f,
                       "%llu contended monitor enters (jdk.JavaMonitorEnter), %.1f ms "
                       "blocked in all",
                       (unsigned long long)f->monitor_enters, f->monitor_ns / 1e6),
                f->monitor_ns / 1e6, LOCK_BLOCKED_MS, 0, NULL);
    {
        double n = f->ex_total > (double)f->exception_events
                       ? f->ex_total
                       : (double)f->exception_events;
        if (n / secs >= EXCEPTION_RATE)
            ok &= add(f, "exceptions", JFR_SEVERITY_WARNING, format(f, "Many exceptions"),
                      format(f, "%.0f throwables created, %.0f per second", n, n / secs),
                      n / secs, EXCEPTION_RATE, 0, NULL);
    }
    if (f->has_cpu && f->cpu.samples >= MIN_SAMPLES &&
        (double)f->cpu.biased / (double)f->cpu.samples >= BIAS_SHARE) {
        double share = (double)f->cpu.biased / (double)f->cpu.samples;
        ok &= add(
            f, "safepoint-bias", JFR_SEVERITY_WARNING, format(f, "Safepoint bias"),
            format(f,
                   "%llu of %llu CPU-time samples (%.1f%%) were taken at a safepoint: "
                   "their stacks lean towards safepoint polls",
                   (unsigned long long)f->cpu.biased, (unsigned long long)f->cpu.samples,
                   100.0 * share),
            share, BIAS_SHARE, 0, NULL);
    }
    if (f->has_cpu && f->cpu.lost) {
        uint64_t all = f->cpu.samples + f->cpu.lost;
        double share = (double)f->cpu.lost / (double)all;
        bool warn = share >= LOST_SHARE;
        ok &=
            add(f, "cpu-lost", warn ? JFR_SEVERITY_WARNING : JFR_SEVERITY_INFO,
                format(f, warn ? "CPU-time samples lost" : "A few CPU-time samples lost"),
                format(f,
                       "%llu of %llu CPU-time samples (%.1f%%) were lost "
                       "(jdk.CPUTimeSamplesLost)%s",
                       (unsigned long long)f->cpu.lost, (unsigned long long)all,
                       100.0 * share, warn ? ": CPU shares undercount" : ""),
                share, LOST_SHARE, 0, NULL);
    }
    {
        const thread_facts *tf =
            f->cpu_threads.present ? &f->cpu_threads : &f->exec_threads;
        if (tf->present && tf->samples >= MIN_SAMPLES &&
            tf->threads >= THREAD_MIN_THREADS && tf->top_share >= THREAD_SHARE)
            ok &= add(
                f, "hot-thread", JFR_SEVERITY_WARNING,
                format(f, "One thread dominates CPU"),
                format(f, "thread %s has %.1f%% of the %s samples, %zu threads sampled",
                       tf->top ? tf->top : "?", 100.0 * tf->top_share,
                       tf == &f->cpu_threads ? "CPU-time" : "execution", tf->threads),
                tf->top_share, THREAD_SHARE, 0, tf->top);
    }
    for (size_t i = 0; i < f->nleaks; i++) {
        const leak_facts *l = &f->leaks[i];
        ok &=
            add(f, "leak", JFR_SEVERITY_WARNING, format(f, "Leak candidate: %s", l->site),
                format(f,
                       "keeps alive %llu old-object samples (%.1f%% of all), through %s; "
                       "relevance %.2f",
                       (unsigned long long)l->samples, 100.0 * l->share, l->type,
                       l->relevance),
                l->relevance, 0, 0, l->site);
    }
    f->valid = ok;
    return ok;
}

size_t jfr_findings_count(jfr_findings *f)
{
    if (!f)
        return 0;
    if (!f->valid && !evaluate(f))
        return 0;
    return f->nitems;
}

const jfr_finding *jfr_findings_at(jfr_findings *f, size_t i)
{
    if (!f || i >= jfr_findings_count(f))
        return NULL;
    return &f->items[i];
}

void jfr_findings_free(jfr_findings *f)
{
    if (!f)
        return;
    clear(f);
    jfrp_free(&f->al, f->strings);
    jfrp_free(&f->al, f->items);
    jfrp_free(&f->al, f->cpu_threads.top);
    jfrp_free(&f->al, f->exec_threads.top);
    for (size_t i = 0; i < f->nleaks; i++) {
        jfrp_free(&f->al, f->leaks[i].site);
        jfrp_free(&f->al, f->leaks[i].type);
    }
    jfrp_free(&f->al, f);
}
