/* identities.h - the identity columns (doc/sql.md, "Identity"): which
 * thread, class, class loader or method a value is, as a number, by
 * libjfr's rule (jfr/identity.h); made once per pool key of a chunk. */
#ifndef JFRSQL_IDENTITIES_H
#define JFRSQL_IDENTITIES_H

#include "jfrsql.h"

/** Groups by (value type, pool key) for one chunk, and the identities of
 * stack traces' frames by stack-trace key. */
typedef struct jfrsql_ids {
    struct jfrsql_id_entry *v; /* open addressing */
    size_t n, cap;
} jfrsql_ids;

/**
 * The group of `v` (a thread, class, class loader, method or stack frame)
 * read in run `run`, through `ids` (the catalog's, created on first use
 * into *ids_owner). SQLITE_OK, SQLITE_NOMEM, or SQLITE_MISMATCH for a
 * value that is none of those (NULL).
 */
int jfrsql_identity(uint64_t *group, jfrsql_ids *cache, jfr_identity **ids_owner,
                    uint64_t run, const jfr_value *v);

/**
 * The groups of the methods of every frame of stack trace `st` (read
 * through a pool key), innermost first, separated by spaces: what makes
 * two traces the same to the JDK's views. NULL when the trace cannot be
 * read (*nomem set when memory ran out). Valid until the chunk is left.
 */
const char *jfrsql_frames_identity(jfrsql_ids *cache, jfr_identity **ids_owner,
                                   uint64_t run, const jfr_value *st, bool *nomem);

/** The group of the method of frame 0 of stack trace `st` (read through a
 * pool key): SQLITE_OK, SQLITE_NOMEM, or SQLITE_MISMATCH when it has none. */
int jfrsql_top_frame_identity(uint64_t *group, jfrsql_ids *cache,
                              jfr_identity **ids_owner, uint64_t run,
                              const jfr_value *st);

/** Forget the chunk's entries (the chunk is left). */
void jfrsql_ids_clear(jfrsql_ids *cache);
void jfrsql_ids_free(jfrsql_ids *cache);

#endif
