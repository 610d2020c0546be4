/* follow_repo.h - a JVM's disk repository as the follower sees it: its
 * chunk files in the order of their start times (jfr-format.md §3.6), and
 * finding the repository of a process. Internal to follow.c. */
#ifndef JFRP_FOLLOW_REPO_H
#define JFRP_FOLLOW_REPO_H

#include "jfr_private.h"

/** One chunk file: its name in the repository and the start in its header. */
typedef struct jfrp_repo_file {
    char *name;
    int64_t start_nanos;
    uint64_t scan; /* the last scan that saw it */
} jfrp_repo_file;

typedef struct jfrp_repo {
    const jfrp_alloc *al;
    char *dir;             /* the directory given */
    char *repo;            /* the one whose files are listed: dir or its newest
                   repository subdirectory; NULL until one is known */
    jfrp_repo_file *files; /* sorted by start, then name */
    size_t nfiles, room;
    uint64_t scans;
    bool gone; /* the last scan found no directory */
} jfrp_repo;

/** Start with `dir` (copied). 0 or JFR_ENOMEM. */
int jfrp_repo_init(jfrp_repo *r, const jfrp_alloc *al, const char *dir);
void jfrp_repo_free(jfrp_repo *r);

/**
 * List the chunk files again: `*.jfr` files of at least 68 bytes that
 * start with a chunk header, by the start nanos of their headers (read
 * once per file); files that disappeared are dropped. Until `dir` holds
 * chunk files, the newest of its subdirectories named like a repository
 * (yyyy_MM_dd_HH_mm_ss_...) that holds some is used instead.
 * @return 0; JFR_ENOMEM. A directory that cannot be read lists nothing
 *         (r->gone when it does not exist).
 */
int jfrp_repo_scan(jfrp_repo *r);

/** The first file that starts after `start_nanos` (ties: a name after
 * `name`), or NULL. With `name` NULL, the first file of all. */
const jfrp_repo_file *jfrp_repo_next(const jfrp_repo *r, int64_t start_nanos,
                                     const char *name);

/** The newest file, or NULL. */
const jfrp_repo_file *jfrp_repo_newest(const jfrp_repo *r);

/** "DIR/NAME" of file `f`, allocated with the repository's allocator. */
char *jfrp_repo_path(const jfrp_repo *r, const jfrp_repo_file *f);

#endif
