/* fuzz_assemble.c - chunks as byte ranges (jfr/assemble.h): every extent of
 * the input, written out as `jfrtool assemble` writes it, read back.
 * Properties: the walk ends; extents follow one another inside the input,
 * a copy never holds more than the bytes there, a finished chunk's header
 * is closed and gives its size; the copy is made of closed, whole chunks
 * only, so walking it finds every one COMPLETE, and writing it again gives
 * the same bytes. */
#include <unistd.h>

#include "fuzz_common.h"

/* Walk `rec`, writing every extent to `out` (NULL: no writing); returns the
 * extents written, and in *all_complete whether every one was COMPLETE. */
static size_t walk(jfr_recording *rec, FILE *out, bool *all_complete)
{
    uint64_t size = jfr_recording_size(rec), next = 0;
    size_t written = 0, calls = 0;
    jfr_extent e;
    jfr_error err;
    int rc;

    *all_complete = true;
    while ((rc = jfr_recording_next_extent(&e, rec)) != JFR_DONE) {
        FZ_CHECK(++calls <= size + 2); /* every call moves on */
        if (rc < 0) {
            *all_complete = false;
            continue;
        }
        FZ_CHECK(e.kind <= JFR_EXTENT_EMPTY);
        FZ_CHECK(e.offset >= next && e.offset < size);
        FZ_CHECK(e.present <= size - e.offset && e.size <= e.present);
        next = e.offset + e.present;
        if (e.kind != JFR_EXTENT_COMPLETE)
            *all_complete = false;
        if (e.kind == JFR_EXTENT_COMPLETE)
            FZ_CHECK(e.size == e.present && e.size == e.declared && e.state == 0);
        if (e.kind == JFR_EXTENT_FINISHED) {
            uint64_t stated = 0;

            for (int i = 8; i < 16; i++)
                stated = stated << 8 | e.header[i];
            FZ_CHECK(memcmp(e.header, "FLR\0", 4) == 0 && e.header[64] == 0);
            FZ_CHECK(stated == e.size && e.size >= JFR_CHUNK_HEADER_SIZE);
        }
        if (e.kind == JFR_EXTENT_EMPTY)
            FZ_CHECK(e.size == 0);
        if (out && e.kind != JFR_EXTENT_EMPTY) {
            FZ_CHECK(jfr_recording_write_extent(fileno(out), rec, &e, &err) == JFR_OK);
            written++;
        }
    }
    return written;
}

/* What was written to `f`, in a buffer of its own (*len bytes). */
static uint8_t *contents(FILE *f, size_t *len)
{
    long n;
    uint8_t *buf;

    FZ_CHECK(fflush(f) == 0 && (n = lseek(fileno(f), 0, SEEK_END)) >= 0);
    *len = (size_t)n;
    buf = malloc(*len ? *len : 1);
    FZ_CHECK(buf != NULL);
    FZ_CHECK(pread(fileno(f), buf, *len, 0) == (ssize_t)*len);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jfr_recording *rec;
    FILE *once = tmpfile(), *twice = tmpfile();
    uint8_t *a, *b;
    size_t alen, blen, written, again;
    bool complete;

    FZ_CHECK(once && twice);
    if (fz_open(&rec, data, size) == JFR_OK) {
        written = walk(rec, once, &complete);
        jfr_recording_free(rec);
        a = contents(once, &alen);
        if (alen > 0) {
            FZ_CHECK(fz_open(&rec, a, alen) == JFR_OK);
            again = walk(rec, twice, &complete);
            FZ_CHECK(complete && again == written);
            jfr_recording_free(rec);
            b = contents(twice, &blen);
            FZ_CHECK(blen == alen && memcmp(a, b, alen) == 0);
            free(b);
        } else {
            FZ_CHECK(written == 0);
        }
        free(a);
    }
    fclose(once);
    fclose(twice);
    return 0;
}
