/* jfr/timeline.h - what each thread did, when: the thread-state timeline
 * of a recording, from its own events (doc/report.md, "Threads").
 *
 * A timeline is fed chunks (any chunk, in any order of files) and then
 * finished once. Each event of a known type becomes an interval (or a
 * point) of one state on one thread's lane: samples are points of
 * "running" or "native", jdk.JavaMonitorEnter an interval of "blocked",
 * and so on (jfr_thread_state lists every rule). GC pauses and
 * safepoints stop every thread and belong to no lane
 * (JFR_TIMELINE_ALL_THREADS). Threads are told apart as the profiles'
 * thread roots are, by Java name and id (else the OS name and id), so
 * a lane and a profile's "[thread NAME tid=N]" root name the same
 * thread. Memory grows with the events kept (at most max_intervals of
 * them) and the distinct threads and strings. */
#ifndef JFR_TIMELINE_H
#define JFR_TIMELINE_H

#include "common.h"
#include "error.h"
#include "options.h"

JFR_BEGIN_DECLS

typedef struct jfr_timeline jfr_timeline;

/** A thread's state over an interval, and the events that say so.
 * Values are never renumbered; new ones are appended. */
typedef enum jfr_thread_state {
    JFR_STATE_RUNNING = 0, /**< a point: jdk.ExecutionSample, jdk.CPUTimeSample */
    JFR_STATE_NATIVE,      /**< a point: jdk.NativeMethodSample */
    JFR_STATE_BLOCKED,     /**< entering a monitor: jdk.JavaMonitorEnter */
    JFR_STATE_WAITING,     /**< Object.wait: jdk.JavaMonitorWait */
    JFR_STATE_PARKED,      /**< LockSupport.park: jdk.ThreadPark */
    JFR_STATE_SLEEPING,    /**< Thread.sleep: jdk.ThreadSleep */
    JFR_STATE_FILE_IO,     /**< jdk.FileRead, jdk.FileWrite */
    JFR_STATE_SOCKET_IO,   /**< jdk.SocketRead, jdk.SocketWrite */
    JFR_STATE_STARTED,     /**< a point: jdk.ThreadStart, jdk.VirtualThreadStart */
    JFR_STATE_ENDED,       /**< a point: jdk.ThreadEnd, jdk.VirtualThreadEnd */
    /** Every thread (no lane): jdk.GCPhasePause, one per pause. */
    JFR_STATE_GC_PAUSE,
    /** Every thread (no lane): jdk.SafepointBegin's start to the end of the
     * jdk.SafepointEnd of the same safepointId in the chunk (the begin
     * event's own duration when there is none). */
    JFR_STATE_SAFEPOINT
} jfr_thread_state;

/** Number of states (one past the last value). */
#define JFR_STATE_COUNT 12

/** "running", "native", "blocked", "waiting", "parked", "sleeping",
 * "file-io", "socket-io", "started", "ended", "gc-pause", "safepoint";
 * "" for anything else. */
JFR_API const char *jfr_thread_state_name(jfr_thread_state state);

/** The thread of an interval that stops every thread. */
#define JFR_TIMELINE_ALL_THREADS UINT32_MAX

/**
 * One interval or point (duration 0). Strings are owned by the timeline
 * and live until jfr_timeline_free. Read through pointers only: fields
 * may be appended in later versions.
 */
typedef struct jfr_timeline_interval {
    int64_t start_nanos;    /**< epoch ns (the event's startTime) */
    int64_t duration_nanos; /**< ns, 0 for points and negative durations */
    uint32_t thread;        /**< lane index, or JFR_TIMELINE_ALL_THREADS */
    jfr_thread_state state;
    const char *event_type; /**< "jdk.JavaMonitorEnter" */
    /** What the thread waited for, "" if nothing: the monitor's class
     * (Enter, Wait), the parked object's class, the file's path,
     * "host:port" of a socket, the pause's name ("GC Pause"),
     * "safepoint N". */
    const char *detail;
    /** The top frame of the event's stack, "pkg.Class.method" ("" for
     * samples, which are drawn as density, and events without a stack). */
    const char *top_frame;
} jfr_timeline_interval;

/** One lane. Read through pointers only (fields may be appended). */
typedef struct jfr_timeline_thread {
    /** The Java name, else the OS name ("" for an unnamed virtual
     * thread, "unknown" when the event has no thread). */
    const char *name;
    /** The Java thread id, else the OS thread id: the profiles' "tid". */
    int64_t tid;
    int64_t os_thread_id;
    bool is_virtual;
    const char *group; /**< the thread group's name, "" if none */
    /** After jfr_timeline_finish: this thread's intervals are
     * jfr_timeline_interval_at(first_interval .. + interval_count - 1),
     * by start time. */
    size_t first_interval, interval_count;
    uint64_t events; /**< events of this thread, kept or not */
} jfr_timeline_thread;

/** Options for jfr_timeline_new; initialise with JFR_TIMELINE_OPTIONS_INIT. */
typedef struct jfr_timeline_options {
    unsigned version;               /**< JFR_TIMELINE_OPTIONS_VERSION */
    const jfr_allocator *allocator; /**< NULL: malloc */
    /** Keep at most this many intervals and points (0: no limit); later
     * ones are counted in the totals and jfr_timeline_dropped but not kept. */
    uint64_t max_intervals;
    /* version 2 */
    /** Above 0: samples (JFR_STATE_RUNNING and JFR_STATE_NATIVE points on
     * a lane) are not kept as points but counted per lane in time bins of
     * this many ns (jfr_timeline_sample_bins), so that memory grows with
     * the bins and not with the samples; they are never dropped. */
    int64_t sample_bin_nanos;
    /** Epoch ns where bin 0 starts; a sample before it counts in bin 0. */
    int64_t sample_bin_origin_nanos;
} jfr_timeline_options;

#define JFR_TIMELINE_OPTIONS_VERSION 2
/* clang-format off */
#define JFR_TIMELINE_OPTIONS_INIT {JFR_TIMELINE_OPTIONS_VERSION, NULL, 0, 0, 0}
/* clang-format on */

/** A time bin of a lane's samples (jfr_timeline_sample_bins). */
typedef struct jfr_timeline_bin {
    /** (start - sample_bin_origin_nanos) / sample_bin_nanos, 0 for a
     * sample that starts before the origin */
    uint64_t bin;
    uint64_t count; /**< samples in the bin, at least 1 */
} jfr_timeline_bin;

/**
 * Initialise `opts` as timeline options of version `version` (pass
 * JFR_TIMELINE_OPTIONS_VERSION), as JFR_TIMELINE_OPTIONS_INIT.
 * @return JFR_OK, or JFR_EINVAL for NULL or an unknown version.
 */
JFR_API int jfr_timeline_options_init(jfr_timeline_options *opts, unsigned version);

/**
 * Create an empty timeline (caller owns; jfr_timeline_free).
 * @return JFR_OK, JFR_EINVAL (unknown options version; detail in *err),
 *         JFR_ENOMEM.
 */
JFR_API int jfr_timeline_new(jfr_timeline **out, const jfr_timeline_options *opts,
                             jfr_error *err);

/**
 * Read the events of jfr_thread_state from one chunk. What was read
 * before an error counts.
 * @return JFR_OK, JFR_EINVAL (NULL, or the timeline is finished), or a
 *         negative code (detail in the chunk's recording error).
 */
JFR_API int jfr_timeline_add_chunk(jfr_timeline *tl, jfr_chunk *chunk);

/**
 * Put the lanes in their order and each lane's intervals in time order;
 * no chunk can be added afterwards. Lane order: platform threads first,
 * the busiest (most events) first, ties by name then tid; then virtual
 * threads by group name, then tid. Intervals are sorted by lane, start,
 * state, then the order read; the ones of no lane come last.
 * @return JFR_OK, JFR_EINVAL (NULL, or finished already), JFR_ENOMEM.
 */
JFR_API int jfr_timeline_finish(jfr_timeline *tl);

/** Number of lanes (threads); 0 before jfr_timeline_finish. */
JFR_API size_t jfr_timeline_thread_count(const jfr_timeline *tl);
/** Lane `i`, NULL when out of range or not finished. */
JFR_API const jfr_timeline_thread *jfr_timeline_thread_at(const jfr_timeline *tl,
                                                          size_t i);

/**
 * The events of state `state` on lane `thread` (JFR_TIMELINE_ALL_THREADS:
 * GC pauses and safepoints), kept or not: how many, and their durations
 * added up in ns. Either out-parameter may be NULL.
 * @return JFR_OK, JFR_EINVAL (not finished, or an index out of range).
 */
JFR_API int jfr_timeline_thread_total(uint64_t *count, int64_t *nanos,
                                      const jfr_timeline *tl, uint32_t thread,
                                      jfr_thread_state state);

/** Number of intervals and points kept; 0 before jfr_timeline_finish. */
JFR_API size_t jfr_timeline_interval_count(const jfr_timeline *tl);
/** Interval `i` (in the order of jfr_timeline_finish), NULL when out of
 * range or not finished. Ask for each by its index: the intervals are not
 * one array, and the pointer plus one is not interval i + 1. */
JFR_API const jfr_timeline_interval *jfr_timeline_interval_at(const jfr_timeline *tl,
                                                              size_t i);
/**
 * With sample_bin_nanos (options version 2): the samples of state `state`
 * (JFR_STATE_RUNNING or JFR_STATE_NATIVE) on lane `thread` as *count
 * bins, by bin number, none of them empty (*bins NULL when there are
 * none). They are made by jfr_timeline_finish and owned by the timeline.
 * Without sample_bin_nanos the samples are points among the intervals
 * and every lane has no bins.
 * @return JFR_OK, JFR_EINVAL (NULL, not finished, a lane out of range,
 *         JFR_TIMELINE_ALL_THREADS or a state that is not a sample's).
 */
JFR_API int jfr_timeline_sample_bins(const jfr_timeline_bin **bins, size_t *count,
                                     const jfr_timeline *tl, uint32_t thread,
                                     jfr_thread_state state);

/** Events not kept because of max_intervals. */
JFR_API uint64_t jfr_timeline_dropped(const jfr_timeline *tl);

/** Release the timeline. Accepts NULL. */
JFR_API void jfr_timeline_free(jfr_timeline *tl);

JFR_END_DECLS

#endif
