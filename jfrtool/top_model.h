/* top_model.h - what `jfrtool top` shows, kept per second of event time:
 * for each profile kind the methods' self and total weights (from a
 * profile of each flush, jfr_profile_add_chunk with one-second time
 * buckets), and the JVM's CPU load, GC pauses and lost CPU-time samples.
 * Seconds older than a minute are dropped. */
#ifndef JFRTOOL_TOP_MODEL_H
#define JFRTOOL_TOP_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include <jfr.h>

/** The kinds top can show; cpu falls back to exec samples. */
typedef enum top_kind {
    TOP_CPU,
    TOP_EXEC,
    TOP_ALLOC,
    TOP_LOCK,
    TOP_IO,
    TOP_KINDS
} top_kind;

/** Seconds of history kept (the sparklines' minute). */
#define TOP_HISTORY 60

typedef struct top_model top_model;

/** One method's weights over the window, and its share per second. */
typedef struct top_row {
    const char *name;
    uint64_t self, total;
    double spark
        [TOP_HISTORY]; /**< total share per second, oldest first; -1: no samples that second */
} top_row;

/** What the header line says. */
typedef struct top_header {
    bool has_cpu_load;
    double jvm_user, jvm_system, machine; /**< the last jdk.CPULoad, 0..1 */
    uint64_t gc_pauses;                   /**< jdk.GarbageCollection in the window */
    int64_t gc_pause_nanos, gc_longest_nanos;
    uint64_t lost;    /**< jdk.CPUTimeSamplesLost.lostSamples in the window */
    uint64_t samples; /**< samples of the kind shown, in the window */
    uint64_t weight;  /**< their weight */
} top_header;

top_model *top_model_new(void);
void top_model_free(top_model *m);

/** Add what a flush added; false (after a message) when it could not be read. */
bool top_model_add(top_model *m, const jfr_flush *fl);

/** Drop the seconds before `now_sec` - TOP_HISTORY. */
void top_model_expire(top_model *m, int64_t now_sec);

/** The kind really shown for `k`: TOP_CPU becomes TOP_EXEC when the last
 * minute has no CPU-time samples. */
top_kind top_model_effective(const top_model *m, top_kind k, int64_t now_sec);

/**
 * The `max` heaviest methods of kind `k` over the `window` seconds before
 * `now_sec`, by self (or total) weight; *n receives their number. The rows
 * live until the next call. `hdr` receives the header's numbers.
 */
const top_row *top_model_rows(top_model *m, top_kind k, int64_t now_sec, int window,
                              bool by_total, size_t max, size_t *n, top_header *hdr);

/** The kind's name ("cpu") and what it reads ("CPU-time samples"). */
const char *top_kind_name(top_kind k);
const char *top_kind_label(top_kind k);

#endif
