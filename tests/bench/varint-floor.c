/* varint-floor.c - the decoding floor of a recording, for issue 31's
 * "within 3x the varint floor in CPU": every byte of the mapped file read
 * as back-to-back LEB128 varints, a byte at a time, and summed (printed,
 * so that the loop is not optimised away). Not built by make:
 *
 *     cc -O2 -o varint-floor tests/bench/varint-floor.c
 *     ./varint-floor FILE.jfr
 *
 * doc/performance.md compares `jfrtool folded --event cpu` with it, side by
 * side, process against process. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    const uint8_t *p, *end;
    uint64_t sum = 0, count = 0;
    struct stat st;
    void *map;
    int fd;

    if (argc != 2) {
        fprintf(stderr, "usage: varint-floor FILE\n");
        return 1;
    }
    fd = open(argv[1], O_RDONLY);
    if (fd < 0 || fstat(fd, &st) < 0 || st.st_size <= 0) {
        perror(argv[1]);
        return 2;
    }
    map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
        perror(argv[1]);
        return 2;
    }
    p = map;
    end = p + st.st_size;
    while (p < end) {
        uint64_t v = 0;
        unsigned shift = 0;
        uint8_t b;

        do {
            b = *p++;
            v |= (uint64_t)(b & 0x7f) << shift;
            shift += 7;
        } while ((b & 0x80) && p < end && shift < 63);
        sum += v;
        count++;
    }
    printf("%llu varints, sum %llu\n", (unsigned long long)count,
           (unsigned long long)sum);
    munmap(map, (size_t)st.st_size);
    close(fd);
    return 0;
}
