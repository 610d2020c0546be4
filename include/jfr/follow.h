/* jfr/follow.h - following a recording while the JVM writes it: a JVM's
 * disk repository (one file per chunk) or a single growing file, flush by
 * flush (see jfr_follow(3) and jfr-format.md §3.6). */
#ifndef JFR_FOLLOW_H
#define JFR_FOLLOW_H

#include "common.h"
#include "error.h"
#include "options.h"

JFR_BEGIN_DECLS

typedef struct jfr_follow jfr_follow;

/** Where following starts. */
typedef enum jfr_follow_start {
    /** Every chunk there is: the oldest file of a repository, the first
     * chunk of a file. */
    JFR_FOLLOW_FROM_FIRST = 0,
    /** The newest chunk, from its start (a repository's newest file). */
    JFR_FOLLOW_FROM_LATEST_CHUNK,
    /** What is flushed from now on: the newest chunk's metadata and pools
     * are read, its events so far are not handed out (the JDK's
     * EventStream.openRepository without a start time). */
    JFR_FOLLOW_FROM_NOW
} jfr_follow_start;

#define JFR_FOLLOW_OPTIONS_VERSION 1

/**
 * Options of jfr_follow_open. Initialise with JFR_FOLLOW_OPTIONS_INIT; a
 * field of 0 means the default (in brackets). Fields are added at the end
 * only.
 */
typedef struct jfr_follow_options {
    unsigned version;        /**< JFR_FOLLOW_OPTIONS_VERSION */
    const jfr_options *read; /**< allocator and limits of the chunks (NULL:
                                defaults); max_chunk_size bounds a chunk */
    uint32_t poll_ms;        /**< jfr_follow_next looks every this many ms [100] */
    uint32_t idle_ms;        /**< end (JFR_FOLLOW_IDLE) after this long without
                                any change [never] */
    jfr_follow_start start;  /**< [JFR_FOLLOW_FROM_FIRST] */
    int64_t pid;             /**< the JVM's process id, when known: when the
                                process is gone and its chunk stops changing,
                                the follow ends (JFR_FOLLOW_GONE) [unknown] */
} jfr_follow_options;

/* clang-format off */
#define JFR_FOLLOW_OPTIONS_INIT {JFR_FOLLOW_OPTIONS_VERSION, NULL, 0, 0, JFR_FOLLOW_FROM_FIRST, 0}
/* clang-format on */

/**
 * Initialise `opts` as follow options of version `version` (pass
 * JFR_FOLLOW_OPTIONS_VERSION), as JFR_FOLLOW_OPTIONS_INIT: every default.
 * @return JFR_OK, or JFR_EINVAL for NULL or an unknown version.
 */
JFR_API int jfr_follow_options_init(jfr_follow_options *opts, unsigned version);

/** Why a follow ended (jfr_follow_end_reason); appended to, never renumbered. */
typedef enum jfr_follow_end {
    JFR_FOLLOW_RUNNING = 0, /**< it has not ended */
    /** The last chunk was closed: with the final flag (the JVM exited, or
     * its recording stopped), or, following a file, a closed chunk that
     * the file ends with. */
    JFR_FOLLOW_FINISHED,
    /** Nothing changed for idle_ms. */
    JFR_FOLLOW_IDLE,
    /** The process (options.pid) is gone and its last chunk was not
     * closed (it was killed or crashed), or the repository directory was
     * removed while no chunk was being read. */
    JFR_FOLLOW_GONE,
    /** A followed file's chunk could not be read (the error was returned)
     * and nothing says where a chunk after it would start. */
    JFR_FOLLOW_DAMAGED
} jfr_follow_end;

/**
 * What one flush added. Owned by the follow handle, valid (with its chunk)
 * until the next jfr_follow_next or jfr_follow_poll. Fields are added at
 * the end only.
 */
typedef struct jfr_flush {
    /** The chunk as the flush left it: its metadata and constant pools are
     * everything written so far, while walks over its records (event
     * iterators, jfr_chunk_count_records, jfr_profile_add_chunk and every
     * function that takes a chunk's events) see only this segment. A
     * profile or any accumulator fed each flush's chunk gets every event
     * once. jfr_chunk_is_unfinished is true until the chunk is closed. */
    jfr_chunk *chunk;
    const char *path; /**< the file the chunk is in */
    uint64_t begin;   /**< the segment: offsets in that file, [begin, end) */
    uint64_t end;
    int64_t start_nanos; /**< the chunk's duration as of the previous flush
                            and as of this one, as times (ns since the
                            epoch): roughly when the events were flushed */
    int64_t end_nanos;
    uint64_t chunk_number; /**< chunks followed before this one */
    bool first_in_chunk;   /**< the first segment handed out of this chunk */
    bool chunk_closed;     /**< the chunk is closed (state 0): nothing follows
                              in it */
    /** Where the functions given this chunk leave their errors (what
     * jfr_recording_error gives for a chunk of a recording). */
    const jfr_error *chunk_error;
} jfr_flush;

/**
 * Start following `path`: a JVM's disk repository (a directory of chunk
 * files, or a directory holding such repositories, when the newest one is
 * taken, as the JDK does), or one file that grows. Nothing is read yet
 * beyond checking the path; a repository may still be empty.
 *
 * @param out   receives the handle (caller owns; jfr_follow_free)
 * @param opts  options, or NULL for defaults
 * @param err   optional; filled on failure
 * @return JFR_OK, JFR_EINVAL (NULL, an options version it does not know),
 *         JFR_EIO (the path cannot be read: sys_errno), JFR_ENOMEM.
 */
JFR_API int jfr_follow_open(jfr_follow **out, const char *path,
                            const jfr_follow_options *opts, jfr_error *err);

/**
 * Look once, without waiting, for what was flushed since the last call.
 *
 * @return JFR_OK with *out, the next segment; JFR_AGAIN when nothing new
 *         was flushed; JFR_DONE when the follow ended (jfr_follow_end_reason
 *         says why); or a negative code with jfr_follow_error: a chunk that
 *         cannot be read (JFR_ECORRUPT, JFR_EFORMAT, JFR_EVERSION, JFR_ELIMIT:
 *         it is skipped, the next call goes on with the next chunk),
 *         JFR_EIO, JFR_ENOMEM.
 */
JFR_API int jfr_follow_poll(const jfr_flush **out, jfr_follow *f);

/**
 * Wait up to `timeout_ms` (negative: as long as it takes) for the next
 * segment, looking every options.poll_ms. Results as jfr_follow_poll;
 * JFR_AGAIN when the time ran out. A signal does not end the wait: use a
 * timeout to check for one.
 */
JFR_API int jfr_follow_next(const jfr_flush **out, jfr_follow *f, int timeout_ms);

/** Why the follow ended, or JFR_FOLLOW_RUNNING. */
JFR_API jfr_follow_end jfr_follow_end_reason(const jfr_follow *f);

/** "running", "finished", "idle", "gone" or "damaged". Static string. */
JFR_API const char *jfr_follow_end_name(jfr_follow_end end);

/** The error of the last call that failed; its chunk and offset are those
 * of the file jfr_follow_error_path names. */
JFR_API const jfr_error *jfr_follow_error(const jfr_follow *f);

/** The file the last error is about (NULL when none is). */
JFR_API const char *jfr_follow_error_path(const jfr_follow *f);

/** Stop following and release everything (the last segment's chunk too).
 * Accepts NULL. */
JFR_API void jfr_follow_free(jfr_follow *f);

/**
 * Find the disk repository of the JVM whose process id is `pid`: the
 * directory the process has a chunk file open in (/proc/PID/fd), else a
 * directory named <yyyy_MM_dd_HH_mm_ss>_<pid> (with a _N suffix or not)
 * in the repository= base and the java.io.tmpdir of the process's command
 * line, $TMPDIR and /tmp; the newest one wins. Linux only (elsewhere only
 * the directories are searched).
 *
 * @param out      receives the path, NUL-terminated
 * @param out_size its size in bytes
 * @return JFR_OK; JFR_ENOTFOUND when there is no such process or no
 *         repository of it (err's message says which, and where it looked);
 *         JFR_ELIMIT when the path does not fit; JFR_EINVAL.
 */
JFR_API int jfr_follow_find_pid(char *out, size_t out_size, int64_t pid, jfr_error *err);

JFR_END_DECLS

#endif
