/* output.c - see output.h. */
#define _GNU_SOURCE /* renameat2, where the C library has it */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jfrtool.h"
#include "output.h"
#include "util.h"

/* stdio's buffer for a regular file. glibc's is the file's block size
 * (4 KiB), so a long text went out in a write(2) of 4 KiB and one of the
 * rest of each piece, and on ext4 each write updates the inode's times:
 * folded's 318 MB took 6,240 writes, and 0.88x the wall in 304 writes of
 * 256 KiB or 1 MiB (doc/performance.md). */
#define FILE_BUFFER_BYTES ((size_t)256 << 10)

/* A buffer of FILE_BUFFER_BYTES for `fp`, before its first write; NULL
 * (stdio's own kept) when there is no memory for it. */
static char *buffer_file(FILE *fp)
{
    char *buf = malloc(FILE_BUFFER_BYTES);

    if (buf && setvbuf(fp, buf, _IOFBF, FILE_BUFFER_BYTES) != 0) {
        free(buf);
        buf = NULL;
    }
    return buf;
}

void output_buffer_stdout(void)
{
    static char *buf;
    struct stat st;

    /* a terminal, a pipe or a device keeps stdio's choice */
    if (!buf && fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode))
        buf = buffer_file(stdout);
}

/* Only a regular file (or none yet) is replaced by renaming: a device, a
 * pipe or a symbolic link is written to as it is. */
static bool replaceable(const char *path)
{
    struct stat st;

    return lstat(path, &st) != 0 ? errno == ENOENT : S_ISREG(st.st_mode);
}

bool output_is_stdout(const char *path)
{
    return !path || strcmp(path, "-") == 0;
}

int outfile_open(outfile *o, const char *path)
{
    int fd;

    o->fp = stdout;
    o->path = NULL;
    o->tmp = NULL;
    o->buf = NULL;
    if (output_is_stdout(path))
        return EXIT_OK;
    o->path = path;
    if (!replaceable(path)) {
        if (!(o->fp = fopen(path, "w"))) {
            warnx_("%s: cannot write: %s", path, strerror(errno));
            return EXIT_USAGE;
        }
        return EXIT_OK;
    }
    o->tmp = xmalloc(strlen(path) + sizeof ".XXXXXX");
    strcpy(o->tmp, path);
    strcat(o->tmp, ".XXXXXX");
    if ((fd = mkstemp(o->tmp)) < 0 || !(o->fp = fdopen(fd, "w"))) {
        warnx_("%s: cannot write: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        free(o->tmp);
        o->tmp = NULL;
        o->fp = NULL;
        return EXIT_USAGE;
    }
    o->buf = buffer_file(o->fp);
    /* mkstemp makes it 0600: give it the mode of the file it replaces, as
     * writing over that file would keep, or that a plain create would */
    {
        struct stat old;
        mode_t mask = umask(0);

        umask(mask);
        fchmod(fd, stat(path, &old) == 0 ? old.st_mode & 07777 : 0666 & ~mask);
    }
    return EXIT_OK;
}

/* The new file `tmp` becomes `path`. When `path` is a file already, the
 * two names are exchanged and its old content unlinked: ext4 forces the
 * blocks of a file renamed over another to be allocated at once (its
 * auto_da_alloc), 8-11 ms in the rename for an 18 MB flame page, and not
 * for an exchange. Either way OUT is never seen half written; like a
 * file written in place, the new content is not synced to the disk. */
static int replace_file(const char *tmp, const char *path)
{
#ifdef RENAME_EXCHANGE
    int err;

    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE) == 0) {
        if (unlink(tmp) == 0)
            return 0;
        /* what took OUT's name since it was opened is no file: put it back */
        err = errno;
        (void)renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE);
        errno = err;
        return -1;
    }
#endif
    return rename(tmp, path);
}

/* The closed file's name and stdio buffer freed (the buffer only after
 * fclose), `o` emptied. */
static void forget(outfile *o)
{
    free(o->tmp);
    free(o->buf);
    o->tmp = NULL;
    o->buf = NULL;
    o->fp = NULL;
}

void outfile_discard(outfile *o)
{
    if (!o->fp || !o->tmp)
        return;
    fclose(o->fp);
    unlink(o->tmp);
    forget(o);
}

int outfile_close(outfile *o, int status)
{
    bool failed = false;
    int err = 0;

    if (!o->path || !o->fp)
        return status; /* standard output is checked by output_finish */
    if (ferror(o->fp) | (fclose(o->fp) != 0)) {
        err = errno ? errno : EIO;
        warnx_("%s: write error: %s", o->path, strerror(err));
        status = EXIT_INPUT;
        failed = true;
    } else if (o->tmp && command_status(status) != EXIT_OK) {
        /* an input could not be read: the output is not the whole answer */
        warnx_("%s: left as it was", o->path);
        status = command_status(status);
        failed = true;
    } else if (o->tmp && replace_file(o->tmp, o->path) != 0) {
        warnx_("%s: cannot replace: %s", o->path, strerror(errno));
        status = EXIT_INPUT;
        failed = true;
    }
    if (failed && o->tmp)
        unlink(o->tmp);
    forget(o);
    return status;
}

void output_hold_standard_fds(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) == -1 && errno == EBADF &&
            open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY) != fd)
            _exit(EXIT_INPUT); /* a closed descriptor not the lowest free: impossible */
}

int output_finish(int status)
{
    /* fclose reports what fflush may not: a write that failed earlier */
    if (ferror(stdout) | (fclose(stdout) != 0)) {
        int err = errno;
        warnx_("(standard output): write error: %s", strerror(err ? err : EIO));
        return EXIT_INPUT;
    }
    return status;
}

int output_terminal_width(void)
{
    struct winsize ws;

    if (!isatty(STDOUT_FILENO) || ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0)
        return 0;
    return ws.ws_col;
}
