/* replay.c - runs a fuzz target (linked in) on saved inputs, without
 * libFuzzer, as a regular test: every file of tests/fuzz/corpus/TARGET and
 * tests/fuzz/regressions/TARGET, or the files and folders given as
 * arguments. A violated property aborts, so a failure names its input on
 * the line before. FUZZ_TARGET is the target's name (set by the build). */
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#include "fuzz_common.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, n;

    if (!f) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return 1;
    }
    do {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            buf = realloc(buf, cap);
            if (!buf)
                abort();
        }
        n = fread(buf + len, 1, cap - len, f);
        len += n;
    } while (n > 0);
    fclose(f);
    fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file under `path` (recursively), in name order. */
static int run_path(const char *path, size_t *count)
{
    struct stat st;
    DIR *d;
    struct dirent *de;
    char **names = NULL;
    size_t n = 0;
    int failed = 0;

    if (stat(path, &st) != 0)
        return 0; /* an absent folder holds no inputs */
    if (!S_ISDIR(st.st_mode)) {
        ++*count;
        return run_file(path);
    }
    if (!(d = opendir(path)))
        return 1;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        names = realloc(names, (n + 1) * sizeof *names);
        names[n] = malloc(strlen(path) + strlen(de->d_name) + 2);
        if (!names || !names[n])
            abort();
        sprintf(names[n++], "%s/%s", path, de->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, compare_names);
    for (size_t i = 0; i < n; i++) {
        failed |= run_path(names[i], count);
        free(names[i]);
    }
    free(names);
    return failed;
}

int main(int argc, char **argv)
{
    size_t count = 0;
    int failed = 0;

    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            failed |= run_path(argv[i], &count);
    } else {
        const char *td = getenv("JFR_TESTDATA"); /* .../testdata */
        char dir[4096];

        if (!td) {
            fputs("replay: JFR_TESTDATA is not set (run through make check)\n", stderr);
            return 99;
        }
        snprintf(dir, sizeof dir, "%s/../tests/fuzz/corpus/%s", td, FUZZ_TARGET);
        failed |= run_path(dir, &count);
        snprintf(dir, sizeof dir, "%s/../tests/fuzz/regressions/%s", td, FUZZ_TARGET);
        failed |= run_path(dir, &count);
    }
    printf("replay %s: %zu inputs\n", FUZZ_TARGET, count);
    if (count == 0 && !failed) {
        fputs("replay: no inputs found\n", stderr);
        return 99;
    }
    return failed;
}
