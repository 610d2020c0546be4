/* parallel.c - see parallel.h. Each thread opens the file itself (a plain
 * file is mapped, so the pages are shared) and takes every jobs-th chunk,
 * skipping the others by their headers; the calling thread merges the
 * results in chunk order as they are finished, so the outcome does not
 * depend on which thread was faster. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jfrtool.h"
#include "parallel.h"

/* What one chunk gave. */
typedef struct chunk_job {
    void *result;
    strbuf messages; /* "jfrtool: ..." lines */
    bool opened;     /* the chunk opened: decode ran, merge takes result */
    bool done;
} chunk_job;

typedef struct par_run {
    const char *path;
    const parallel_ops *ops;
    void *user;
    size_t nchunks;
    int jobs;
    chunk_job *chunk;
    size_t merged; /* chunks taken by the calling thread */
    pthread_mutex_t lock;
    pthread_cond_t finished; /* a chunk was decoded */
    pthread_cond_t taken;    /* a chunk was merged */
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

void parallel_say(strbuf *messages, const char *path, const jfr_error *err)
{
    sb_puts(messages, "jfrtool: ");
    format_error(messages, path, err);
    sb_putc(messages, '\n');
}

static void finish(par_run *run, size_t i)
{
    pthread_mutex_lock(&run->lock);
    run->chunk[i].done = true;
    pthread_cond_broadcast(&run->finished);
    pthread_mutex_unlock(&run->lock);
}

/* Chunk `i`, the next one of `rec`. */
static void decode_chunk(par_run *run, jfr_recording *rec, size_t i)
{
    chunk_job *job = &run->chunk[i];
    jfr_chunk *chunk;
    int rc = jfr_recording_next_chunk(&chunk, rec);

    if (rc != JFR_OK) {
        /* a chunk that does not open is reported as the sequential read
         * reports it; JFR_DONE: the file changed since it was checked */
        if (rc < 0)
            parallel_say(&job->messages, run->path, jfr_recording_error(rec));
        return;
    }
    job->opened = true;
    job->result = run->ops->decode(chunk, rec, run->path, &job->messages, run->user);
    /* pool warnings are known once the chunk has been used */
    if (jfr_chunk_warning(chunk))
        parallel_say(&job->messages, run->path, jfr_chunk_warning(chunk));
}

static void *work(void *arg)
{
    worker *w = arg;
    par_run *run = w->run;
    jfr_recording *rec = NULL;
    jfr_error err;
    bool opened = jfr_recording_open_file(&rec, run->path, NULL, &err) == JFR_OK;

    for (size_t i = 0; i < run->nchunks; i++) {
        if (i % (size_t)run->jobs != (size_t)w->index) {
            if (opened && jfr_recording_skip_chunk(rec) != JFR_OK)
                opened = false; /* the file changed: its chunks say so */
            continue;
        }
        /* at most two chunks a thread ahead of the merge: results wait in
         * memory until their turn, and that must not grow with the file */
        pthread_mutex_lock(&run->lock);
        while (i >= run->merged + 2 * (size_t)run->jobs)
            pthread_cond_wait(&run->taken, &run->lock);
        pthread_mutex_unlock(&run->lock);
        if (opened)
            decode_chunk(run, rec, i);
        else
            parallel_say(&run->chunk[i].messages, run->path,
                         rec ? jfr_recording_error(rec) : &err);
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

bool parallel_chunks(const char *path, int jobs, const parallel_ops *ops, void *user,
                     bool *damaged, size_t *nchunks)
{
    par_run run;
    worker *workers;
    size_t opened = 0;

    if (jobs < 2)
        return false;
    memset(&run, 0, sizeof run);
    run.nchunks = count_chunks(path);
    if (run.nchunks < 2)
        return false;
    run.path = path;
    run.ops = ops;
    run.user = user;
    run.jobs = (size_t)jobs < run.nchunks ? jobs : (int)run.nchunks;
    /* for tests/profile/check-jobs.sh: say that the threads were used */
    if (getenv("JFRTOOL_TRACE_JOBS"))
        warnx_("%s: %zu chunks in %d threads", path, run.nchunks, run.jobs);
    run.chunk = xcalloc(run.nchunks, sizeof *run.chunk);
    workers = xcalloc((size_t)run.jobs, sizeof *workers);
    pthread_mutex_init(&run.lock, NULL);
    pthread_cond_init(&run.finished, NULL);
    pthread_cond_init(&run.taken, NULL);
    for (int t = 0; t < run.jobs; t++) {
        workers[t].run = &run;
        workers[t].index = t;
        if (pthread_create(&workers[t].thread, NULL, work, &workers[t]) != 0)
            diex(EXIT_INPUT, "cannot start a thread");
    }
    for (size_t i = 0; i < run.nchunks; i++) {
        chunk_job *job = &run.chunk[i];

        pthread_mutex_lock(&run.lock);
        while (!job->done)
            pthread_cond_wait(&run.finished, &run.lock);
        pthread_mutex_unlock(&run.lock);
        /* a chunk that did not open is skipped, as next_chunk skips it */
        if (job->opened)
            ops->merge(job->result, opened++, user);
        if (job->messages.len) {
            fflush(stdout);
            fputs(sb_str(&job->messages), stderr);
            *damaged = true;
        }
        sb_free(&job->messages);
        pthread_mutex_lock(&run.lock);
        run.merged = i + 1;
        pthread_cond_broadcast(&run.taken);
        pthread_mutex_unlock(&run.lock);
    }
    for (int t = 0; t < run.jobs; t++)
        pthread_join(workers[t].thread, NULL);
    pthread_cond_destroy(&run.finished);
    pthread_cond_destroy(&run.taken);
    pthread_mutex_destroy(&run.lock);
    free(workers);
    free(run.chunk);
    if (opened == 0)
        note_unreadable_input();
    *nchunks = opened;
    return true;
}

/* ---- profiles ------------------------------------------------------------------- */

typedef struct profile_run {
    jfr_profile *dst;
    const jfr_profile_options *po;
} profile_run;

static void *decode_profile(jfr_chunk *chunk, jfr_recording *rec, const char *path,
                            strbuf *messages, void *user)
{
    const profile_run *pr = user;
    jfr_profile *p;
    jfr_error err;

    if (jfr_profile_new(&p, pr->po, &err) < 0) {
        parallel_say(messages, path, &err);
        return NULL;
    }
    if (jfr_profile_add_chunk(p, chunk) < 0)
        parallel_say(messages, path, jfr_recording_error(rec));
    return p;
}

static void merge_profile(void *result, size_t chunk_index, void *user)
{
    profile_run *pr = user;

    (void)chunk_index;
    if (result && jfr_profile_merge(pr->dst, result) == JFR_ENOMEM)
        diex(EXIT_INPUT, "out of memory");
    jfr_profile_free(result);
}

bool parallel_add_file(jfr_profile *dst, const jfr_profile_options *po, const char *path,
                       int jobs, bool *damaged)
{
    static const parallel_ops ops = {decode_profile, merge_profile};
    profile_run pr = {dst, po};
    size_t n;

    return parallel_chunks(path, jobs, &ops, &pr, damaged, &n);
}
