/* jfr/common.h - export macro, C++ guards and basic types of libjfr. */
#ifndef JFR_COMMON_H
#define JFR_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define JFR_API __attribute__((visibility("default")))
#else
#define JFR_API
#endif

#ifdef __cplusplus
#define JFR_BEGIN_DECLS extern "C" {
#define JFR_END_DECLS   }
#else
#define JFR_BEGIN_DECLS
#define JFR_END_DECLS
#endif

JFR_BEGIN_DECLS

/**
 * A string borrowed from libjfr: valid UTF-8, `len` bytes, followed by a NUL
 * byte that is not counted (JFR strings may themselves contain NUL).
 * `ptr` is NULL for a null string. Lifetime: see the function that returned it.
 */
typedef struct jfr_str {
    const char *ptr;
    size_t len;
} jfr_str;

typedef struct jfr_recording jfr_recording;
typedef struct jfr_chunk jfr_chunk;
typedef struct jfr_type jfr_type;
typedef struct jfr_field jfr_field;
typedef struct jfr_event_iter jfr_event_iter;
typedef struct jfr_event jfr_event;
typedef struct jfr_stacktrace jfr_stacktrace;

JFR_END_DECLS

#endif
