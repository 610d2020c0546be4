/* jfr/event.h - iterating over the events of a chunk. */
#ifndef JFR_EVENT_H
#define JFR_EVENT_H

#include "common.h"
#include "options.h"
#include "value.h"

JFR_BEGIN_DECLS

/**
 * Also yield the records that are not events: the metadata record (type id
 * 0), checkpoints (type id 1) and events whose type id the metadata does not
 * declare. jfr_event_type() is NULL for them.
 */
#define JFR_ITER_ALL_RECORDS 0x1u

/**
 * Hand the events out in the order of their end time (start time plus
 * duration), events that end at the same tick in file order, as the JDK's
 * event stream orders each flush: within a chunk, or within the segment of
 * a followed chunk (jfr_follow_next), the JVM writes them in the order its
 * thread buffers were flushed. The kept records are walked once, on the
 * first jfr_event_next, and their offsets sorted (16 bytes an event); an
 * error met on the way is returned after the events before it.
 * jfr_event_iter_seek goes back to file order.
 */
#define JFR_ITER_BY_END_TIME 0x2u

/**
 * Walks of this chunk for other event types will follow (a query over
 * several types): list where every type's records are on this walk, so that
 * the later walks visit only their own. Without it the recording makes the
 * list on the chunk's second walk, which costs one more walk over it; a
 * chunk walked once is not listed.
 */
#define JFR_ITER_INDEX 0x4u

/**
 * Create an iterator over the events of `chunk`, in file order (or end-time
 * order with JFR_ITER_BY_END_TIME). The events of a followed chunk are those
 * of the segment its last flush added (jfr_follow_next).
 *
 * @param types  event type names to keep (NULL: all); other events are
 *               skipped without being decoded
 * @param ntypes number of names in `types`
 * @param flags  JFR_ITER_* bits
 * @return JFR_OK, JFR_EINVAL or JFR_ENOMEM. The iterator is owned by the
 *         caller (jfr_event_iter_free) and must not outlive the chunk.
 */
JFR_API int jfr_event_iter_new(jfr_event_iter **out, jfr_chunk *chunk,
                               const char *const *types, size_t ntypes, unsigned flags);

/**
 * The next event. It is owned by the iterator and valid until the next call.
 * @return JFR_OK, JFR_DONE, or JFR_ECORRUPT (a record's size is impossible;
 *         the rest of the chunk cannot be walked). Detail in the recording's
 *         error.
 */
JFR_API int jfr_event_next(const jfr_event **out, jfr_event_iter *it);

/**
 * Move the iterator to the record at absolute input offset `offset` (as
 * returned by jfr_event_offset for this chunk); the next jfr_event_next
 * reads from there. Lets callers visit events in their own order. The
 * first seek walks the chunk's records once to know where they start.
 * @return JFR_OK, or JFR_EINVAL if the offset lies outside the chunk or
 *         inside a record (an offset past a damaged record, where the walk
 *         cannot follow, is accepted: a caller may resynchronise there).
 */
JFR_API int jfr_event_iter_seek(jfr_event_iter *it, uint64_t offset);

/** Release the iterator. Accepts NULL. */
JFR_API void jfr_event_iter_free(jfr_event_iter *it);

/** Records of a chunk that are not events of a declared type. */
typedef struct jfr_record_stats {
    uint64_t metadata_count, metadata_bytes;     /**< type id 0 */
    uint64_t checkpoint_count, checkpoint_bytes; /**< type id 1 */
    uint64_t unknown_count, unknown_bytes;       /**< ids the metadata lacks */
} jfr_record_stats;

/**
 * Count the chunk's records by type without decoding them: for the type at
 * index i (jfr_type_index), counts[i] += its events and bytes[i] += their
 * sizes. Both arrays have jfr_chunk_type_count(chunk) elements and are added
 * to, not cleared. `other` (may be NULL) gets the other records.
 * @return JFR_OK, or JFR_ECORRUPT if a record's size is impossible (what was
 *         counted before it stays counted).
 */
JFR_API int jfr_chunk_count_records(uint64_t *counts, uint64_t *bytes,
                                    jfr_record_stats *other, jfr_chunk *chunk);

/* ---- a few fields of every event of one type -------------------------- */

/** The most fields one jfr_field_reader reads. */
#define JFR_FIELD_READER_MAX 16

/**
 * Reads chosen fields of the events of one type in one pass over each
 * event, the names resolved once: for loops over many events that need a
 * pool key or a number or two of each (rows keyed by a stack trace, a
 * thread or a class, a weight). Pool keys are not looked up, so a key that
 * the chunk's pools lack reads as any other. Opaque; made for one chunk's
 * type (a type belongs to its chunk).
 */
typedef struct jfr_field_reader jfr_field_reader;

/** One field as jfr_field_reader_read gives it, into the caller's storage. */
typedef struct jfr_field_bits {
    /** A pooled field's key; an integer's bits, zero-extended from its
     * declared width; a boolean's 0 or 1. */
    uint64_t bits;
    /** An integer sign-extended from its declared width (as jfr_value's
     * as.i): char unsigned, the others signed. */
    int64_t i;
    /** False when the type has no such field, the field is of another
     * shape (an array, an inline object or string, a float) or the event
     * ends before it; then bits and i are 0. */
    bool read;
    bool pooled; /**< the field is a constant-pool reference */
} jfr_field_bits;

/**
 * A reader of fields `names[0 .. n)` of events of `type` (n at most
 * JFR_FIELD_READER_MAX; a name the type lacks is never read), allocating
 * through `allocator` (NULL: malloc/realloc/free).
 * @return JFR_OK, JFR_EINVAL (NULL arguments, n too large) or JFR_ENOMEM.
 *         Free with jfr_field_reader_free, before the chunk is left.
 */
JFR_API int jfr_field_reader_new(jfr_field_reader **out, const jfr_type *type,
                                 const char *const *names, size_t n,
                                 const jfr_allocator *allocator);

/**
 * Read the reader's fields of `ev` into out[0 .. n) (n as given to
 * jfr_field_reader_new), walking the event once, up to its last wanted
 * field.
 * @return JFR_OK; JFR_EINVAL (NULL arguments, or `ev` of another type);
 *         JFR_ECORRUPT when the event ends before a wanted field or a
 *         field before it cannot be skipped (the fields read before stay
 *         read).
 */
JFR_API int jfr_field_reader_read(jfr_field_bits *out, const jfr_field_reader *rd,
                                  const jfr_event *ev);

/** Free the reader; NULL is allowed. */
JFR_API void jfr_field_reader_free(jfr_field_reader *rd);

/** The event's type, or NULL for non-event records (JFR_ITER_ALL_RECORDS). */
JFR_API const jfr_type *jfr_event_type(const jfr_event *ev);
/** The record's numeric type id (0 metadata, 1 checkpoint, else an event). */
JFR_API uint64_t jfr_event_type_id(const jfr_event *ev);
/** Absolute offset of the record in the (decompressed) input. */
JFR_API uint64_t jfr_event_offset(const jfr_event *ev);
/** Size of the record in bytes, size field included. */
JFR_API uint64_t jfr_event_size(const jfr_event *ev);
/** The chunk the event belongs to. */
JFR_API jfr_chunk *jfr_event_chunk(const jfr_event *ev);

/** The whole event as an object value. */
JFR_API int jfr_event_value(jfr_value *out, const jfr_event *ev);
/** One field of the event by name. JFR_ENOTFOUND if the type has none. */
JFR_API int jfr_event_field(jfr_value *out, const jfr_event *ev, const char *name);
/** Field `name` as a number: integers (unsigned ones as unsigned) and
 * floats; NAN when the type has no such field or it is not a number. */
JFR_API double jfr_event_number(const jfr_event *ev, const char *name);
/** Timespan field `name` in nanoseconds (ticks and other units converted
 * by its jdk.jfr.Timespan annotation); NAN when absent or not an integer. */
JFR_API double jfr_event_timespan_nanos(const jfr_event *ev, const char *name);
/** The event's startTime in ticks of its chunk (0 when it has none). */
JFR_API int64_t jfr_event_start_ticks(const jfr_event *ev);

JFR_END_DECLS

#endif
