/* jfr/findings.h - a short list of the problems a recording shows, each
 * with its evidence, from fixed rules in the manner of JDK Mission
 * Control's automated analysis (doc/report.md lists the rules and their
 * thresholds).
 *
 * An analysis is fed what the caller reads anyway: chunks (for garbage
 * collections, contended monitor enters and exception statistics, a few
 * events), profiles it built (CPU-time and execution samples by thread,
 * allocation by time bucket, exceptions) and a leak analysis. The first
 * call to jfr_findings_count evaluates the rules; adding more afterwards
 * evaluates them again on the next call. Strings are owned by the
 * analysis and live until jfr_findings_free. */
#ifndef JFR_FINDINGS_H
#define JFR_FINDINGS_H

#include "common.h"
#include "error.h"
#include "leaks.h"
#include "options.h"
#include "profile.h"
#include "rate.h"

JFR_BEGIN_DECLS

typedef struct jfr_findings jfr_findings;

typedef enum jfr_severity {
    JFR_SEVERITY_INFO = 0, /**< worth knowing, not a problem */
    JFR_SEVERITY_WARNING   /**< a problem worth a look */
} jfr_severity;

/** One finding. Fields may be added at the end (read through pointers). */
typedef struct jfr_finding {
    /** Stable rule id: "gc-pauses", "alloc-rate", "lock-contention",
     * "exceptions", "safepoint-bias", "cpu-lost", "hot-thread", "leak". */
    const char *id;
    jfr_severity severity;
    const char *title;    /**< "Long GC pauses", "Leak candidate: a.B.FIELD" */
    const char *evidence; /**< one sentence with the numbers */
    double value;         /**< what the rule measured (unit per rule) */
    double threshold;     /**< what it was compared with */
    int64_t at_nanos;     /**< when the worst case happened (epoch ns), 0: none */
    const char *subject;  /**< the thread or Class.field concerned, or NULL */
} jfr_finding;

/** Options for jfr_findings_new; initialise with JFR_FINDINGS_OPTIONS_INIT. */
typedef struct jfr_findings_options {
    unsigned version;               /**< JFR_FINDINGS_OPTIONS_VERSION */
    const jfr_allocator *allocator; /**< NULL: malloc */
} jfr_findings_options;

#define JFR_FINDINGS_OPTIONS_VERSION 1
#define JFR_FINDINGS_OPTIONS_INIT                                                        \
    {                                                                                    \
        JFR_FINDINGS_OPTIONS_VERSION, NULL                                               \
    }

/**
 * Create an empty analysis (caller owns; jfr_findings_free).
 * @return JFR_OK, JFR_EINVAL (unknown options version; detail in *err),
 *         JFR_ENOMEM.
 */
JFR_API int jfr_findings_new(jfr_findings **out, const jfr_findings_options *opts,
                             jfr_error *err);

/**
 * Read what the rules need from one chunk: its time span, and the
 * jdk.GarbageCollection, jdk.JavaMonitorEnter and jdk.ExceptionStatistics
 * events. What was read before an error counts.
 * @return JFR_OK, or a negative code (detail in the chunk's recording error).
 */
JFR_API int jfr_findings_add_chunk(jfr_findings *f, jfr_chunk *chunk);

/**
 * Take the facts of a profile of kind `kind` (jfr_profile_kinds): "cpu"
 * (its CPU-time accounting, and its samples by thread when it was made
 * with JFR_PROFILE_THREADS), "exec" (samples by thread, used when there is
 * no CPU-time profile), "alloc" (bytes over the recording, and per time
 * bucket when it was made with bucket_nanos) and "exceptions" (count).
 * Other kinds are accepted and ignored. The profile is only read.
 * @return JFR_OK, JFR_EINVAL, JFR_ENOMEM.
 */
JFR_API int jfr_findings_add_profile(jfr_findings *f, const char *kind,
                                     const jfr_profile *p);

/**
 * Take the allocation rate over time of a rate of kind "alloc"
 * (jfr/rate.h), whose sample weights are spread over the intervals they
 * stand for: the high-allocation rule's peak (bytes per one-second window
 * of whole buckets) comes from it instead of from the alloc profile's
 * time buckets, which put a sample's weight at its moment. Other kinds
 * are accepted and ignored. The rate is only read.
 * @return JFR_OK, JFR_EINVAL, JFR_ENOMEM.
 */
JFR_API int jfr_findings_add_rate(jfr_findings *f, const char *kind,
                                  const jfr_rate *rate);

/**
 * Take the best leak candidates of `lk` (up to three): each becomes a
 * "leak" finding naming the field where the leak grows.
 * @return JFR_OK, JFR_EINVAL, JFR_ENOMEM.
 */
JFR_API int jfr_findings_add_leaks(jfr_findings *f, jfr_leaks *lk);

/** Evaluate the rules (again if anything was added) and count the
 * findings, in a fixed order of rules. 0 when out of memory. */
JFR_API size_t jfr_findings_count(jfr_findings *f);

/** Finding `i`, or NULL when out of range. Borrowed, valid until the next
 * jfr_findings_add_* or jfr_findings_free. */
JFR_API const jfr_finding *jfr_findings_at(jfr_findings *f, size_t i);

/** Release the analysis. Accepts NULL. */
JFR_API void jfr_findings_free(jfr_findings *f);

JFR_END_DECLS

#endif
