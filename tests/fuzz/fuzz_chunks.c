/* fuzz_chunks.c - the chunk walker with metadata and constant pools: every
 * record of every chunk, every stack trace and thread resolved, every event
 * value decoded generically (bounded like jfrtool's JSON printer).
 * Properties: records lie inside their chunk, in order, and their sizes add
 * up to at most the chunk's; seeking back to a record finds it again;
 * resolving a stack trace twice gives the same frames; strings end in NUL;
 * arrays and objects have as many children as they declare. */
#include "fuzz_common.h"

static void check_frames(jfr_chunk *chunk, const jfr_stacktrace *st)
{
    const jfr_stacktrace *again;
    size_t depth = jfr_stacktrace_depth(st);
    jfr_frame f, g;

    FZ_CHECK(jfr_chunk_stacktrace(&again, chunk, jfr_stacktrace_key(st)) == JFR_OK);
    FZ_CHECK(again == st);
    for (size_t i = 0; i < depth && i < 4096; i++) {
        int rc = jfr_stacktrace_frame(&f, st, i);

        if (rc < 0) {
            FZ_CHECK(rc != JFR_ENOTFOUND);
            continue;
        }
        fz_check_str(&f.class_name);
        fz_check_str(&f.method_name);
        fz_check_str(&f.descriptor);
        fz_check_str(&f.kind_name);
        FZ_CHECK(jfr_stacktrace_frame(&g, st, i) == JFR_OK);
        FZ_CHECK(f.method_name.ptr == g.method_name.ptr);
        FZ_CHECK(f.class_name.ptr == g.class_name.ptr);
        FZ_CHECK(f.line == g.line && f.kind == g.kind && f.method_key == g.method_key);
    }
    FZ_CHECK(jfr_stacktrace_frame(&f, st, depth) == JFR_ENOTFOUND);
}

static void check_event(jfr_chunk *chunk, const jfr_event *ev, long *budget)
{
    const jfr_stacktrace *st;
    jfr_thread th;
    jfr_value v;

    if (jfr_event_stacktrace(&st, ev) == JFR_OK)
        check_frames(chunk, st);
    if (jfr_event_thread(&th, ev, NULL) == JFR_OK) {
        fz_check_str(&th.os_name);
        fz_check_str(&th.java_name);
    }
    (void)jfr_event_start_ticks(ev);
    if (jfr_event_value(&v, ev) == JFR_OK) {
        FZ_CHECK(v.kind == JFR_VALUE_OBJECT && v.type == jfr_event_type(ev));
        fz_walk_value(&v, 0, budget);
    }
}

static void walk_types(const jfr_chunk *chunk)
{
    size_t n = jfr_chunk_type_count(chunk);

    for (size_t i = 0; i < n; i++) {
        const jfr_type *t = jfr_chunk_type_at(chunk, i);

        FZ_CHECK(t && jfr_type_index(t) == i && jfr_type_name(t));
        FZ_CHECK(jfr_chunk_type_by_id(chunk, jfr_type_id(t)) != NULL);
        for (size_t k = 0; k < jfr_type_field_count(t); k++)
            FZ_CHECK(jfr_field_name(jfr_type_field_at(t, k)) != NULL);
    }
}

static void walk_chunk(jfr_chunk *chunk, uint64_t input_size)
{
    const jfr_header *h = jfr_chunk_header(chunk);
    jfr_event_iter *it;
    const jfr_event *ev;
    uint64_t sum = 0, prev_end = h->file_offset + 68, first = 0, first_id = 0;
    uint64_t end = h->file_offset + h->chunk_size;
    long budget = 200000;
    int rc;

    /* an incomplete last chunk is read up to the end of the input, and one
     * whose size does not lead to the next chunk up to the next chunk */
    if (h->chunk_size < 68 || end > input_size ||
        (jfr_chunk_warning(chunk) &&
         strstr(jfr_chunk_warning(chunk)->message, "next chunk starts")))
        end = input_size;
    walk_types(chunk);
    if (jfr_event_iter_new(&it, chunk, NULL, 0, JFR_ITER_ALL_RECORDS) < 0)
        return;
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
        uint64_t off = jfr_event_offset(ev), sz = jfr_event_size(ev);

        FZ_CHECK(sz > 0);
        FZ_CHECK(off >= prev_end);
        FZ_CHECK(off + sz <= end);
        FZ_CHECK(jfr_event_chunk(ev) == chunk);
        sum += sz;
        prev_end = off + sz;
        if (!first)
            first = off, first_id = jfr_event_type_id(ev);
        if (jfr_event_type(ev))
            check_event(chunk, ev, &budget);
    }
    FZ_CHECK(sum <= end - h->file_offset - 68);
    if (rc < 0)
        FZ_CHECK(rc == JFR_ECORRUPT || rc == JFR_ENOMEM || rc == JFR_ELIMIT);
    if (first) {
        FZ_CHECK(jfr_event_iter_seek(it, first) == JFR_OK);
        FZ_CHECK(jfr_event_next(&ev, it) == JFR_OK);
        FZ_CHECK(jfr_event_offset(ev) == first && jfr_event_type_id(ev) == first_id);
    }
    jfr_event_iter_free(it);
    if (jfr_chunk_warning(chunk))
        fz_check_error(jfr_chunk_warning(chunk));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jfr_recording *rec;
    jfr_chunk *chunk;
    int rc, guard = 0;

    if (fz_open(&rec, data, size) < 0)
        return 0;
    while ((rc = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE && guard++ < 1000) {
        if (rc < 0)
            fz_check_error(jfr_recording_error(rec));
        else
            walk_chunk(chunk, jfr_recording_size(rec));
    }
    jfr_recording_free(rec);
    return 0;
}
