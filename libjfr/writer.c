/* writer.c - the writer object (jfr/writer.h): opened on memory, a
 * descriptor or a file, its getters, closing (the open chunk of the builder
 * ended, the output finished) and freeing. Above both the output
 * (writer_out.c) and the builder (writer_build.c). */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "writer_struct.h"

static int writer_new(jfr_writer **out, const jfr_writer_options *opts, jfr_error *err)
{
    jfrp_alloc al;
    jfr_writer *w;

    if (!out || (opts && opts->version != JFR_WRITER_OPTIONS_VERSION))
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "invalid writer options");
    jfrp_alloc_init(&al, opts ? opts->allocator : NULL);
    w = jfrp_calloc(&al, 1, sizeof *w);
    if (!w)
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    w->al = al;
    w->err.chunk = -1;
    w->out.fd = -1;
    jfrw_buf_init(&w->out.buf, &w->al);
    jfrw_buf_init(&w->scratch, &w->al);
    *out = w;
    return JFR_OK;
}

int jfr_writer_open_memory(jfr_writer **out, const jfr_writer_options *opts,
                           jfr_error *err)
{
    int rc = writer_new(out, opts, err);

    if (rc == JFR_OK) {
        (*out)->out.memory = true;
        (*out)->out.seekable = true;
    }
    return rc;
}

int jfr_writer_open_fd(jfr_writer **out, int fd, const jfr_writer_options *opts,
                       jfr_error *err)
{
    int rc;

    if (fd < 0)
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "invalid file descriptor");
    if ((rc = writer_new(out, opts, err)) < 0)
        return rc;
    (*out)->out.fd = fd;
    /* pwrite patches headers; a pipe or terminal cannot seek */
    (*out)->out.seekable = lseek(fd, 0, SEEK_CUR) >= 0;
    return JFR_OK;
}

int jfr_writer_open_file(jfr_writer **out, const char *path,
                         const jfr_writer_options *opts, jfr_error *err)
{
    int fd, rc;

    if (!path)
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "no path");
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        int e = errno;
        rc = jfrp_fail(err, JFR_EIO, -1, 0, "cannot create: %s", strerror(e));
        if (err)
            err->sys_errno = e;
        return rc;
    }
    if ((rc = jfr_writer_open_fd(out, fd, opts, err)) < 0) {
        close(fd);
        return rc;
    }
    (*out)->out.own_fd = true;
    return JFR_OK;
}

int jfr_writer_memory(const void **data, size_t *size, const jfr_writer *w)
{
    if (!w || !w->out.memory || !data || !size)
        return JFR_EINVAL;
    *data = w->out.buf.data ? (const void *)w->out.buf.data : (const void *)"";
    *size = (size_t)w->out.complete;
    return JFR_OK;
}

uint64_t jfr_writer_size(const jfr_writer *w)
{
    return w ? w->out.complete : 0;
}

uint64_t jfr_writer_chunk_count(const jfr_writer *w)
{
    return w ? w->nchunks : 0;
}

size_t jfr_writer_note_count(const jfr_writer *w)
{
    return w ? w->nnotes : 0;
}

const jfr_error *jfr_writer_note_at(const jfr_writer *w, size_t i)
{
    return w && i < w->nnotes && i < JFR_WRITER_MAX_NOTES ? &w->notes[i] : NULL;
}

const jfr_error *jfr_writer_error(const jfr_writer *w)
{
    return w ? &w->err : NULL;
}

int jfr_writer_close(jfr_writer *w)
{
    int rc;

    if (!w)
        return JFR_EINVAL;
    if (w->build && !w->failed)
        (void)jfr_writer_end_chunk(w, 0);
    if (w->in_chunk && !w->failed)
        return jfrw_fail(w, JFR_EINVAL, "a chunk is still being written");
    rc = jfrw_out_finish(w);
    return rc < 0 ? rc : w->failed;
}

void jfr_writer_free(jfr_writer *w)
{
    if (!w)
        return;
    if (w->out.own_fd)
        close(w->out.fd);
    jfrw_build_free(w);
    jfrw_buf_free(&w->out.buf);
    jfrw_buf_free(&w->scratch);
    jfrp_free(&w->al, w->notes);
    jfrp_free(&w->al, w);
}
