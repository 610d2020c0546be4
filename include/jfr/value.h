/* jfr/value.h - generic, metadata-driven values of events and pool entries. */
#ifndef JFR_VALUE_H
#define JFR_VALUE_H

#include "common.h"

JFR_BEGIN_DECLS

typedef enum jfr_value_kind {
    JFR_VALUE_NULL = 0, /**< a null string, or a pool key with no entry */
    JFR_VALUE_BOOLEAN,
    JFR_VALUE_INT,   /**< byte, char, short, int, long */
    JFR_VALUE_FLOAT, /**< float, double */
    JFR_VALUE_STRING,
    JFR_VALUE_OBJECT, /**< a struct: iterate its fields */
    JFR_VALUE_ARRAY   /**< iterate its elements */
} jfr_value_kind;

/**
 * One decoded value. Filled by the caller's storage (jfr_event_value,
 * jfr_cursor_next, ...); strings and nested values borrow from the chunk and
 * stay valid until the event iterator moves on (values of events) or the chunk
 * is left (values read through pool keys).
 */
typedef struct jfr_value {
    jfr_value_kind kind;
    const jfr_type *type;   /**< declared type; for arrays the element type */
    const jfr_field *field; /**< field it was read from; NULL for an event */
    union {
        bool boolean;
        int64_t i; /**< sign-extended from the declared width */
        double f;
        jfr_str str;
        uint64_t length; /**< arrays: number of elements */
    } as;
    uint64_t bits; /**< integers: the value's bits, zero-extended from the
                         declared width (use for jdk.jfr.Unsigned fields) */
    bool pooled;   /**< read through a constant-pool key */
    uint64_t key;  /**< that key, when pooled */
    /** libjfr's own (where the value's bytes are): opaque to callers, who
     * neither read nor write it. What it holds may change in any release;
     * its size does not (doc/internals.md, "The ABI"). */
    uint64_t reserved_[4];
} jfr_value;

/** Iterates the fields of an object or the elements of an array. Opaque:
 * the caller provides the storage, libjfr alone reads and writes it. */
typedef struct jfr_cursor {
    uint64_t reserved_[24];
} jfr_cursor;

/**
 * Start iterating the children of `v` (an object's fields in declaration
 * order, or an array's elements).
 * @return JFR_OK, or JFR_EINVAL if `v` is neither object nor array.
 */
JFR_API int jfr_value_iter(jfr_cursor *out, const jfr_value *v);

/**
 * The next child. For object fields, `out->field` names the field.
 * @return JFR_OK, JFR_DONE, or a negative code (detail in the recording's
 *         error: JFR_ECORRUPT, JFR_ELIMIT, JFR_ENOMEM).
 */
JFR_API int jfr_cursor_next(jfr_value *out, jfr_cursor *cur);

/**
 * Move past the next `n` children without reading them: pool keys are not
 * looked up and inline values are stepped over, so that reaching a late
 * field costs little whatever comes before it.
 * @return JFR_OK, JFR_DONE when fewer than `n` children were left (the
 *         cursor is then at the end), or a negative code as for
 *         jfr_cursor_next.
 */
JFR_API int jfr_cursor_skip(jfr_cursor *cur, size_t n);

/** The field of object `obj` called `name`. JFR_ENOTFOUND if none.
 * On any failure of the three lookups below, `*out` is a null value. */
JFR_API int jfr_value_field(jfr_value *out, const jfr_value *obj, const char *name);

/** The index-th field of object `obj`. JFR_ENOTFOUND if out of range. */
JFR_API int jfr_value_field_at(jfr_value *out, const jfr_value *obj, size_t index);

/** The index-th element of array `arr`. JFR_ENOTFOUND if out of range. */
JFR_API int jfr_value_element(jfr_value *out, const jfr_value *arr, size_t index);

/**
 * For a simple type (jfr_type_is_simple), the value of its one field;
 * otherwise a copy of `v`. Handy for jdk.types.Symbol, FrameType, ...
 */
JFR_API int jfr_value_unwrap(jfr_value *out, const jfr_value *v);

/**
 * The string in field `name` of object `obj`, looking through a simple
 * wrapper (jdk.types.Symbol holds a class's or method's name). `*out` is
 * {NULL, 0} when `obj` is not an object or the field is absent, null or not
 * a string: those are not errors.
 * @return JFR_OK, or a negative code when the bytes could not be read
 *         (JFR_ECORRUPT, JFR_ELIMIT, JFR_ENOMEM; detail in the recording's
 *         error), or JFR_EINVAL for NULL arguments.
 */
JFR_API int jfr_value_string_field(jfr_str *out, const jfr_value *obj, const char *name);

JFR_END_DECLS

#endif
