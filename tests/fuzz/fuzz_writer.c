/* fuzz_writer.c - write what is read, read what was written: every chunk
 * of the input copied by the writer (jfr_writer_add_chunk into memory), the
 * first input byte choosing a scrub (none, redaction, a type filter, a
 * thread filter, a time range), then the output read back.
 * Properties: the output opens and every chunk of it reads with no error
 * and no warning (complete headers, whole pools: --strict); it has as many
 * chunks and events of each chunk as the writer said it wrote, each event
 * decodes whole; writing the output again gives the same bytes (the writer
 * keeps nothing but what is needed, so a second pass changes nothing). */
#include "fuzz_common.h"

static jfr_scrub *scrub_for(uint8_t choice)
{
    jfr_scrub *s = NULL;

    if (choice % 5 == 0 || jfr_scrub_new(&s, NULL) < 0)
        return NULL;
    switch (choice % 5) {
    case 1:
        FZ_CHECK(jfr_scrub_redact_defaults(s, NULL) == JFR_OK);
        FZ_CHECK(jfr_scrub_redact_field(s, "java.lang.Thread", "javaName", "[a-m]") ==
                 JFR_OK);
        break;
    case 2:
        FZ_CHECK(jfr_scrub_add_filter(s, JFR_SCRUB_EXCLUDE_EVENTS, "*Sample,jdk.GC*") ==
                 JFR_OK);
        break;
    case 3:
        FZ_CHECK(jfr_scrub_add_filter(s, JFR_SCRUB_EXCLUDE_THREADS, "main,?2*") ==
                 JFR_OK);
        break;
    default:
        FZ_CHECK(jfr_scrub_set_time_range(s, 1, INT64_MAX / 2) == JFR_OK);
        break;
    }
    return s;
}

/* Copy every chunk of `data` through `s` into memory; *stats summed. */
static jfr_writer *copy(const uint8_t *data, size_t size, jfr_scrub *s,
                        jfr_write_stats *stats, uint64_t *per_chunk, size_t max_chunks)
{
    jfr_recording *rec;
    jfr_writer *w;
    jfr_chunk *chunk;
    size_t written = 0;
    int rc;

    memset(stats, 0, sizeof *stats);
    if (fz_open(&rec, data, size) < 0)
        return NULL;
    FZ_CHECK(jfr_writer_open_memory(&w, NULL, NULL) == JFR_OK);
    while ((rc = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE) {
        jfr_write_stats one = {0};

        if (rc < 0)
            continue;
        rc = jfr_writer_add_chunk(&one, w, chunk, s);
        FZ_CHECK(rc == JFR_OK || rc == JFR_ECORRUPT || rc == JFR_ENOMEM ||
                 rc == JFR_ELIMIT);
        if (rc == JFR_OK && one.chunks_written && written < max_chunks)
            per_chunk[written++] = one.events_written;
        FZ_CHECK(one.events_written <= one.events_read);
        for (size_t i = 0; i < sizeof one / sizeof(uint64_t); i++)
            ((uint64_t *)stats)[i] += ((uint64_t *)&one)[i];
    }
    jfr_recording_free(rec);
    FZ_CHECK(jfr_writer_close(w) == JFR_OK);
    FZ_CHECK(jfr_writer_chunk_count(w) == stats->chunks_written);
    return w;
}

/* Read the output strictly: no error, no warning, the counts written. */
static void read_back(const void *out, size_t size, const jfr_write_stats *st,
                      const uint64_t *per_chunk, size_t max_chunks)
{
    jfr_recording *rec;
    jfr_chunk *chunk;
    size_t chunks = 0;
    long budget = 200000;
    int rc;

    if (st->chunks_written == 0) {
        FZ_CHECK(size == 0);
        return;
    }
    FZ_CHECK(fz_open(&rec, out, size) == JFR_OK);
    while ((rc = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE) {
        jfr_event_iter *it;
        const jfr_event *ev;
        uint64_t events = 0;

        FZ_CHECK(rc == JFR_OK);
        FZ_CHECK(!jfr_chunk_is_unfinished(chunk));
        FZ_CHECK(jfr_event_iter_new(&it, chunk, NULL, 0, 0) == JFR_OK);
        while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
            jfr_value v;
            FZ_CHECK(jfr_event_value(&v, ev) == JFR_OK);
            fz_walk_value(&v, 0, &budget);
            events++;
        }
        FZ_CHECK(rc == JFR_DONE);
        jfr_event_iter_free(it);
        FZ_CHECK(jfr_chunk_warning(chunk) == NULL);
        if (chunks < max_chunks)
            FZ_CHECK(events == per_chunk[chunks]);
        chunks++;
    }
    FZ_CHECK(chunks == st->chunks_written);
    jfr_recording_free(rec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum { MAX_CHUNKS = 64 };
    uint64_t per_chunk[MAX_CHUNKS], again_chunk[MAX_CHUNKS];
    jfr_write_stats st, again_st;
    jfr_scrub *s;
    jfr_writer *w, *again;
    const void *out, *out2;
    size_t out_size, out2_size;

    if (size < 1)
        return 0;
    s = scrub_for(data[0]);
    w = copy(data + 1, size - 1, s, &st, per_chunk, MAX_CHUNKS);
    jfr_scrub_free(s);
    if (!w)
        return 0;
    FZ_CHECK(jfr_writer_memory(&out, &out_size, w) == JFR_OK);
    FZ_CHECK(out_size == jfr_writer_size(w));
    read_back(out, out_size, &st, per_chunk, MAX_CHUNKS);
    if (st.chunks_written) { /* a second pass keeps everything, byte for byte */
        again = copy(out, out_size, NULL, &again_st, again_chunk, MAX_CHUNKS);
        FZ_CHECK(again != NULL);
        FZ_CHECK(jfr_writer_memory(&out2, &out2_size, again) == JFR_OK);
        FZ_CHECK(again_st.events_written == st.events_written);
        FZ_CHECK(again_st.events_undecodable == 0 && again_st.records_unknown == 0);
        FZ_CHECK(out2_size == out_size && memcmp(out, out2, out_size) == 0);
        jfr_writer_free(again);
    }
    jfr_writer_free(w);
    return 0;
}
