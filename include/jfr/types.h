/* jfr/types.h - the type model a chunk's metadata declares. Types, fields
 * and annotations belong to their chunk (valid until the next chunk). A
 * chunk whose metadata record repeats the previous chunk's shares its types:
 * pointers equal across chunks mean the same declarations, never the same
 * constant pools. */
#ifndef JFR_TYPES_H
#define JFR_TYPES_H

#include "common.h"

JFR_BEGIN_DECLS

/** How values of a type are encoded (jfr-format.md §6.3). */
typedef enum jfr_kind {
    JFR_KIND_STRUCT = 0, /**< a type with fields (events, pool types, ...) */
    JFR_KIND_BOOLEAN,
    JFR_KIND_BYTE,
    JFR_KIND_CHAR,
    JFR_KIND_SHORT,
    JFR_KIND_INT,
    JFR_KIND_LONG,
    JFR_KIND_FLOAT,
    JFR_KIND_DOUBLE,
    JFR_KIND_STRING
} jfr_kind;

/** One annotation on a type or field: its type and its elements. */
typedef struct jfr_annotation {
    const jfr_type *type;      /**< NULL if the id is not declared */
    size_t count;              /**< number of name/value pairs */
    const char *const *names;  /**< "value", "value-0", ... */
    const char *const *values; /**< always strings, as in the file */
} jfr_annotation;

/** One event setting (name, type, default value), events only. */
typedef struct jfr_setting {
    const char *name;
    const jfr_type *type;
    const char *default_value;
} jfr_setting;

/* Lookups. All returned pointers are borrowed from the chunk. */

/** Number of types declared in the chunk's metadata. */
JFR_API size_t jfr_chunk_type_count(const jfr_chunk *chunk);
/** The i-th type, in declaration order, or NULL when out of range. */
JFR_API const jfr_type *jfr_chunk_type_at(const jfr_chunk *chunk, size_t i);
/** The first type of that name, or NULL. */
JFR_API const jfr_type *jfr_chunk_type_by_name(const jfr_chunk *chunk, const char *name);
/**
 * An event type by its name since JDK 11 ("jdk.ThreadPark"): that type, or
 * in a JFR 1.0 chunk (JDK 9 and 10) its older name, "com.oracle." followed
 * by the name ("com.oracle.jdk.ThreadPark"). NULL when neither is declared.
 */
JFR_API const jfr_type *jfr_chunk_event_type(const jfr_chunk *chunk, const char *name);
/** The type with that numeric id (valid in this chunk only), or NULL. */
JFR_API const jfr_type *jfr_chunk_type_by_id(const jfr_chunk *chunk, uint64_t id);

JFR_API const char *jfr_type_name(const jfr_type *type);
JFR_API uint64_t jfr_type_id(const jfr_type *type);
/** Position of the type in its chunk: jfr_chunk_type_at(chunk, i) == type. */
JFR_API size_t jfr_type_index(const jfr_type *type);
/** The superType attribute ("jdk.jfr.Event" for events) or NULL. */
JFR_API const char *jfr_type_super(const jfr_type *type);
JFR_API jfr_kind jfr_type_kind(const jfr_type *type);
/** True for event types (superType jdk.jfr.Event). */
JFR_API bool jfr_type_is_event(const jfr_type *type);
/** True for simple types: one field, shown as that field's value. */
JFR_API bool jfr_type_is_simple(const jfr_type *type);
/** Value of the jdk.jfr.Label annotation, or NULL. */
JFR_API const char *jfr_type_label(const jfr_type *type);

JFR_API size_t jfr_type_field_count(const jfr_type *type);
JFR_API const jfr_field *jfr_type_field_at(const jfr_type *type, size_t i);
JFR_API const jfr_field *jfr_type_field_by_name(const jfr_type *type, const char *name);
/** Index of the named field, or -1. */
JFR_API int jfr_type_field_index(const jfr_type *type, const char *name);

JFR_API size_t jfr_type_annotation_count(const jfr_type *type);
JFR_API const jfr_annotation *jfr_type_annotation_at(const jfr_type *type, size_t i);
/**
 * The "value" element of the annotation of the given type name on `type`,
 * or NULL. For array-valued annotations, the first element.
 */
JFR_API const char *jfr_type_annotation_value(const jfr_type *type,
                                              const char *annotation);

JFR_API size_t jfr_type_setting_count(const jfr_type *type);
JFR_API const jfr_setting *jfr_type_setting_at(const jfr_type *type, size_t i);

JFR_API const char *jfr_field_name(const jfr_field *field);
/** The field's declared type; NULL if the file names an undeclared type. */
JFR_API const jfr_type *jfr_field_type(const jfr_field *field);
JFR_API bool jfr_field_is_array(const jfr_field *field);
/** True if the field holds a constant-pool key (constantPool="true"). */
JFR_API bool jfr_field_is_pooled(const jfr_field *field);
JFR_API const char *jfr_field_label(const jfr_field *field);
JFR_API size_t jfr_field_annotation_count(const jfr_field *field);
JFR_API const jfr_annotation *jfr_field_annotation_at(const jfr_field *field, size_t i);
/** As jfr_type_annotation_value, for a field ("jdk.jfr.Timestamp" -> "TICKS"). */
JFR_API const char *jfr_field_annotation_value(const jfr_field *field,
                                               const char *annotation);
/** True if the annotation of that type name ("jdk.jfr.Contextual") is on
 * `field`, with or without elements. */
JFR_API bool jfr_field_has_annotation(const jfr_field *field, const char *annotation);
/** As jfr_field_has_annotation, for a type ("jdk.jfr.Experimental"). */
JFR_API bool jfr_type_has_annotation(const jfr_type *type, const char *annotation);

/**
 * What a field's annotations say its values are: the one rule behind
 * `jfr print`'s units, `jfr view`'s column formats, SQL's time columns and
 * JSON's durations. When a field carries several, the first of this order
 * wins: Timestamp, Timespan, Percentage, DataAmount, MemoryAddress,
 * Frequency (as the JDK's formatters test them; a DataAmount with
 * Frequency is a rate). A DataAmount counts only in BYTES or BITS: in
 * another unit the JDK 25 `jfr print` and `jfr view` go on to the next
 * annotations, and so does this.
 */
typedef enum jfr_content {
    JFR_CONTENT_NONE = 0,         /**< no content annotation: a plain value */
    JFR_CONTENT_TIMESTAMP,        /**< jdk.jfr.Timestamp: an instant */
    JFR_CONTENT_TIMESPAN,         /**< jdk.jfr.Timespan: a duration */
    JFR_CONTENT_PERCENTAGE,       /**< jdk.jfr.Percentage: 1 is 100 % */
    JFR_CONTENT_BYTES,            /**< jdk.jfr.DataAmount("BYTES") */
    JFR_CONTENT_BITS,             /**< jdk.jfr.DataAmount("BITS") */
    JFR_CONTENT_BYTES_PER_SECOND, /**< DataAmount("BYTES") and Frequency */
    JFR_CONTENT_BITS_PER_SECOND,  /**< DataAmount("BITS") and Frequency */
    JFR_CONTENT_MEMORY_ADDRESS,   /**< jdk.jfr.MemoryAddress */
    JFR_CONTENT_FREQUENCY         /**< jdk.jfr.Frequency alone: hertz */
} jfr_content;

/** The content of `field`'s values; JFR_CONTENT_NONE for NULL. */
JFR_API jfr_content jfr_field_content(const jfr_field *field);
/**
 * The unit of a JFR_CONTENT_TIMESTAMP ("TICKS", "MILLISECONDS_SINCE_EPOCH",
 * ...) or JFR_CONTENT_TIMESPAN ("TICKS", "NANOSECONDS", ... "SECONDS")
 * field, and the DataAmount unit ("BYTES", "BITS") of the amounts and
 * rates, as the file spells it; "" when the annotation has no value; NULL for other contents.
 */
JFR_API const char *jfr_field_content_unit(const jfr_field *field);
/** True if the field's integers are unsigned (jdk.jfr.Unsigned). */
JFR_API bool jfr_field_is_unsigned(const jfr_field *field);
/**
 * True if one of the field's annotations is itself annotated
 * jdk.jfr.ContentType in the recording's metadata (ValueDescriptor
 * .getContentType() in the JDK). The JDK declares its own so; some other
 * producers (async-profiler) do not, and `jfr print` then shows their
 * values without units, where `jfr view` still formats them.
 */
JFR_API bool jfr_field_has_content_type(const jfr_field *field);

/**
 * How a time field's integers count: the unit of its jdk.jfr.Timestamp or
 * jdk.jfr.Timespan annotation, the one that jfr_field_content chose.
 * Instants (the EPOCH units) and durations are told apart, as TICKS
 * means either.
 */
typedef enum jfr_time_unit {
    JFR_TIME_NONE = 0,           /**< not a time, or a unit not listed here */
    JFR_TIME_TICKS,              /**< Timespan("TICKS"): the chunk's ticks */
    JFR_TIME_NANOSECONDS,        /**< Timespan("NANOSECONDS") */
    JFR_TIME_MICROSECONDS,       /**< Timespan("MICROSECONDS") */
    JFR_TIME_MILLISECONDS,       /**< Timespan("MILLISECONDS") */
    JFR_TIME_SECONDS,            /**< Timespan("SECONDS") */
    JFR_TIME_EPOCH_TICKS,        /**< Timestamp("TICKS"): the chunk's clock */
    JFR_TIME_EPOCH_MILLISECONDS, /**< Timestamp("MILLISECONDS_SINCE_EPOCH") */
    JFR_TIME_EPOCH_NANOSECONDS   /**< Timestamp("NANOSECONDS_SINCE_EPOCH"), JMC's */
} jfr_time_unit;

/** The unit of `field`'s times; JFR_TIME_NONE when its content is neither
 * JFR_CONTENT_TIMESTAMP nor JFR_CONTENT_TIMESPAN, and for NULL. */
JFR_API jfr_time_unit jfr_field_time_unit(const jfr_field *field);

/**
 * A time `value` of that `unit` in nanoseconds: a duration for the
 * Timespan units, nanoseconds since the epoch for the EPOCH ones. Ticks go
 * through the header of `chunk` (the chunk the value was read in; it may
 * be NULL for the other units), as jfr_chunk_ticks_to_nanos and
 * jfr_chunk_ticks_to_epoch_nanos do. A result beyond int64_t saturates at
 * INT64_MIN or INT64_MAX.
 *
 * @return JFR_OK; JFR_EINVAL for JFR_TIME_NONE or an unknown unit (then
 *         `*out_nanos` is `value` as it is), a NULL `out_nanos`, or ticks
 *         without a chunk (then `*out_nanos` is 0).
 */
JFR_API int jfr_chunk_time_nanos(int64_t *out_nanos, const jfr_chunk *chunk,
                                 jfr_time_unit unit, int64_t value);

/**
 * The same time as seconds and nanoseconds (0 to 999,999,999; the seconds
 * rounded down), as Java's Duration and Instant hold it: a value of a unit
 * of fixed length (seconds, milli-, micro- and nanoseconds, since the
 * epoch or not) is split exactly, so a timespan in seconds past 292 years
 * or a timestamp in milliseconds past 2262 keeps its value, where
 * nanoseconds in 64 bits saturate; ticks go through jfr_chunk_time_nanos.
 *
 * @return as jfr_chunk_time_nanos (JFR_EINVAL also for a NULL `seconds`
 *         or `nanos`); on JFR_EINVAL *seconds and *nanos are 0.
 */
JFR_API int jfr_chunk_time_split(int64_t *seconds, int32_t *nanos, const jfr_chunk *chunk,
                                 jfr_time_unit unit, int64_t value);

/**
 * `to - from` in nanoseconds, saturating at INT64_MIN or INT64_MAX: the
 * span between two times of a damaged recording (a chunk starting before
 * 1678, an event ending after 2262) can be beyond int64_t, where the plain
 * difference is undefined behaviour in C.
 */
JFR_API int64_t jfr_nanos_between(int64_t from, int64_t to);

JFR_END_DECLS

#endif
