/* test_timeline.c - the thread-state timeline (libjfr/timeline*.c): its
 * API's edges (options, order of calls, NULL), the lane order and the
 * interval order jfr_timeline_finish promises, the cap, and totals that
 * add up, on the test recordings. The totals themselves are checked
 * against SQL by tests/profile/check-report-threads.py. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "jfr.h"

static jfr_timeline *timeline_of(const char *name, uint64_t max)
{
    jfr_timeline_options o = JFR_TIMELINE_OPTIONS_INIT;
    const char *td = getenv("JFR_TESTDATA");
    char path[4096];
    jfr_recording *rec;
    jfr_chunk *c;
    jfr_timeline *tl;
    jfr_error err;

    snprintf(path, sizeof path, "%s/%s", td ? td : "testdata", name);
    cr_assert_eq(jfr_recording_open_file(&rec, path, NULL, &err), JFR_OK, "%s: %s", path,
                 err.message);
    o.max_intervals = max;
    cr_assert_eq(jfr_timeline_new(&tl, &o, &err), JFR_OK);
    while (jfr_recording_next_chunk(&c, rec) == JFR_OK)
        cr_assert_eq(jfr_timeline_add_chunk(tl, c), JFR_OK);
    jfr_recording_free(rec);
    cr_assert_eq(jfr_timeline_finish(tl), JFR_OK);
    return tl;
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
            if (k)
                cr_assert_geq(iv->start_nanos, (iv - 1)->start_nanos);
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
