/* follow.c - following a recording while the JVM writes it (jfr_follow(3),
 * jfr-format.md §3.6). One chunk is read at a time: at each look its
 * header is read like a seqlock (live.c), the bytes a flush added are read
 * into the chunk's buffer and the chunk grows (jfrp_chunk_extend: pools
 * indexed so far take the new checkpoints) or, when new metadata came or
 * the buffer moved, is opened again over everything so far. The segment a
 * flush added is handed out as the chunk with its record walks starting
 * where the segment does. Nothing past the header's size is ever read. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "follow_repo.h"
#include "live.h"

#define DEFAULT_POLL_MS 100
#define MIN_BUFFER      ((size_t)64 << 10)

/* The chunk being followed. */
typedef struct live_chunk {
    char *path;
    int fd;
    uint64_t pos;  /* where it starts in its file */
    int64_t index; /* in its file */
    jfr_header h;  /* the last header taken */
    uint8_t *buf;  /* its bytes [0, have) */
    size_t room;
    uint64_t have;   /* the valid size as of the last flush taken */
    uint64_t handed; /* what was handed out ends here (0: nothing yet) */
    int64_t handed_nanos;
    jfr_recording *rec; /* over buf */
    jfr_chunk *chunk;
    bool closed;  /* its state-0 header was taken */
    bool skip;    /* JFR_FOLLOW_FROM_NOW: take, do not hand out */
    bool damaged; /* an error was returned for it: move on */
} live_chunk;

struct jfr_follow {
    jfrp_alloc al;
    jfr_options ropts;
    jfr_follow_options opts;
    jfr_error err;
    char *err_path;
    char *path;
    bool is_dir;
    jfrp_repo repo;
    bool started;       /* the first chunk was chosen */
    bool waited;        /* no chunk at first: everything that comes is new */
    int64_t last_start; /* start of the chunk before (repository) */
    char *last_name;
    uint64_t next_pos; /* the next chunk in the file (single file) */
    int64_t next_index;
    live_chunk cur;
    bool has_cur;
    uint64_t chunks;     /* chunks taken so far */
    int64_t last_change; /* monotonic ns */
    jfr_follow_end end;
    jfr_flush flush;
};

static int64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static char *copy_string(const jfrp_alloc *al, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = jfrp_malloc(al, n);

    return p ? memcpy(p, s, n) : NULL;
}

/* Fail with an error about file `path` (the error's chunk and offset are
 * in that file). */
static int fail_at(jfr_follow *f, const char *path, int code, int64_t chunk,
                   uint64_t offset, const char *what)
{
    jfrp_fail(&f->err, code, chunk, offset, "%s", what);
    if (code == JFR_EIO)
        f->err.sys_errno = errno;
    jfrp_free(&f->al, f->err_path);
    f->err_path = path ? copy_string(&f->al, path) : NULL;
    return code;
}

/* ---- the chunk being read ------------------------------------------------------ */

static void drop_chunk(jfr_follow *f)
{
    live_chunk *c = &f->cur;

    if (!f->has_cur)
        return;
    jfrp_chunk_free(c->chunk);
    jfr_recording_free(c->rec);
    if (c->fd >= 0)
        close(c->fd);
    jfrp_free(&f->al, c->buf);
    jfrp_free(&f->al, c->path);
    memset(c, 0, sizeof *c);
    c->fd = -1;
    f->has_cur = false;
}

static int take_chunk(jfr_follow *f, const char *path, uint64_t pos, int64_t index)
{
    live_chunk *c = &f->cur;

    drop_chunk(f);
    memset(c, 0, sizeof *c);
    if (!(c->path = copy_string(&f->al, path)))
        return fail_at(f, path, JFR_ENOMEM, -1, 0, "out of memory");
    c->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (c->fd < 0) {
        int code = errno == ENOENT ? JFR_ENOTFOUND : JFR_EIO;

        jfrp_free(&f->al, c->path);
        c->path = NULL;
        return code == JFR_ENOTFOUND
                   ? code
                   : fail_at(f, path, code, -1, 0, "cannot open the file");
    }
    c->pos = pos;
    c->index = index;
    c->skip = f->opts.start == JFR_FOLLOW_FROM_NOW && f->chunks == 0 && !f->waited;
    f->has_cur = true;
    f->chunks++;
    f->last_change = now_ns();
    return JFR_OK;
}

static int read_at(void *ctx, uint64_t offset, void *buf, size_t n)
{
    const live_chunk *c = ctx;
    uint8_t *p = buf;

    while (n) {
        ssize_t got = pread(c->fd, p, n, (off_t)(c->pos + offset));

        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return JFR_EIO;
        if (got == 0)
            return JFR_ETRUNCATED;
        p += got;
        n -= (size_t)got;
        offset += (uint64_t)got;
    }
    return 0;
}

/* Room for `size` bytes; *moved when the bytes are elsewhere now. */
static int reserve(jfr_follow *f, uint64_t size, bool *moved)
{
    live_chunk *c = &f->cur;
    size_t room = c->room ? c->room : MIN_BUFFER;
    uint8_t *p;

    *moved = false;
    if (size <= c->room)
        return 0;
    while (room < size)
        room = room > SIZE_MAX / 2 ? (size_t)size : room * 2;
    if (!(p = jfrp_realloc(&f->al, c->buf, room)))
        return JFR_ENOMEM;
    *moved = p != c->buf;
    c->buf = p;
    c->room = room;
    return 0;
}

/* Open the chunk over its bytes so far: a recording of its own (the
 * previous one, whose metadata and caches may point into the old bytes,
 * goes). */
static int reopen(jfr_follow *f, const jfr_header *h)
{
    live_chunk *c = &f->cur;
    jfr_options o = f->ropts;
    jfr_error e;
    int rc;

    jfrp_chunk_free(c->chunk);
    c->chunk = NULL;
    jfr_recording_free(c->rec);
    c->rec = NULL;
    if ((rc = jfr_recording_open_memory(&c->rec, c->buf, (size_t)h->chunk_size, &o, &e)) <
        0)
        return fail_at(f, c->path, rc, c->index, c->pos + e.offset, e.message);
    c->rec->base_offset = c->pos;
    if ((rc = jfrp_chunk_open(&c->chunk, c->rec, 0, c->index, h, (size_t)h->chunk_size)) <
        0) {
        const jfr_error *re = jfr_recording_error(c->rec);
        return fail_at(f, c->path, rc, c->index, re->offset, re->message);
    }
    return JFR_OK;
}

/* The header says the chunk grew to h->chunk_size: read what was added and
 * make the chunk cover it. */
static int grow(jfr_follow *f, const jfr_header *h, const uint8_t *raw)
{
    live_chunk *c = &f->cur;
    bool moved;
    int rc;

    if (h->chunk_size > f->ropts.max_chunk_size)
        return fail_at(f, c->path, JFR_ELIMIT, c->index, c->pos + 8,
                       "the chunk is larger than the size limit");
    if (reserve(f, h->chunk_size, &moved) < 0)
        return fail_at(f, c->path, JFR_ENOMEM, c->index, c->pos, "out of memory");
    rc = read_at(c, c->have, c->buf + c->have, (size_t)(h->chunk_size - c->have));
    if (rc == JFR_ETRUNCATED)
        return fail_at(f, c->path, JFR_ECORRUPT, c->index, c->pos + 8,
                       "the file ends before the size its header declares");
    if (rc < 0)
        return fail_at(f, c->path, rc, c->index, c->pos + c->have,
                       "cannot read the file");
    memcpy(c->buf, raw, JFRP_HEADER_SIZE);
    if (!c->chunk || moved || h->metadata_offset != c->h.metadata_offset) {
        rc = reopen(f, h);
    } else {
        c->rec->data = c->buf;
        c->rec->size = (size_t)h->chunk_size;
        rc = jfrp_chunk_extend(c->chunk, h, (size_t)h->chunk_size);
        if (rc < 0) {
            const jfr_error *re = jfr_recording_error(c->rec);
            rc = fail_at(f, c->path, rc, c->index, re->offset, re->message);
        }
    }
    if (rc < 0)
        return rc;
    c->h = *h;
    c->h.file_offset = c->pos;
    c->have = h->chunk_size;
    return JFR_OK;
}

/* Hand out the segment the last flush added. */
static void hand_out(jfr_follow *f)
{
    live_chunk *c = &f->cur;
    jfr_flush *fl = &f->flush;
    uint64_t from = c->handed ? c->handed : JFRP_HEADER_SIZE;
    int64_t end_nanos = jfrp_header_end_nanos(&c->h);

    c->chunk->records_from = from;
    memset(fl, 0, sizeof *fl);
    fl->chunk = c->chunk;
    fl->path = c->path;
    fl->begin = c->pos + from;
    fl->end = c->pos + c->have;
    fl->start_nanos = c->handed ? c->handed_nanos : c->h.start_nanos;
    fl->end_nanos = end_nanos;
    fl->chunk_number = f->chunks - 1;
    fl->first_in_chunk = c->handed == 0;
    fl->chunk_closed = c->closed;
    fl->chunk_error = jfr_recording_error(c->rec);
    c->handed = c->have;
    c->handed_nanos = end_nanos;
}

/* Look at the chunk once. JFR_OK: a segment to hand out; JFR_AGAIN:
 * nothing new; JFR_DONE: the chunk is closed and was handed out whole. */
static int look(jfr_follow *f)
{
    live_chunk *c = &f->cur;
    uint8_t raw[JFRP_HEADER_SIZE];
    jfr_header h;
    int rc = jfrp_live_header(&h, raw, read_at, c);

    if (rc == JFR_AGAIN || (rc == JFR_ETRUNCATED && c->have == 0)) {
        /* JFR_FOLLOW_FROM_NOW: nothing was flushed when following began */
        if (rc == JFR_ETRUNCATED || (h.state != 255 && h.metadata_offset == 0))
            c->skip = false;
        return JFR_AGAIN; /* being written, or not flushed once yet */
    }
    if (rc < 0)
        return fail_at(
            f, c->path, rc == JFR_ETRUNCATED ? JFR_ECORRUPT : rc, c->index, c->pos,
            rc == JFR_EIO ? "cannot read the chunk header" : "not a chunk header");
    if (h.chunk_size < c->have)
        return fail_at(f, c->path, JFR_ECORRUPT, c->index, c->pos + 8,
                       "the chunk's size went down: the file was replaced");
    if (h.chunk_size == c->have) {
        /* the final flag is written after the state (live.h): a look
         * after the one that saw the chunk closed has it */
        c->h.flags = h.flags;
        if (h.state == 0)
            c->closed = true;
        return c->closed ? JFR_DONE : JFR_AGAIN;
    }
    if ((rc = grow(f, &h, raw)) < 0)
        return rc;
    c->closed = h.state == 0;
    f->last_change = now_ns();
    if (c->skip) { /* JFR_FOLLOW_FROM_NOW: what is there already is not new */
        c->skip = false;
        c->handed = c->have;
        c->handed_nanos = jfrp_header_end_nanos(&h);
        return c->closed ? JFR_DONE : JFR_AGAIN;
    }
    hand_out(f);
    return JFR_OK;
}

/* ---- choosing the chunk ---------------------------------------------------------- */

/* The first chunk of a single file, or its last one for the starts that
 * want the newest: closed chunks are stepped over by their sizes. */
static uint64_t last_chunk_in_file(const char *path, int64_t *index)
{
    live_chunk probe = {.fd = open(path, O_RDONLY | O_CLOEXEC)};
    uint64_t pos = 0;
    struct stat st;

    *index = 0;
    if (probe.fd < 0)
        return 0;
    while (fstat(probe.fd, &st) == 0) {
        jfr_header h;

        probe.pos = pos;
        if (jfrp_live_header(&h, NULL, read_at, &probe) != JFR_OK || h.state != 0 ||
            h.chunk_size >= (uint64_t)st.st_size - pos)
            break;
        pos += h.chunk_size;
        (*index)++;
    }
    close(probe.fd);
    return pos;
}

/* Take the chunk to read next. JFR_AGAIN: there is none yet. */
static int next_chunk(jfr_follow *f)
{
    const jfrp_repo_file *file;
    struct stat st;
    char *path;
    int rc;

    if (!f->is_dir) {
        if (!f->started) {
            f->started = true;
            if (f->opts.start != JFR_FOLLOW_FROM_FIRST)
                f->next_pos = last_chunk_in_file(f->path, &f->next_index);
        } else if (stat(f->path, &st) != 0 || (uint64_t)st.st_size <= f->next_pos) {
            return JFR_DONE; /* the file ends with the chunk before */
        }
        rc = take_chunk(f, f->path, f->next_pos, f->next_index);
        return rc == JFR_ENOTFOUND ? JFR_AGAIN : rc;
    }
    if ((rc = jfrp_repo_scan(&f->repo)) < 0)
        return fail_at(f, f->path, rc, -1, 0, "out of memory");
    for (;;) {
        if (!f->started)
            file = f->opts.start == JFR_FOLLOW_FROM_FIRST
                       ? jfrp_repo_next(&f->repo, 0, NULL)
                       : jfrp_repo_newest(&f->repo);
        else
            file = jfrp_repo_next(&f->repo, f->last_start, f->last_name);
        if (!file) {
            f->waited = f->waited || !f->started;
            return JFR_AGAIN;
        }
        if (!(path = jfrp_repo_path(&f->repo, file)))
            return fail_at(f, f->path, JFR_ENOMEM, -1, 0, "out of memory");
        f->started = true;
        f->last_start = file->start_nanos;
        jfrp_free(&f->al, f->last_name);
        f->last_name = copy_string(&f->al, file->name);
        rc = take_chunk(f, path, 0, 0);
        jfrp_free(&f->al, path);
        if (rc != JFR_ENOTFOUND) /* deleted since the scan: the next one */
            return rc;
    }
}

/* The chunk is done: where the next one is, or whether this was the end. */
static int chunk_done(jfr_follow *f)
{
    live_chunk *c = &f->cur;

    if (!f->is_dir) {
        f->next_pos = c->pos + c->have;
        f->next_index = c->index + 1;
    } else if (c->h.flags & JFR_CHUNK_FLAG_FINAL) {
        f->end = JFR_FOLLOW_FINISHED;
    }
    drop_chunk(f);
    return f->end ? JFR_DONE : JFR_OK;
}

/* Nothing new: has the wait become the end? */
static int nothing_new(jfr_follow *f)
{
    if (f->opts.pid > 0 && kill((pid_t)f->opts.pid, 0) != 0 && errno == ESRCH)
        f->end = JFR_FOLLOW_GONE;
    else if (f->is_dir && !f->has_cur && f->repo.gone && f->started)
        f->end = JFR_FOLLOW_GONE;
    else if (f->opts.idle_ms &&
             now_ns() - f->last_change >= (int64_t)f->opts.idle_ms * 1000000)
        f->end = JFR_FOLLOW_IDLE;
    return f->end ? JFR_DONE : JFR_AGAIN;
}

int jfr_follow_poll(const jfr_flush **out, jfr_follow *f)
{
    if (!out || !f)
        return JFR_EINVAL;
    *out = NULL;
    /* a chunk closes, the next one starts: a few steps at most */
    for (int steps = 0; steps < 8; steps++) {
        int rc;

        if (f->end)
            return JFR_DONE;
        if (f->has_cur && f->cur.damaged)
            drop_chunk(f);
        if (!f->has_cur) {
            rc = next_chunk(f);
            if (rc == JFR_DONE) {
                f->end = JFR_FOLLOW_FINISHED;
                return JFR_DONE;
            }
            if (rc == JFR_AGAIN)
                return nothing_new(f);
            if (rc < 0)
                return rc;
        }
        rc = look(f);
        if (rc == JFR_OK) {
            *out = &f->flush;
            return JFR_OK;
        }
        if (rc == JFR_AGAIN)
            return nothing_new(f);
        if (rc < 0) {
            /* a repository goes on with its next file; in a single file
             * nothing says where the next chunk would be */
            f->cur.damaged = true;
            if (!f->is_dir)
                f->end = JFR_FOLLOW_DAMAGED;
            return rc;
        }
        if (chunk_done(f) == JFR_DONE)
            return JFR_DONE;
    }
    return JFR_AGAIN;
}

int jfr_follow_next(const jfr_flush **out, jfr_follow *f, int timeout_ms)
{
    int64_t deadline;

    if (!out || !f)
        return JFR_EINVAL;
    deadline = timeout_ms < 0 ? INT64_MAX : now_ns() + (int64_t)timeout_ms * 1000000;
    for (;;) {
        int rc = jfr_follow_poll(out, f);
        int64_t left, nap = (int64_t)f->opts.poll_ms * 1000000;
        struct timespec ts;

        if (rc != JFR_AGAIN)
            return rc;
        left = deadline - now_ns();
        if (left <= 0)
            return JFR_AGAIN;
        if (nap > left)
            nap = left;
        ts.tv_sec = nap / 1000000000;
        ts.tv_nsec = nap % 1000000000;
        nanosleep(&ts, NULL);
    }
}

/* ---- the handle ----------------------------------------------------------------- */

static int open_error(jfr_error *err, int code, const char *msg)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->chunk = -1;
        err->code = code;
        err->sys_errno = code == JFR_EIO ? errno : 0;
        strncpy(err->message, msg, sizeof err->message - 1);
    }
    return code;
}

int jfr_follow_open(jfr_follow **out, const char *path, const jfr_follow_options *opts,
                    jfr_error *err)
{
    jfr_follow_options o = JFR_FOLLOW_OPTIONS_INIT;
    jfr_options ro = JFR_OPTIONS_INIT;
    jfrp_alloc al;
    jfr_follow *f;
    struct stat st;

    if (!out || !path)
        return open_error(err, JFR_EINVAL, "no output pointer or path");
    *out = NULL;
    if (opts && (opts->version < 1 || opts->version > JFR_FOLLOW_OPTIONS_VERSION))
        return open_error(err, JFR_EINVAL, "jfr_follow_options of an unknown version");
    if (opts)
        o = *opts;
    if (o.read && (o.read->version < 1 || o.read->version > JFR_OPTIONS_VERSION))
        return open_error(err, JFR_EINVAL, "jfr_options of an unknown version");
    if (o.read)
        ro = *o.read;
    if (stat(path, &st) != 0)
        return open_error(err, errno == ENOENT ? JFR_ENOTFOUND : JFR_EIO,
                          errno == ENOENT ? "no such file or directory"
                                          : "cannot read the path");
    jfrp_alloc_init(&al, ro.allocator);
    if (!(f = jfrp_calloc(&al, 1, sizeof *f)))
        return open_error(err, JFR_ENOMEM, "out of memory");
    f->al = al;
    f->opts = o;
    f->opts.read = NULL;
    if (!f->opts.poll_ms)
        f->opts.poll_ms = DEFAULT_POLL_MS;
    f->ropts = ro;
    if (!f->ropts.max_chunk_size)
        f->ropts.max_chunk_size = (uint64_t)16 << 30;
    f->err.chunk = -1;
    f->cur.fd = -1;
    f->is_dir = S_ISDIR(st.st_mode);
    f->last_change = now_ns();
    if (!(f->path = copy_string(&f->al, path)) ||
        (f->is_dir && jfrp_repo_init(&f->repo, &f->al, path) < 0)) {
        jfr_follow_free(f);
        return open_error(err, JFR_ENOMEM, "out of memory");
    }
    if (err)
        memset(err, 0, sizeof *err), err->chunk = -1;
    *out = f;
    return JFR_OK;
}

jfr_follow_end jfr_follow_end_reason(const jfr_follow *f)
{
    return f ? f->end : JFR_FOLLOW_RUNNING;
}

const char *jfr_follow_end_name(jfr_follow_end end)
{
    switch (end) {
    case JFR_FOLLOW_RUNNING:
        return "running";
    case JFR_FOLLOW_FINISHED:
        return "finished";
    case JFR_FOLLOW_IDLE:
        return "idle";
    case JFR_FOLLOW_GONE:
        return "gone";
    case JFR_FOLLOW_DAMAGED:
        return "damaged";
    }
    return "unknown";
}

const jfr_error *jfr_follow_error(const jfr_follow *f)
{
    return f ? &f->err : NULL;
}

const char *jfr_follow_error_path(const jfr_follow *f)
{
    return f ? f->err_path : NULL;
}

void jfr_follow_free(jfr_follow *f)
{
    jfrp_alloc al;

    if (!f)
        return;
    drop_chunk(f);
    if (f->is_dir)
        jfrp_repo_free(&f->repo);
    jfrp_free(&f->al, f->path);
    jfrp_free(&f->al, f->err_path);
    jfrp_free(&f->al, f->last_name);
    al = f->al;
    jfrp_free(&al, f);
}
