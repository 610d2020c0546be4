/* fuzz_container.c - opening from memory (raw, gzip, lz4 frame) and stepping
 * over chunk headers, without decoding events.
 * Properties: a raw input keeps its size; chunks start where the previous
 * one ended, in order, with headers whose offsets lie inside the chunk;
 * every failure carries a message; iteration ends. Skipping by headers
 * (jfr_recording_skip_chunk) passes exactly the chunks the walk met when it
 * reaches the end, and a chunk it refuses is still there to be read. A
 * chunk whose size is wrong is read up to the next chunk header (its
 * warning says so), so the next chunk need not start where it declares. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jfr_recording *rec;
    jfr_chunk *chunk;
    uint64_t next = 0; /* where the next chunk starts, if known */
    bool known = true;
    int64_t index = 0, skipped;
    int rc;

    if (fz_open(&rec, data, size) < 0)
        return 0;
    if (strcmp(jfr_recording_container(rec), "raw") == 0)
        FZ_CHECK(jfr_recording_size(rec) == size);
    while ((rc = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE) {
        const jfr_header *h;

        FZ_CHECK(index < 100000);
        if (rc < 0) {
            fz_check_error(jfr_recording_error(rec));
            known = false; /* a chunk that failed to open is skipped whole */
            index++;
            continue;
        }
        h = jfr_chunk_header(chunk);
        FZ_CHECK(jfr_chunk_index(chunk) == index);
        FZ_CHECK(known ? h->file_offset == next : h->file_offset >= next);
        FZ_CHECK(h->metadata_offset >= 68);
        if (jfr_chunk_warning(chunk) &&
            strstr(jfr_chunk_warning(chunk)->message, "next chunk starts")) {
            known = false;
            index++;
            continue;
        }
        if (!jfr_chunk_warning(chunk) ||
            jfr_chunk_warning(chunk)->code != JFR_ETRUNCATED ||
            !strstr(jfr_chunk_warning(chunk)->message, "incomplete")) {
            /* a whole chunk: its bytes are all in the input */
            FZ_CHECK(h->chunk_size >= 68);
            FZ_CHECK(h->file_offset + h->chunk_size <= jfr_recording_size(rec));
            FZ_CHECK(h->metadata_offset < h->chunk_size);
        }
        next = h->file_offset + h->chunk_size;
        known = true;
        index++;
    }
    FZ_CHECK(jfr_recording_next_chunk(&chunk, rec) == JFR_DONE);
    jfr_recording_free(rec);

    if (fz_open(&rec, data, size) < 0)
        return 0;
    for (skipped = 0; (rc = jfr_recording_skip_chunk(rec)) == JFR_OK; skipped++)
        FZ_CHECK(skipped < index);
    if (rc == JFR_DONE) {
        FZ_CHECK(skipped == index);
    } else {
        /* refused without moving: the walk can still take that chunk */
        fz_check_error(jfr_recording_error(rec));
        FZ_CHECK(jfr_recording_next_chunk(&chunk, rec) != JFR_DONE);
    }
    jfr_recording_free(rec);
    return 0;
}
