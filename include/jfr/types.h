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

JFR_END_DECLS

#endif
