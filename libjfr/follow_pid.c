/* follow_pid.c - the disk repository of a JVM given its process id: the
 * directory of the chunk file it has open, else a directory named
 * <yyyy_MM_dd_HH_mm_ss>_<pid> in the places the JVM puts them
 * (jfr-format.md §3.6). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jfr_private.h"

/* A repository directory found so far: the newest wins. */
typedef struct best_dir {
    char path[PATH_MAX];
    struct timespec mtime;
    bool found;
} best_dir;

static void consider(best_dir *best, const char *path)
{
    struct stat st;

    if (strlen(path) >= sizeof best->path || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return;
    if (best->found && (st.st_mtim.tv_sec < best->mtime.tv_sec ||
                        (st.st_mtim.tv_sec == best->mtime.tv_sec &&
                         st.st_mtim.tv_nsec < best->mtime.tv_nsec)))
        return;
    strcpy(best->path, path);
    best->mtime = st.st_mtim;
    best->found = true;
}

/* The directory of a chunk file the process has open: the JVM keeps the
 * chunk it writes open. */
static void from_open_files(best_dir *best, int64_t pid)
{
    char dir[64], link[PATH_MAX + 32], target[PATH_MAX];
    struct dirent *e;
    DIR *d;

    snprintf(dir, sizeof dir, "/proc/%lld/fd", (long long)pid);
    if (!(d = opendir(dir)))
        return;
    while ((e = readdir(d)) != NULL) {
        ssize_t n;
        char *slash;

        snprintf(link, sizeof link, "%s/%s", dir, e->d_name);
        n = readlink(link, target, sizeof target - 1);
        if (n <= 4)
            continue;
        target[n] = '\0';
        /* a deleted file reads "... (deleted)" and does not end in .jfr */
        if (strcmp(target + n - 4, ".jfr") != 0 || !(slash = strrchr(target, '/')))
            continue;
        *slash = '\0';
        consider(best, target);
    }
    closedir(d);
}

/* yyyy_MM_dd_HH_mm_ss_PID, or with a _N suffix after the pid. */
static bool names_repository_of(const char *name, const char *pid)
{
    static const char pattern[] = "DDDD_DD_DD_DD_DD_DD_";
    size_t n = sizeof pattern - 1, plen = strlen(pid);

    for (size_t i = 0; i < n; i++)
        if (pattern[i] == 'D' ? (name[i] < '0' || name[i] > '9') : name[i] != '_')
            return false;
    if (strncmp(name + n, pid, plen) != 0)
        return false;
    name += n + plen;
    if (*name == '\0')
        return true;
    if (*name++ != '_' || !*name)
        return false;
    while (*name >= '0' && *name <= '9')
        name++;
    return *name == '\0';
}

static void in_base(best_dir *best, const char *base, int64_t pid)
{
    char spid[32], path[PATH_MAX];
    struct dirent *e;
    DIR *d;

    if (!base || !*base || !(d = opendir(base)))
        return;
    snprintf(spid, sizeof spid, "%lld", (long long)pid);
    while ((e = readdir(d)) != NULL)
        if (names_repository_of(e->d_name, spid) &&
            snprintf(path, sizeof path, "%s/%s", base, e->d_name) < (int)sizeof path)
            consider(best, path);
    closedir(d);
}

/* The value after `key` in `arg` up to a comma ("repository=" in
 * -XX:FlightRecorderOptions:repository=/x,maxchunksize=..), copied. */
static bool option_value(const char *arg, const char *key, char *out, size_t size)
{
    const char *p = strstr(arg, key);
    size_t n;

    if (!p)
        return false;
    p += strlen(key);
    n = strcspn(p, ",");
    if (n == 0 || n >= size)
        return false;
    memcpy(out, p, n);
    out[n] = '\0';
    return true;
}

/* The bases the process's command line names: the repository= option's
 * and java.io.tmpdir. */
static void from_command_line(best_dir *best, int64_t pid)
{
    char path[64], value[PATH_MAX], buf[65536];
    ssize_t n;
    int fd;

    snprintf(path, sizeof path, "/proc/%lld/cmdline", (long long)pid);
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
        return;
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return;
    buf[n] = '\0';
    for (const char *arg = buf; arg < buf + n; arg += strlen(arg) + 1) {
        if (strncmp(arg, "-XX:FlightRecorderOptions", 25) == 0 &&
            option_value(arg, "repository=", value, sizeof value))
            in_base(best, value, pid);
        if (strncmp(arg, "-Djava.io.tmpdir=", 17) == 0)
            in_base(best, arg + 17, pid);
    }
}

int jfr_follow_find_pid(char *out, size_t out_size, int64_t pid, jfr_error *err)
{
    best_dir best = {.found = false};
    const char *tmpdir = getenv("TMPDIR");

    if (err)
        memset(err, 0, sizeof *err), err->chunk = -1;
    if (!out || out_size == 0 || pid <= 0 || pid > INT_MAX)
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "no output buffer, or a bad process id");
    out[0] = '\0';
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
        return jfrp_fail(err, JFR_ENOTFOUND, -1, 0, "no process %lld", (long long)pid);
    from_open_files(&best, pid);
    if (!best.found) {
        from_command_line(&best, pid);
        in_base(&best, tmpdir, pid);
        in_base(&best, "/tmp", pid);
    }
    if (!best.found)
        return jfrp_fail(err, JFR_ENOTFOUND, -1, 0,
                         "process %lld has no JFR disk repository open, nor one in"
                         " %s%s/tmp",
                         (long long)pid, tmpdir && *tmpdir ? tmpdir : "",
                         tmpdir && *tmpdir ? ", " : "");
    if (strlen(best.path) >= out_size)
        return jfrp_fail(err, JFR_ELIMIT, -1, 0, "the repository's path is too long");
    strcpy(out, best.path);
    return JFR_OK;
}
