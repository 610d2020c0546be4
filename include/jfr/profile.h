/* jfr/profile.h - stack aggregation: select samples, count them by stack,
 * merge across chunks and recordings, and walk the resulting call tree.
 *
 * A profile is fed one chunk at a time (jfr_profile_add_chunk). Inside a
 * chunk, samples are counted by stack-trace key first and each distinct
 * stack is resolved once; resolved frames are interned in the profile, so
 * the same method in different chunks or files merges. Memory grows with
 * the number of distinct stacks and frames, never with the number of
 * samples. */
#ifndef JFR_PROFILE_H
#define JFR_PROFILE_H

#include "common.h"
#include "options.h"
#include "stack.h"

JFR_BEGIN_DECLS

typedef struct jfr_profile jfr_profile;

/** How a frame is shown and merged. */
#define JFR_PROFILE_LINES      0x1u /**< frames differ by line number */
#define JFR_PROFILE_THREADS    0x2u /**< a root frame "[thread NAME tid=N]" */
#define JFR_PROFILE_FRAME_KIND 0x4u /**< frames differ by frame kind */
#define JFR_PROFILE_SIGNATURES 0x8u /**< method names carry "(int, long)" */

/** What a sample of a CPU-time event stands for (JEP 509). */
typedef struct jfr_cpu_accounting {
    uint64_t samples;         /**< jdk.CPUTimeSample events selected */
    uint64_t with_stack;      /**< samples with a stack trace */
    uint64_t failed;          /**< samples whose stack walk failed */
    uint64_t biased;          /**< samples taken at a safepoint */
    uint64_t lost;            /**< sum of jdk.CPUTimeSamplesLost.lostSamples */
    uint64_t period_ns;       /**< sum of samplingPeriod of the samples */
} jfr_cpu_accounting;

/**
 * Which samples to take and how to weigh them. Initialise with
 * JFR_PROFILE_OPTIONS_INIT. Strings are copied by jfr_profile_new.
 */
typedef struct jfr_profile_options {
    unsigned version;            /**< JFR_PROFILE_OPTIONS_VERSION */
    const char *event_type;      /**< full event type name, required */
    /** Numeric field to weigh samples by (e.g. "weight" for allocation
     * samples, "samplingPeriod" for CPU-time samples, in ns for timespans);
     * NULL counts samples. */
    const char *weight_field;
    /** Thread field to filter and label by; NULL: "sampledThread" when the
     * type has it, else "eventThread". */
    const char *thread_field;
    const char *thread_regex;    /**< POSIX extended regex on the thread name */
    int64_t from_nanos;          /**< keep samples at or after (epoch ns), 0: all */
    int64_t to_nanos;            /**< keep samples before (epoch ns), 0: all */
    const char *include_regex;   /**< keep stacks with a frame matching */
    const char *exclude_regex;   /**< drop stacks with a frame matching */
    unsigned flags;              /**< JFR_PROFILE_* */
    const jfr_allocator *allocator; /**< NULL: malloc */
} jfr_profile_options;

#define JFR_PROFILE_OPTIONS_VERSION 1
#define JFR_PROFILE_OPTIONS_INIT \
    {JFR_PROFILE_OPTIONS_VERSION, NULL, NULL, NULL, NULL, 0, 0, NULL, NULL, 0, NULL}

/**
 * Create an empty profile.
 * @return JFR_OK, JFR_EINVAL (no event type, a bad regex: detail in *err),
 *         JFR_ENOMEM.
 */
JFR_API int jfr_profile_new(jfr_profile **out, const jfr_profile_options *opts,
                            jfr_error *err);

/**
 * Add the selected samples of one chunk. Chunks without the event type add
 * nothing. Errors in a chunk leave the samples counted before them.
 * @return JFR_OK or a negative code (detail in the chunk's recording error).
 */
JFR_API int jfr_profile_add_chunk(jfr_profile *p, jfr_chunk *chunk);

/** The sum of all weights (samples, bytes, ns) in the profile. */
JFR_API uint64_t jfr_profile_total(const jfr_profile *p);
/** Number of samples taken (unweighted). */
JFR_API uint64_t jfr_profile_samples(const jfr_profile *p);
/** CPU-time accounting; zeros unless the event type is jdk.CPUTimeSample. */
JFR_API const jfr_cpu_accounting *jfr_profile_cpu(const jfr_profile *p);

/* ---- distinct stacks (for folded output) ----------------------------------- */

/** Number of distinct stacks (after merging by resolved frames). */
JFR_API size_t jfr_profile_stack_count(const jfr_profile *p);

/**
 * Stack `i`: its weight and its frames from the root (outermost) to the
 * leaf, as frame ids (see jfr_profile_frame). Borrowed from the profile.
 */
JFR_API int jfr_profile_stack(const jfr_profile *p, size_t i, uint64_t *weight,
                              const uint32_t **frames, size_t *depth);

/** A resolved, interned frame, shared by every stack that holds it. */
typedef struct jfr_profile_frame {
    const char *name;       /**< "package.Class.method" (or synthetic "[...]") */
    const char *class_name; /**< "java.util.HashMap" or NULL for synthetic */
    const char *method;     /**< "get" */
    const char *signature;  /**< "(java.lang.Object)" parameter types, or "" */
    int32_t line;           /**< -1 unless JFR_PROFILE_LINES */
    jfr_frame_kind kind;
    bool synthetic;         /**< thread roots, [lost samples], [no stack trace] */
} jfr_profile_frame;

/** Frame `id` of this profile. Borrowed; NULL if out of range. */
JFR_API const jfr_profile_frame *jfr_profile_frame_at(const jfr_profile *p, uint32_t id);

/* ---- the call tree --------------------------------------------------------- */

/**
 * Node ids of the call tree: 0 is the root (all samples); children of a
 * node are sorted by frame name. Built on first use from the stacks.
 */
JFR_API size_t jfr_profile_node_count(jfr_profile *p);
JFR_API uint32_t jfr_profile_node_frame(const jfr_profile *p, size_t node);
JFR_API uint64_t jfr_profile_node_total(const jfr_profile *p, size_t node);
JFR_API uint64_t jfr_profile_node_self(const jfr_profile *p, size_t node);
JFR_API size_t jfr_profile_node_depth(const jfr_profile *p, size_t node);
/** Nodes are numbered in pre-order; children of `node` are the nodes
 * node+1 .. node+size-1 at depth+1. */
JFR_API size_t jfr_profile_node_size(const jfr_profile *p, size_t node);

/** Release the profile. Accepts NULL. */
JFR_API void jfr_profile_free(jfr_profile *p);

JFR_END_DECLS

#endif
