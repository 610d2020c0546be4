/* cmd_assemble.c - jfrtool assemble: chunks of several files (a JVM's
 * disk repository, or the parts of jfrtool disassemble) joined into one
 * recording, a chunk the JVM did not close finished at its last complete
 * flush (libjfr's jfr_recording_next_extent and jfr_assemble_files). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jfrtool.h"
#include "progress.h"
#include "util.h"

const char usage_assemble[] =
    "Usage: jfrtool assemble DIR|FILE... OUT\n"
    "\n"
    "Join the chunks of the inputs into the recording OUT, as `jfr assemble`\n"
    "does: a directory stands for its *.jfr files in name order (a JVM's disk\n"
    "repository names its chunk files by their start time), files count in\n"
    "the order given. A chunk the JVM did not close (the one it was writing\n"
    "when the repository was copied, or when it died) is finished at its last\n"
    "complete flush, as JDK 27's `jfr assemble` does; a chunk with no complete\n"
    "flush and bytes that are not chunks are left out. Each of these is\n"
    "reported on standard error. OUT must not exist ('-': standard output).\n";

typedef struct path_list {
    char **items;
    size_t n, cap;
} path_list;

static void add_path(path_list *l, const char *path)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->items = xrealloc(l->items, l->cap, sizeof *l->items);
    }
    l->items[l->n++] = xstrdup(path);
}

/* An argument: a directory's *.jfr files in name order, or itself. */
static int add_input(path_list *l, const char *arg)
{
    struct stat st;
    char **files;
    size_t n;
    jfr_error err;

    if (strcmp(arg, "-") == 0 || stat(arg, &st) != 0 || !S_ISDIR(st.st_mode)) {
        add_path(l, arg);
        return EXIT_OK;
    }
    if (jfr_assemble_files(&files, &n, arg, &err) < 0) {
        report_error(arg, &err);
        return EXIT_INPUT;
    }
    if (n == 0)
        warnx_("%s: no *.jfr file in this directory", arg);
    for (size_t i = 0; i < n; i++)
        add_path(l, files[i]);
    jfr_assemble_files_free(files, n);
    return n ? EXIT_OK : EXIT_INPUT;
}

/* Say what happened to a chunk that is not copied as it is. */
static void report_extent(const char *name, const jfr_extent *e)
{
    strbuf sb = {0};

    sb_printf(&sb, "%s: chunk %lld, offset %llu: ", name, (long long)e->index,
              (unsigned long long)e->offset);
    if (e->state != 0)
        sb_printf(&sb, "not closed (state %u)", e->state);
    else
        sb_printf(&sb, "cut or damaged (%llu bytes declared, %llu present)",
                  (unsigned long long)e->declared, (unsigned long long)e->present);
    if (e->kind == JFR_EXTENT_FINISHED)
        sb_printf(&sb, ": finished at its last complete flush, %llu of %llu bytes kept",
                  (unsigned long long)e->size, (unsigned long long)e->present);
    else
        sb_printf(&sb, " and no flush in it was completed: left out (%llu bytes)",
                  (unsigned long long)e->present);
    warnx_("%s", sb_str(&sb));
    sb_free(&sb);
}

typedef struct assembly {
    int fd;
    const char *out;   /* OUT as given */
    uint64_t chunks;   /* written */
    bool write_failed; /* the message is out */
} assembly;

/* Copy the chunks of one input. */
static int assemble_one(assembly *a, const char *path)
{
    const char *name = input_name(path);
    int status = EXIT_OK, rc;
    jfr_recording *rec = open_recording(path, &status);
    jfr_extent e;
    jfr_error err;

    if (!rec)
        return status;
    while ((rc = jfr_recording_next_extent(&e, rec)) != JFR_DONE) {
        if (rc < 0) {
            report_error(name, jfr_recording_error(rec));
            continue;
        }
        if (e.kind != JFR_EXTENT_COMPLETE)
            report_extent(name, &e);
        if (e.kind == JFR_EXTENT_EMPTY)
            continue;
        if (jfr_recording_write_extent(a->fd, rec, &e, &err) < 0) {
            warnx_("%s: write error: %s", a->out,
                   err.sys_errno ? strerror(err.sys_errno) : err.message);
            a->write_failed = true;
            break;
        }
        a->chunks++;
        progress_update(name, e.offset + e.present, jfr_recording_size(rec), a->chunks);
    }
    progress_clear();
    close_recording(rec);
    return status;
}

static int open_output(const char *out)
{
    int fd;

    if (strcmp(out, "-") == 0) {
        if (isatty(STDOUT_FILENO))
            diex(EXIT_USAGE, "will not write a recording to a terminal");
        return STDOUT_FILENO;
    }
    if ((fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)) < 0)
        diex(EXIT_USAGE, "%s: %s", out,
             errno == EEXIST ? "exists already" : strerror(errno));
    return fd;
}

int cmd_assemble(int argc, char **argv)
{
    static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {0}};
    path_list inputs = {NULL, 0, 0};
    assembly a = {-1, NULL, 0, false};
    int status = EXIT_OK, c;

    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        fputs(usage_assemble, c == 'h' ? stdout : stderr);
        return c == 'h' ? EXIT_OK : EXIT_USAGE;
    }
    if (argc - optind < 2) {
        fputs(usage_assemble, stderr);
        return EXIT_USAGE;
    }
    a.out = argv[argc - 1];
    if (strcmp(a.out, "-") != 0 && access(a.out, F_OK) == 0)
        diex(EXIT_USAGE, "%s: exists already", a.out);
    /* listed before OUT is made: a directory may be OUT's own */
    for (int i = optind; i < argc - 1; i++)
        if (add_input(&inputs, argv[i]) != EXIT_OK)
            status = EXIT_INPUT;
    a.fd = open_output(a.out);
    for (size_t i = 0; i < inputs.n && !a.write_failed; i++)
        if (assemble_one(&a, inputs.items[i]) != EXIT_OK)
            status = EXIT_INPUT;
    if (!a.write_failed && a.chunks == 0)
        warnx_("%s: no chunk to write", a.out);
    if (a.fd != STDOUT_FILENO && close(a.fd) != 0 && !a.write_failed) {
        warnx_("%s: write error: %s", a.out, strerror(errno));
        a.write_failed = true;
    }
    if (a.write_failed || a.chunks == 0) {
        if (a.fd != STDOUT_FILENO)
            unlink(a.out);
        status = EXIT_INPUT;
    }
    for (size_t i = 0; i < inputs.n; i++)
        free(inputs.items[i]);
    free(inputs.items);
    return status;
}
