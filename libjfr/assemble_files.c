/* assemble_files.c - the files `jfr assemble DIR` joins, in its order
 * (jfr/assemble.h). */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jfr_private.h"

static int fail_errno(jfr_error *err, int code, const char *what)
{
    int e = errno;

    if (err) {
        jfrp_fail(err, code, -1, 0, "%s: %s", what, strerror(e));
        err->sys_errno = e;
    }
    return code;
}

/* Byte order of the names, as the JDK sorts its paths. */
static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "DIR/NAME" for an entry that ends in ".jfr" and is a readable file, or
 * NULL (with *rc JFR_ENOMEM when out of memory). */
static char *candidate(const char *dir, const char *name, int *rc)
{
    size_t dlen = strlen(dir), nlen = strlen(name);
    struct stat st;
    char *path;

    while (dlen > 1 && dir[dlen - 1] == '/')
        dlen--;

    *rc = JFR_OK;
    if (nlen < 4 || strcmp(name + nlen - 4, ".jfr") != 0)
        return NULL;
    if (!(path = malloc(dlen + nlen + 2))) {
        *rc = JFR_ENOMEM;
        return NULL;
    }
    memcpy(path, dir, dlen);
    path[dlen] = '/';
    memcpy(path + dlen + 1, name, nlen + 1);
    if (stat(path, &st) != 0 || S_ISDIR(st.st_mode) || access(path, R_OK) != 0) {
        free(path);
        return NULL;
    }
    return path;
}

int jfr_assemble_files(char ***paths, size_t *count, const char *dir, jfr_error *err)
{
    char **list = NULL;
    size_t n = 0, cap = 0;
    struct dirent *d;
    DIR *dp;
    int rc = JFR_OK;

    if (err)
        memset(err, 0, sizeof *err), err->chunk = -1;
    if (!paths || !count || !dir)
        return JFR_EINVAL;
    *paths = NULL;
    *count = 0;
    if (!(dp = opendir(dir)))
        return fail_errno(err, JFR_EIO, "cannot open directory");
    while ((d = readdir(dp)) != NULL) {
        char *path = candidate(dir, d->d_name, &rc);

        if (!path && rc < 0)
            break;
        if (!path)
            continue;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 16;
            char **grown = realloc(list, ncap * sizeof *list);

            if (!grown) {
                free(path);
                rc = JFR_ENOMEM;
                break;
            }
            list = grown;
            cap = ncap;
        }
        list[n++] = path;
    }
    closedir(dp);
    if (rc < 0) {
        jfr_assemble_files_free(list, n);
        if (err)
            jfrp_fail(err, rc, -1, 0, "out of memory");
        return rc;
    }
    if (n)
        qsort(list, n, sizeof *list, by_name);
    *paths = list;
    *count = n;
    return JFR_OK;
}

void jfr_assemble_files_free(char **paths, size_t count)
{
    if (!paths)
        return;
    for (size_t i = 0; i < count; i++)
        free(paths[i]);
    free(paths);
}
