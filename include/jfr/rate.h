/* jfr/rate.h - rates over time estimated from weighted samples: how much a
 * profile kind's weight (bytes allocated) falls in each time bucket.
 *
 * A jdk.ObjectAllocationSample's weight is not an allocation at its
 * moment: it stands for the bytes its thread allocated since that thread's
 * previous allocation sample (JDK 16+, jfrObjectAllocationSample.cpp). Put
 * in the bucket of its timestamp, a thread that allocates steadily but is
 * sampled once a second shows a one-bucket spike of a second's bytes. A
 * rate spreads each such weight evenly over the interval it stands for,
 * per thread; weights of other events (the TLAB events of JDK 11 to 15,
 * which stand for a TLAB or an object allocated at their moment) stay in
 * their bucket. The sum over all buckets is the sum of the weights. */
#ifndef JFR_RATE_H
#define JFR_RATE_H

#include "common.h"
#include "error.h"
#include "options.h"
#include "profile.h"

JFR_BEGIN_DECLS

typedef struct jfr_rate jfr_rate;

/**
 * What a rate reads and how it cuts time. Initialise with
 * JFR_RATE_OPTIONS_INIT; strings are copied by jfr_rate_new.
 */
typedef struct jfr_rate_options {
    unsigned version; /**< JFR_RATE_OPTIONS_VERSION */
    /** A profile kind (jfr_profile_kinds) with a weight, "alloc": each
     * chunk's events are those the kind's profile reads in that chunk. */
    const char *kind;
    int64_t bucket_nanos;           /**< the width of a time bucket, > 0 */
    int64_t bucket_origin_nanos;    /**< epoch ns where bucket 0 starts */
    const jfr_allocator *allocator; /**< NULL: malloc */
} jfr_rate_options;

#define JFR_RATE_OPTIONS_VERSION 1
#define JFR_RATE_OPTIONS_INIT                                                            \
    {                                                                                    \
        JFR_RATE_OPTIONS_VERSION, NULL, 0, 0, NULL                                       \
    }

/**
 * Initialise `opts` as rate options of version `version` (pass
 * JFR_RATE_OPTIONS_VERSION), as JFR_RATE_OPTIONS_INIT: fields zero or NULL.
 * @return JFR_OK, or JFR_EINVAL for NULL or an unknown version.
 */
JFR_API int jfr_rate_options_init(jfr_rate_options *opts, unsigned version);

/** The most buckets a rate spans; weights beyond count in the nearest. */
#define JFR_RATE_MAX_BUCKETS (1u << 22)

/**
 * Create an empty rate.
 * @return JFR_OK, JFR_EINVAL (no kind, an unknown kind or one without a
 *         weight, bucket_nanos not positive, an unknown options version:
 *         detail in *err), JFR_ENOMEM.
 */
JFR_API int jfr_rate_new(jfr_rate **out, const jfr_rate_options *opts, jfr_error *err);

/**
 * Add the weights of one chunk. Chunks must come in the order they were
 * recorded (a recording's chunks in file order, then the next file's):
 * a jdk.ObjectAllocationSample is spread over [the same thread's previous
 * sample, its own time), and a thread's first sample over [the later of
 * the start of its recording's first chunk and the thread's
 * jdk.ThreadStart, its own time), since the JVM counts its first weight
 * from the first allocation it saw after the event was enabled. Threads
 * are told apart by their constant-pool key, which the JVM keeps for a
 * thread's life across chunks; a chunk of another input, or one that does
 * not start within a second of the end of the chunk added before it (a
 * file that concatenates recordings of several JVMs), starts the threads
 * afresh.
 * Weights that are not positive are left out.
 * @return JFR_OK or a negative code (detail in the chunk's recording
 *         error); weights read before an error stay.
 */
JFR_API int jfr_rate_add_chunk(jfr_rate *r, jfr_chunk *chunk);

/**
 * A bucket width for a span of time: the smallest round number of
 * milliseconds (1, 2 or 5 times a power of ten) that cuts `span_nanos`
 * into fewer than `max_buckets` buckets (at least 1 ms). jfrtool report
 * lays out its time axis so, and jfr_findings_add_recordings cuts the
 * allocation rate so.
 */
JFR_API int64_t jfr_rate_bucket_width(int64_t span_nanos, unsigned max_buckets);

/** The first bucket holding weight (it may be negative: before the
 * origin); 0 when there is none. */
JFR_API int64_t jfr_rate_first_bucket(const jfr_rate *r);
/** Number of buckets from the first bucket to the last holding weight. */
JFR_API size_t jfr_rate_bucket_count(const jfr_rate *r);
/** The weight estimated for bucket `bucket` (0 outside the range). */
JFR_API double jfr_rate_bucket(const jfr_rate *r, int64_t bucket);
/** The sum of the weights read: the sum of all buckets, up to rounding. */
JFR_API uint64_t jfr_rate_total(const jfr_rate *r);
/** Number of events whose weight was read. */
JFR_API uint64_t jfr_rate_events(const jfr_rate *r);
/** Of those, the ones spread over an interval. */
JFR_API uint64_t jfr_rate_spread_events(const jfr_rate *r);
/** The unit of the weights (jfr_profile_unit's rule). */
JFR_API jfr_unit jfr_rate_unit(const jfr_rate *r);
/** The options' bucket width and origin, in ns. */
JFR_API int64_t jfr_rate_bucket_nanos(const jfr_rate *r);
JFR_API int64_t jfr_rate_origin_nanos(const jfr_rate *r);

/** Release the rate. Accepts NULL. */
JFR_API void jfr_rate_free(jfr_rate *r);

JFR_END_DECLS

#endif
