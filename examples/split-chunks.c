/* split-chunks.c - split a recording at chunk boundaries, N chunks a file.
 *
 *     split-chunks N FILE DIR
 *
 * An example of libjfr's chunk API (jfr_assemble(3)): the chunk headers
 * are walked with jfr_recording_next_extent, grouped with jfr_split_take
 * and named with jfr_split_name as `jfr disassemble --max-chunks N` groups
 * and names them, and each file gets the input's bytes as they are with
 * jfr_recording_write_bytes, so that the files joined are the input. Prints
 * one "NAME BYTES" line per file. Build against an installed libjfr with
 *
 *     cc split-chunks.c -o split-chunks $(pkg-config --cflags --libs libjfr)
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <jfr.h>

/* Where each chunk starts (the first from offset 0, so that no byte is
 * left out) and how big each is, up to the next one. */
static size_t chunk_sizes(jfr_recording *rec, uint64_t **starts, uint64_t **sizes)
{
    size_t n = 0, cap = 0;
    jfr_extent e;
    int rc;

    *starts = *sizes = NULL;
    while ((rc = jfr_recording_next_extent(&e, rec)) != JFR_DONE) {
        if (rc < 0)
            continue; /* damaged bytes stay with the chunk before them */
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            *starts = realloc(*starts, cap * sizeof **starts);
            *sizes = realloc(*sizes, cap * sizeof **sizes);
            if (!*starts || !*sizes)
                exit(2);
        }
        (*starts)[n] = n ? e.offset : 0;
        n++;
    }
    for (size_t i = 0; i < n; i++)
        (*sizes)[i] =
            (i + 1 < n ? (*starts)[i + 1] : jfr_recording_size(rec)) - (*starts)[i];
    return n;
}

int main(int argc, char **argv)
{
    jfr_split_options opts = JFR_SPLIT_OPTIONS_INIT;
    jfr_recording *rec;
    jfr_error err;
    uint64_t *starts, *sizes;
    size_t n, parts = 0;

    if (argc != 4 || atoi(argv[1]) < 1) {
        fputs("usage: split-chunks N FILE DIR\n", stderr);
        return 1;
    }
    opts.max_chunks = (uint64_t)atoi(argv[1]);
    if (jfr_recording_open_file(&rec, argv[2], NULL, &err) < 0) {
        fprintf(stderr, "%s: %s\n", argv[2], err.message);
        return 2;
    }
    n = chunk_sizes(rec, &starts, &sizes);
    for (size_t i = 0; i < n; i += jfr_split_take(sizes + i, n - i, &opts))
        parts++;
    for (size_t i = 0, k = 0; i < n; k++) {
        size_t take = jfr_split_take(sizes + i, n - i, &opts);
        uint64_t bytes = 0;
        char name[256], path[4096];
        int fd;

        for (size_t j = i; j < i + take; j++)
            bytes += sizes[j];
        if (jfr_split_name(name, sizeof name, argv[2], k, parts) < 0 ||
            snprintf(path, sizeof path, "%s/%s", argv[3], name) >= (int)sizeof path ||
            (fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666)) < 0) {
            perror(argv[3]);
            return 2;
        }
        if (jfr_recording_write_bytes(fd, rec, starts[i], bytes, &err) < 0 ||
            close(fd) < 0) {
            fprintf(stderr, "%s: write error\n", path);
            return 2;
        }
        printf("%s %llu\n", name, (unsigned long long)bytes);
        i += take;
    }
    free(starts);
    free(sizes);
    jfr_recording_free(rec);
    return 0;
}
