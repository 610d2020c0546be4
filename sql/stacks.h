/* stacks.h - texts of a chunk's stack traces, made once per trace, and of
 * other pooled values, made once per key. */
#ifndef JFRSQL_STACKS_H
#define JFRSQL_STACKS_H

#include "jfrsql.h"

/** Texts by stack-trace pool key, for one chunk at a time. */
typedef struct jfrsql_stacks {
    uint64_t *keys;
    char **tops, **frames; /* NULL until asked for */
    int32_t *app;          /* first application frame: -2 not asked, -1 none */
    size_t *slots;         /* open addressing, index + 1 */
    size_t n, cap, nslots;
} jfrsql_stacks;

/**
 * The text of stack trace `key` of `chunk`: with `all`, every frame's
 * method, innermost first, one per line ("..." last when the JVM cut the
 * trace); else frame 0's method. NULL for an empty or unreadable trace
 * (*nomem set when memory ran out). Valid until jfrsql_stacks_clear.
 */
const char *jfrsql_stack_text(jfrsql_stacks *s, jfr_chunk *chunk, uint64_t key, bool all,
                              bool *nomem);
/**
 * The method of frame 0 of `st` (a stack trace read through a pool key),
 * decoding that frame only; `methods` keeps the texts by method key.
 * NULL for an empty or unreadable trace (*nomem set when memory ran out).
 */
const char *jfrsql_top_frame_text(jfrsql_stacks *s, jfrsql_stacks *methods,
                                  const jfr_value *st, bool *nomem);
/**
 * The text `make` gives for pooled value `v`, made once per pool key (the
 * cache holds the texts of one pool type). NULL when `make` gives none,
 * which is not kept (*nomem set when memory ran out).
 */
const char *jfrsql_stacks_text(jfrsql_stacks *s, const jfr_value *v,
                               char *(*make)(const jfr_value *, bool *), bool *nomem);
/**
 * The index of the first frame of stack trace `key` of `chunk` whose
 * method is application code (jfr_chunk_method_is_application), worked
 * out once per trace: SQLITE_OK with *index -1 when there is none,
 * SQLITE_NOMEM, or SQLITE_ERROR when the trace cannot be read.
 */
int jfrsql_app_frame_index(int32_t *index, jfrsql_stacks *s, jfr_chunk *chunk,
                           uint64_t key);
/** Forget the texts (the chunk is left). */
void jfrsql_stacks_clear(jfrsql_stacks *s);
void jfrsql_stacks_free(jfrsql_stacks *s);

/** "pkg.Class.method(int, String)" in sqlite3_malloc'd memory, or NULL. */
char *jfrsql_method_text(jfr_str class_name, jfr_str method, jfr_str descriptor);

#endif
