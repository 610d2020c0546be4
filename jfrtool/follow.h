/* follow.h - what the commands that take --follow share (print, folded,
 * summary, top): a PID, a repository or a growing file followed through
 * libjfr's jfr_follow, flush by flush, until the JVM closes its last chunk,
 * the process is gone, or the user interrupts (SIGINT, SIGTERM). */
#ifndef JFRTOOL_FOLLOW_H
#define JFRTOOL_FOLLOW_H

#include <stdbool.h>
#include <stdint.h>

#include <jfr.h>

/** What to do with the stream. */
typedef struct follow_ops {
    /** Each flush's segment, in order. */
    void (*flush)(const jfr_flush *fl, void *user);
    /** Called every `tick_ms` (0: never) of wall-clock time, with the
     * time (ns since the epoch) the tick stands for; and once more at the
     * end with `last` true. */
    void (*tick)(int64_t now_nanos, bool last, void *user);
    uint32_t tick_ms;
    /** Called between waits (about every 100 ms): false ends the follow
     * (top's quit key). NULL: never. */
    bool (*keep_going)(void *user);
    jfr_follow_start start;
    bool quiet; /**< no message about how following ended */
} follow_ops;

/**
 * Follow `arg`: a process id (all digits, and no file of that name), a
 * repository directory or a chunk file. Returns the exit status: EXIT_OK
 * when the JVM closed its recording, the process is gone or the user
 * stopped it; EXIT_INPUT when `arg` could not be followed or a chunk was
 * damaged (after a message naming the file, chunk and offset).
 */
int follow_run(const char *arg, const follow_ops *ops, void *user);

/** True when SIGINT or SIGTERM asked following to stop. */
bool follow_interrupted(void);

/** The current wall-clock time, ns since the epoch. */
int64_t follow_now_nanos(void);

#endif
