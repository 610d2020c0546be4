/* view_rows.h - inside the row views (view_rows.c): the rows of a read of
 * events, keyed by what each event's thread, class or top frame is
 * (jfr/identity.h), as the JDK's views key them. view_rows_read.c builds
 * them; the sequential read has one set for all chunks, the threaded read
 * one per chunk, merged in chunk order. */
#ifndef JFRTOOL_VIEW_ROWS_H
#define JFRTOOL_VIEW_ROWS_H

#include "views.h"

typedef struct rows_state {
    const view_rows_spec *spec;
    bool jdk_order;    /* keep each event's dispatch position (--jdk-order) */
    jfr_identity *ids; /* the things' groups */
    uint64_t run;      /* the JVM run of the chunk being read */
    view_groups groups;
    view_keymap keys;    /* chunk-local pool key of the grouped field -> row */
    view_keymap methods; /* chunk-local pool key of a top frame's method -> row */
    size_t na_group;     /* SIZE_MAX until needed */
    uint64_t seq;        /* events read, in file order */
    strbuf key, text;
} rows_state;

/** A new state (its jfr_identity made; run 0). */
void rows_state_init(rows_state *st, const view_rows_spec *spec, bool jdk_order);
void rows_state_free(rows_state *st);

/**
 * Add the events of `type` in `chunk` (the `ordinal`-th chunk over all
 * inputs) to the rows; the same walk hands its events to `pass` (NULL:
 * none), which reads its own types. Returns the event iterator's status
 * (negative when the chunk is damaged: what was read before still counts).
 */
int rows_read_chunk(rows_state *st, jfr_chunk *chunk, uint64_t ordinal,
                    const jfr_type *type, jfr_profile_pass *pass);

/** Add the rows of `part` (one chunk, run 0) as run st->run; moves its texts. */
void rows_merge(rows_state *st, rows_state *part);

#endif
