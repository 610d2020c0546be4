/* jfr/writer.h - writing recordings: chunks of a recording read with libjfr
 * copied, filtered and redacted (scrub, repair), or chunks built type by
 * type and event by event (tools that make recordings). See jfr_writer(3)
 * and doc/writing.md.
 *
 * A writer produces JFR 2.x chunks one at a time, in the order they are
 * given: a 68-byte header, the metadata record, the events, and one
 * checkpoint holding every constant-pool entry the chunk's events refer
 * to, directly or through other entries. Memory stays near the size of
 * one chunk's pools whatever the number of chunks.
 */
#ifndef JFR_WRITER_H
#define JFR_WRITER_H

#include "common.h"
#include "error.h"
#include "options.h"
#include "typefilter.h"
#include "types.h"

JFR_BEGIN_DECLS

typedef struct jfr_writer jfr_writer;
typedef struct jfr_scrub jfr_scrub;

#define JFR_WRITER_OPTIONS_VERSION 1

/** Options for jfr_writer_open_*. Initialise with JFR_WRITER_OPTIONS_INIT;
 * fields are only ever appended. */
typedef struct jfr_writer_options {
    unsigned version;               /**< JFR_WRITER_OPTIONS_VERSION */
    const jfr_allocator *allocator; /**< NULL: malloc/realloc/free */
} jfr_writer_options;

/* clang-format off */
#define JFR_WRITER_OPTIONS_INIT {JFR_WRITER_OPTIONS_VERSION, NULL}
/* clang-format on */

/**
 * Initialise `opts` as writer options of version `version` (pass
 * JFR_WRITER_OPTIONS_VERSION), as JFR_WRITER_OPTIONS_INIT.
 * @return JFR_OK, or JFR_EINVAL for NULL or an unknown version.
 */
JFR_API int jfr_writer_options_init(jfr_writer_options *opts, unsigned version);

/**
 * Create (or truncate) the file at `path` and write to it.
 * @param out  receives the writer (caller owns; jfr_writer_close, then
 *             jfr_writer_free)
 * @param opts options, or NULL for defaults
 * @param err  optional; filled on failure
 * @return JFR_OK, JFR_EIO (the file could not be created: see sys_errno),
 *         JFR_ENOMEM or JFR_EINVAL.
 */
JFR_API int jfr_writer_open_file(jfr_writer **out, const char *path,
                                 const jfr_writer_options *opts, jfr_error *err);

/**
 * Write to the open file descriptor `fd` (not closed by the writer). When
 * it cannot seek (a pipe), each chunk is kept in memory until it is
 * complete, since its header is written last.
 */
JFR_API int jfr_writer_open_fd(jfr_writer **out, int fd, const jfr_writer_options *opts,
                               jfr_error *err);

/** Write into memory; jfr_writer_memory gives the bytes. */
JFR_API int jfr_writer_open_memory(jfr_writer **out, const jfr_writer_options *opts,
                                   jfr_error *err);

/**
 * The bytes a memory writer holds: every complete chunk (a chunk being
 * built is not included). Borrowed from the writer until the next call
 * that writes, or jfr_writer_free.
 * @return JFR_OK, or JFR_EINVAL for a writer that does not write to memory.
 */
JFR_API int jfr_writer_memory(const void **data, size_t *size, const jfr_writer *w);

/** Bytes of complete chunks written so far. */
JFR_API uint64_t jfr_writer_size(const jfr_writer *w);

/** Chunks written so far. */
JFR_API uint64_t jfr_writer_chunk_count(const jfr_writer *w);

/**
 * Finish: end a chunk being built (jfr_writer_end_chunk with a duration
 * of 0), write what is buffered and close a file the writer opened.
 * @return JFR_OK, or the first failure of the writer (JFR_EIO, ...): a
 *         caller must check it, since a write may fail only here.
 */
JFR_API int jfr_writer_close(jfr_writer *w);

/** The writer's last error (its offset is a byte offset in the output;
 * its chunk the output chunk's index). */
JFR_API const jfr_error *jfr_writer_error(const jfr_writer *w);

/** Release the writer (closing its file if jfr_writer_close was not
 * called: a chunk being built is then lost). Accepts NULL. */
JFR_API void jfr_writer_free(jfr_writer *w);

/* ---- copying chunks: scrub and repair -------------------------------------------- */

/** What jfr_writer_add_chunk did with one chunk; added to, never cleared. */
typedef struct jfr_write_stats {
    uint64_t chunks_written;  /**< 1 per chunk written, 0 when skipped */
    uint64_t events_read;     /**< event records of declared types */
    uint64_t events_written;  /**< of which written (copied or re-encoded) */
    uint64_t events_redacted; /**< of which re-encoded with redacted values */
    uint64_t events_filtered; /**< left out by the scrub's filters */
    /** Left out because their fields do not fit in their record, or (with
     * filters on threads or time) could not be read: damage. */
    uint64_t events_undecodable;
    /** Records with a type id the metadata does not declare (left out). */
    uint64_t records_unknown;
    uint64_t pool_entries_written; /**< referred to, and written */
    /** 1 when a checkpoint of the input chunk could not be read whole: the
     * entries it held are missing (references to them read as null). */
    uint64_t pools_damaged;
    uint64_t bytes_read;    /**< of the input chunk, from its header on */
    uint64_t bytes_skipped; /**< of those, after a record whose size is
                               impossible: the records there are lost */
    uint64_t bytes_written; /**< the output chunk's size */
} jfr_write_stats;

/**
 * Write chunk `chunk` (of a recording opened with libjfr) as one output
 * chunk: its header (marked complete, even for an unfinished chunk), its
 * metadata record as it is, the events that `scrub` keeps (all when
 * `scrub` is NULL) in file order, byte for byte unless a value in them is
 * redacted, and one checkpoint with exactly the constant-pool entries those
 * events refer to, followed through every pool reference the metadata
 * declares (stack trace -> frames -> methods -> classes -> ..., threads ->
 * thread groups, strings); for a key defined more than once the definition
 * a reader uses (jfr-format.md §8.3). Nothing of a left-out event or of a
 * redacted value reaches the output. Integers keep the chunk's encoding.
 *
 * A chunk the time range of `scrub` does not overlap is skipped (nothing
 * is written; stats->chunks_written stays 0). Events that cannot be
 * decoded are left out and counted, never copied.
 *
 * @return JFR_OK; JFR_ECORRUPT when the chunk's metadata record cannot be
 *         found again (nothing written); JFR_EIO, JFR_ENOMEM, JFR_ELIMIT
 *         (an output chunk over 4 GiB) with the detail in
 *         jfr_writer_error; JFR_EINVAL (NULL arguments, or a chunk being
 *         built).
 */
JFR_API int jfr_writer_add_chunk(jfr_write_stats *stats, jfr_writer *w, jfr_chunk *chunk,
                                 jfr_scrub *scrub);

/** The most records jfr_writer_note_at keeps per chunk. */
#define JFR_WRITER_MAX_NOTES 64

/**
 * How many damaged records the last jfr_writer_add_chunk left out (events
 * whose fields do not fit in their record or cannot be read, records of
 * undeclared types); jfr_writer_note_at gives the first
 * JFR_WRITER_MAX_NOTES of them.
 */
JFR_API size_t jfr_writer_note_count(const jfr_writer *w);

/**
 * Note `i` (in file order): `chunk` is the input chunk's index, `offset`
 * the record's offset in the input, the message names the record ("a
 * jdk.Deoptimization event of 37 bytes: its fields do not fit"). Borrowed
 * from the writer until its next jfr_writer_add_chunk. NULL when out of
 * range.
 */
JFR_API const jfr_error *jfr_writer_note_at(const jfr_writer *w, size_t i);

/** Which events a filter of jfr_scrub_add_filter keeps or leaves out. */
typedef enum jfr_scrub_filter {
    JFR_SCRUB_INCLUDE_EVENTS = 0, /**< keep events whose type matches */
    JFR_SCRUB_EXCLUDE_EVENTS,     /**< leave out events whose type matches */
    JFR_SCRUB_INCLUDE_CATEGORIES, /**< keep events of a matching category */
    JFR_SCRUB_EXCLUDE_CATEGORIES,
    JFR_SCRUB_INCLUDE_THREADS, /**< keep events whose eventThread matches */
    JFR_SCRUB_EXCLUDE_THREADS
} jfr_scrub_filter;

/**
 * The key pattern of jfr_scrub_redact_defaults (POSIX extended, case
 * insensitive): a key containing one of these words is secret.
 */
#define JFR_REDACT_KEY_PATTERN                                                           \
    "pass(word|wd|phrase)|secret|token|key|credential|auth|cookie|private|jwt|"          \
    "signature"

/** What a redacted value reads. */
#define JFR_REDACTED "[redacted]"

/** A new scrub that keeps everything (add filters and redactions).
 * @return JFR_OK, JFR_ENOMEM or JFR_EINVAL. Owned by the caller. */
JFR_API int jfr_scrub_new(jfr_scrub **out, const jfr_allocator *allocator);

/**
 * Add a filter, as the JDK's `jfr scrub` options of the same names take
 * it: for event types and categories, the library's rule for naming them
 * (jfr_type_filter(3): comma lists of full names, short names, globs;
 * category names, globs, acronyms); for threads, a comma list of names or
 * globs with * and ?, matched against the Java name of the event's
 * eventThread. An event is written when every filter keeps it: an include
 * filter keeps what matches, an exclude filter what does not; an event
 * without an event thread matches no thread filter.
 * @return JFR_OK, JFR_EINVAL (unknown kind, NULL or empty filter text:
 *         jfr_scrub_error says why), JFR_ENOMEM.
 */
JFR_API int jfr_scrub_add_filter(jfr_scrub *s, jfr_scrub_filter kind, const char *filter);

/**
 * Check the event type and category filters of `s` against the event
 * types of the inputs (jfr_type_set_add_recording): a filter item that
 * selects no type is an error, never an empty output.
 * @return JFR_OK, JFR_ENOTFOUND (err's message names the item and the
 *         nearest names, as jfr_type_filter_check), JFR_EINVAL.
 */
JFR_API int jfr_scrub_check(const jfr_scrub *s, const jfr_type_set *set, jfr_error *err);

/**
 * Keep only events whose start time lies in [from_nanos, to_nanos) (ns
 * since the epoch, UTC; 0 leaves that end open). Events of a type without
 * a startTime field are kept.
 */
JFR_API int jfr_scrub_set_time_range(jfr_scrub *s, int64_t from_nanos, int64_t to_nanos);

/**
 * Redact what commonly holds secrets, with the key pattern `key_regex`
 * (POSIX extended, case insensitive; NULL: JFR_REDACT_KEY_PATTERN):
 * - the value of jdk.InitialEnvironmentVariable, jdk.InitialSystemProperty
 *   and jdk.InitialSecurityProperty events whose key matches;
 * - in command lines (jdk.JVMInformation jvmArguments, jvmFlags and
 *   javaArguments, jdk.SystemProcess commandLine, jdk.ProcessStart command,
 *   and the values of those three key/value events whose key does not
 *   match), the VALUE of every argument -KEY=VALUE, --KEY=VALUE or
 *   -DKEY=VALUE whose KEY matches, and the argument after --KEY.
 * @return JFR_OK, JFR_EINVAL (a bad regex: jfr_scrub_error says why),
 *         JFR_ENOMEM.
 */
JFR_API int jfr_scrub_redact_defaults(jfr_scrub *s, const char *key_regex);

/**
 * Redact field `field` of type `type` (an event type or any other type,
 * wherever its values are: events, pool entries, inline values), which
 * must hold strings: every value when `regex` is NULL, else each part of a
 * value that matches `regex` (POSIX extended). A redacted part reads
 * JFR_REDACTED. Chunks that declare no such string field are not changed.
 * @return JFR_OK, JFR_EINVAL (a bad regex), JFR_ENOMEM.
 */
JFR_API int jfr_scrub_redact_field(jfr_scrub *s, const char *type, const char *field,
                                   const char *regex);

/** Number of fields a redaction applies to (defaults and jfr_scrub_redact_field),
 * in the order they were added; see jfr_scrub_redaction_at. */
JFR_API size_t jfr_scrub_redaction_count(const jfr_scrub *s);

/**
 * Field `i` of the redactions: its name ("TYPE.FIELD", borrowed from the
 * scrub) and how many values of it were redacted so far, over every chunk
 * written with the scrub.
 * @return JFR_OK, or JFR_ENOTFOUND when `i` is out of range.
 */
JFR_API int jfr_scrub_redaction_at(const char **field, uint64_t *count,
                                   const jfr_scrub *s, size_t i);

/** Why the last call on `s` failed (a static or scrub-owned string). */
JFR_API const char *jfr_scrub_error(const jfr_scrub *s);

/** Release the scrub. Accepts NULL. */
JFR_API void jfr_scrub_free(jfr_scrub *s);

/* ---- building chunks ------------------------------------------------------------------ */

/** Field flags of jfr_writer_declare_field. */
#define JFR_FIELD_ARRAY  0x1u /**< an array of the type (dimension 1) */
#define JFR_FIELD_POOLED 0x2u /**< a constant-pool key of the type */

/** Type flags of jfr_writer_declare_type. */
#define JFR_TYPE_SIMPLE 0x1u /**< one field, shown as that field */

/**
 * Declare a type for the chunks this writer builds (every chunk it builds
 * declares every type). The primitive types (boolean, byte, char, short,
 * int, long, float, double, java.lang.String) are declared by the writer
 * itself; jfr_writer_type_id finds their ids.
 * @param id          receives the type's id
 * @param name        "my.Event", "my.types.Frame"
 * @param super_type  "jdk.jfr.Event" for event types, else NULL (or
 *                    "java.lang.annotation.Annotation" for annotations)
 * @return JFR_OK, JFR_EINVAL (a name already declared, or a chunk being
 *         built), JFR_ENOMEM.
 */
JFR_API int jfr_writer_declare_type(uint64_t *id, jfr_writer *w, const char *name,
                                    const char *super_type, unsigned flags);

/** The id of the declared type `name`. JFR_ENOTFOUND if none. */
JFR_API int jfr_writer_type_id(uint64_t *id, const jfr_writer *w, const char *name);

/**
 * Append field `name` of type `field_type` (a declared id) to type
 * `type`, with JFR_FIELD_* flags. Values give fields in this order.
 * @return JFR_OK, JFR_EINVAL (undeclared ids, a primitive or simple type
 *         that has its field already, a chunk being built), JFR_ENOMEM.
 */
JFR_API int jfr_writer_declare_field(jfr_writer *w, uint64_t type, const char *name,
                                     uint64_t field_type, unsigned flags);

/**
 * Annotate type `type` (field `field` of it, when not NULL) with an
 * annotation of type `annotation` (a declared id, such as that of
 * "jdk.jfr.Label" or "jdk.jfr.Timestamp"), whose elements are the `n`
 * pairs names[i] = values[i] ("value" = "TICKS"; "value-0", "value-1"
 * for the elements of an array such as jdk.jfr.Category's).
 */
JFR_API int jfr_writer_annotate(jfr_writer *w, uint64_t type, const char *field,
                                uint64_t annotation, const char *const *names,
                                const char *const *values, size_t n);

/** Parameters of a chunk to build. Initialise with JFR_CHUNK_SPEC_INIT. */
typedef struct jfr_chunk_spec {
    unsigned version;         /**< JFR_CHUNK_SPEC_VERSION */
    int64_t start_nanos;      /**< wall clock at the start, ns since the epoch */
    int64_t start_ticks;      /**< the tick counter at the start */
    int64_t ticks_per_second; /**< 0: 1,000,000,000 */
    bool fixed_ints;          /**< integers fixed-width instead of varints */
    int64_t gmt_offset_ms;    /**< the metadata's region */
} jfr_chunk_spec;

#define JFR_CHUNK_SPEC_VERSION 1
/* clang-format off */
#define JFR_CHUNK_SPEC_INIT {JFR_CHUNK_SPEC_VERSION, 0, 0, 0, false, 0}
/* clang-format on */

/**
 * Initialise `spec` as a chunk spec of version `version` (pass
 * JFR_CHUNK_SPEC_VERSION), as JFR_CHUNK_SPEC_INIT.
 * @return JFR_OK, or JFR_EINVAL for NULL or an unknown version.
 */
JFR_API int jfr_chunk_spec_init(jfr_chunk_spec *spec, unsigned version);

/** Start building a chunk (the declared types are fixed from here until
 * its end). @return JFR_OK, JFR_EINVAL (one is being built). */
JFR_API int jfr_writer_begin_chunk(jfr_writer *w, const jfr_chunk_spec *spec);

/**
 * Start an event of type `type` (declared, with super type jdk.jfr.Event);
 * give its fields' values in declaration order with the jfr_writer_put_*
 * calls and finish with jfr_writer_end. Inline struct fields take their
 * own fields' values in turn; an array field takes its length
 * (jfr_writer_put_count) and then its elements; a pooled field a key.
 * @return JFR_OK, JFR_EINVAL (no chunk being built, a value being built,
 *         not an event type).
 */
JFR_API int jfr_writer_begin_event(jfr_writer *w, uint64_t type);

/**
 * Start constant-pool entry `key` of type `type`, given like an event's
 * fields. The entry is written in the chunk's checkpoint when the chunk
 * ends; a key given twice keeps its first value.
 */
JFR_API int jfr_writer_begin_entry(jfr_writer *w, uint64_t type, uint64_t key);

/** The next value: an integer field (boolean, byte, char, short, int or
 * long). @return JFR_OK, or JFR_EINVAL when the next field is not one
 * (jfr_writer_error says which field was expected). */
JFR_API int jfr_writer_put_int(jfr_writer *w, int64_t value);
/** The next value: a float or double field. */
JFR_API int jfr_writer_put_float(jfr_writer *w, double value);
/** The next value: a string field; `s` (`len` bytes of UTF-8) or NULL. */
JFR_API int jfr_writer_put_string(jfr_writer *w, const char *s, size_t len);
/** The next value: a pooled field's key (or one element of a pooled array). */
JFR_API int jfr_writer_put_key(jfr_writer *w, uint64_t key);
/** The length of the array field that comes next; its elements follow. */
JFR_API int jfr_writer_put_count(jfr_writer *w, uint64_t count);

/** Finish the event or pool entry: every field must have its value. */
JFR_API int jfr_writer_end(jfr_writer *w);

/** Forget the event or pool entry being given: nothing of it is written
 * (a caller's value that turned out wrong half way). */
JFR_API int jfr_writer_cancel(jfr_writer *w);

/**
 * Finish the chunk being built: its metadata, its checkpoint and its
 * header, with duration `duration_nanos`.
 * @return JFR_OK, JFR_EINVAL (no chunk, or a value unfinished), JFR_EIO,
 *         JFR_ENOMEM.
 */
JFR_API int jfr_writer_end_chunk(jfr_writer *w, int64_t duration_nanos);

JFR_END_DECLS

#endif
