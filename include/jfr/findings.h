/* jfr/findings.h - a short list of the problems a recording shows, each
 * with its evidence, from rules in the manner of JDK Mission Control's
 * automated analysis (doc/report.md lists the rules and their thresholds).
 *
 * A rule is a row of data (jfr_rule): an id, a severity, what it reads,
 * a condition over the columns of what it read, and templates for its
 * title and evidence. What a rule reads is either a fact the library
 * computes (jfr_findings_facts: CPU-time accounting, samples by thread,
 * the allocation rate, exceptions, leak candidates) or rows its caller
 * adds (jfr_findings_add_row): the SQL layer (sql/, doc/sql.md) runs the
 * rules written as SQL over the recording's tables and adds their rows.
 * An analysis starts with the library's own rules over facts
 * (jfr_findings_builtin_rules) unless its options say otherwise.
 *
 * The facts come from what the caller reads anyway: chunks (for the
 * recording's span and exception statistics), profiles it built
 * (CPU-time and execution samples by thread, allocation, exceptions), an
 * allocation rate and a leak analysis; or all of them at once from
 * recordings (jfr_findings_add_recordings). jfr_findings_evaluate then
 * runs the rules, and jfr_findings_count and jfr_findings_at read what
 * they found (they build nothing). Strings are owned by the analysis and
 * live until jfr_findings_free. */
#ifndef JFR_FINDINGS_H
#define JFR_FINDINGS_H

#include "common.h"
#include "error.h"
#include "leaks.h"
#include "options.h"
#include "profile.h"
#include "rate.h"
#include "recording.h"

JFR_BEGIN_DECLS

typedef struct jfr_findings jfr_findings;

typedef enum jfr_severity {
    JFR_SEVERITY_INFO = 0, /**< worth knowing, not a problem */
    JFR_SEVERITY_WARNING   /**< a problem worth a look */
} jfr_severity;

/** One finding. Fields may be added at the end (read through pointers). */
typedef struct jfr_finding {
    /** The id of the rule that fired: "gc-pauses", "alloc-rate",
     * "lock-contention", "exceptions", "safepoint-bias", "cpu-lost",
     * "hot-thread", "leak", ... (doc/report.md), or a user rule's. */
    const char *id;
    jfr_severity severity;
    const char *title;    /**< "Long GC pauses", "Leak candidate: a.B.FIELD" */
    const char *evidence; /**< one sentence with the numbers */
    /** The column of the rule's first comparison, and the number it was
     * compared with (NaN and 0 for a rule without a condition). */
    double value;
    double threshold;
    int64_t at_nanos;    /**< when the worst case happened (epoch ns), 0: none */
    const char *subject; /**< the thread or Class.field concerned, or NULL */
    /** Where a report shows the evidence: page anchors separated by
     * spaces, the first that the page has ("#profile-lock #profiles"),
     * or NULL. */
    const char *link;
    const char *source; /**< where the rule was written ("built-in", "ci.rules:12") */
    size_t rule;        /**< the rule's index (jfr_findings_rule_at) */
    /** The finding's name among the findings: its id, numbered ("leak-1",
     * "leak-2") when its rule may fire more than once (max > 1). */
    const char *key;
} jfr_finding;

/** Options for jfr_findings_new; initialise with JFR_FINDINGS_OPTIONS_INIT. */
typedef struct jfr_findings_options {
    unsigned version;               /**< JFR_FINDINGS_OPTIONS_VERSION */
    const jfr_allocator *allocator; /**< NULL: malloc */
    unsigned flags;                 /**< JFR_FINDINGS_* (version 2) */
} jfr_findings_options;

/** Start without the built-in rules: the caller adds every rule. */
#define JFR_FINDINGS_NO_RULES 1u

#define JFR_FINDINGS_OPTIONS_VERSION 2
#define JFR_FINDINGS_OPTIONS_INIT                                                        \
    {                                                                                    \
        JFR_FINDINGS_OPTIONS_VERSION, NULL, 0                                            \
    }

/**
 * A rule: one row of data. Initialise with JFR_RULE_INIT; strings are
 * copied by jfr_findings_add_rule.
 *
 * The rule reads rows with named columns: a fact's (`fact`), or those
 * the caller adds. Each row is tested against `condition`, a
 * disjunction of conjunctions of comparisons of a column with a number:
 * "longest_ms >= 100 or pause_share >= 0.05", "share >= 0.75 and
 * samples >= 100" (operators < <= > >= = != ; a number may end in KiB,
 * MiB, GiB or TiB; a NULL column makes its comparison false). An empty
 * condition passes every row. The first `max` rows that pass each make
 * a finding, whose title, evidence and subject are the templates filled
 * from that row: "{name}" is a column's value (an integer as is, a real
 * number with one decimal, NULL as N/A), "{name:.2f}" with two
 * decimals, "{name:.1%}" times 100 with one decimal and a per cent sign,
 * "{name:d}" rounded to an integer, "{name:bytes}" in binary units
 * ("1.5 GiB"); "{{" and "}}" are braces. A column named "at" (epoch ns)
 * gives the finding's time.
 */
typedef struct jfr_rule {
    unsigned version;      /**< JFR_RULE_VERSION */
    const char *id;        /**< letters, digits, '.', '_' and '-' */
    jfr_severity severity; /**< of its findings */
    const char *title;     /**< template */
    const char *evidence;  /**< template */
    const char *subject;   /**< template, or NULL */
    /** A fact of jfr_findings_facts, or NULL: the caller names the
     * columns (jfr_findings_set_columns) and adds the rows. */
    const char *fact;
    const char *condition; /**< NULL or "": every row passes */
    const char *link;      /**< for a report page, or NULL (jfr_finding.link) */
    unsigned max;          /**< findings at most; 0: 1 */
    const char *source;    /**< for messages: "ci.rules:12"; NULL: "built-in" */
} jfr_rule;

#define JFR_RULE_VERSION 1
#define JFR_RULE_INIT                                                                    \
    {                                                                                    \
        JFR_RULE_VERSION, NULL, JFR_SEVERITY_WARNING, NULL, NULL, NULL, NULL, NULL,      \
            NULL, 0, NULL                                                                \
    }

/**
 * Initialise `rule` as a rule of version `version` (pass
 * JFR_RULE_VERSION), as JFR_RULE_INIT: severity JFR_SEVERITY_WARNING,
 * every other field zero or NULL.
 * @return JFR_OK, or JFR_EINVAL for NULL or an unknown version.
 */
JFR_API int jfr_rule_init(jfr_rule *rule, unsigned version);

/** A column of a fact. */
typedef struct jfr_fact_column {
    const char *name;        /**< "biased_share" */
    const char *description; /**< one line */
} jfr_fact_column;

/** A fact the library computes for rules to read: rows of columns. */
typedef struct jfr_fact {
    const char *name;        /**< "cpu-time" */
    const char *description; /**< one line: what it reads, how many rows */
    const jfr_fact_column *columns;
    size_t ncolumns;
} jfr_fact;

/** The facts, in a fixed order (static data; *count set). */
JFR_API const jfr_fact *jfr_findings_facts(size_t *count);

/** The library's own rules over facts, in the order an analysis starts
 * with them (static data; *count set). */
JFR_API const jfr_rule *jfr_findings_builtin_rules(size_t *count);

/** A value in a row a caller adds. */
typedef enum jfr_cell_type {
    JFR_CELL_NULL = 0,
    JFR_CELL_INTEGER,
    JFR_CELL_REAL,
    JFR_CELL_TEXT
} jfr_cell_type;

typedef struct jfr_cell {
    jfr_cell_type type;
    int64_t integer;  /**< JFR_CELL_INTEGER */
    double real;      /**< JFR_CELL_REAL */
    const char *text; /**< JFR_CELL_TEXT (copied by jfr_findings_add_row) */
} jfr_cell;

/**
 * Initialise `opts` as findings options of version `version` (pass
 * JFR_FINDINGS_OPTIONS_VERSION), as JFR_FINDINGS_OPTIONS_INIT.
 * @return JFR_OK, or JFR_EINVAL for NULL or an unknown version.
 */
JFR_API int jfr_findings_options_init(jfr_findings_options *opts, unsigned version);

/**
 * Create an analysis (caller owns; jfr_findings_free) holding the
 * built-in rules, or none with JFR_FINDINGS_NO_RULES.
 * @return JFR_OK, JFR_EINVAL (unknown options version; detail in *err),
 *         JFR_ENOMEM.
 */
JFR_API int jfr_findings_new(jfr_findings **out, const jfr_findings_options *opts,
                             jfr_error *err);

/**
 * Add rule `rule` after the others; *index (may be NULL) is its index.
 * Its id, fact, templates and condition are checked (for a fact rule,
 * against the fact's columns).
 * @return JFR_OK, JFR_EINVAL (what is wrong in *err, naming the rule and
 *         its source), JFR_ENOMEM.
 */
JFR_API int jfr_findings_add_rule(size_t *index, jfr_findings *f, const jfr_rule *rule,
                                  jfr_error *err);

/** The number of rules, and rule `i` (NULL when out of range; borrowed,
 * valid until jfr_findings_free). */
JFR_API size_t jfr_findings_rule_count(const jfr_findings *f);
JFR_API const jfr_rule *jfr_findings_rule_at(const jfr_findings *f, size_t i);

/**
 * Name the columns of the rows of rule `rule` (one that reads no fact),
 * before its first row: its templates and condition are checked against
 * them.
 * @return JFR_OK, JFR_EINVAL (a fact rule, columns named twice, or a
 *         template or condition naming a column that is not there:
 *         detail in *err), JFR_ENOMEM.
 */
JFR_API int jfr_findings_set_columns(jfr_findings *f, size_t rule,
                                     const char *const *names, size_t n, jfr_error *err);

/**
 * Add a row for rule `rule`: one cell per column set by
 * jfr_findings_set_columns, in order. Rows are tested in the order added,
 * as they come: only the first `max` that pass the rule's condition are
 * kept.
 * @return JFR_OK, JFR_DONE (the rule has its `max` rows: more would not
 *         be kept, the caller may stop), JFR_EINVAL (no columns set, a
 *         fact rule), JFR_ENOMEM.
 */
JFR_API int jfr_findings_add_row(jfr_findings *f, size_t rule, const jfr_cell *cells);

/**
 * Read what the facts need from one chunk: its time span and the
 * jdk.ExceptionStatistics events. What was read before an error counts.
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
 * stand for: the allocation fact's peak (bytes per one-second window
 * of whole buckets) comes from it instead of from the alloc profile's
 * time buckets, which put a sample's weight at its moment. Other kinds
 * are accepted and ignored. The rate is only read.
 * @return JFR_OK, JFR_EINVAL, JFR_ENOMEM.
 */
JFR_API int jfr_findings_add_rate(jfr_findings *f, const char *kind,
                                  const jfr_rate *rate);

/**
 * Take the best leak candidates of `lk` (up to three): the rows of the
 * "leaks" fact.
 * @return JFR_OK, JFR_EINVAL, JFR_ENOMEM.
 */
JFR_API int jfr_findings_add_leaks(jfr_findings *f, jfr_leaks *lk);

/**
 * Everything the facts need from recordings `recs` (read as one
 * recording, each from its first chunk; their iteration is left at the
 * end): every chunk (jfr_findings_add_chunk), the cpu, exec, alloc and
 * exceptions profiles with thread roots, the allocation rate over
 * buckets as wide as jfr_rate_bucket_width gives for the recordings'
 * span (jfrtool report's time axis, so that both find the same peak)
 * and the leak analysis. Damaged chunks are passed over, as a report
 * reads past them; their errors are the recordings' own.
 * @return JFR_OK, JFR_EINVAL, JFR_ENOMEM.
 */
JFR_API int jfr_findings_add_recordings(jfr_findings *f, jfr_recording *const *recs,
                                        size_t n);

/**
 * Evaluate the rules, rule after rule in their order, over what was
 * added: after it jfr_findings_count and jfr_findings_at give the
 * findings, until the next jfr_findings_add_* or jfr_findings_set_columns
 * (call it again then). Evaluating twice with nothing added in between
 * does nothing.
 * @return JFR_OK, JFR_EINVAL (`f` NULL), JFR_ENOMEM (no findings then).
 */
JFR_API int jfr_findings_evaluate(jfr_findings *f);

/** The number of findings of the last jfr_findings_evaluate; 0 before
 * it, after anything was added since, or for NULL. */
JFR_API size_t jfr_findings_count(const jfr_findings *f);

/** Finding `i` of the last jfr_findings_evaluate, or NULL when out of
 * range (jfr_findings_count). Borrowed, valid until the next
 * jfr_findings_add_*, jfr_findings_evaluate or jfr_findings_free. */
JFR_API const jfr_finding *jfr_findings_at(const jfr_findings *f, size_t i);

/** Release the analysis. Accepts NULL. */
JFR_API void jfr_findings_free(jfr_findings *f);

JFR_END_DECLS

#endif
