/* parallel.c - see parallel.h. Each thread opens the file itself (a plain
 * file is mapped, so the pages are shared) and takes every jobs-th chunk,
 * skipping the others by their headers; the main thread merges the chunk
 * profiles in chunk order as they are finished, so the result does not
 * depend on which thread was faster. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jfrtool.h"
#include "parallel.h"
#include "util.h"

/* What one chunk gave: its profile and what is to be said about it. */
typedef struct chunk_job {
    jfr_profile *profile;
    strbuf messages; /* "jfrtool: ..." lines */
    bool damaged;
    bool done;
} chunk_job;

typedef struct par_run {
    const char *path;
    const jfr_profile_options *po;
    size_t nchunks;
    int jobs;
    chunk_job *chunk;
    pthread_mutex_t lock;
    pthread_cond_t finished;
} par_run;

typedef struct worker {
    par_run *run;
    int index;
    pthread_t thread;
} worker;

int parallel_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    return n < 1 ? 1 : n > 256 ? 256 : (int)n;
}

static void say(chunk_job *job, const char *path, const jfr_error *err)
{
    sb_puts(&job->messages, "jfrtool: ");
    format_error(&job->messages, path, err);
    sb_putc(&job->messages, '\n');
    job->damaged = true;
}

static void finish(par_run *run, size_t i)
{
    pthread_mutex_lock(&run->lock);
    run->chunk[i].done = true;
    pthread_cond_broadcast(&run->finished);
    pthread_mutex_unlock(&run->lock);
}

/* Decode chunk `i` of `rec`, the next one, into a profile of its own. */
static void decode_chunk(par_run *run, jfr_recording *rec, size_t i)
{
    chunk_job *job = &run->chunk[i];
    jfr_chunk *chunk;
    jfr_error err;
    int rc = jfr_recording_next_chunk(&chunk, rec);

    if (rc != JFR_OK) {
        /* the file changed since it was checked */
        if (rc < 0)
            say(job, run->path, jfr_recording_error(rec));
        return;
    }
    if (jfr_profile_new(&job->profile, run->po, &err) < 0) {
        say(job, run->path, &err);
        return;
    }
    if (jfr_profile_add_chunk(job->profile, chunk) < 0)
        say(job, run->path, jfr_recording_error(rec));
    /* pool warnings are known once the chunk has been used */
    if (jfr_chunk_warning(chunk))
        say(job, run->path, jfr_chunk_warning(chunk));
}

static void *work(void *arg)
{
    worker *w = arg;
    par_run *run = w->run;
    jfr_recording *rec = NULL;
    jfr_error err;
    bool opened = jfr_recording_open_file(&rec, run->path, NULL, &err) == JFR_OK;

    for (size_t i = 0; i < run->nchunks; i++) {
        bool mine = i % (size_t)run->jobs == (size_t)w->index;

        if (!mine) {
            if (opened && jfr_recording_skip_chunk(rec) != JFR_OK)
                opened = false; /* the file changed: the chunk's owner says so */
            continue;
        }
        if (opened)
            decode_chunk(run, rec, i);
        else
            say(&run->chunk[i], run->path, rec ? jfr_recording_error(rec) : &err);
        finish(run, i);
    }
    jfr_recording_free(rec);
    return NULL;
}

/* The number of chunks, when every one is complete, closed and skippable
 * by its header; 0 otherwise. Compressed input would be decompressed once
 * per thread, so it is left to the sequential read. */
static size_t count_chunks(const char *path)
{
    jfr_recording *rec;
    jfr_error err;
    size_t n = 0;
    int rc;

    if (strcmp(path, "-") == 0 || jfr_recording_open_file(&rec, path, NULL, &err) < 0)
        return 0;
    if (strcmp(jfr_recording_container(rec), "raw") != 0) {
        jfr_recording_free(rec);
        return 0;
    }
    while ((rc = jfr_recording_skip_chunk(rec)) == JFR_OK)
        n++;
    jfr_recording_free(rec);
    return rc == JFR_DONE ? n : 0;
}

bool parallel_add_file(jfr_profile *dst, const jfr_profile_options *po, const char *path,
                       int jobs, bool *damaged)
{
    par_run run;
    worker *workers;
    int started = 0;

    if (jobs < 2)
        return false;
    memset(&run, 0, sizeof run);
    run.nchunks = count_chunks(path);
    if (run.nchunks < 2)
        return false;
    run.path = path;
    run.po = po;
    run.jobs = (size_t)jobs < run.nchunks ? jobs : (int)run.nchunks;
    /* for tests/profile/check-jobs.sh: say that the threads were used */
    if (getenv("JFRTOOL_TRACE_JOBS"))
        warnx_("%s: %zu chunks in %d threads", path, run.nchunks, run.jobs);
    run.chunk = xcalloc(run.nchunks, sizeof *run.chunk);
    workers = xcalloc((size_t)run.jobs, sizeof *workers);
    pthread_mutex_init(&run.lock, NULL);
    pthread_cond_init(&run.finished, NULL);
    for (int t = 0; t < run.jobs; t++) {
        workers[t].run = &run;
        workers[t].index = t;
        if (pthread_create(&workers[t].thread, NULL, work, &workers[t]) != 0)
            diex(EXIT_INPUT, "cannot start a thread");
        started++;
    }
    for (size_t i = 0; i < run.nchunks; i++) {
        chunk_job *job = &run.chunk[i];

        pthread_mutex_lock(&run.lock);
        while (!job->done)
            pthread_cond_wait(&run.finished, &run.lock);
        pthread_mutex_unlock(&run.lock);
        if (job->profile && jfr_profile_merge(dst, job->profile) < 0)
            diex(EXIT_INPUT, "out of memory");
        jfr_profile_free(job->profile);
        if (job->messages.len) {
            fflush(stdout);
            fputs(sb_str(&job->messages), stderr);
        }
        *damaged |= job->damaged;
        sb_free(&job->messages);
    }
    for (int t = 0; t < started; t++)
        pthread_join(workers[t].thread, NULL);
    pthread_cond_destroy(&run.finished);
    pthread_mutex_destroy(&run.lock);
    free(workers);
    free(run.chunk);
    return true;
}
