/* follow_repo.c - the chunk files of a JVM's disk repository, ordered by
 * the start times in their headers, listed again as the JVM adds files and
 * its retention deletes them (jfr-format.md §3.6). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "follow_repo.h"

static char *path_join(const jfrp_alloc *al, const char *dir, const char *name)
{
    size_t a = strlen(dir), b = strlen(name);
    char *p = jfrp_malloc(al, a + b + 2);

    if (p) {
        memcpy(p, dir, a);
        p[a] = '/';
        memcpy(p + a + 1, name, b + 1);
    }
    return p;
}

static char *copy_string(const jfrp_alloc *al, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = jfrp_malloc(al, n);

    return p ? memcpy(p, s, n) : NULL;
}

int jfrp_repo_init(jfrp_repo *r, const jfrp_alloc *al, const char *dir)
{
    memset(r, 0, sizeof *r);
    r->al = al;
    return (r->dir = copy_string(al, dir)) ? 0 : JFR_ENOMEM;
}

static void drop_file(jfrp_repo *r, size_t i)
{
    jfrp_free(r->al, r->files[i].name);
    memmove(&r->files[i], &r->files[i + 1], (r->nfiles - i - 1) * sizeof *r->files);
    r->nfiles--;
}

void jfrp_repo_free(jfrp_repo *r)
{
    while (r->nfiles)
        drop_file(r, r->nfiles - 1);
    jfrp_free(r->al, r->files);
    jfrp_free(r->al, r->dir);
    jfrp_free(r->al, r->repo);
    memset(r, 0, sizeof *r);
}

static bool is_chunk_name(const char *name)
{
    size_t n = strlen(name);

    return n > 4 && strcmp(name + n - 4, ".jfr") == 0 && name[0] != '.';
}

/* The JVM names a repository yyyy_MM_dd_HH_mm_ss_PID (RepositoryFiles'
 * DDDD_DD_DD_DD_DD_DD_ pattern). */
static bool is_repository_name(const char *name)
{
    static const char pattern[] = "DDDD_DD_DD_DD_DD_DD_";

    for (size_t i = 0; i < sizeof pattern - 1; i++) {
        char c = name[i];
        if (pattern[i] == 'D' ? (c < '0' || c > '9') : c != '_')
            return false;
    }
    return true;
}

/* The start nanos of the chunk file, or false when it has no complete
 * chunk header yet (the JVM may be creating it) or is gone. */
static bool read_start(const char *path, int64_t *out)
{
    uint8_t h[JFRP_HEADER_SIZE];
    uint64_t v = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n;

    if (fd < 0)
        return false;
    n = pread(fd, h, sizeof h, 0);
    close(fd);
    if (n != (ssize_t)sizeof h || memcmp(h, "FLR\0", 4) != 0)
        return false;
    for (int i = 32; i < 40; i++)
        v = v << 8 | h[i];
    *out = (int64_t)v;
    return true;
}

static long find_file(const jfrp_repo *r, const char *name)
{
    for (size_t i = 0; i < r->nfiles; i++)
        if (strcmp(r->files[i].name, name) == 0)
            return (long)i;
    return -1;
}

static int compare_files(const void *a, const void *b)
{
    const jfrp_repo_file *x = a, *y = b;

    if (x->start_nanos != y->start_nanos)
        return x->start_nanos < y->start_nanos ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int add_file(jfrp_repo *r, const char *dir, const char *name)
{
    long i = find_file(r, name);
    int64_t start;
    char *path, *copy;

    if (i < 0) {
        if (!(path = path_join(r->al, dir, name)))
            return JFR_ENOMEM;
        if (!read_start(path, &start)) {
            jfrp_free(r->al, path);
            return 0; /* not a chunk yet: looked at again next time */
        }
        jfrp_free(r->al, path);
        if (jfrp_grow_array(r->al, (void **)&r->files, &r->room, r->nfiles + 1,
                            sizeof *r->files) < 0 ||
            !(copy = copy_string(r->al, name)))
            return JFR_ENOMEM;
        i = (long)r->nfiles++;
        r->files[i] = (jfrp_repo_file){copy, start, 0};
    }
    r->files[i].scan = r->scans;
    return 0;
}

/* List the chunk files of `dir` into r->files (a file no longer there is
 * dropped). *found: whether the directory could be read. */
static int list_chunks(jfrp_repo *r, const char *dir, bool *found)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int rc = 0;

    *found = d != NULL;
    r->scans++;
    if (!d)
        return 0;
    while (rc == 0 && (e = readdir(d)) != NULL)
        if (is_chunk_name(e->d_name))
            rc = add_file(r, dir, e->d_name);
    closedir(d);
    /* deleted by the JVM's retention, or no longer a chunk */
    for (size_t i = r->nfiles; rc == 0 && i-- > 0;)
        if (r->files[i].scan != r->scans)
            drop_file(r, i);
    if (rc == 0 && r->nfiles > 1)
        qsort(r->files, r->nfiles, sizeof *r->files, compare_files);
    return rc;
}

/* The newest (by modification time) repository subdirectory of `dir`. */
static char *newest_repository(const jfrp_repo *r)
{
    DIR *d = opendir(r->dir);
    struct dirent *e;
    char *best = NULL;
    struct timespec best_time = {0, 0};

    if (!d)
        return NULL;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        char *path;

        if (!is_repository_name(e->d_name) ||
            !(path = path_join(r->al, r->dir, e->d_name)))
            continue;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
            (!best || st.st_mtim.tv_sec > best_time.tv_sec ||
             (st.st_mtim.tv_sec == best_time.tv_sec &&
              st.st_mtim.tv_nsec >= best_time.tv_nsec))) {
            jfrp_free(r->al, best);
            best = path;
            best_time = st.st_mtim;
        } else {
            jfrp_free(r->al, path);
        }
    }
    closedir(d);
    return best;
}

int jfrp_repo_scan(jfrp_repo *r)
{
    bool found;
    char *sub;
    int rc;

    if (r->repo) {
        rc = list_chunks(r, r->repo, &found);
        r->gone = !found;
        return rc;
    }
    /* the directory itself, until it has chunk files, else the newest
     * repository under it (the JDK does the same with a base directory) */
    if ((rc = list_chunks(r, r->dir, &found)) < 0)
        return rc;
    r->gone = !found;
    if (r->nfiles)
        return (r->repo = copy_string(r->al, r->dir)) ? 0 : JFR_ENOMEM;
    if (!found || !(sub = newest_repository(r)))
        return 0;
    if ((rc = list_chunks(r, sub, &found)) < 0 || !r->nfiles) {
        while (r->nfiles)
            drop_file(r, r->nfiles - 1);
        jfrp_free(r->al, sub);
        return rc;
    }
    r->repo = sub;
    return 0;
}

const jfrp_repo_file *jfrp_repo_next(const jfrp_repo *r, int64_t start_nanos,
                                     const char *name)
{
    for (size_t i = 0; i < r->nfiles; i++) {
        const jfrp_repo_file *f = &r->files[i];

        if (!name || f->start_nanos > start_nanos ||
            (f->start_nanos == start_nanos && strcmp(f->name, name) > 0))
            return f;
    }
    return NULL;
}

const jfrp_repo_file *jfrp_repo_newest(const jfrp_repo *r)
{
    return r->nfiles ? &r->files[r->nfiles - 1] : NULL;
}

char *jfrp_repo_path(const jfrp_repo *r, const jfrp_repo_file *f)
{
    return path_join(r->al, r->repo ? r->repo : r->dir, f->name);
}
