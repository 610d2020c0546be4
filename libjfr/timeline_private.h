/* timeline_private.h - the thread-state timeline's storage (timeline.c),
 * shared with the chunk reader (timeline_chunk.c). */
#ifndef JFRP_TIMELINE_PRIVATE_H
#define JFRP_TIMELINE_PRIVATE_H

#include "jfr/timeline.h"
#include "jfr_private.h"
#include "intern.h"
#include "map.h"

/* The sample states counted in bins (sample_bin_nanos). */
#define JFRP_TL_SAMPLE_STATES 2 /* JFR_STATE_RUNNING, JFR_STATE_NATIVE */

/* A lane and its totals by state. */
typedef struct jfrp_tl_thread {
    jfr_timeline_thread pub;
    uint64_t count[JFR_STATE_COUNT];
    int64_t nanos[JFR_STATE_COUNT];
    /* sample bins: bin -> count while chunks are added; then this lane's
     * part of the timeline's bins */
    jfrp_map bin_counts[JFRP_TL_SAMPLE_STATES];
    size_t first_bin[JFRP_TL_SAMPLE_STATES], nbins[JFRP_TL_SAMPLE_STATES];
} jfrp_tl_thread;

/* A kept interval and the order it was read in (the sort's last key). */
typedef struct jfrp_tl_item {
    jfr_timeline_interval pub;
    uint64_t seq;
} jfrp_tl_item;

struct jfr_timeline {
    jfrp_alloc al;
    jfrp_intern strings;     /* names, details, frames, event types */
    jfrp_intern thread_keys; /* tid, virtual flag and name: a lane each */
    jfrp_tl_thread *threads;
    size_t nthreads, threads_room;
    jfrp_tl_item *items;
    size_t nitems, items_room;
    uint64_t all_count[JFR_STATE_COUNT]; /* the lane-less states */
    int64_t all_nanos[JFR_STATE_COUNT];
    uint64_t max, dropped, seq;
    int64_t bin_nanos, bin_origin; /* sample_bin_nanos (0: samples are kept) */
    jfr_timeline_bin *bins;        /* every lane's, after jfr_timeline_finish */
    size_t nbins;
    bool finished;
    char *buf; /* scratch for names */
    size_t buf_room;
};

/** What tells a thread apart (the profiles' thread root) and what a lane
 * shows of it. Strings need not be NUL-terminated. */
typedef struct jfrp_tl_thread_desc {
    jfr_str name, group;
    int64_t tid, os_thread_id;
    bool is_virtual;
} jfrp_tl_thread_desc;

/** The stored copy of `len` bytes at `s` (NUL-terminated, lives as long
 * as the timeline) into *out. 0 or a negative code. */
int jfrp_timeline_string(jfr_timeline *tl, const char *s, size_t len, const char **out);

/** The lane of thread `d`, made when new. 0 or a negative code. */
int jfrp_timeline_lane(jfr_timeline *tl, const jfrp_tl_thread_desc *d, uint32_t *lane);

/** Count `iv` in its lane's totals and keep it unless max_intervals is
 * reached; *kept is its index + 1, or 0 when dropped. 0 or JFR_ENOMEM. */
int jfrp_timeline_add(jfr_timeline *tl, const jfr_timeline_interval *iv, size_t *kept);

/** Make kept interval `kept` - 1 end at `end_nanos` (a safepoint's end),
 * its totals with it. */
void jfrp_timeline_extend(jfr_timeline *tl, size_t kept, int64_t end_nanos);

#endif
