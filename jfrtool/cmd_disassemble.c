/* cmd_disassemble.c - jfrtool disassemble: a recording split at chunk
 * boundaries into files of a few chunks, named and grouped as `jfr
 * disassemble` does (libjfr's jfr_split_take and jfr_split_name). The
 * files hold the input's bytes as they are: joined, they give it back. */
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

const char usage_disassemble[] =
    "Usage: jfrtool disassemble [--output DIR] [--max-chunks N] [--max-size SIZE] FILE\n"
    "\n"
    "Split a recording at chunk boundaries into files of at most N chunks and\n"
    "SIZE bytes (a chunk bigger than SIZE is a file alone), as `jfr disassemble`\n"
    "does: DIR/NAME_0.jfr, DIR/NAME_1.jfr, ... where NAME is FILE's name without\n"
    "\".jfr\" and the numbers have as many digits as the last. The files hold the\n"
    "recording's bytes as they are: joined again (jfrtool assemble, or cat) they\n"
    "give it back. No file is written if one of them exists already.\n"
    "\n"
    "  --output DIR      where to write the files (default: the current directory)\n"
    "  --max-chunks N    chunks per file (default 5, when --max-size is not given)\n"
    "  --max-size SIZE   bytes per file; suffix k, M or G for KiB, MiB, GiB\n";

/* A positive count, or 0 when `s` is not one. With `units`, a k, M or G
 * suffix multiplies by 1024, 1024^2 or 1024^3. */
static uint64_t parse_count(const char *s, bool units)
{
    uint64_t v = 0, mul = 1;
    const char *p = s;

    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (UINT64_MAX - 9) / 10)
            return 0;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (p == s)
        return 0;
    if (units && *p && !p[1]) {
        const char *u = strchr("kKmMgG", *p);

        if (!u)
            return 0;
        mul = (uint64_t)1 << (10 * (1 + (u - "kKmMgG") / 2));
        p++;
    }
    if (*p || v > UINT64_MAX / mul)
        return 0;
    return v * mul;
}

/* The chunk starts of `rec` (the first counted from offset 0, so that the
 * files together hold every byte); damage is reported as it is met. */
static size_t chunk_starts(jfr_recording *rec, const char *name, uint64_t **out)
{
    uint64_t *starts = NULL;
    size_t n = 0, cap = 0;
    jfr_extent e;
    int rc;

    while ((rc = jfr_recording_next_extent(&e, rec)) != JFR_DONE) {
        if (rc < 0) {
            report_error(name, jfr_recording_error(rec));
            continue;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            starts = xrealloc(starts, cap, sizeof *starts);
        }
        starts[n] = n == 0 ? 0 : e.offset;
        n++;
        progress_update(name, e.offset, jfr_recording_size(rec), n);
    }
    progress_clear();
    *out = starts;
    return n;
}

typedef struct split_plan {
    size_t nparts;
    size_t *first; /* each part's first chunk; first[nparts] = nchunks */
} split_plan;

static void plan_parts(split_plan *plan, const uint64_t *starts, size_t nchunks,
                       uint64_t total, const jfr_split_options *opts)
{
    uint64_t *sizes = xcalloc(nchunks, sizeof *sizes);

    for (size_t i = 0; i < nchunks; i++)
        sizes[i] = (i + 1 < nchunks ? starts[i + 1] : total) - starts[i];
    plan->first = xcalloc(nchunks + 1, sizeof *plan->first);
    plan->nparts = 0;
    for (size_t i = 0; i < nchunks;) {
        plan->first[plan->nparts++] = i;
        i += jfr_split_take(sizes + i, nchunks - i, opts);
    }
    plan->first[plan->nparts] = nchunks;
    free(sizes);
}

/* "DIR/NAME_K.jfr" of every part (DIR NULL: the current directory); none
 * of them may exist. */
static char **part_paths(const char *dir, const char *input, size_t nparts, int *status)
{
    char **paths = xcalloc(nparts + 1, sizeof *paths);
    char name[4096];
    struct stat st;

    for (size_t k = 0; k < nparts && *status == EXIT_OK; k++) {
        strbuf sb = {0};

        if (jfr_split_name(name, sizeof name, input, k, nparts) < 0) {
            warnx_("%s: file name too long", input);
            *status = EXIT_USAGE;
            break;
        }
        if (dir)
            sb_printf(&sb, "%s/%s", dir, name);
        else
            sb_puts(&sb, name); /* the current directory */
        paths[k] = xstrdup(sb_str(&sb));
        sb_free(&sb);
        if (lstat(paths[k], &st) == 0) {
            warnx_("%s: exists already: no file written", paths[k]);
            *status = EXIT_USAGE;
        }
    }
    return paths;
}

/* Write the parts; a part that could not be written is removed. */
static int write_parts(jfr_recording *rec, const char *name, const split_plan *plan,
                       const uint64_t *starts, char **paths)
{
    uint64_t total = jfr_recording_size(rec);

    for (size_t k = 0; k < plan->nparts; k++) {
        size_t a = plan->first[k], b = plan->first[k + 1];
        uint64_t from = starts[a], to = b < plan->first[plan->nparts] ? starts[b] : total;
        int fd = open(paths[k], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        jfr_error err;
        int failed = 0;

        if (fd < 0) {
            warnx_("%s: cannot write: %s", paths[k], strerror(errno));
            return EXIT_USAGE;
        }
        if (jfr_recording_write_bytes(fd, rec, from, to - from, &err) < 0)
            failed = err.sys_errno ? err.sys_errno : EIO;
        if (close(fd) != 0 && !failed)
            failed = errno;
        if (failed) {
            warnx_("%s: write error: %s", paths[k], strerror(failed));
            unlink(paths[k]);
            return EXIT_INPUT;
        }
        printf("%s: %zu chunk%s, %llu bytes\n", paths[k], b - a, b - a == 1 ? "" : "s",
               (unsigned long long)(to - from));
        progress_update(name, to, total, b);
    }
    progress_clear();
    return EXIT_OK;
}

/* The JDK's rules for when there is nothing to split (Disassemble.java):
 * a file within --max-size alone is left as it is; with no --max-size, a
 * recording of no more chunks than --max-chunks is an error. -1: go on. */
static int nothing_to_split(const char *name, uint64_t total, size_t nchunks,
                            const jfr_split_options *opts, bool size_only)
{
    if (size_only && total <= opts->max_size) {
        warnx_("%s: %llu bytes, not more than --max-size %llu: nothing to split", name,
               (unsigned long long)total, (unsigned long long)opts->max_size);
        return EXIT_OK;
    }
    if (!opts->max_size && nchunks <= opts->max_chunks) {
        warnx_("%s: %zu chunk%s, not more than --max-chunks %llu: nothing to split", name,
               nchunks, nchunks == 1 ? "" : "s", (unsigned long long)opts->max_chunks);
        return EXIT_USAGE;
    }
    return -1;
}

static int disassemble(const char *path, const char *dir, jfr_split_options *opts,
                       bool size_only)
{
    const char *name = input_name(path);
    int status = EXIT_OK;
    jfr_recording *rec = open_recording(path, &status);
    split_plan plan = {0, NULL};
    uint64_t *starts = NULL;
    char **paths = NULL;
    size_t nchunks;
    int rc;

    if (!rec)
        return status;
    nchunks = chunk_starts(rec, name, &starts);
    if (nchunks == 0) {
        warnx_("%s: no chunk found", name);
        status = EXIT_INPUT;
    } else if ((rc = nothing_to_split(name, jfr_recording_size(rec), nchunks, opts,
                                      size_only)) >= 0) {
        status = rc;
    } else {
        plan_parts(&plan, starts, nchunks, jfr_recording_size(rec), opts);
        paths = part_paths(dir, strcmp(path, "-") == 0 ? "stdin" : path, plan.nparts,
                           &status);
        if (status == EXIT_OK)
            status = write_parts(rec, name, &plan, starts, paths);
    }
    for (size_t k = 0; paths && k < plan.nparts; k++)
        free(paths[k]);
    free(paths);
    free(plan.first);
    free(starts);
    close_recording(rec);
    return status;
}

int cmd_disassemble(int argc, char **argv)
{
    static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
                                         {"max-chunks", required_argument, NULL, 'c'},
                                         {"max-size", required_argument, NULL, 's'},
                                         {"help", no_argument, NULL, 'h'},
                                         {0}};
    jfr_split_options split = JFR_SPLIT_OPTIONS_INIT;
    const char *dir = NULL;
    struct stat st;
    int c;

    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'o':
            dir = optarg;
            break;
        case 'c':
            if (!(split.max_chunks = parse_count(optarg, false)))
                diex(EXIT_USAGE, "--max-chunks: '%s' is not a positive number", optarg);
            break;
        case 's':
            if (!(split.max_size = parse_count(optarg, true)))
                diex(EXIT_USAGE, "--max-size: '%s' is not a positive size", optarg);
            break;
        case 'h':
            fputs(usage_disassemble, stdout);
            return EXIT_OK;
        default:
            fputs(usage_disassemble, stderr);
            return EXIT_USAGE;
        }
    }
    if (argc - optind != 1) {
        fputs(usage_disassemble, stderr);
        return EXIT_USAGE;
    }
    if (dir && stat(dir, &st) != 0)
        diex(EXIT_USAGE, "--output: %s: %s", dir, strerror(errno));
    if (dir && !S_ISDIR(st.st_mode))
        diex(EXIT_USAGE, "--output: %s: not a directory", dir);
    if (!split.max_chunks && !split.max_size)
        split.max_chunks = 5;
    return disassemble(argv[optind], dir, &split, split.max_size && !split.max_chunks);
}
