/* fuzz_common.h - shared by the libFuzzer targets (tests/fuzz/fuzz_*.c) and
 * their replay driver: opening an input with fuzzing limits, checked
 * properties, and a bounded generic walk over values.
 *
 * A violated property aborts (FZ_CHECK), which libFuzzer reports as a crash
 * and the replay test as a failure. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_CHECK(cond)                                                                   \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            fprintf(stderr, "%s:%d: property violated: %s\n", __FILE__, __LINE__,        \
                    #cond);                                                              \
            abort();                                                                     \
        }                                                                                \
    } while (0)

/* Limits low enough that no input can make a target slow or huge: the
 * library must stop at them with JFR_ELIMIT, which is itself under test. */
#define FZ_MAX_INPUT ((uint64_t)8 << 20)

static inline int fz_open(jfr_recording **rec, const uint8_t *data, size_t size)
{
    jfr_options o = JFR_OPTIONS_INIT;
    jfr_error err;
    int rc;

    o.max_input_size = FZ_MAX_INPUT;
    o.max_array_length = 1u << 16;
    o.max_string_length = 1u << 20;
    o.max_pool_entries = 1u << 18;
    o.max_types = 1u << 14;
    rc = jfr_recording_open_memory(rec, data, size, &o, &err);
    if (rc < 0) {
        FZ_CHECK(*rec == NULL);
        FZ_CHECK(err.code == rc);
        FZ_CHECK(memchr(err.message, '\0', sizeof err.message) != NULL);
        return rc;
    }
    FZ_CHECK(jfr_recording_size(*rec) <= FZ_MAX_INPUT);
    return rc;
}

/* A string from libjfr: NULL, or `len` bytes followed by a NUL. */
static inline void fz_check_str(const jfr_str *s)
{
    if (!s->ptr) {
        FZ_CHECK(s->len == 0);
        return;
    }
    FZ_CHECK(s->ptr[s->len] == '\0');
}

static inline void fz_check_error(const jfr_error *e)
{
    FZ_CHECK(e->code < 0);
    FZ_CHECK(memchr(e->message, '\0', sizeof e->message) != NULL);
    FZ_CHECK(e->message[0] != '\0');
}

/* Visit a value and its children, at most `*budget` values and 32 levels,
 * as a printer would; checks what each kind promises. */
static inline void fz_walk_value(const jfr_value *v, unsigned depth, long *budget)
{
    jfr_cursor cur;
    jfr_value child;
    uint64_t n = 0;
    int rc;

    if (--*budget < 0)
        return;
    switch (v->kind) {
    case JFR_VALUE_STRING:
        FZ_CHECK(v->as.str.ptr != NULL);
        fz_check_str(&v->as.str);
        return;
    case JFR_VALUE_OBJECT:
    case JFR_VALUE_ARRAY:
        break;
    default:
        return;
    }
    if (depth >= 32)
        return;
    FZ_CHECK(jfr_value_iter(&cur, v) == JFR_OK);
    while (*budget > 0 && (rc = jfr_cursor_next(&child, &cur)) == JFR_OK) {
        if (v->kind == JFR_VALUE_OBJECT)
            FZ_CHECK(child.field != NULL);
        n++;
        fz_walk_value(&child, depth + 1, budget);
    }
    if (v->kind == JFR_VALUE_ARRAY && *budget > 0 && rc == JFR_DONE)
        FZ_CHECK(n == v->as.length);
    if (v->kind == JFR_VALUE_OBJECT && *budget > 0 && rc == JFR_DONE)
        FZ_CHECK(n == jfr_type_field_count(v->type));
}

#endif
