/* follow.c - following a JVM's recording for print, folded, summary and top
 * (see follow.h): the argument as a process id or a path, the loop over
 * jfr_follow_next with the commands' ticks, and how it ended, said once. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "follow.h"
#include "jfrtool.h"
#include "util.h"

/* How long one wait lasts at most: the quit key and signals are noticed
 * this often. */
#define WAIT_MS 100

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

bool follow_interrupted(void)
{
    return interrupted != 0;
}

int64_t follow_now_nanos(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t monotonic_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A process id: digits only, and no file of that name. */
static bool is_pid(const char *arg, int64_t *pid)
{
    struct stat st;
    char *end;
    long long v;

    if (!*arg || strspn(arg, "0123456789") != strlen(arg) || stat(arg, &st) == 0)
        return false;
    v = strtoll(arg, &end, 10);
    if (*end || v <= 0 || v > 0x7fffffff)
        return false;
    *pid = v;
    return true;
}

static jfr_follow *open_follow(const char *arg, const follow_ops *ops, char *path,
                               size_t size)
{
    jfr_follow_options o = JFR_FOLLOW_OPTIONS_INIT;
    jfr_follow *f;
    jfr_error err;
    int64_t pid = 0;

    if (is_pid(arg, &pid)) {
        if (jfr_follow_find_pid(path, size, pid, &err) < 0) {
            if (strstr(err.message, "no process"))
                warnx_("%s", err.message);
            else
                warnx_("%s; start a recording with: jcmd %s JFR.start", err.message, arg);
            return NULL;
        }
    } else {
        snprintf(path, size, "%s", arg);
    }
    o.pid = pid;
    o.start = ops->start;
    if (jfr_follow_open(&f, path, &o, &err) < 0) {
        report_error(path, &err);
        return NULL;
    }
    return f;
}

static void say_end(const jfr_follow *f, const char *path)
{
    switch (jfr_follow_end_reason(f)) {
    case JFR_FOLLOW_FINISHED:
        warnx_("%s: the recording's last chunk was closed (the JVM exited or stopped"
               " its recording)",
               path);
        break;
    case JFR_FOLLOW_GONE:
        warnx_("%s: the process is gone; its last chunk was not closed", path);
        break;
    case JFR_FOLLOW_IDLE:
        warnx_("%s: nothing was written for a while", path);
        break;
    case JFR_FOLLOW_DAMAGED:
        warnx_("%s: nothing after the damaged chunk can be found", path);
        break;
    default:
        break;
    }
}

static void catch_signals(struct sigaction *old_int, struct sigaction *old_term)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, old_int);
    sigaction(SIGTERM, &sa, old_term);
}

int follow_run(const char *arg, const follow_ops *ops, void *user)
{
    struct sigaction old_int, old_term;
    char path[4096];
    jfr_follow *f = open_follow(arg, ops, path, sizeof path);
    uint64_t warned = UINT64_MAX; /* the chunk whose pool damage was told */
    int64_t next_tick;

    if (!f)
        return EXIT_INPUT;
    interrupted = 0;
    catch_signals(&old_int, &old_term);
    next_tick = monotonic_ms() + ops->tick_ms;
    for (;;) {
        const jfr_flush *fl;
        int64_t wait = WAIT_MS;
        int rc;

        if (interrupted || (ops->keep_going && !ops->keep_going(user)))
            break;
        if (ops->tick_ms && next_tick - monotonic_ms() < wait)
            wait = next_tick - monotonic_ms();
        rc = jfr_follow_next(&fl, f, wait > 0 ? (int)wait : 0);
        if (rc == JFR_OK) {
            ops->flush(fl, user);
            /* known once the pools were used, told once per chunk */
            if (jfr_chunk_warning(fl->chunk) && warned != fl->chunk_number) {
                warned = fl->chunk_number;
                report_error(fl->path, jfr_chunk_warning(fl->chunk));
            }
            continue; /* what is there before the tick */
        }
        if (rc == JFR_DONE)
            break;
        if (rc < 0) {
            const char *at = jfr_follow_error_path(f);
            report_error(at ? at : path, jfr_follow_error(f));
        }
        if (ops->tick_ms && monotonic_ms() >= next_tick) {
            ops->tick(follow_now_nanos(), false, user);
            next_tick += ops->tick_ms;
            if (next_tick < monotonic_ms())
                next_tick = monotonic_ms() + ops->tick_ms; /* fell behind */
        }
    }
    if (ops->tick)
        ops->tick(follow_now_nanos(), true, user);
    if (!ops->quiet)
        say_end(f, path);
    jfr_follow_free(f);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return EXIT_OK;
}
