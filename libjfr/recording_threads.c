/* recording_threads.c - a recording's chunks decoded in threads and merged
 * in chunk order (jfr_recording_decode_chunks, jfr/recording.h). Each
 * worker reads through a handle of its own over the recording's bytes,
 * which are in memory once whatever the input, takes the next chunk no
 * other worker has taken and skips the others by their headers; the calling thread merges the
 * chunks in order as they are finished, so the outcome does not depend on
 * which thread was faster. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jfr_private.h"

/* What one chunk gave. */
typedef struct chunk_slot {
    void *result;
    int64_t index;
    bool opened, decode_failed, has_warning, done;
    jfr_error error; /* why it did not open, or what decode left */
    jfr_error warning;
} chunk_slot;

typedef struct run {
    const jfr_recording *rec; /* the caller's handle: its bytes and position */
    const jfr_chunk_ops *ops;
    void *user;
    size_t nchunks;
    unsigned jobs;
    chunk_slot *slot;
    size_t merged;      /* chunks taken by the calling thread */
    size_t claimed;     /* chunks a worker has taken on */
    bool started, stop; /* every worker exists; give up (a thread did not start) */
    pthread_mutex_t lock;
    pthread_cond_t changed; /* a chunk was finished or merged, or started/stop */
} run;

typedef struct worker {
    run *run;
    pthread_t thread;
} worker;

/* Open the chunk `view` is at, decode it, note what happened. Returns what
 * jfr_recording_next_chunk returned. */
static int take_chunk(const run *r, jfr_recording *view, chunk_slot *s)
{
    jfr_chunk *chunk;
    int rc = jfr_recording_next_chunk(&chunk, view);

    s->index = view->next_index - 1;
    if (rc != JFR_OK) {
        s->error = view->err;
        return rc;
    }
    s->opened = true;
    if (r->ops->decode(chunk, view, &s->result, r->user) < 0) {
        s->decode_failed = true;
        s->error = view->err;
    }
    if (jfr_chunk_warning(chunk)) {
        s->has_warning = true;
        s->warning = *jfr_chunk_warning(chunk);
    }
    return rc;
}

static void report_to_merge(const run *r, chunk_slot *s, uint64_t *taken)
{
    jfr_chunk_report report;

    memset(&report, 0, sizeof report);
    report.index = s->index;
    report.taken = *taken;
    report.threads = r->started ? r->jobs : 1;
    report.error = s->opened ? NULL : &s->error;
    report.decode_error = s->decode_failed ? &s->error : NULL;
    report.warning = s->has_warning ? &s->warning : NULL;
    r->ops->merge(s->result, &report, r->user);
    *taken += s->opened;
}

static void *work(void *arg)
{
    worker *w = arg;
    run *r = w->run;
    jfr_recording *view;
    bool usable = jfrp_recording_view(&view, r->rec) == JFR_OK;
    size_t at = 0; /* the chunk `view` is at */

    pthread_mutex_lock(&r->lock);
    while (!r->started && !r->stop)
        pthread_cond_wait(&r->changed, &r->lock);
    pthread_mutex_unlock(&r->lock);
    for (;;) {
        chunk_slot *s;
        size_t i;

        /* the next chunk nobody has taken: chunks cost unequal time (the
         * first ones meet most stacks), so fixed shares leave a thread idle */
        pthread_mutex_lock(&r->lock);
        i = r->claimed < r->nchunks && !r->stop ? r->claimed++ : r->nchunks;
        /* at most two chunks a thread ahead of the merge: waiting results
         * must not grow with the file */
        while (i < r->nchunks && i >= r->merged + 2 * (size_t)r->jobs && !r->stop)
            pthread_cond_wait(&r->changed, &r->lock);
        pthread_mutex_unlock(&r->lock);
        if (i >= r->nchunks)
            break;
        s = &r->slot[i];
        for (; at < i; at++)
            if (usable && jfr_recording_skip_chunk(view) != JFR_OK)
                usable = false;
        at = i + 1;
        if (usable && take_chunk(r, view, s) == JFR_DONE) {
            /* cannot happen: the headers were walked before */
            jfrp_fail_placed(&s->error, JFR_PLACE_CHUNK, JFR_ECORRUPT, s->index,
                             view->next_pos, "no longer found");
        } else if (usable) {
            /* this handle reads no chunk twice: the record lists its
             * walks made of the chunk are of no more use (4 bytes a
             * record: 8.8 MB over big-cpu's chunks) */
            jfrp_record_indexes_free(view);
        } else {
            s->index = (int64_t)i;
            jfrp_fail(&s->error, JFR_ENOMEM, -1, 0, "out of memory");
        }
        pthread_mutex_lock(&r->lock);
        s->done = true;
        pthread_cond_broadcast(&r->changed);
        pthread_mutex_unlock(&r->lock);
    }
    jfr_recording_free(view);
    return NULL;
}

/* The number of chunks from the current position when every one is
 * complete, closed and can be skipped by its header; 0 otherwise, and when
 * compressed input ended badly (its note comes after the last chunk). */
static size_t count_chunks(const jfr_recording *rec)
{
    jfr_recording *view;
    size_t n = 0;
    int rc;

    if (rec->has_note || jfrp_recording_view(&view, rec) < 0)
        return 0;
    while ((rc = jfr_recording_skip_chunk(view)) == JFR_OK)
        n++;
    jfr_recording_free(view);
    return rc == JFR_DONE ? n : 0;
}

/* One chunk after the other in the calling thread, with the same reports. */
static void decode_in_order(jfr_recording *rec, const jfr_chunk_ops *ops, void *user)
{
    const run r = {.rec = rec, .ops = ops, .user = user};
    uint64_t taken = 0;

    for (;;) {
        chunk_slot s;

        memset(&s, 0, sizeof s);
        if (take_chunk(&r, rec, &s) == JFR_DONE)
            break;
        report_to_merge(&r, &s, &taken);
    }
}

static unsigned online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);

    return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}

/* Threads runnable on the whole machine at this instant, this one
 * included (Linux's /proc/loadavg); 0 when it cannot be read. */
static unsigned runnable_threads(void)
{
    unsigned running = 0;
    FILE *f = fopen("/proc/loadavg", "r");

    if (f) {
        if (fscanf(f, "%*f %*f %*f %u/", &running) != 1)
            running = 0;
        fclose(f);
    }
    return running;
}

/* The CPUs nobody else is running on now: threads on busy cores only take
 * turns with the other work and with each other, and a loaded machine made
 * the threaded read slower than the sequential one (issue 17). One look
 * is one instant, and right after start it often still counts the parent
 * on its way into wait(): a third of idle runs went sequential. So a busy
 * look is taken again, up to three times 0.3 ms apart, and the least
 * count holds; steady load shows in every look. Where the count cannot be
 * read, every online CPU counts as idle. */
unsigned jfr_idle_cpus(void)
{
    unsigned online = online_cpus(), running = runnable_threads();

    for (int look = 1; look < 3 && running > 1; look++) {
        struct timespec pause = {0, 300000};
        unsigned again;

        nanosleep(&pause, NULL);
        again = runnable_threads();
        running = again < running ? again : running;
    }
    if (running <= 1)
        return online;
    return running - 1 >= online ? 1 : online - (running - 1);
}

/* What the default reads per thread at least: a thread, its handle and
 * its own copy of each metadata cost about as much as reading a few
 * megabytes of chunks, and the default must never be slower than one
 * thread (doc/performance.md, "Small files in one thread"). */
#define AUTO_BYTES_PER_THREAD ((uint64_t)4 << 20)

unsigned jfrp_auto_threads(uint64_t bytes, unsigned (*idle_cpus)(void))
{
    uint64_t most = bytes / AUTO_BYTES_PER_THREAD;
    unsigned idle;

    if (most < 2)
        return 1; /* without a look at the CPUs: it may sleep */
    idle = idle_cpus();
    return most < idle ? (unsigned)most : idle;
}

unsigned jfr_auto_threads(uint64_t bytes)
{
    return jfrp_auto_threads(bytes, jfr_idle_cpus);
}

/* Start the workers; false (none left running) when one cannot start. */
static bool start_workers(run *r, worker *workers)
{
    unsigned started = 0;

    for (; started < r->jobs; started++) {
        workers[started].run = r;
        if (pthread_create(&workers[started].thread, NULL, work, &workers[started]) != 0)
            break;
    }
    pthread_mutex_lock(&r->lock);
    r->started = started == r->jobs;
    r->stop = !r->started;
    pthread_cond_broadcast(&r->changed);
    pthread_mutex_unlock(&r->lock);
    if (r->started)
        return true;
    for (unsigned t = 0; t < started; t++)
        pthread_join(workers[t].thread, NULL);
    return false;
}

int jfr_recording_decode_chunks(jfr_recording *rec, unsigned threads,
                                const jfr_chunk_ops *ops, void *user)
{
    run r;
    worker *workers;
    uint64_t taken = 0, left;

    if (!rec || !ops || !ops->decode || !ops->merge)
        return JFR_EINVAL;
    memset(&r, 0, sizeof r);
    r.rec = rec;
    r.ops = ops;
    r.user = user;
    left = rec->size > rec->next_pos ? rec->size - rec->next_pos : 0;
    r.jobs = threads ? threads : jfr_auto_threads(left);
    if (r.jobs < 2 || (r.nchunks = count_chunks(rec)) < 2) {
        decode_in_order(rec, ops, user);
        return JFR_OK;
    }
    if (r.jobs > r.nchunks)
        r.jobs = (unsigned)r.nchunks;
    r.slot = jfrp_calloc(&rec->al, r.nchunks, sizeof *r.slot);
    workers = jfrp_calloc(&rec->al, r.jobs, sizeof *workers);
    if (!r.slot || !workers) {
        jfrp_free(&rec->al, r.slot);
        jfrp_free(&rec->al, workers);
        return jfrp_fail(&rec->err, JFR_ENOMEM, -1, 0, "out of memory");
    }
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.changed, NULL);
    if (!start_workers(&r, workers)) {
        /* no thread could be had: the same work in this one */
        decode_in_order(rec, ops, user);
    } else {
        for (size_t i = 0; i < r.nchunks; i++) {
            pthread_mutex_lock(&r.lock);
            while (!r.slot[i].done)
                pthread_cond_wait(&r.changed, &r.lock);
            pthread_mutex_unlock(&r.lock);
            report_to_merge(&r, &r.slot[i], &taken);
            pthread_mutex_lock(&r.lock);
            r.merged = i + 1;
            pthread_cond_broadcast(&r.changed);
            pthread_mutex_unlock(&r.lock);
        }
        for (unsigned t = 0; t < r.jobs; t++)
            pthread_join(workers[t].thread, NULL);
        jfrp_recording_end(rec);
    }
    pthread_cond_destroy(&r.changed);
    pthread_mutex_destroy(&r.lock);
    jfrp_free(&rec->al, workers);
    jfrp_free(&rec->al, r.slot);
    return JFR_OK;
}
