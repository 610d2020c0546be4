/* source.c - input back ends (file, fd, memory) and container detection. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source.h"

int jfrp_source_fd(jfr_recording *rec, int fd)
{
    jfrp_outbuf b = {NULL, 0, 0};
    int rc;

    for (;;) {
        ssize_t n;

        if ((rc = jfrp_outbuf_reserve(rec, &b, 65536)) < 0)
            goto fail;
        n = read(fd, b.data + b.len, b.cap - b.len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            rc = jfrp_fail(&rec->err, JFR_EIO, -1, b.len, "read error: %s",
                           strerror(errno));
            rec->err.sys_errno = errno;
            goto fail;
        }
        if (n == 0)
            break;
        b.len += (size_t)n;
    }
    if (b.len > rec->opts.max_input_size) {
        rc = jfrp_input_too_large(rec, b.len);
        goto fail;
    }
    rec->owned = b.data;
    rec->data = b.data;
    rec->size = b.len;
    return 0;
fail:
    jfrp_free(&rec->al, b.data);
    return rc;
}

int jfrp_source_path(jfr_recording *rec, const char *path)
{
    struct stat st;
    int fd, rc;

    if (strcmp(path, "-") == 0)
        return jfrp_source_fd(rec, STDIN_FILENO);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        rc = jfrp_fail(&rec->err, JFR_EIO, -1, 0, "cannot open: %s", strerror(errno));
        rec->err.sys_errno = errno;
        return rc;
    }
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        void *m;

        if ((uint64_t)st.st_size > rec->opts.max_input_size) {
            close(fd);
            return jfrp_fail(&rec->err, JFR_ELIMIT, -1, 0,
                             "file larger than the limit of %llu bytes",
                             (unsigned long long)rec->opts.max_input_size);
        }
        m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m != MAP_FAILED) {
            close(fd);
            rec->map_base = m;
            rec->mapped = true;
            rec->map_len = (size_t)st.st_size;
            rec->data = m;
            rec->size = (size_t)st.st_size;
            return 0;
        }
    }
    rc = jfrp_source_fd(rec, fd);
    close(fd);
    return rc;
}

static const jfrp_filter *const filters[] = {
#ifdef HAVE_ZLIB
    &jfrp_filter_gzip,
#endif
#ifdef HAVE_LZ4
    &jfrp_filter_lz4,
#endif
#ifdef HAVE_XZ
    &jfrp_filter_xz,
#endif
#ifdef HAVE_BZIP2
    &jfrp_filter_bzip2,
#endif
    NULL};

static bool has_magic(const uint8_t *p, size_t n, const char *magic, size_t len)
{
    return n >= len && memcmp(p, magic, len) == 0;
}

/* Name containers we recognise but cannot read, for a useful message. */
static const char *unsupported_container(const uint8_t *p, size_t n)
{
    if (has_magic(p, n, "\x1f\x8b", 2))
        return "gzip (built without zlib)";
    if (has_magic(p, n, "\x04\x22\x4d\x18", 4))
        return "lz4 (built without liblz4)";
    if (has_magic(p, n,
                  "\xfd"
                  "7zXZ\0",
                  6))
        return "xz (built without liblzma)";
    if (has_magic(p, n, "BZh", 3))
        return "bzip2 (built without libbz2)";
    if (has_magic(p, n, "\x28\xb5\x2f\xfd", 4))
        return "zstd-compressed; decompress it first";
    if (has_magic(p, n, "PK\x03\x04", 4))
        return "a ZIP archive; extract the recording first";
    if (has_magic(p, n, "\x02\x21\x4c\x18", 4))
        return "legacy lz4; recompress it as an lz4 frame";
    return NULL;
}

static void release_input(jfr_recording *rec)
{
    if (rec->map_base)
        munmap(rec->map_base, rec->map_len);
    jfrp_free(&rec->al, rec->owned);
    rec->map_base = NULL;
    rec->mapped = false;
    rec->map_len = 0;
    rec->owned = NULL;
}

/* Decompress with `f`: whatever output came before the data went bad or
 * ended is kept, and why it ended is noted for after the chunks. */
static int unwrap_with(jfr_recording *rec, const jfrp_filter *f)
{
    jfrp_sink s;
    int rc;

    memset(&s, 0, sizeof s);
    s.guard.since = UINT64_MAX;
    rc = f->decode(rec, rec->data, rec->size, &s);
    if (rc == 0 && s.out.len > rec->opts.max_input_size)
        rc = jfrp_input_too_large(rec, s.out.len);
    if (rc == 0 && s.out.len == 0 && s.has_note) {
        rec->err = s.note;
        rc = s.note.code;
    }
    if (rc < 0) {
        jfrp_free(&rec->al, s.out.data);
        return rc;
    }
    release_input(rec);
    rec->owned = s.out.data;
    rec->data = s.out.data ? s.out.data : (const uint8_t *)"";
    rec->size = s.out.len;
    rec->container = f->name;
    if (s.has_note) {
        rec->note = s.note;
        rec->has_note = true;
        if (rec->note.code == JFR_EFORMAT)
            rec->note.code = JFR_ECORRUPT; /* the output so far is read */
    }
    if (!has_magic(rec->data, rec->size, "FLR\0", 4) &&
        jfrp_find_header(rec->data, rec->size, 0, rec->opts.max_chunk_size, true) ==
            rec->size) {
        if (s.has_note)
            return jfrp_fail(&rec->err, JFR_EFORMAT, -1, 0,
                             "%s data does not hold a JFR recording (%s)", f->name,
                             s.note.message);
        return jfrp_fail(&rec->err, JFR_EFORMAT, -1, 0,
                         "%s data does not hold a JFR recording", f->name);
    }
    return 0;
}

int jfrp_source_unwrap(jfr_recording *rec, const char *name)
{
    const char *what;

    (void)name;
    rec->container = "raw";
    if (has_magic(rec->data, rec->size, "FLR\0", 4))
        return 0;
    for (size_t i = 0; filters[i]; i++)
        if (filters[i]->bid(rec->data, rec->size))
            return unwrap_with(rec, filters[i]);
    if (rec->size == 0)
        return jfrp_fail(&rec->err, JFR_EFORMAT, -1, 0,
                         "empty input, not a JFR recording");
    what = unsupported_container(rec->data, rec->size);
    if (what)
        return jfrp_fail(&rec->err, JFR_EFORMAT, -1, 0, "not a JFR recording: %s", what);
    /* a damaged start: jfr_recording_next_chunk skips to this header */
    if (jfrp_find_header(rec->data, rec->size, 0, rec->opts.max_chunk_size, true) <
        rec->size)
        return 0;
    return jfrp_fail(&rec->err, JFR_EFORMAT, -1, 0,
                     "not a JFR recording (no FLR magic at offset 0)");
}

void jfrp_source_release(jfr_recording *rec)
{
    release_input(rec);
}
