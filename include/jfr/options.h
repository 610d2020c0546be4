/* jfr/options.h - options for opening a recording: allocator and limits. */
#ifndef JFR_OPTIONS_H
#define JFR_OPTIONS_H

#include "common.h"

JFR_BEGIN_DECLS

/**
 * Allocation hooks, per recording. Every allocation libjfr makes for a
 * recording and for objects derived from it goes through these.
 */
typedef struct jfr_allocator {
    void *(*malloc_fn)(size_t size, void *ctx);
    void *(*realloc_fn)(void *ptr, size_t size, void *ctx);
    void (*free_fn)(void *ptr, void *ctx);
    void *ctx;
} jfr_allocator;

#define JFR_OPTIONS_VERSION 1

/**
 * Options for jfr_recording_open_*. Initialise with JFR_OPTIONS_INIT, then
 * change fields. A limit of 0 means "the default" (given in brackets).
 * Exceeding a limit makes the operation fail with JFR_ELIMIT; for
 * max_pool_entries that is the chunk's warning (jfr_chunk_warning) and pool
 * references read as null. See doc/robustness.md.
 * New fields are added at the end only.
 */
typedef struct jfr_options {
    unsigned version;               /**< JFR_OPTIONS_VERSION; another value
                                       (0: not initialised) is JFR_EINVAL */
    const jfr_allocator *allocator; /**< NULL: malloc/realloc/free */
    uint64_t max_input_size;        /**< decompressed input [64 GiB] */
    uint64_t max_chunk_size;        /**< one chunk [16 GiB] */
    uint32_t max_depth;             /**< inline nesting of struct values [64]; types
                                       nested deeper are not decoded */
    uint32_t max_array_length;      /**< elements of one array [16 Mi] */
    uint32_t max_string_length;     /**< bytes of one decoded string [256 MiB] */
    uint64_t max_pool_entries;      /**< constant-pool entries per chunk [256 Mi] */
    uint32_t max_types;             /**< types in one chunk's metadata [1 Mi] */
} jfr_options;

/* a braced initialiser, which clang-format would lay out as a block */
/* clang-format off */
#define JFR_OPTIONS_INIT {JFR_OPTIONS_VERSION, NULL, 0, 0, 0, 0, 0, 0, 0}
/* clang-format on */

/**
 * Initialise `opts` as the options of version `version` (pass
 * JFR_OPTIONS_VERSION): the fields of that version zero or NULL (every
 * default), `version` set; the same as JFR_OPTIONS_INIT. Every versioned
 * options struct has such a function (jfr_profile_options_init, ...):
 * a binding calls it, since a macro does not cross a foreign-function
 * interface; in C either will do (doc/internals.md, "The ABI").
 * @return JFR_OK, or JFR_EINVAL for NULL or a version this library does
 *         not know (then nothing is written).
 */
JFR_API int jfr_options_init(jfr_options *opts, unsigned version);

JFR_END_DECLS

#endif
