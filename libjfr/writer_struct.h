/* writer_struct.h - what the writer's modules share (writer_bytes.c: the
 * encodings; writer_out.c: the output; writer_copy.c: chunks copied from a recording;
 * writer_refs.c: the pool entries kept events need; writer_scrub.c and
 * writer_redact.c: what is kept and what is redacted; writer_build.c and
 * writer_meta.c: chunks built from declared types). Never installed. */
#ifndef JFRP_WRITER_STRUCT_H
#define JFRP_WRITER_STRUCT_H

#include "jfr/writer.h"
#include "jfr_private.h"
#include "writer_bytes.h"

/* ---- the output ---------------------------------------------------------------- */

/** Where the writer's bytes go and how far they got. */
typedef struct jfrw_out {
    int fd;        /* -1 for memory */
    bool own_fd;   /* opened by the writer: closed by it */
    bool seekable; /* chunk headers are patched in place */
    bool memory;
    jfrw_buf buf;      /* bytes not yet written to fd (memory: all) */
    uint64_t flushed;  /* output offset of buf.data[0] */
    uint64_t complete; /* bytes of complete chunks */
} jfrw_out;

/** The chunk being written: where it starts and what the header needs. */
typedef struct jfrw_chunk_pos {
    uint64_t start;    /* output offset of its header */
    uint64_t metadata; /* chunk-relative offsets */
    uint64_t pools;
} jfrw_chunk_pos;

/* The declared types of a writer that builds chunks (writer_build.c). */
typedef struct jfrw_decls jfrw_decls;
typedef struct jfrw_build jfrw_build;

struct jfr_writer {
    jfrp_alloc al;
    jfr_error err;
    int failed; /* the first failure, sticky: every later write fails */
    jfrw_out out;
    bool in_chunk; /* a chunk is being written */
    jfrw_chunk_pos pos;
    uint64_t nchunks;
    jfrw_decls *decls;                        /* declared types (building) */
    jfrw_build *build;                        /* the chunk being built, or NULL */
    uint64_t meta_id, meta_hash, meta_max_id; /* the metadata copied last */
    jfr_error *notes; /* damaged records left out of the last chunk copied */
    size_t nnotes;    /* all of them; the first JFR_WRITER_MAX_NOTES kept */
    jfrw_buf scratch; /* one record being encoded */
};

/** Free what building chunks holds (declarations, a chunk being built). */
void jfrw_build_free(jfr_writer *w);

/** Record a failure in the writer's error; any but JFR_EINVAL (a misuse,
 * nothing written) sticks: every later write fails with it. */
int jfrw_fail(jfr_writer *w, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/** The output offset of the next byte. */
static inline uint64_t jfrw_out_pos(const jfr_writer *w)
{
    return w->out.flushed + w->out.buf.len;
}

/** Append bytes to the output (buffered). */
int jfrw_out_write(jfr_writer *w, const void *p, size_t n);
/** Append what `b` holds, then empty it. */
int jfrw_out_take(jfr_writer *w, jfrw_buf *b);
/** Write out what is buffered and close an owned descriptor (jfr_writer_close). */
int jfrw_out_finish(jfr_writer *w);
/** Overwrite `n` bytes at output offset `at` (inside the current chunk). */
int jfrw_out_patch(jfr_writer *w, uint64_t at, const void *p, size_t n);

/**
 * Start a chunk: the 68 header bytes `header` as they are now (patched by
 * jfrw_chunk_end).
 */
int jfrw_chunk_begin(jfr_writer *w, const uint8_t header[68]);
/**
 * Start the chunk's one checkpoint (a checkpoint is written even with no
 * pool: the JDK's reader needs one): its frame, for `npools` pools that
 * the caller then writes (jfrw_out_write).
 */
int jfrw_checkpoint_begin(jfr_writer *w, bool compressed, int64_t start_ticks,
                          uint64_t npools);
/**
 * End the chunk after its checkpoint: patch the checkpoint's size and the
 * header's size, offsets, duration, state (0: complete) and flags.
 */
int jfrw_chunk_end(jfr_writer *w, bool compressed, int64_t duration_nanos,
                   uint16_t flags);

/** Forget the chunk being written: the output goes back to its start. */
int jfrw_chunk_abandon(jfr_writer *w);

/* ---- copying a chunk: references and scrubbing ---------------------------------- */

/** The pool entries of a chunk that kept values refer to (writer_refs.c). */
typedef struct jfrw_kept jfrw_kept;
/** What a scrub keeps of one chunk (writer_plan.c). */
typedef struct jfrw_chunk_plan jfrw_chunk_plan;

int jfrw_kept_new(jfrw_kept **out, jfr_chunk *c);
void jfrw_kept_free(jfrw_kept *k);
/** How a value the plan redacts is re-encoded into `out` (jfrw_redact_value);
 * true when it changed. */
typedef bool (*jfrw_redact_fn)(jfrw_chunk_plan *p, jfrw_kept *k, jfrp_reader *r,
                               const jfr_type *t, jfrw_buf *out);
/** Values of types the plan redacts are re-encoded by `redact` when
 * followed. Passed in, so that the references (writer_refs.c) do not call
 * the redaction (writer_redact.c), which marks references. */
void jfrw_kept_set_plan(jfrw_kept *k, jfrw_chunk_plan *plan, jfrw_redact_fn redact);
/**
 * Walk the value of type `type` at `r` (a field `f`'s value when `f` is
 * not NULL: array, pool key or inline), marking every pool entry it refers
 * to. Fails the reader when the value does not fit.
 */
void jfrw_refs_field(jfrw_kept *k, jfrp_reader *r, const jfr_field *f);
void jfrw_refs_inline(jfrw_kept *k, jfrp_reader *r, const jfr_type *type);
/** Mark entry `key` of `type`'s pool (and, later, what it refers to). */
int jfrw_kept_mark(jfrw_kept *k, const jfr_type *type, uint64_t key);
/** How many entries are marked: what jfrw_kept_rollback goes back to. */
size_t jfrw_kept_mark_count(const jfrw_kept *k);
/** Unmark the entries marked after the first `n` (those of a value that
 * turned out damaged and is left out, before they were followed). */
void jfrw_kept_rollback(jfrw_kept *k, size_t n);
/** Follow the marked entries' references until nothing new is marked. */
int jfrw_kept_close(jfrw_kept *k);
/** Write the marked entries as the pools of the chunk's checkpoint (its
 * frame first, jfrw_checkpoint_begin), grouped by type; *nentries gets
 * the number written. */
int jfrw_kept_write(jfrw_kept *k, jfr_writer *w, int64_t start_ticks, uint64_t *nentries);

/* writer_plan.c: what a scrub keeps, per chunk. */
/** Decide, once per chunk, which event types `s` keeps and which fields it
 * redacts (NULL `s`: everything kept, nothing redacted). */
int jfrw_plan_new(jfrw_chunk_plan **out, jfr_scrub *s, jfr_chunk *c);
void jfrw_plan_free(jfrw_chunk_plan *p);
/** False when the chunk lies outside the scrub's time range. */
bool jfrw_plan_chunk_wanted(const jfrw_chunk_plan *p);
/** Whether the scrub has a time range (chunks with no event in it are
 * not written). */
bool jfrw_plan_time_filtered(const jfrw_chunk_plan *p);
/** Whether events of the type at `type_index` may be kept at all. */
bool jfrw_plan_type_kept(const jfrw_chunk_plan *p, size_t type_index);
/**
 * Whether the event (type `t`, fields at `r`) passes the per-event filters
 * (threads, time). -1 when what they need could not be read.
 */
int jfrw_plan_event_kept(jfrw_chunk_plan *p, const jfr_type *t, const uint8_t *payload,
                         const uint8_t *end);
/** Whether values of type `t` have a field the scrub redacts, directly or
 * in an inline struct. */
bool jfrw_plan_redacts(const jfrw_chunk_plan *p, const jfr_type *t);

/**
 * Re-encode the value of type `t` at `r` into `out`, redacting what the
 * plan says and marking the pool entries the written value refers to.
 * Returns true when something was redacted; the reader fails on bad data.
 */
bool jfrw_redact_value(jfrw_chunk_plan *p, jfrw_kept *k, jfrp_reader *r,
                       const jfr_type *t, jfrw_buf *out);

#endif
