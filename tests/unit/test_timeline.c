/* test_timeline.c - the thread-state timeline (libjfr/timeline*.c): its
 * API's edges (options, order of calls, NULL), the lane order and the
 * interval order jfr_timeline_finish promises, the cap, totals that add
 * up, and samples counted in bins as the kept points count them, on the
 * test recordings. The totals themselves are checked
 * against SQL by tests/profile/check-report-threads.py. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "jfr.h"
#include "testdata.h"

static jfr_timeline *timeline_with(const char *name, const jfr_timeline_options *o)
{
    jfr_recording *rec = testdata_open(name, NULL);
    jfr_chunk *c;
    jfr_timeline *tl;
    jfr_error err;

    cr_assert_eq(jfr_timeline_new(&tl, o, &err), JFR_OK);
    while (jfr_recording_next_chunk(&c, rec) == JFR_OK)
        cr_assert_eq(jfr_timeline_add_chunk(tl, c), JFR_OK);
    jfr_recording_free(rec);
    cr_assert_eq(jfr_timeline_finish(tl), JFR_OK);
    return tl;
}

static jfr_timeline *timeline_of(const char *name, uint64_t max)
{
    jfr_timeline_options o = JFR_TIMELINE_OPTIONS_INIT;

    o.max_intervals = max;
    return timeline_with(name, &o);
}

Test(timeline, api_edges)
{
    jfr_timeline_options o = JFR_TIMELINE_OPTIONS_INIT;
    jfr_timeline *tl;
    jfr_error err;

    o.version = 99;
    cr_assert_eq(jfr_timeline_new(&tl, &o, &err), JFR_EINVAL);
    cr_assert_null(tl);
    cr_assert_eq(jfr_timeline_new(NULL, NULL, &err), JFR_EINVAL);
    cr_assert_eq(jfr_timeline_new(&tl, NULL, &err), JFR_OK);
    /* nothing is readable before the timeline is finished */
    cr_assert_eq(jfr_timeline_thread_count(tl), 0);
    cr_assert_null(jfr_timeline_interval_at(tl, 0));
    cr_assert_eq(jfr_timeline_thread_total(NULL, NULL, tl, JFR_TIMELINE_ALL_THREADS,
                                           JFR_STATE_GC_PAUSE),
                 JFR_EINVAL);
    cr_assert_eq(jfr_timeline_add_chunk(tl, NULL), JFR_EINVAL);
    cr_assert_eq(jfr_timeline_finish(tl), JFR_OK);
    cr_assert_eq(jfr_timeline_finish(tl), JFR_EINVAL);
    cr_assert_eq(jfr_timeline_thread_total(NULL, NULL, tl, 0, JFR_STATE_RUNNING),
                 JFR_EINVAL); /* no lane 0 */
    cr_assert_eq(jfr_timeline_thread_total(NULL, NULL, tl, JFR_TIMELINE_ALL_THREADS,
                                           (jfr_thread_state)JFR_STATE_COUNT),
                 JFR_EINVAL);
    jfr_timeline_free(tl);
    jfr_timeline_free(NULL);
    cr_assert_eq(jfr_timeline_finish(NULL), JFR_EINVAL);
    cr_assert_eq(jfr_timeline_dropped(NULL), 0);
}

Test(timeline, state_names)
{
    cr_assert_str_eq(jfr_thread_state_name(JFR_STATE_RUNNING), "running");
    cr_assert_str_eq(jfr_thread_state_name(JFR_STATE_BLOCKED), "blocked");
    cr_assert_str_eq(jfr_thread_state_name(JFR_STATE_SAFEPOINT), "safepoint");
    cr_assert_str_eq(jfr_thread_state_name((jfr_thread_state)JFR_STATE_COUNT), "");
}

/* Lanes: platform threads by events (descending), virtual ones after;
 * each lane's intervals are its own, by start time, and they add up to
 * the lane's totals. */
static void check_order(const jfr_timeline *tl)
{
    size_t n = jfr_timeline_thread_count(tl), seen = 0;

    for (size_t i = 0; i < n; i++) {
        const jfr_timeline_thread *t = jfr_timeline_thread_at(tl, i);
        uint64_t events = 0;

        if (i > 0) {
            const jfr_timeline_thread *p = jfr_timeline_thread_at(tl, i - 1);
            cr_assert(!p->is_virtual || t->is_virtual, "virtual lanes come last");
            if (!t->is_virtual)
                cr_assert_geq(p->events, t->events, "%s before %s", p->name, t->name);
        }
        for (size_t k = 0; k < t->interval_count; k++) {
            const jfr_timeline_interval *iv =
                jfr_timeline_interval_at(tl, t->first_interval + k);
            cr_assert_eq(iv->thread, (uint32_t)i);
            if (k) /* by index: the intervals are not one array */
                cr_assert_geq(
                    iv->start_nanos,
                    jfr_timeline_interval_at(tl, t->first_interval + k - 1)->start_nanos);
        }
        for (int s = 0; s < JFR_STATE_COUNT; s++) {
            uint64_t c;
            cr_assert_eq(jfr_timeline_thread_total(&c, NULL, tl, (uint32_t)i, s), JFR_OK);
            events += c;
        }
        cr_assert_eq(events, t->events);
        seen += t->interval_count;
    }
    /* the rest have no lane */
    for (size_t k = seen; k < jfr_timeline_interval_count(tl); k++)
        cr_assert_eq(jfr_timeline_interval_at(tl, k)->thread, JFR_TIMELINE_ALL_THREADS);
}

Test(timeline, lanes_and_order)
{
    jfr_timeline *tl = timeline_of("recordings/io-jdk25.jfr", 0);
    bool io = false;

    cr_assert_gt(jfr_timeline_thread_count(tl), 1);
    check_order(tl);
    for (size_t i = 0; i < jfr_timeline_interval_count(tl); i++) {
        const jfr_timeline_interval *iv = jfr_timeline_interval_at(tl, i);
        if (iv->state == JFR_STATE_FILE_IO || iv->state == JFR_STATE_SOCKET_IO) {
            io = true;
            cr_assert_neq(iv->detail[0], '\0', "I/O intervals name a path or host");
        }
    }
    cr_assert(io, "io-jdk25.jfr has I/O intervals");
    cr_assert_eq(jfr_timeline_dropped(tl), 0);
    jfr_timeline_free(tl);
}

/* A cap keeps the first intervals; totals still count every event. */
Test(timeline, cap_keeps_totals)
{
    jfr_timeline *all = timeline_of("recordings/multi-jdk25.jfr", 0);
    jfr_timeline *cut = timeline_of("recordings/multi-jdk25.jfr", 10);
    size_t n = jfr_timeline_interval_count(all);

    cr_assert_gt(n, 10);
    cr_assert_eq(jfr_timeline_interval_count(cut), 10);
    cr_assert_eq(jfr_timeline_dropped(cut), n - 10);
    cr_assert_eq(jfr_timeline_thread_count(cut), jfr_timeline_thread_count(all));
    for (size_t i = 0; i < jfr_timeline_thread_count(all); i++)
        cr_assert_eq(jfr_timeline_thread_at(cut, i)->events,
                     jfr_timeline_thread_at(all, i)->events);
    check_order(cut);
    jfr_timeline_free(all);
    jfr_timeline_free(cut);
}

static bool is_sample(jfr_thread_state s)
{
    return s == JFR_STATE_RUNNING || s == JFR_STATE_NATIVE;
}

/* The bins of lane `lane` and state `s` against a count of the kept
 * sample points of the same lane in `all` (kept without bins). */
static void check_bins(const jfr_timeline *binned, const jfr_timeline *all, uint32_t lane,
                       jfr_thread_state s, int64_t bin_ns, int64_t origin)
{
    const jfr_timeline_thread *t = jfr_timeline_thread_at(all, lane);
    const jfr_timeline_bin *bins;
    size_t n, k = 0;
    uint64_t total = 0, in_bins = 0;

    cr_assert_eq(jfr_timeline_sample_bins(&bins, &n, binned, lane, s), JFR_OK);
    for (size_t i = 0; i < t->interval_count; i++) {
        const jfr_timeline_interval *iv =
            jfr_timeline_interval_at(all, t->first_interval + i);
        uint64_t b;
        if (iv->state != s)
            continue;
        b = iv->start_nanos < origin ? 0
                                     : (uint64_t)((iv->start_nanos - origin) / bin_ns);
        while (k < n && bins[k].bin < b)
            k++;
        cr_assert_lt(k, n, "lane %u: no bin %llu", lane, (unsigned long long)b);
        cr_assert_eq(bins[k].bin, b);
        total++;
    }
    for (size_t i = 0; i < n; i++) {
        cr_assert_gt(bins[i].count, 0);
        if (i)
            cr_assert_gt(bins[i].bin, bins[i - 1].bin, "by bin number, each once");
        in_bins += bins[i].count;
    }
    cr_assert_eq(in_bins, total, "lane %u, %s", lane, jfr_thread_state_name(s));
}

/* With sample_bin_nanos the samples are counted in bins, not kept: each
 * lane's bins hold its samples, as counted from the kept points of the
 * same recording; the other intervals are the same. */
Test(timeline, samples_in_bins)
{
    jfr_timeline_options o = JFR_TIMELINE_OPTIONS_INIT;
    jfr_timeline *all = timeline_of("recordings/cpu-jdk25.jfr", 0), *binned;
    const jfr_timeline_bin *bins;
    size_t n, samples = 0, lanes = jfr_timeline_thread_count(all);
    int64_t origin = 0;

    /* the origin inside the recording: earlier samples count in bin 0 */
    for (size_t i = 0; i < jfr_timeline_interval_count(all); i++) {
        const jfr_timeline_interval *iv = jfr_timeline_interval_at(all, i);
        if (is_sample(iv->state)) {
            samples++;
            if (samples == 10)
                origin = iv->start_nanos + 1;
        }
    }
    cr_assert_gt(samples, 100);
    o.sample_bin_nanos = 1000000;
    o.sample_bin_origin_nanos = origin;
    binned = timeline_with("recordings/cpu-jdk25.jfr", &o);
    cr_assert_eq(jfr_timeline_thread_count(binned), lanes);
    cr_assert_eq(jfr_timeline_interval_count(binned),
                 jfr_timeline_interval_count(all) - samples);
    for (size_t i = 0; i < jfr_timeline_interval_count(binned); i++)
        cr_assert(!is_sample(jfr_timeline_interval_at(binned, i)->state));
    for (uint32_t i = 0; i < lanes; i++) {
        cr_assert_str_eq(jfr_timeline_thread_at(binned, i)->name,
                         jfr_timeline_thread_at(all, i)->name);
        check_bins(binned, all, i, JFR_STATE_RUNNING, o.sample_bin_nanos, origin);
        check_bins(binned, all, i, JFR_STATE_NATIVE, o.sample_bin_nanos, origin);
    }
    check_order(binned);
    /* edges: only sample states of a lane, once finished; no bins without
     * the option */
    cr_assert_eq(jfr_timeline_sample_bins(&bins, &n, binned, JFR_TIMELINE_ALL_THREADS,
                                          JFR_STATE_RUNNING),
                 JFR_EINVAL);
    cr_assert_eq(jfr_timeline_sample_bins(&bins, &n, binned, 0, JFR_STATE_BLOCKED),
                 JFR_EINVAL);
    cr_assert_eq(jfr_timeline_sample_bins(NULL, &n, binned, 0, JFR_STATE_RUNNING),
                 JFR_EINVAL);
    cr_assert_eq(jfr_timeline_sample_bins(&bins, &n, all, 0, JFR_STATE_RUNNING), JFR_OK);
    cr_assert_eq(n, 0);
    cr_assert_null(bins);
    jfr_timeline_free(binned);
    jfr_timeline_free(all);
}

/* Bins are made by jfr_timeline_finish: none before it. */
Test(timeline, sample_bins_after_finish)
{
    jfr_timeline_options o = JFR_TIMELINE_OPTIONS_INIT;
    const jfr_timeline_bin *bins;
    jfr_timeline *tl;
    jfr_error err;
    size_t n;

    o.sample_bin_nanos = 1000;
    cr_assert_eq(jfr_timeline_new(&tl, &o, &err), JFR_OK);
    cr_assert_eq(jfr_timeline_sample_bins(&bins, &n, tl, 0, JFR_STATE_RUNNING),
                 JFR_EINVAL);
    cr_assert_eq(jfr_timeline_finish(tl), JFR_OK);
    cr_assert_eq(jfr_timeline_sample_bins(&bins, &n, tl, 0, JFR_STATE_RUNNING),
                 JFR_EINVAL); /* no lane 0 */
    jfr_timeline_free(tl);
}
