/* jfr/stack.h - stack traces, frames and threads, resolved from the pools. */
#ifndef JFR_STACK_H
#define JFR_STACK_H

#include "common.h"

JFR_BEGIN_DECLS

/** Frame types, matched by the name in the FrameType pool. */
typedef enum jfr_frame_kind {
    JFR_FRAME_UNKNOWN = 0,
    JFR_FRAME_INTERPRETED,
    JFR_FRAME_JIT, /**< "JIT compiled" */
    JFR_FRAME_INLINED,
    JFR_FRAME_NATIVE,
    JFR_FRAME_CPP,    /**< async-profiler "C++" */
    JFR_FRAME_KERNEL, /**< async-profiler "Kernel" */
    JFR_FRAME_C1      /**< async-profiler "C1 compiled" */
} jfr_frame_kind;

/**
 * One resolved frame. Strings borrow from the chunk (valid until it is
 * left); they are null (ptr NULL) when the file does not define them.
 * The caller's storage receives it (jfr_stacktrace_frame), in a loop over
 * every frame: it stays a plain struct, with room to grow in `reserved_`
 * (doc/internals.md, "The ABI").
 */
typedef struct jfr_frame {
    jfr_str class_name;  /**< JVM internal form: "java/util/HashMap$Node" */
    jfr_str method_name; /**< "get", "<init>" */
    jfr_str descriptor;  /**< "(Ljava/lang/Object;)Ljava/lang/Object;" */
    int32_t line;        /**< -1 when unknown */
    int32_t bci;         /**< bytecode index, -1 when unknown */
    int32_t modifiers;   /**< the method's JVM access flags */
    bool hidden;         /**< the method is hidden (jfr print skips it) */
    jfr_frame_kind kind;
    jfr_str kind_name;   /**< as in the file: "JIT compiled", "Inlined", ... */
    uint64_t method_key; /**< the method's pool key in this chunk */
    /** libjfr's, zeroed: fields a later version adds take their place, so
     * the size stays. Never read it. */
    uint64_t reserved_[4];
} jfr_frame;

/** A thread from a java.lang.Thread pool entry, into the caller's storage
 * (jfr_event_thread); room to grow as jfr_frame's. */
typedef struct jfr_thread {
    jfr_str os_name;
    int64_t os_thread_id;
    jfr_str java_name;      /**< null for VM-internal threads */
    int64_t java_thread_id; /**< 0 for VM-internal threads */
    bool is_virtual;
    uint64_t key;          /**< pool key in this chunk */
    uint64_t reserved_[2]; /**< libjfr's, zeroed; never read it */
} jfr_thread;

/**
 * The stack trace with pool key `key` in `chunk`, decoded on first use and
 * kept until the chunk is left.
 * @return JFR_OK, JFR_ENOTFOUND (no such key), JFR_ECORRUPT, JFR_ENOMEM.
 */
JFR_API int jfr_chunk_stacktrace(const jfr_stacktrace **out, jfr_chunk *chunk,
                                 uint64_t key);

/**
 * The stack trace of an event (its "stackTrace" field).
 * @return JFR_OK, JFR_ENOTFOUND (no field, or a null/undefined key), or an error.
 */
JFR_API int jfr_event_stacktrace(const jfr_stacktrace **out, const jfr_event *ev);

/** Number of frames. */
JFR_API size_t jfr_stacktrace_depth(const jfr_stacktrace *st);
/** True when the JVM dropped frames beyond its configured depth. */
JFR_API bool jfr_stacktrace_truncated(const jfr_stacktrace *st);
/** The pool key of the stack trace in its chunk. */
JFR_API uint64_t jfr_stacktrace_key(const jfr_stacktrace *st);

/**
 * Frame `i`, 0 being the innermost (executing) frame.
 * @return JFR_OK, JFR_ENOTFOUND (out of range) or an error.
 */
JFR_API int jfr_stacktrace_frame(jfr_frame *out, const jfr_stacktrace *st, size_t i);

/**
 * Reads the method on top (frame 0) of the stack traces of one chunk,
 * each pool entry only up to its first frame: for rows by top method,
 * where a chunk has many stack traces and few top methods. Opaque.
 */
typedef struct jfr_top_frames jfr_top_frames;

/**
 * A reader of the top frames of `chunk`'s stack traces. Free it with
 * jfr_top_frames_free before the chunk is left.
 * @return JFR_OK, JFR_EINVAL or JFR_ENOMEM.
 */
JFR_API int jfr_top_frames_new(jfr_top_frames **out, jfr_chunk *chunk);

/**
 * The pool key of the method of frame 0 of stack trace `stack_key`, as
 * jfr_frame.method_key gives it.
 * @return JFR_OK; JFR_ENOTFOUND when there is no such stack trace, it has
 *         no frames, its frame 0 has no method reference, or the chunk's
 *         stack traces are not the usual inline arrays of frames (read
 *         those with jfr_chunk_stacktrace); JFR_ECORRUPT, JFR_ELIMIT or
 *         JFR_ENOMEM (detail in the recording's error).
 */
JFR_API int jfr_top_frames_method(uint64_t *method_key, jfr_top_frames *tf,
                                  uint64_t stack_key);

/** Free the reader; NULL is allowed. */
JFR_API void jfr_top_frames_free(jfr_top_frames *tf);

/**
 * Whether method `method_key` of `chunk` (a frame's jfr_frame.method_key)
 * is application code as the JDK's views decide (their
 * `stackTrace.topApplicationFrame`, memory-leaks-by-site's frame): its
 * class has a class loader, and that loader is not named "bootstrap" (a
 * loader without a name counts as an application loader). A method, class
 * or loader that is null or undefined is not.
 * @return 1 (application), 0 (not), or an error (the pool could not be
 *         read; JFR_EINVAL without a chunk).
 */
JFR_API int jfr_chunk_method_is_application(jfr_chunk *chunk, uint64_t method_key);

/**
 * The thread in field `field` of the event (NULL: "sampledThread" when the
 * type has it, else "eventThread").
 * @return JFR_OK, JFR_ENOTFOUND (no such field, or a null/undefined key),
 *         JFR_EINVAL (the field is not a java.lang.Thread).
 */
JFR_API int jfr_event_thread(jfr_thread *out, const jfr_event *ev, const char *field);

JFR_END_DECLS

#endif
