/* test_live.c - a chunk read while it is written (libjfr/live.c,
 * jfr-format.md §3.6): the header read like a seqlock against every
 * interleaving of the JVM's writes, and the last complete flush found from
 * the records alone. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "live.h"
#include "livegen.h"

enum { ID_EVENT = 20, ID_NAME = 21, ID_HEADER = 22 };

/* A chunk of `flushes` flushes, each: two events, a checkpoint with a
 * name, a flush checkpoint with the header copy. */
static void sample_chunk(lg_chunk *lc, int flushes)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *e;

    jg_primitives(c);
    jg_field(jg_class(c, ID_NAME, "test.Name", NULL), "name", JG_STRING, 0);
    lg_declare_header_type(c, ID_HEADER, JG_BYTE);
    e = jg_class(c, ID_EVENT, "test.Event", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_field(e, "who", ID_NAME, JG_POOL);
    jg_metadata_record(c);
    for (int k = 0; k < flushes; k++) {
        jg_cp *cp;

        for (int i = 0; i < 2; i++) {
            jg_buf *b = jg_event(c, ID_EVENT);
            jg_i64(b, 1000 + k * 10 + i);
            jg_key(b, (uint64_t)k + 1);
        }
        jg_string(jg_entry(jg_pool_new(jg_checkpoint(c), ID_NAME), (uint64_t)k + 1),
                  "who");
        cp = jg_checkpoint(c);
        cp->flags = 3; /* FLUSH | CHUNK_HEADER */
        lg_header_copy(cp, ID_HEADER);
    }
    /* what the JVM writes when it closes the chunk */
    jg_checkpoint(c)->flags = 2;
    lg_layout(lc, c);
}

/* ---- the seqlock ------------------------------------------------------------- */

/* A file whose header goes from `from` to `to` by the JVM's writes: 255
 * over the state byte, then the fields of bytes 8..63 (one byte a step,
 * from the front when `forward`, else from the back), then the state byte,
 * then the flags (hotspot writes bytes 8..67 with one write, in order).
 * The reader's n-th read sees the steps done before it: after[n]. */
typedef struct seq_file {
    uint8_t from[68], to[68];
    bool forward;
    int after[3];
    int reads;
} seq_file;

static int step_byte(const seq_file *f, int s)
{
    if (s <= 56)
        return f->forward ? 8 + (s - 1) : 63 - (s - 1);
    return 64 + (s - 57); /* the state, the pad, the flags */
}

static void apply(const seq_file *f, int steps, uint8_t out[68])
{
    memcpy(out, f->from, 68);
    if (steps > 0)
        out[64] = 255;
    for (int s = 1; s < steps; s++)
        out[step_byte(f, s)] = f->to[step_byte(f, s)];
}

static int seq_read(void *ctx, uint64_t offset, void *buf, size_t n)
{
    seq_file *f = ctx;
    uint8_t now[68];

    cr_assert_lt(f->reads, 3, "more than three reads");
    apply(f, f->after[f->reads++], now);
    cr_assert_leq(offset + n, 68);
    memcpy(buf, now + offset, n);
    return 0;
}

#define STEPS (1 + 60)

/* The fields and the state byte of `raw` are all those of `h`: the flags
 * may lag behind the state (they follow it in the JVM's write), so a
 * reader learns of the final flag on its next read. */
static bool same_header(const uint8_t *raw, const uint8_t *h)
{
    return memcmp(raw, h, 65) == 0;
}

Test(live, seqlock_never_accepts_a_mixed_header)
{
    lg_chunk lc;
    seq_file f;
    size_t accepted_old = 0, accepted_new = 0, again = 0;

    sample_chunk(&lc, 3);
    lg_header_at(&lc, 0, f.from);
    lg_header_closed(&lc, true, f.to); /* state 0, the final flag */
    for (int dir = 0; dir < 2; dir++)
        for (int i = 0; i <= STEPS; i++)
            for (int j = i; j <= STEPS; j++)
                for (int k = j; k <= STEPS; k++) {
                    jfr_header h;
                    uint8_t raw[68];
                    int rc;

                    f.forward = dir == 0;
                    f.after[0] = i, f.after[1] = j, f.after[2] = k;
                    f.reads = 0;
                    rc = jfrp_live_header(&h, raw, seq_read, &f);
                    if (rc == JFR_AGAIN) {
                        again++;
                        continue;
                    }
                    cr_assert_eq(rc, JFR_OK, "reads after %d %d %d steps: %s", i, j, k,
                                 jfr_strerror(rc));
                    if (same_header(raw, f.from)) {
                        accepted_old++;
                    } else {
                        cr_assert(same_header(raw, f.to),
                                  "a mixed header accepted (reads after %d %d %d)", i, j,
                                  k);
                        cr_assert_eq(h.chunk_size, lc.image.len);
                        accepted_new++;
                    }
                }
    /* both headers are seen whole when no write falls between the reads */
    cr_assert_gt(accepted_old, 0);
    cr_assert_gt(accepted_new, 0);
    cr_assert_gt(again, 0);
    lg_free(&lc);
}

static int mem_read(void *ctx, uint64_t offset, void *buf, size_t n)
{
    const jg_buf *b = ctx;

    if (offset > b->len || n > b->len - offset)
        return JFR_ETRUNCATED;
    memcpy(buf, b->data + offset, n);
    return 0;
}

Test(live, header_before_the_first_flush_is_not_ready)
{
    jg_buf file = {0};
    jfr_header h;
    uint8_t hdr[68];
    lg_chunk lc;

    sample_chunk(&lc, 1);
    lg_header_at(&lc, 0, hdr);
    /* as the JVM opens a chunk: size 68, no offsets, state 1 */
    jg_put_be(hdr + 8, 68, 8);
    jg_put_be(hdr + 16, 0, 8);
    jg_put_be(hdr + 24, 0, 8);
    jg_bytes(&file, hdr, 68);
    cr_assert_eq(jfrp_live_header(&h, NULL, mem_read, &file), JFR_AGAIN);
    cr_assert_eq(h.state, 1);
    /* a file shorter than a header */
    file.len = 40;
    cr_assert_eq(jfrp_live_header(&h, NULL, mem_read, &file), JFR_ETRUNCATED);
    /* not a chunk */
    file.len = 68;
    file.data[0] = 'X';
    cr_assert_eq(jfrp_live_header(&h, NULL, mem_read, &file), JFR_EFORMAT);
    jg_buf_free(&file);
    lg_free(&lc);
}

Test(live, closed_and_flushed_headers_are_read)
{
    jg_buf file = {0};
    jfr_header h;
    lg_chunk lc;

    sample_chunk(&lc, 2);
    lg_file_at(&lc, 1, 5, &file);
    cr_assert_eq(jfrp_live_header(&h, NULL, mem_read, &file), JFR_OK);
    cr_assert_eq(h.chunk_size, lc.end[1]);
    cr_assert_eq(h.constant_pool_offset, lc.cp[1]);
    cr_assert_eq(h.state, 2);
    lg_file_closed(&lc, true, &file);
    cr_assert_eq(jfrp_live_header(&h, NULL, mem_read, &file), JFR_OK);
    cr_assert_eq(h.state, 0);
    cr_assert_eq(h.chunk_size, lc.image.len);
    cr_assert_eq(h.flags, 3);
    jg_buf_free(&file);
    lg_free(&lc);
}

/* ---- the last complete flush ------------------------------------------------ */

Test(live, last_flush_at_every_length)
{
    lg_chunk lc;

    sample_chunk(&lc, 4);
    /* every prefix of the file, whatever its header says */
    for (size_t len = 0; len <= lc.image.len; len++) {
        jfrp_flush_point fp;
        int rc = jfrp_last_flush(&fp, lc.image.data, len, true);
        size_t k = lc.nflush;

        while (k > 0 && lc.end[k - 1] > len)
            k--;
        if (k == 0) {
            cr_assert_eq(rc, JFR_ENOTFOUND, "%zu bytes", len);
            continue;
        }
        cr_assert_eq(rc, JFR_OK, "%zu bytes", len);
        cr_assert_eq(fp.size, lc.end[k - 1], "%zu bytes", len);
        cr_assert_eq(fp.constant_pool_offset, lc.cp[k - 1]);
        cr_assert_eq(fp.metadata_offset, lc.meta[k - 1]);
        cr_assert_eq(fp.flushes, k);
    }
    lg_free(&lc);
}

Test(live, last_flush_ignores_a_torn_header_and_a_garbage_tail)
{
    jg_buf file = {0};
    jfrp_flush_point fp;
    lg_chunk lc;

    sample_chunk(&lc, 3);
    lg_file_at(&lc, 1, 0, &file);
    memset(file.data + 8, 0xee, 56); /* fields half rewritten */
    file.data[64] = 255;
    for (int i = 0; i < 30; i++)
        jg_u8(&file, 0xff); /* not a record */
    cr_assert_eq(jfrp_last_flush(&fp, file.data, file.len, true), JFR_OK);
    cr_assert_eq(fp.size, lc.end[1]);
    /* the header copy in that flush's checkpoint says the same */
    cr_assert_eq(memcmp(file.data + lc.end[1] - 68, "FLR", 4), 0);
    {
        jfr_header copy;
        cr_assert_eq(jfrp_header_parse(&copy, file.data + lc.end[1] - 68, 68), JFR_OK);
        cr_assert_eq(copy.chunk_size, fp.size);
        cr_assert_eq(copy.constant_pool_offset, fp.constant_pool_offset);
        cr_assert_eq(copy.metadata_offset, fp.metadata_offset);
    }
    jg_buf_free(&file);
    lg_free(&lc);
}
