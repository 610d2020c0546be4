/* report_threads.c - the report's "Threads" section (doc/report.md): libjfr's
 * thread-state timeline (jfr/timeline.h), built by the in-order pass, written
 * as the page's data. Samples become a density per lane (counts per bin);
 * intervals and points are embedded one by one up to a cap, the longest
 * first when there are more, and the page says what it left out. */
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "report.h"

/* What the page embeds at most (doc/report.md gives the bytes per event). */
#define PAGE_INTERVALS  100000
#define PAGE_LANES      20000
/* What the library keeps at most, so that memory stays bounded on a huge
 * recording; every event still counts in the totals. */
#define KEPT_INTERVALS  4000000
/* Density bins per time bucket. */
#define BINS_PER_BUCKET 2

/* A density bin: a whole number of microseconds, at least one. */
static int64_t density_bin_nanos(const report *r)
{
    int64_t bin_us = r->bucket_ns / BINS_PER_BUCKET / 1000;

    return (bin_us < 1 ? 1 : bin_us) * 1000;
}

void report_threads_options(jfr_timeline_options *o, const report *r)
{
    jfr_timeline_options_init(o, JFR_TIMELINE_OPTIONS_VERSION);
    o->max_intervals = KEPT_INTERVALS;
    /* samples are drawn as density: the library counts them in the
     * page's bins instead of keeping each (56 bytes a sample) */
    o->sample_bin_nanos = density_bin_nanos(r);
}

/* ---- choosing what the page draws ----------------------------------------------------- */

typedef struct page_threads {
    const jfr_timeline *tl;
    size_t nlanes; /* lanes embedded (the first ones) */
    size_t *shown; /* interval indexes embedded, in the timeline's order */
    size_t nshown;
    size_t candidates; /* intervals that could be drawn (not samples) */
    int64_t min_nanos; /* the shortest embedded when some were left out */
    strmap strings;
    const char **texts; /* by string index */
    size_t ntexts;
} page_threads;

static bool is_sample(const jfr_timeline_interval *iv)
{
    return iv->state == JFR_STATE_RUNNING || iv->state == JFR_STATE_NATIVE;
}

static bool on_page(const page_threads *pt, const jfr_timeline_interval *iv)
{
    return iv->thread == JFR_TIMELINE_ALL_THREADS || iv->thread < pt->nlanes;
}

/* An interval by length, for keeping the longest. */
typedef struct by_length {
    int64_t nanos;
    size_t index;
} by_length;

static int cmp_longer(const void *a, const void *b)
{
    const by_length *x = a, *y = b;

    if (x->nanos != y->nanos)
        return x->nanos > y->nanos ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static int cmp_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;

    return x < y ? -1 : x > y;
}

/* Every interval when they fit; else the PAGE_INTERVALS longest, back in
 * the timeline's order (by lane, then time). */
static void choose(page_threads *pt)
{
    size_t n = jfr_timeline_interval_count(pt->tl);

    pt->shown = xcalloc(n ? n : 1, sizeof *pt->shown);
    for (size_t i = 0; i < n; i++) {
        const jfr_timeline_interval *iv = jfr_timeline_interval_at(pt->tl, i);
        if (!is_sample(iv) && on_page(pt, iv))
            pt->shown[pt->nshown++] = i;
    }
    pt->candidates = pt->nshown;
    pt->min_nanos = -1;
    if (pt->nshown <= PAGE_INTERVALS)
        return;
    {
        by_length *order = xcalloc(pt->nshown, sizeof *order);
        for (size_t k = 0; k < pt->nshown; k++)
            order[k] = (by_length){
                jfr_timeline_interval_at(pt->tl, pt->shown[k])->duration_nanos,
                pt->shown[k]};
        qsort(order, pt->nshown, sizeof *order, cmp_longer);
        pt->nshown = PAGE_INTERVALS;
        for (size_t k = 0; k < pt->nshown; k++)
            pt->shown[k] = order[k].index;
        pt->min_nanos = order[pt->nshown - 1].nanos;
        free(order);
    }
    qsort(pt->shown, pt->nshown, sizeof *pt->shown, cmp_index);
}

static int64_t text_index(page_threads *pt, const char *s)
{
    long i = strmap_get(&pt->strings, s);

    if (i >= 0)
        return i;
    pt->texts = xrealloc(pt->texts, pt->ntexts + 1, sizeof *pt->texts);
    pt->texts[pt->ntexts] = s;
    strmap_put(&pt->strings, s, pt->ntexts);
    return (int64_t)pt->ntexts++;
}

/* ---- writing -------------------------------------------------------------------------- */

/* A lane's totals by state, only the states it has: [state, count, ns, ...]. */
static void write_totals(jw *w, const jfr_timeline *tl, uint32_t lane)
{
    jw_begin(w, '[');
    for (int s = 0; s < JFR_STATE_COUNT; s++) {
        uint64_t count = 0;
        int64_t nanos = 0;
        if (jfr_timeline_thread_total(&count, &nanos, tl, lane, s) < 0 || count == 0)
            continue;
        jw_int(w, s);
        jw_int(w, (int64_t)count);
        jw_int(w, nanos);
    }
    jw_end(w, ']');
}

/* Samples of one state of a lane as [bin, count, bin, count, ...]: the
 * library's bins (sample_bin_nanos). */
static void write_density(jw *w, const report *r, uint32_t lane, jfr_thread_state state)
{
    const jfr_timeline_bin *bins = NULL;
    size_t n = 0;

    (void)jfr_timeline_sample_bins(&bins, &n, jfr_report_data_timeline(r->data), lane,
                                   state);
    jw_begin(w, '[');
    for (size_t k = 0; k < n; k++) {
        jw_uint(w, bins[k].bin);
        jw_uint(w, bins[k].count);
    }
    jw_end(w, ']');
}

static void write_lanes(jw *w, const report *r, page_threads *pt)
{
    jw_key(w, "lanes");
    jw_begin(w, '[');
    for (size_t i = 0; i < pt->nlanes; i++) {
        const jfr_timeline_thread *t = jfr_timeline_thread_at(pt->tl, i);
        jw_begin(w, '{');
        jw_key(w, "n");
        jw_str(w, t->name);
        jw_key(w, "tid");
        jw_int(w, t->tid);
        if (t->is_virtual) {
            jw_key(w, "v");
            jw_int(w, 1);
        }
        jw_key(w, "g");
        jw_int(w, text_index(pt, t->group));
        jw_key(w, "tot");
        write_totals(w, pt->tl, (uint32_t)i);
        jw_key(w, "run");
        write_density(w, r, (uint32_t)i, JFR_STATE_RUNNING);
        jw_key(w, "nat");
        write_density(w, r, (uint32_t)i, JFR_STATE_NATIVE);
        jw_end(w, '}');
    }
    jw_end(w, ']');
}

/* The embedded intervals as columns: lane (-1: every thread), state, start
 * (us from the origin), duration (ns, exact: the browser test adds them
 * up), detail, top frame and event type as indexes into "str". */
static void write_intervals(jw *w, const report *r, page_threads *pt)
{
    static const char *const cols[] = {"l", "s", "t", "d", "x", "f", "e"};

    for (size_t c = 0; c < sizeof cols / sizeof *cols; c++) {
        jw_key(w, cols[c]);
        jw_begin(w, '[');
        for (size_t k = 0; k < pt->nshown; k++) {
            const jfr_timeline_interval *iv =
                jfr_timeline_interval_at(pt->tl, pt->shown[k]);
            switch (c) {
            case 0:
                jw_int(w,
                       iv->thread == JFR_TIMELINE_ALL_THREADS ? -1 : (int64_t)iv->thread);
                break;
            case 1:
                jw_int(w, iv->state);
                break;
            case 2:
                jw_int(w, jfr_nanos_between(r->origin, iv->start_nanos) / 1000);
                break;
            case 3:
                jw_int(w, iv->duration_nanos);
                break;
            case 4:
                jw_int(w, text_index(pt, iv->detail));
                break;
            case 5:
                jw_int(w, text_index(pt, iv->top_frame));
                break;
            default:
                jw_int(w, text_index(pt, iv->event_type));
            }
        }
        jw_end(w, ']');
    }
}

static void write_counts(jw *w, const report *r, const page_threads *pt)
{
    size_t nlanes = jfr_timeline_thread_count(jfr_report_data_timeline(r->data));

    jw_key(w, "states");
    jw_begin(w, '[');
    for (int s = 0; s < JFR_STATE_COUNT; s++)
        jw_str(w, jfr_thread_state_name(s));
    jw_end(w, ']');
    jw_key(w, "allLanes");
    jw_int(w, (int64_t)nlanes);
    jw_key(w, "pageLanes");
    jw_int(w, (int64_t)pt->nlanes);
    jw_key(w, "intervals");
    jw_int(w, (int64_t)pt->candidates);
    jw_key(w, "shown");
    jw_int(w, (int64_t)pt->nshown);
    jw_key(w, "notKept");
    jw_int(w, (int64_t)jfr_timeline_dropped(jfr_report_data_timeline(r->data)));
    jw_key(w, "cap");
    jw_int(w, PAGE_INTERVALS);
    jw_key(w, "minNs");
    jw_int(w, pt->min_nanos);
    jw_key(w, "band");
    write_totals(w, jfr_report_data_timeline(r->data), JFR_TIMELINE_ALL_THREADS);
}

void report_threads_json(jw *w, report *r)
{
    page_threads pt;
    const jfr_timeline *tl = jfr_report_data_timeline(r->data);

    if (!tl) {
        jw_null(w);
        return;
    }
    memset(&pt, 0, sizeof pt);
    pt.tl = tl;
    pt.nlanes = jfr_timeline_thread_count(tl);
    if (pt.nlanes > PAGE_LANES)
        pt.nlanes = PAGE_LANES;
    choose(&pt);
    jw_begin(w, '{');
    write_counts(w, r, &pt);
    jw_key(w, "binUs");
    jw_int(w, density_bin_nanos(r) / 1000);
    write_lanes(w, r, &pt);
    write_intervals(w, r, &pt);
    jw_key(w, "str");
    jw_begin(w, '[');
    for (size_t i = 0; i < pt.ntexts; i++)
        jw_str(w, pt.texts[i]);
    jw_end(w, ']');
    jw_end(w, '}');
    free(pt.shown);
    free(pt.texts);
    strmap_free(&pt.strings);
}
