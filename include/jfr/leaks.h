/* jfr/leaks.h - leak candidates from old-object samples (jdk.OldObjectSample).
 *
 * An analysis is fed one chunk at a time (jfr_leaks_add_chunk), across any
 * number of chunks and files. Every jdk.OldObjectSample is decoded by the
 * chunk's metadata (JDK 11 to 25; fields a JDK lacks read as absent) and
 * copied, with its reference chain, into the analysis, so results outlive
 * the chunks. jfr_leaks_build_trees merges the chains into trees and scores
 * them; the result functions (jfr_leaks_candidate_count and the other tree
 * functions) read what it built and build nothing. Adding chunks
 * afterwards makes the trees stale until the next jfr_leaks_build_trees.
 *
 * Trees: every object of every chain becomes a node, keyed by its address
 * within one recording; a chain's root-most object is a tree root. A node
 * counts the samples whose chain passes through it. Scoring (doc/leaks.md):
 *
 *     relevance = (kept / kept_by_root) * distance * (kept / all_samples)
 *
 * with distance the number of references from the root, omitted ones
 * ("skip") included, and all_samples the samples of the same recording. Per tree the best node above the threshold is a
 * candidate; its samples are then taken out of its ancestors and the next
 * best is considered, so one root can hold several leaks.
 *
 * Warm-up: as JDK Mission Control does, warm-up ends at the first
 * jdk.ClassLoadingStatistics event above 90% of the largest loaded-class
 * count; samples written before then are left out (doc/leaks.md).
 *
 * Each chunk repeats the samples that are still alive; an object sampled in
 * several batches counts once, with its latest chain.
 *
 * All strings returned here are owned by the analysis (interned) and live
 * until jfr_leaks_free. */
#ifndef JFR_LEAKS_H
#define JFR_LEAKS_H

#include "common.h"
#include "error.h"
#include "options.h"

JFR_BEGIN_DECLS

typedef struct jfr_leaks jfr_leaks;

/** "No node": a sample without a decoded object, a tree root's parent. */
#define JFR_LEAK_NONE UINT32_MAX

/**
 * Options for jfr_leaks_new. Initialise with JFR_LEAKS_OPTIONS_INIT.
 * A value of 0 means the default (given in brackets).
 */
typedef struct jfr_leaks_options {
    unsigned version;               /**< JFR_LEAKS_OPTIONS_VERSION */
    double threshold;               /**< minimum relevance of a candidate [0.5] */
    uint32_t max_chain;             /**< objects followed per chain [1024] */
    uint32_t max_frames;            /**< allocation-stack frames kept [64] */
    bool keep_warmup;               /**< also use samples written during warm-up */
    const jfr_allocator *allocator; /**< NULL: malloc */
} jfr_leaks_options;

#define JFR_LEAKS_OPTIONS_VERSION 1
/* a braced initialiser, which clang-format would lay out as a block */
/* clang-format off */
#define JFR_LEAKS_OPTIONS_INIT {JFR_LEAKS_OPTIONS_VERSION, 0, 0, 0, false, NULL}
/* clang-format on */

/**
 * Initialise `opts` as leak options of version `version` (pass
 * JFR_LEAKS_OPTIONS_VERSION), as JFR_LEAKS_OPTIONS_INIT: every default.
 * @return JFR_OK, or JFR_EINVAL for NULL or an unknown version.
 */
JFR_API int jfr_leaks_options_init(jfr_leaks_options *opts, unsigned version);

/**
 * Create an empty analysis (caller owns; jfr_leaks_free).
 * @return JFR_OK, JFR_EINVAL (bad options; detail in *err), JFR_ENOMEM.
 */
JFR_API int jfr_leaks_new(jfr_leaks **out, const jfr_leaks_options *opts, jfr_error *err);

/**
 * Add the jdk.OldObjectSample events (and the jdk.ClassLoadingStatistics
 * events, for the warm-up rule) of one chunk. A chunk with index 0 starts a
 * new recording: object addresses of different recordings never merge.
 * Damaged chains (a cycle, a reference to an undefined pool entry, a chain
 * longer than max_chain) end where the damage is and are counted in
 * jfr_leaks_stats; they are not errors.
 * @return JFR_OK, or a negative code from reading the chunk (detail in the
 *         chunk's recording error); samples read before the error are kept.
 */
JFR_API int jfr_leaks_add_chunk(jfr_leaks *lk, jfr_chunk *chunk);

/** Counts over everything added. */
typedef struct jfr_leaks_stats {
    uint64_t samples;        /**< jdk.OldObjectSample events read */
    uint64_t used;           /**< samples in the trees (after warm-up, once each) */
    uint64_t warmup_skipped; /**< samples written during warm-up */
    uint64_t repeated;       /**< samples of an object sampled again later */
    uint64_t with_chain;     /**< samples with at least one referrer */
    uint64_t broken_chains;  /**< chains ended early by damage: */
    uint64_t cycles;         /**<   an object seen twice in one chain */
    uint64_t dangling;       /**<   a reference to an undefined entry */
    uint64_t too_long;       /**<   longer than max_chain */
    uint64_t recordings;     /**< recordings seen (chunks with index 0) */
} jfr_leaks_stats;

/**
 * Merge the chains into trees and score them (again after chunks were
 * added; nothing to do when the trees are current). Call it before the
 * result functions.
 * @return JFR_OK, JFR_EINVAL (NULL), JFR_ENOMEM.
 */
JFR_API int jfr_leaks_build_trees(jfr_leaks *lk);

/** The counts (`used`, `warmup_skipped` and `repeated` as of the last
 * jfr_leaks_build_trees). Borrowed from the analysis. */
JFR_API const jfr_leaks_stats *jfr_leaks_stats_get(const jfr_leaks *lk);

/** The warm-up rule's outcome for one recording. */
typedef struct jfr_leaks_warmup {
    bool measured;        /**< the recording has jdk.ClassLoadingStatistics */
    bool visible;         /**< class loading was seen settling */
    int64_t end_nanos;    /**< when it settled (epoch ns), if visible */
    uint64_t max_classes; /**< the largest loaded-class count seen */
    uint64_t samples;     /**< samples of this recording */
    uint64_t skipped;     /**< of those, written before end_nanos */
    uint64_t used;        /**< of those, in the trees (once each) */
} jfr_leaks_warmup;

/** Number of recordings (one jfr_leaks_warmup each). */
JFR_API size_t jfr_leaks_recording_count(const jfr_leaks *lk);
/** Warm-up of recording `i` as of the last jfr_leaks_build_trees, or NULL
 * when out of range. Borrowed. */
JFR_API const jfr_leaks_warmup *jfr_leaks_warmup_at(const jfr_leaks *lk, size_t i);

/* ---- samples ---------------------------------------------------------------- */

/** One frame of an allocation stack; names as stored (internal form). */
typedef struct jfr_leak_frame {
    const char *class_name; /**< "java/util/HashMap", or NULL */
    const char *method;     /**< "resize", or NULL */
    const char *descriptor; /**< "()[Ljava/util/HashMap$Node;", or NULL */
    int32_t line;           /**< -1 when unknown */
    uint64_t class_key;     /**< the class's pool key (JVM class id) */
    /** The class has a class loader other than the bootstrap loader
     * (the JDK's "application frame"). */
    bool application;
} jfr_leak_frame;

/** A decoded jdk.OldObjectSample. Absent fields are as noted. */
typedef struct jfr_leak_sample {
    uint32_t recording;  /**< index among recordings */
    int64_t start_nanos; /**< event start (epoch ns) */
    int64_t end_nanos;   /**< start + duration */
    bool has_allocation_time;
    int64_t allocation_nanos; /**< allocationTime (epoch ns) */
    int64_t age_nanos;        /**< objectAge, -1 when absent */
    int64_t heap_usage;       /**< lastKnownHeapUsage, -1 when absent */
    int64_t object_size;      /**< objectSize (JDK 25+), -1 when absent */
    bool has_array_elements;
    int32_t array_elements; /**< INT32_MIN when not an array */
    const char *thread;     /**< Java name, else OS name; NULL if none */
    /* the sampled object */
    uint64_t address;
    const char *object_type;   /**< Java form: "byte[]", "java.lang.String"; NULL */
    uint64_t object_class_key; /**< pool key of its class, 0 when none */
    const char *description;   /**< NULL when none */
    /* the GC root (NULL strings when no path was recorded) */
    const char *root_system;
    const char *root_type;
    const char *root_description;
    /* the allocation stack, innermost frame first */
    size_t nframes;
    const jfr_leak_frame *frames;
    bool frames_truncated; /**< more frames than recorded or kept */
    /** Index of the first application frame in frames, or -1. */
    int32_t app_frame;
    size_t chain_length; /**< referrers recorded (0: no chain) */
    bool chain_broken;   /**< the chain ended at damage */
    bool after_warmup;   /**< written after warm-up */
    /** The same object (allocation time, type, thread) was sampled again in
     * a later batch of the recording: only the latest one is used. */
    bool repeated;
    uint32_t node; /**< its node, or JFR_LEAK_NONE when not used */
} jfr_leak_sample;

/** Number of samples, in the order they were read. */
JFR_API size_t jfr_leaks_sample_count(const jfr_leaks *lk);
/**
 * Sample `i`, or NULL when out of range. Borrowed; `node` and
 * `after_warmup` are set by the merge (call a tree function first).
 */
JFR_API const jfr_leak_sample *jfr_leaks_sample_at(const jfr_leaks *lk, size_t i);

/* ---- trees ------------------------------------------------------------------ */

/** One object of the merged reference trees. */
typedef struct jfr_leak_node {
    uint64_t address;
    const char *type;        /**< Java form, "java.util.HashMap$Node[]"; NULL */
    const char *description; /**< "Class Name: wl.Foo", "Size: 12"; NULL */
    uint32_t parent;         /**< the referrer, JFR_LEAK_NONE for a root */
    uint32_t tree;           /**< index of its tree (jfr_leaks_tree_at) */
    /* the reference from the parent to this node */
    const char *field;   /**< field name, NULL for an array element */
    int32_t modifiers;   /**< the field's JVM modifiers */
    int32_t array_index; /**< element index, -1 for a field */
    int32_t array_size;  /**< the array's length, -1 for a field */
    int64_t skip;        /**< references omitted between parent and this */
    uint32_t depth;      /**< recorded references from the root */
    uint64_t distance;   /**< depth plus all skipped references */
    uint64_t samples;    /**< samples whose chain passes through (or ends) here */
    double relevance;    /**< the score above; 0 for roots */
    bool sampled;        /**< this object was itself sampled */
} jfr_leak_node;

/** Number of nodes in all trees; 0 when the trees are not built
 * (jfr_leaks_build_trees) or stale. */
JFR_API size_t jfr_leaks_node_count(const jfr_leaks *lk);
/** Node `id`, or NULL when out of range. Borrowed. */
JFR_API const jfr_leak_node *jfr_leaks_node_at(const jfr_leaks *lk, uint32_t id);
/** True when `ancestor` is `node` or lies on its path to the root. */
JFR_API bool jfr_leaks_node_within(const jfr_leaks *lk, uint32_t node, uint32_t ancestor);

/** One tree: a root object and what keeps it alive. */
typedef struct jfr_leak_tree {
    uint32_t root;           /**< the root-most recorded object */
    const char *system;      /**< GC root system, e.g. "VM Global"; NULL */
    const char *type;        /**< GC root type, e.g. "Global Object Handle" */
    const char *description; /**< NULL when none */
    uint64_t samples;        /**< samples in the tree */
    uint32_t recording;      /**< index among recordings */
} jfr_leak_tree;

/** Number of trees; 0 when not built (jfr_leaks_build_trees) or stale. */
JFR_API size_t jfr_leaks_tree_count(const jfr_leaks *lk);
/** Tree `i`, or NULL when out of range. Borrowed. */
JFR_API const jfr_leak_tree *jfr_leaks_tree_at(const jfr_leaks *lk, size_t i);

/* ---- candidates ------------------------------------------------------------- */

/** A leak candidate, best first. */
typedef struct jfr_leak_candidate {
    uint32_t node; /**< the object that scored best */
    /**
     * The node whose incoming reference is where the leak grows: the
     * nearest reference at or above `node` held by a field of a class
     * outside the JDK (java., javax., jdk., sun., com.sun.), else `node`.
     * Its parent is the holding object; a java.lang.Class holder stands for
     * the static fields of the class its description names.
     */
    uint32_t site;
    uint32_t tree;
    uint32_t recording;    /**< index among recordings */
    uint64_t samples;      /**< samples kept alive by `node` */
    uint64_t root_samples; /**< samples of the root when it was picked */
    double share_of_root;  /**< samples / root_samples */
    double share_of_all;   /**< samples / samples used of the recording */
    double relevance;
} jfr_leak_candidate;

/** Number of candidates above the threshold; 0 when the trees are not
 * built (jfr_leaks_build_trees) or stale. */
JFR_API size_t jfr_leaks_candidate_count(const jfr_leaks *lk);
/** Candidate `i` (0 is the best), or NULL. Borrowed. */
JFR_API const jfr_leak_candidate *jfr_leaks_candidate_at(const jfr_leaks *lk, size_t i);

/**
 * The display name of the holder of `node`'s incoming reference: for a
 * java.lang.Class whose description is "Class Name: X", X (a static
 * field); else the parent's type. NULL for a root. Owned by the analysis.
 */
JFR_API const char *jfr_leaks_holder_name(const jfr_leaks *lk, uint32_t node);

/* ---- rankings (also the fallback without chains) ---------------------------- */

typedef enum jfr_leaks_rank_by {
    JFR_LEAKS_BY_CLASS = 0, /**< the sampled object's type */
    JFR_LEAKS_BY_SITE       /**< the first application frame of the stack */
} jfr_leaks_rank_by;

/** One row of a ranking. */
typedef struct jfr_leak_rank {
    const char *name; /**< type, or "pkg.Class.method(Params)"; "N/A" */
    uint64_t samples;
    int64_t first_allocation_nanos; /**< earliest allocation time, 0: none */
    int64_t last_allocation_nanos;  /**< latest allocation time */
} jfr_leak_rank;

/**
 * Rank the samples in the trees (after warm-up, once each) by class or by
 * allocation site (the first application frame, else the top frame), most
 * samples first, ties by name. With `within` a node id, only
 * samples whose chain passes through it; JFR_LEAK_NONE for all. The rows
 * are owned by the analysis and valid until the next call of this function.
 * @return JFR_OK, JFR_EINVAL, JFR_ENOMEM.
 */
JFR_API int jfr_leaks_rank(const jfr_leak_rank **rows, size_t *count, jfr_leaks *lk,
                           jfr_leaks_rank_by by, uint32_t within);

/** Release the analysis. Accepts NULL. */
JFR_API void jfr_leaks_free(jfr_leaks *lk);

JFR_END_DECLS

#endif
