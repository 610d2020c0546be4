/* jfr/report.h - what a recording report shows besides its profiles, in
 * one call: one walk over the chunks of every input, in file order, that
 * gathers the overview (JVM, OS, CPU, command line, heap), the sampling
 * settings, the timelines' points (CPU load, heap, GC, pauses, threads,
 * safepoints, lost CPU-time samples), the leak analysis, the allocation
 * rate, the thread-state timeline and what could not be read, and feeds
 * the chunk facts of a findings object. jfrtool report renders it
 * (doc/report.md); the profiles of the same report come from
 * jfr_profile_build_many (jfr/profile.h), which may run at the same time
 * in another thread. */
#ifndef JFR_REPORT_H
#define JFR_REPORT_H

#include "common.h"
#include "error.h"
#include "findings.h"
#include "leaks.h"
#include "rate.h"
#include "recording.h"
#include "timeline.h"

JFR_BEGIN_DECLS

typedef struct jfr_report_data jfr_report_data;

/** What jfr_report_data_build reads and how it cuts time. Initialise with
 * jfr_report_data_options_init. */
typedef struct jfr_report_data_options {
    unsigned version; /**< JFR_REPORT_DATA_OPTIONS_VERSION */
    /** Time 0 of the series (epoch ns), usually the earliest start of the
     * inputs (jfr_recording_span_nanos); 0: the first chunk's start. */
    int64_t origin_nanos;
    /** Where the time axis ends at least (epoch ns): the data's end is the
     * latest of this, every chunk's end and every series point. */
    int64_t end_nanos;
    /** The width of the allocation rate's time buckets (from the origin
     * given), > 0. */
    int64_t bucket_nanos;
    /** The thread-state timeline's options (its sample bins start at the
     * data's origin whatever sample_bin_origin_nanos says); NULL: no
     * timeline. */
    const jfr_timeline_options *timeline;
    /** Fed every chunk read (jfr_findings_add_chunk); NULL: none. The
     * data does not own it. */
    jfr_findings *findings;
    /** Input i given as NULL is opened by open(i, err, user) when its
     * turn comes and freed when it is read (NULL with *err set: the open
     * error is a lost entry). May be NULL when every input is given. */
    jfr_recording *(*open)(size_t input, jfr_error *err, void *user);
    void *user; /**< for open */
} jfr_report_data_options;

#define JFR_REPORT_DATA_OPTIONS_VERSION 1

/**
 * Initialise `opts` as options of version `version` (pass
 * JFR_REPORT_DATA_OPTIONS_VERSION): every field zero or NULL.
 * @return JFR_OK, or JFR_EINVAL for NULL or an unknown version.
 */
JFR_API int jfr_report_data_options_init(jfr_report_data_options *opts, unsigned version);

/**
 * The report's data of `inputs` (`ninputs` recordings read from where
 * they are, each to its end; an input given NULL is opened by
 * opts->open): one walk in file order. What cannot be read (an input that
 * does not open, a chunk that does not, an event that cannot be decoded,
 * a chunk's warning) is a lost entry, and reading goes on. Inputs given
 * are not freed.
 * @param out the data (free with jfr_report_data_free), NULL on error
 * @return JFR_OK (also when nothing could be read: the summary's chunks
 *         is 0), JFR_EINVAL (bad arguments: detail in *err), JFR_ENOMEM.
 */
JFR_API int jfr_report_data_build(jfr_report_data **out, jfr_recording *const *inputs,
                                  size_t ninputs, const jfr_report_data_options *opts,
                                  jfr_error *err);

/** The time axis and the size of what was read. */
typedef struct jfr_report_summary {
    int64_t origin_nanos; /**< time 0 of the series (epoch ns) */
    /** The latest chunk end or series point (epoch ns), at least the
     * options' end_nanos. */
    int64_t end_nanos;
    uint64_t chunks;    /**< chunks that opened */
    uint64_t bytes;     /**< size of the inputs that opened (decompressed) */
    size_t inputs_read; /**< inputs that opened */
} jfr_report_summary;

/** The summary; NULL for NULL. */
JFR_API const jfr_report_summary *jfr_report_data_summary(const jfr_report_data *d);

/** A line of the overview or of the settings. */
typedef struct jfr_report_row {
    const char *key;   /**< "JVM", "OS", ...; "jdk.ExecutionSample period" */
    const char *value; /**< "OpenJDK 64-Bit Server VM", "20 ms" */
} jfr_report_row;

/**
 * The overview, in the order first met: "JVM", "JVM version", "Java
 * arguments", "JVM arguments", "Process id", "OS", "CPU", "Processors",
 * "Young collector", "Old collector", "Max heap" (those the recording
 * has; the first value of each is kept).
 * @param count set to the number of rows (0 for NULL)
 */
JFR_API const jfr_report_row *jfr_report_data_overview(size_t *count,
                                                       const jfr_report_data *d);

/**
 * The recording settings of the event types a report shows (samplers,
 * allocation, locks, parks, exceptions, I/O, GC): "TYPE SETTING" for the
 * settings enabled, period, throttle, threshold, cutoff and stackTrace,
 * in the order first met, each with its last value.
 */
JFR_API const jfr_report_row *jfr_report_data_settings(size_t *count,
                                                       const jfr_report_data *d);

/** The most columns of a series. */
#define JFR_REPORT_SERIES_COLUMNS 6

/**
 * A timeline's points: column 0 is the time in ms from the origin, the
 * others the event's fields (NaN when the event lacks one; durations in
 * ms); a text per point or NULL.
 */
typedef struct jfr_report_series {
    const char *name;       /**< "cpu", "heap", "gc", "pause", "threads", ... */
    const char *event_type; /**< "jdk.CPULoad", ... */
    size_t ncols;
    const char *cols[JFR_REPORT_SERIES_COLUMNS];     /**< "t", then field names */
    const double *values[JFR_REPORT_SERIES_COLUMNS]; /**< values[c][i] */
    const char *const *texts;                        /**< texts[i], NULL when none */
    size_t count;                                    /**< points */
} jfr_report_series;

/**
 * The series, in a fixed order: cpu (jdk.CPULoad: jvmUser, jvmSystem,
 * machineTotal), heap (jdk.GCHeapSummary: heapUsed, gcId; text: when),
 * gc (jdk.GarbageCollection: duration, longestPause, sumOfPauses, gcId;
 * text: "name (cause)"), pause (jdk.GCPhasePause: duration, gcId; text:
 * name), threads (jdk.JavaThreadStatistics: activeCount, daemonCount),
 * safepoints (jdk.SafepointBegin: duration, totalThreadCount), cpuLost
 * (jdk.CPUTimeSamplesLost: lostSamples).
 */
JFR_API const jfr_report_series *jfr_report_data_series(size_t *count,
                                                        const jfr_report_data *d);

/** Something that could not be read. */
typedef struct jfr_report_lost {
    size_t input;    /**< index of the input in the array given */
    jfr_error error; /**< what went wrong, and where (chunk, offset) */
    /** The events of that chunk after the error were not read. */
    bool rest_of_chunk;
} jfr_report_lost;

/** What could not be read, in the order met. */
JFR_API const jfr_report_lost *jfr_report_data_lost(size_t *count,
                                                    const jfr_report_data *d);

/** The leak analysis of every chunk, its trees built; owned by the data.
 * Not const: jfr_leaks_rank and jfr_findings_add_leaks take it. */
JFR_API jfr_leaks *jfr_report_data_leaks(const jfr_report_data *d);

/** The allocation rate ("alloc" kind) in buckets of the options' width. */
JFR_API const jfr_rate *jfr_report_data_alloc_rate(const jfr_report_data *d);

/** The thread-state timeline, finished (jfr_timeline_finish); NULL
 * without options' timeline or when no chunk was read. */
JFR_API const jfr_timeline *jfr_report_data_timeline(const jfr_report_data *d);

/** Release the data. Accepts NULL. */
JFR_API void jfr_report_data_free(jfr_report_data *d);

JFR_END_DECLS

#endif
