/* findings_facts.c - the facts of jfr/findings.h: what the rules over
 * facts read, gathered from chunks (the recording's span, exception
 * statistics), from the caller's profiles (CPU-time accounting, samples
 * by thread, allocation, exceptions), from an allocation rate and from a
 * leak analysis, and turned into rows of named columns. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings_private.h"
#include "profile_struct.h"

static char *dup_string(jfr_findings *f, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = jfrp_malloc(&f->al, n);

    if (d)
        memcpy(d, s, n);
    return d;
}

/* ---- chunks ----------------------------------------------------------------------- */

static void note_span(jfrp_facts *x, const jfr_header *h)
{
    int64_t end = jfrp_header_end_nanos(h);

    if (!x->has_span || h->start_nanos < x->start)
        x->start = h->start_nanos;
    if (!x->has_span || end > x->end)
        x->end = end;
    x->has_span = true;
}

int jfr_findings_add_chunk(jfr_findings *f, jfr_chunk *chunk)
{
    const char *const names[] = {"jdk.ExceptionStatistics"};
    const jfr_type *type;
    const char *present;
    jfr_event_iter *it;
    const jfr_event *ev;
    int rc;

    if (!f || !chunk)
        return JFR_EINVAL;
    f->valid = false;
    note_span(&f->facts, jfr_chunk_header(chunk));
    if (!(type = jfr_chunk_event_type(chunk, names[0])))
        return JFR_OK;
    present = jfr_type_name(type);
    if ((rc = jfr_event_iter_new(&it, chunk, &present, 1, 0)) < 0)
        return rc;
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
        double v = jfr_event_number(ev, "throwables");
        jfrp_facts *x = &f->facts;
        if (isnan(v))
            continue;
        /* a cumulative count; a smaller one is a new JVM */
        if (x->has_exstat)
            x->ex_total += v >= x->ex_prev ? v - x->ex_prev : v;
        x->ex_prev = v;
        x->has_exstat = true;
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
        /* read as stored: a compact profile stays compact */
        size_t depth = jfrp_profile_stack_frames(p, i, NULL, 0);

        for (size_t k = 0; k < depth && k < 2; k++) {
            uint32_t id = jfrp_profile_stack_frame(p, i, k);
            if (!jfr_profile_frame_at(p, id)->synthetic)
                break;
            w[id] += (double)p->stack_weight[i];
        }
    }
    return JFR_OK;
}

static int thread_facts_of(jfr_findings *f, const jfr_profile *p, jfrp_thread_facts *tf)
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

/* The start of window `index` of `width` ns from `origin`, saturating:
 * damaged times give absurd windows. */
static int64_t window_start(int64_t origin, int64_t index, int64_t width)
{
    int64_t off, at;

    if (__builtin_mul_overflow(index, width, &off) ||
        __builtin_add_overflow(origin, off, &at))
        return index < 0 ? INT64_MIN : INT64_MAX;
    return at;
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

    f->facts.has_alloc = true;
    f->facts.alloc_total += jfr_profile_total(p);
    if (p->bucket_nanos <= 0 || f->facts.alloc_peak_from_rate)
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
        if (sum / ((double)width / 1e9) > f->facts.alloc_peak) {
            f->facts.alloc_peak = sum / ((double)width / 1e9);
            f->facts.alloc_peak_at = window_start(p->bucket_origin, win[i].index, width);
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
    f->facts.alloc_peak_from_rate = true;
    f->facts.alloc_peak = 0;
    f->facts.alloc_peak_at = 0;
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
        if (sum / ((double)width / 1e9) > f->facts.alloc_peak) {
            f->facts.alloc_peak = sum / ((double)width / 1e9);
            f->facts.alloc_peak_at = window_start(jfr_rate_origin_nanos(rate), w, width);
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
        f->facts.has_cpu = true;
        f->facts.cpu.samples += a->samples;
        f->facts.cpu.biased += a->biased;
        f->facts.cpu.lost += a->lost;
        f->facts.cpu.failed += a->failed;
        return thread_facts_of(f, p, &f->facts.cpu_threads);
    }
    if (strcmp(kind, "exec") == 0)
        return thread_facts_of(f, p, &f->facts.exec_threads);
    if (strcmp(kind, "alloc") == 0)
        return alloc_facts(f, p);
    if (strcmp(kind, "exceptions") == 0)
        f->facts.exception_events += jfr_profile_samples(p);
    return JFR_OK;
}

/* ---- leaks --------------------------------------------------------------------------- */

int jfr_findings_add_leaks(jfr_findings *f, jfr_leaks *lk)
{
    size_t n;
    int rc;

    if (!f || !lk)
        return JFR_EINVAL;
    if ((rc = jfr_leaks_build_trees(lk)) < 0)
        return rc;
    f->valid = false;
    n = jfr_leaks_candidate_count(lk);
    for (size_t i = 0; i < n && f->facts.nleaks < JFRP_MAX_LEAKS; i++) {
        const jfr_leak_candidate *c = jfr_leaks_candidate_at(lk, i);
        const jfr_leak_node *site = jfr_leaks_node_at(lk, c->site);
        const jfr_leak_node *node = jfr_leaks_node_at(lk, c->node);
        const jfr_leak_node *parent = site ? jfr_leaks_node_at(lk, site->parent) : NULL;
        const char *holder = jfr_leaks_holder_name(lk, c->site);
        jfrp_leak_facts *l = &f->facts.leaks[f->facts.nleaks];
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
        f->facts.nleaks++;
    }
    return JFR_OK;
}

void jfrp_facts_free(jfrp_facts *x, const jfrp_alloc *al)
{
    jfrp_free(al, x->cpu_threads.top);
    jfrp_free(al, x->exec_threads.top);
    for (size_t i = 0; i < x->nleaks; i++) {
        jfrp_free(al, x->leaks[i].site);
        jfrp_free(al, x->leaks[i].type);
    }
    memset(x, 0, sizeof *x);
}

/* ---- the facts as rows ------------------------------------------------------------- */

static const jfr_fact_column allocation_columns[] = {
    {"bytes", "bytes allocated (the alloc kind's weight: doc/profiles.md)"},
    {"seconds", "the recording's span from its chunk headers (at least 0.001)"},
    {"mean", "bytes per second over the recording"},
    {"peak", "bytes per second in the busiest window of one second (or one time "
             "bucket, when they are longer), each sample spread over the time it "
             "stands for when a rate was given (jfr/rate.h)"},
    {"rate", "the larger of mean and peak"},
    {"at", "when the busiest window starts (epoch ns), NULL when unknown"},
};

static const jfr_fact_column exceptions_columns[] = {
    {"throwables", "throwables created: the larger of statistics and events"},
    {"per_second", "throwables per second of the recording"},
    {"statistics", "growth of jdk.ExceptionStatistics' cumulative count"},
    {"events", "events of the exceptions kind (doc/profiles.md)"},
    {"seconds", "the recording's span from its chunk headers (at least 0.001)"},
};

static const jfr_fact_column cpu_columns[] = {
    {"samples", "jdk.CPUTimeSample events"},
    {"biased", "of those, taken at a safepoint (JEP 509's biased flag)"},
    {"failed", "CPU-time samples without a stack"},
    {"lost", "samples the JVM could not take (jdk.CPUTimeSamplesLost)"},
    {"sampled", "samples plus lost"},
    {"biased_share", "biased / samples (0 without samples)"},
    {"lost_share", "lost / sampled (0 when nothing was sampled)"},
};

static const jfr_fact_column threads_columns[] = {
    {"thread", "the thread with the most samples: \"NAME tid=N\""},
    {"share", "its share of the samples"},
    {"samples", "samples of the kind, all threads"},
    {"threads", "threads with samples"},
    {"sampler", "\"CPU-time\" (the cpu kind) or \"execution\" (exec, when there is "
                "no CPU-time sample)"},
};

static const jfr_fact_column leaks_columns[] = {
    {"site", "where the leak grows: Class.field, Type[index] or the root's type"},
    {"type", "the type of the object that grows"},
    {"samples", "old-object samples it keeps alive"},
    {"share", "their share of all old-object samples"},
    {"relevance", "the candidate's score (doc/leaks.md)"},
};

#define COLUMNS(a) a, sizeof a / sizeof *a

enum { FACT_ALLOCATION, FACT_EXCEPTIONS, FACT_CPU, FACT_THREADS, FACT_LEAKS, NFACTS };

static const jfr_fact facts[NFACTS] = {
    {"allocation", "one row when an alloc profile was given",
     COLUMNS(allocation_columns)},
    {"exceptions", "one row", COLUMNS(exceptions_columns)},
    {"cpu-time", "one row when a cpu profile was given: its CPU-time accounting",
     COLUMNS(cpu_columns)},
    {"threads",
     "one row when a cpu (else exec) profile with thread roots has samples: its "
     "busiest thread",
     COLUMNS(threads_columns)},
    {"leaks", "one row per leak candidate, best first, at most three",
     COLUMNS(leaks_columns)},
};

const jfr_fact *jfr_findings_facts(size_t *count)
{
    if (count)
        *count = NFACTS;
    return facts;
}

static jfr_cell integer(uint64_t v)
{
    jfr_cell c = {JFR_CELL_INTEGER, (int64_t)v, 0, NULL};
    return c;
}

static jfr_cell real(double v)
{
    jfr_cell c = {JFR_CELL_REAL, 0, v, NULL};
    return c;
}

static jfr_cell text(const char *s)
{
    jfr_cell c = {s ? JFR_CELL_TEXT : JFR_CELL_NULL, 0, 0, s};
    return c;
}

static double seconds(const jfrp_facts *x)
{
    double secs = x->has_span ? (double)jfr_nanos_between(x->start, x->end) / 1e9 : 0;

    return secs < 0.001 ? 0.001 : secs;
}

static size_t allocation_rows(const jfrp_facts *x, jfr_cell *row)
{
    double secs = seconds(x), mean = (double)x->alloc_total / secs;

    if (!x->has_alloc)
        return 0;
    row[0] = integer(x->alloc_total);
    row[1] = real(secs);
    row[2] = real(mean);
    row[3] = real(x->alloc_peak);
    row[4] = real(x->alloc_peak > mean ? x->alloc_peak : mean);
    row[5] = x->alloc_peak_at ? integer((uint64_t)x->alloc_peak_at) : text(NULL);
    return 1;
}

static size_t exception_rows(const jfrp_facts *x, jfr_cell *row)
{
    double events = (double)x->exception_events, secs = seconds(x);
    double n = x->ex_total > events ? x->ex_total : events;

    row[0] = real(n);
    row[1] = real(n / secs);
    row[2] = real(x->ex_total);
    row[3] = integer(x->exception_events);
    row[4] = real(secs);
    return 1;
}

static size_t cpu_rows(const jfrp_facts *x, jfr_cell *row)
{
    const jfr_cpu_accounting *a = &x->cpu;
    uint64_t sampled = a->samples + a->lost;

    if (!x->has_cpu)
        return 0;
    row[0] = integer(a->samples);
    row[1] = integer(a->biased);
    row[2] = integer(a->failed);
    row[3] = integer(a->lost);
    row[4] = integer(sampled);
    row[5] = real(a->samples ? (double)a->biased / (double)a->samples : 0);
    row[6] = real(sampled ? (double)a->lost / (double)sampled : 0);
    return 1;
}

static size_t thread_rows(const jfrp_facts *x, jfr_cell *row)
{
    const jfrp_thread_facts *tf =
        x->cpu_threads.present ? &x->cpu_threads : &x->exec_threads;

    if (!tf->present)
        return 0;
    row[0] = text(tf->top);
    row[1] = real(tf->top_share);
    row[2] = integer(tf->samples);
    row[3] = integer(tf->threads);
    row[4] = text(tf == &x->cpu_threads ? "CPU-time" : "execution");
    return 1;
}

size_t jfrp_fact_rows(const jfrp_facts *x, size_t index,
                      jfr_cell rows[JFRP_FACT_MAX_ROWS][JFRP_FACT_MAX_COLS])
{
    switch (index) {
    case FACT_ALLOCATION:
        return allocation_rows(x, rows[0]);
    case FACT_EXCEPTIONS:
        return exception_rows(x, rows[0]);
    case FACT_CPU:
        return cpu_rows(x, rows[0]);
    case FACT_THREADS:
        return thread_rows(x, rows[0]);
    case FACT_LEAKS:
        for (size_t i = 0; i < x->nleaks; i++) {
            const jfrp_leak_facts *l = &x->leaks[i];
            rows[i][0] = text(l->site);
            rows[i][1] = text(l->type);
            rows[i][2] = integer(l->samples);
            rows[i][3] = real(l->share);
            rows[i][4] = real(l->relevance);
        }
        return x->nleaks;
    default:
        return 0;
    }
}
