/* jfr/typefilter.h - naming event types: the one rule for every place where
 * a user names event types (jfrtool print --events/--categories, view TYPE,
 * the profiles' --event TYPE, SQL tables, scrub, the Python binding).
 *
 * A filter is text in the syntax of the JDK's `jfr print --events` and
 * `jfr scrub`: a comma-separated list of items, each trimmed of white space
 * (empty items are dropped). An item of a name filter selects the event
 * types whose full name ("jdk.ExecutionSample") or short name (the part
 * after the last dot, "ExecutionSample") it matches; an item of a category
 * filter selects the types with a @Category element it matches ("GC",
 * "Java Virtual Machine"), or whose element of several words it spells as
 * an acronym ("JVM" for "Java Virtual Machine"). An item matches a text
 * when they are equal, case and all, where '*' in the item stands for any
 * run of characters (none included) and '?' for one character. JFR 1.0's
 * event types (JDK 9 and 10: "com.oracle.jdk.ThreadPark") are named by
 * their later names ("jdk.ThreadPark") too, as jfr_chunk_event_type finds
 * them.
 *
 * An item that selects no event type of the inputs is an error, never an
 * empty selection: a jfr_type_set collects the event types that the chunks
 * of every input declare, jfr_type_filter_check says which item selects
 * none of them, and the message names the nearest names. The one
 * exception is the full or short name of an event type that some JDK
 * records (JDK 17's and 25's, jdk.CPUTimeSample for one): never a typo,
 * it selects nothing in a recording of a JDK without it, as in the JDK's
 * tool. The manual page jfr_type_filter(3) has the rule with examples.
 */
#ifndef JFR_TYPEFILTER_H
#define JFR_TYPEFILTER_H

#include "common.h"
#include "error.h"
#include "options.h"

JFR_BEGIN_DECLS

typedef struct jfr_type_filter jfr_type_filter;
typedef struct jfr_type_set jfr_type_set;

/** What the items of a filter name. */
typedef enum jfr_filter_by {
    JFR_FILTER_BY_NAME = 0,    /**< event type names: full, short, or a glob of either */
    JFR_FILTER_BY_CATEGORY = 1 /**< @Category elements, their globs and acronyms */
} jfr_filter_by;

/* ---- filters ---------------------------------------------------------------- */

/**
 * Parse filter `text` ("jdk.GC*,ExecutionSample", "GC,JVM").
 * @param out       receives the filter (caller owns; jfr_type_filter_free)
 * @param allocator NULL: malloc
 * @param err       optional; filled on failure
 * @return JFR_OK, JFR_EINVAL (NULL text, an unknown `by`, or no item: the
 *         text is empty or only commas and white space), JFR_ENOMEM.
 */
JFR_API int jfr_type_filter_new(jfr_type_filter **out, const char *text, jfr_filter_by by,
                                const jfr_allocator *allocator, jfr_error *err);

/** Release the filter. Accepts NULL. */
JFR_API void jfr_type_filter_free(jfr_type_filter *filter);

/** What the filter's items name. */
JFR_API jfr_filter_by jfr_type_filter_by(const jfr_type_filter *filter);

/** Number of items (at least one). */
JFR_API size_t jfr_type_filter_item_count(const jfr_type_filter *filter);

/** Item `i`, trimmed, as the filter holds it; NULL when out of range.
 * Borrowed from the filter. */
JFR_API const char *jfr_type_filter_item(const jfr_type_filter *filter, size_t i);

/**
 * Whether any item selects `type`: an event type (jfr_type_is_event) whose
 * name or categories it matches. Never true for other types. The filter is
 * not changed: threads may share it.
 */
JFR_API bool jfr_type_filter_matches(const jfr_type_filter *filter, const jfr_type *type);

/** Whether item `i` selects `type` (false when `i` is out of range). */
JFR_API bool jfr_type_filter_item_matches(const jfr_type_filter *filter, size_t i,
                                          const jfr_type *type);

/* ---- the event types of the inputs ---------------------------------------------- */

/**
 * Create an empty set of event types, to be filled from the chunks of every
 * input before a filter or a name is checked against it.
 * @return JFR_OK, JFR_EINVAL, JFR_ENOMEM.
 */
JFR_API int jfr_type_set_new(jfr_type_set **out, const jfr_allocator *allocator);

/** Release the set. Accepts NULL. */
JFR_API void jfr_type_set_free(jfr_type_set *set);

/**
 * Add the event types `chunk` declares: their names (JFR 1.0's
 * "com.oracle." dropped: "jdk.ThreadPark") and categories, copied into the
 * set. A name already in the set is not added again.
 * @return JFR_OK, JFR_EINVAL, JFR_ENOMEM.
 */
JFR_API int jfr_type_set_add_chunk(jfr_type_set *set, const jfr_chunk *chunk);

/**
 * Add the event types of every chunk of `rec`: the recording is rewound,
 * its chunks are read (metadata only) to the end and it is rewound again.
 * Damaged chunks are passed over quietly: the caller's own pass over the
 * recording reports them.
 * @return JFR_OK, JFR_EINVAL, JFR_ENOMEM.
 */
JFR_API int jfr_type_set_add_recording(jfr_type_set *set, jfr_recording *rec);

/** Number of distinct event type names in the set. */
JFR_API size_t jfr_type_set_count(const jfr_type_set *set);

/** Name `i` (in the order first added) or NULL. Borrowed from the set. */
JFR_API const char *jfr_type_set_name(const jfr_type_set *set, size_t i);

/** Whether `filter` selects event type `i` of the set. */
JFR_API bool jfr_type_set_matches(const jfr_type_set *set, size_t i,
                                  const jfr_type_filter *filter);

/**
 * Check that every item of `filter` selects at least one event type of
 * `set`, or (a name filter) names an event type that some JDK records.
 * @param item  optional; receives the index of the first item that selects
 *              none
 * @param err   optional; for JFR_ENOTFOUND the message says which item and
 *              the nearest names: "unknown event type 'ExecutionSampl' (did
 *              you mean jdk.ExecutionSample?)", "no event type matches
 *              'jdk.gc*' (did you mean jdk.GCHeapSummary, ...?)", "no event
 *              type has category 'Gc' (did you mean GC?)"
 * @return JFR_OK, JFR_ENOTFOUND, JFR_EINVAL.
 */
JFR_API int jfr_type_filter_check(size_t *item, const jfr_type_filter *filter,
                                  const jfr_type_set *set, jfr_error *err);

/**
 * The one event type of `set` that `name` names, for places that take a
 * single type (a profile's --event TYPE, a view of one type): a full name,
 * else a short name or a glob that selects exactly one type.
 * @param out  receives the full name (borrowed from the set)
 * @return JFR_OK; JFR_ENOTFOUND when nothing is selected (the message
 *         names the nearest names, as jfr_type_filter_check); JFR_EINVAL
 *         when several types are ("'Foo' names several event types:
 *         jdk.Foo, profiler.Foo") or for NULL arguments.
 */
JFR_API int jfr_type_set_resolve(const char **out, const jfr_type_set *set,
                                 const char *name, jfr_error *err);

/**
 * Up to `max` names of `set` nearest to `name`: for JFR_FILTER_BY_NAME
 * event type names, nearest by edit distance over full and short names
 * (or, for a glob, those it matches when case is ignored); for
 * JFR_FILTER_BY_CATEGORY category elements. Names too far from `name` to
 * be a slip are left out, so there may be none.
 * @return the number written to `out` (borrowed from the set).
 */
JFR_API size_t jfr_type_set_nearest(const char **out, size_t max, const jfr_type_set *set,
                                    const char *name, jfr_filter_by by);

/**
 * Of the `n` strings `candidates`, the indexes of up to `max` nearest to
 * `name`, nearest first: the rule of jfr_type_set_nearest for any names
 * (SQL tables and columns, view names). The distance is the number of
 * characters inserted, deleted, changed or swapped with a neighbour, case
 * ignored (case then breaks ties), taken over the whole names and over the
 * parts after their last dots; a candidate that contains `name` (three
 * characters or more) comes after those within the distance allowed (a
 * third of the length, at least one).
 * @return the number of indexes written to `out`.
 */
JFR_API size_t jfr_nearest_names(size_t *out, size_t max, const char *name,
                                 const char *const *candidates, size_t n);

JFR_END_DECLS

#endif
