/* fuzz_follow.c - a chunk read as a follower reads it (libjfr/follow.c):
 * opened over a prefix of the input, then grown to longer prefixes (the
 * sizes a hostile header could declare, taken from the input's last bytes)
 * with jfrp_chunk_extend, its pools indexed before it grows so that the
 * flushes' checkpoints go through jfrp_pools_extend; after each step the
 * new records are walked in file and in end-time order, their values and
 * stack traces decoded. Also the live-header reader and the last-flush
 * finder over the input. Properties: records of a step lie inside it, in
 * order; the end-time order hands out the same records; when every step's
 * walk ends cleanly at its end, the steps' records are the whole chunk's. */
#include "fuzz_common.h"
#include "jfr_private.h"
#include "live.h"

#define MAX_STEPS  4
#define MAX_EVENTS 20000

static int read_mem(void *ctx, uint64_t offset, void *buf, size_t n)
{
    const jfrp_reader *r = ctx; /* the input, [base, end) */
    size_t len = (size_t)(r->end - r->base);

    if (offset > len || n > len - offset)
        return JFR_ETRUNCATED;
    memcpy(buf, r->base + offset, n);
    return 0;
}

/* Walk the chunk's records from records_from: their offsets into `out`
 * (chunk-relative), their number into *n. JFR_DONE when the walk ended
 * cleanly. */
static int walk(jfr_chunk *c, uint64_t *out, size_t *n, long *budget)
{
    jfr_event_iter *it;
    const jfr_event *ev;
    uint64_t prev = 0;
    size_t k = 0;
    int rc;

    if (jfr_event_iter_new(&it, c, NULL, 0, JFR_ITER_ALL_RECORDS) < 0)
        return JFR_ENOMEM;
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
        uint64_t at = jfr_event_offset(ev) - c->header.file_offset;
        const jfr_stacktrace *st;
        jfr_value v;

        FZ_CHECK(at >= c->records_from && at + jfr_event_size(ev) <= c->size);
        FZ_CHECK(at >= prev);
        prev = at + jfr_event_size(ev);
        if (k < MAX_EVENTS)
            out[k] = at;
        k++;
        if (jfr_event_type(ev) && jfr_event_value(&v, ev) == JFR_OK)
            fz_walk_value(&v, 0, budget);
        if (jfr_event_type(ev) && jfr_event_stacktrace(&st, ev) == JFR_OK)
            FZ_CHECK(jfr_stacktrace_depth(st) < ((size_t)1 << 31));
    }
    jfr_event_iter_free(it);
    *n = k;
    return rc;
}

/* The same records in end-time order: each once. */
static void walk_by_end(jfr_chunk *c, size_t n)
{
    jfr_event_iter *it;
    const jfr_event *ev;
    size_t k = 0;
    int rc;

    if (jfr_event_iter_new(&it, c, NULL, 0, JFR_ITER_ALL_RECORDS | JFR_ITER_BY_END_TIME) <
        0)
        return;
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK)
        k++;
    jfr_event_iter_free(it);
    if (rc == JFR_DONE)
        FZ_CHECK(k == n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint64_t steps_at[MAX_STEPS * MAX_EVENTS], whole_at[MAX_EVENTS];
    jfrp_reader mem = {.base = data, .end = data + size};
    uint64_t ends[MAX_STEPS], from = JFRP_HEADER_SIZE;
    size_t nsteps = 0, total = 0, nwhole = 0;
    bool clean = true;
    jfr_recording *rec;
    jfr_chunk *c = NULL;
    jfrp_flush_point fp;
    jfr_header h, live;
    long budget = 100000;

    (void)jfrp_live_header(&live, NULL, read_mem, &mem);
    if (jfrp_last_flush(&fp, data, size, true) == JFR_OK)
        FZ_CHECK(fp.size <= size && fp.metadata_offset < fp.constant_pool_offset &&
                 fp.constant_pool_offset < fp.size);
    if (size < JFRP_HEADER_SIZE + 4 || jfrp_header_parse(&h, data, size) != JFR_OK ||
        h.chunk_size > size)
        return 0;
    /* the steps: up to MAX_STEPS growing sizes from the input's last bytes */
    for (size_t i = 0; i < MAX_STEPS; i++) {
        uint64_t cut =
            h.metadata_offset + 1 +
            (uint64_t)data[size - 1 - i] * (h.chunk_size - h.metadata_offset) / 255;
        if (cut > h.chunk_size)
            cut = h.chunk_size;
        if (!nsteps || cut > ends[nsteps - 1])
            ends[nsteps++] = cut;
    }
    if (fz_open(&rec, data, (size_t)h.chunk_size) < 0)
        return 0;
    for (size_t i = 0; i < nsteps; i++) {
        jfr_header at = h;
        size_t n = 0;

        at.chunk_size = ends[i];
        if (at.constant_pool_offset >= at.chunk_size)
            at.constant_pool_offset = 0;
        at.state = i + 1 < nsteps ? (uint8_t)(i + 1) : 0;
        if (!c) {
            if (jfrp_chunk_open(&c, rec, 0, 0, &at, (size_t)at.chunk_size) < 0)
                break;
            jfrp_pools_ensure(c); /* later steps extend the index */
        } else if (jfrp_chunk_extend(c, &at, (size_t)at.chunk_size) < 0) {
            break;
        }
        FZ_CHECK(c->records_from == from && c->size == ends[i]);
        if (walk(c, steps_at + total, &n, &budget) != JFR_DONE)
            clean = false;
        walk_by_end(c, n);
        total += n < MAX_EVENTS ? n : MAX_EVENTS;
        from = ends[i];
    }
    jfrp_chunk_free(c);
    /* the same records, read whole */
    if (clean && from == h.chunk_size &&
        jfrp_chunk_open(&c, rec, 0, 0, &h, (size_t)h.chunk_size) == JFR_OK) {
        if (walk(c, whole_at, &nwhole, &budget) == JFR_DONE && nwhole < MAX_EVENTS &&
            total < MAX_EVENTS) {
            FZ_CHECK(nwhole == total);
            FZ_CHECK(memcmp(whole_at, steps_at, total * sizeof *steps_at) == 0);
        }
        jfrp_chunk_free(c);
    }
    jfr_recording_free(rec);
    return 0;
}
