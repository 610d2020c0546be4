/* test_assemble.c - chunks as byte ranges (jfr/assemble.h; libjfr/flush.c,
 * extent.c, split.c, assemble_files.c): the last complete flush of a chunk
 * the JVM did not close, the extents of clean, damaged and unfinished input,
 * writing them, the JDK's grouping and naming of disassembled files, and
 * the order of a repository's files. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "flush.h"
#include "jfr_private.h"
#include "jfrgen.h"
#include "unit_util.h"

enum { ID_EVENT = 20, ID_CHUNK_HEADER = 222 };

static jfr_recording *rec;
static jg_buf bytes;
static char tmp_dir[64];

static void cleanup(void)
{
    jfr_recording_free(rec);
    rec = NULL;
    jg_buf_free(&bytes);
    if (tmp_dir[0]) {
        char cmd[128];

        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_dir);
        cr_assert_eq(system(cmd), 0);
    }
    tmp_dir[0] = '\0';
}

TestSuite(assemble, .fini = cleanup);

/* ---- a live chunk, the way a JDK 14+ JVM writes one ------------------------- */

/* A chunk of test.A {long startTime, int n} events as a JVM opens it: the
 * metadata, `nevents` events, and the header of a chunk not yet flushed
 * (state 1, only the compressed-integer flag). */
static size_t live_chunk(jg_buf *out, int nevents)
{
    size_t start = out->len;
    jg_chunk *c = jg_chunk_new();
    jg_elem *e;

    jg_primitives(c);
    e = jg_class(c, ID_EVENT, "test.A", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_field(e, "n", JG_INT, 0);
    jg_class(c, ID_CHUNK_HEADER, "jdk.types.ChunkHeader", NULL);
    for (int i = 0; i < nevents; i++) {
        jg_buf *p = jg_event(c, ID_EVENT);
        jg_i64(p, 1000 + i);
        jg_i32(p, i);
    }
    c->h.state = 1;
    c->h.flags = JFR_CHUNK_FLAG_COMPRESSED_INTS;
    jg_chunk_build(c, out);
    jg_chunk_free(c);
    return start;
}

/* More events of test.A after what is there. */
static void add_events(jg_buf *out, int first, int n)
{
    for (int i = first; i < first + n; i++) {
        jg_buf record = {0};

        jg_varint(&record, ID_EVENT);
        jg_varint(&record, 1000 + (uint64_t)i);
        jg_varint(&record, (uint64_t)i);
        jg_varint(out, record.len + 1);
        jg_bytes(out, record.data, record.len);
        jg_buf_free(&record);
    }
}

/* A flush of the chunk at `start`: a chunk-header checkpoint whose byte[68]
 * copy says the chunk ends with it, then the live header rewritten to the
 * same (state `gen`), as the JVM does. Returns the chunk's new size. */
static uint64_t add_flush(jg_buf *out, size_t start, uint8_t gen)
{
    uint64_t at = out->len - start, size;
    jg_buf body = {0};
    uint8_t copy[68];

    jg_varint(&body, 1); /* checkpoint */
    jg_varint(&body, 5); /* start */
    jg_varint(&body, 0); /* duration */
    jg_varint(&body, 0); /* delta */
    jg_varint(&body, 3); /* FLUSH | CHUNK_HEADER */
    jg_varint(&body, 1); /* pools */
    jg_varint(&body, ID_CHUNK_HEADER);
    jg_varint(&body, 1);  /* entries */
    jg_varint(&body, 1);  /* key */
    jg_varint(&body, 68); /* byte[] length */
    size = at + 4 + body.len + 68;
    memcpy(copy, out->data + start, 68);
    jg_put_be(copy + 8, size, 8);
    jg_put_be(copy + 16, at, 8);
    jg_put_be(copy + 40, 1000 * at, 8); /* a duration that grows */
    copy[64] = gen;
    jg_varint_padded(out, 4 + body.len + 68, 4);
    jg_bytes(out, body.data, body.len);
    jg_bytes(out, copy, 68);
    jg_buf_free(&body);
    memcpy(out->data + start, copy, 68);
    return size;
}

/* ---- jfr_chunk_finish ------------------------------------------------------------ */

Test(assemble, finish_keeps_a_consistent_header_with_state_0)
{
    uint8_t header[68];
    uint64_t size = 0, end;

    live_chunk(&bytes, 3);
    add_flush(&bytes, 0, 2);
    add_events(&bytes, 3, 2);
    end = add_flush(&bytes, 0, 3);
    add_events(&bytes, 5, 4); /* an unflushed tail */
    cr_assert_eq(jfr_chunk_finish(header, &size, bytes.data, bytes.len), JFR_OK);
    cr_assert_eq(size, end);
    cr_assert_eq(header[64], 0);
    cr_assert_eq(memcmp(header, bytes.data, 64), 0, "the live header, state aside");
    cr_assert_eq(memcmp(header + 65, bytes.data + 65, 3), 0);
}

Test(assemble, finish_walks_the_records_when_the_header_is_being_rewritten)
{
    uint8_t header[68], want[68];
    uint64_t size = 0, end;
    jfr_header h;

    live_chunk(&bytes, 3);
    end = add_flush(&bytes, 0, 2);
    add_events(&bytes, 3, 2);
    add_flush(&bytes, 0, 3);
    memcpy(want, bytes.data, 68);
    want[64] = 0;
    /* the JVM marked the header (255) and had rewritten the size but not
     * yet the offsets when the copy was taken: the last flush's own copy
     * of the header is what counts */
    bytes.data[64] = 0xff;
    jg_put_be(bytes.data + 16, 68, 8);
    cr_assert_eq(jfr_chunk_finish(header, &size, bytes.data, bytes.len), JFR_OK);
    cr_assert_gt(size, end, "the second flush is complete");
    cr_assert_eq(size, bytes.len);
    cr_assert_eq(memcmp(header, want, 68), 0);
    cr_assert_eq(jfrp_header_parse(&h, header, 68), JFR_OK);
}

Test(assemble, finish_stops_at_a_cut_or_damaged_record)
{
    uint8_t header[68];
    uint64_t size = 0, first;
    size_t len;

    live_chunk(&bytes, 3);
    first = add_flush(&bytes, 0, 2);
    add_events(&bytes, 3, 2);
    add_flush(&bytes, 0, 3);
    len = bytes.len;
    /* cut inside the second flush's checkpoint: the header says more than
     * is there, so the records are walked */
    cr_assert_eq(jfr_chunk_finish(header, &size, bytes.data, len - 10), JFR_OK);
    cr_assert_eq(size, first);
    /* a record of size 0 after the first flush hides the second */
    bytes.data[first] = 0;
    cr_assert_eq(jfr_chunk_finish(header, &size, bytes.data, len - 1), JFR_OK);
    cr_assert_eq(size, first);
    cr_assert_eq(header[64], 0);
}

Test(assemble, finish_finds_nothing_before_the_first_flush)
{
    uint8_t header[68];
    uint64_t size = 1;

    live_chunk(&bytes, 3);
    cr_assert_eq(jfr_chunk_finish(header, &size, bytes.data, bytes.len), JFR_ENOTFOUND);
    cr_assert_eq(size, 0);
    cr_assert_eq(jfr_chunk_finish(header, &size, bytes.data, 67), JFR_ENOTFOUND);
    cr_assert_eq(jfr_chunk_finish(NULL, &size, bytes.data, bytes.len), JFR_EINVAL);
    cr_assert_eq(jfr_chunk_finish(header, NULL, bytes.data, bytes.len), JFR_EINVAL);
    cr_assert_eq(jfr_chunk_finish(header, &size, NULL, 0), JFR_EINVAL);
}

Test(assemble, flush_copy_must_describe_the_prefix_it_ends)
{
    uint8_t header[68];
    uint64_t size, end, at = 0;
    jfrp_flush f;

    live_chunk(&bytes, 2);
    end = add_flush(&bytes, 0, 2);
    for (int i = 16; i < 24; i++)
        at = at << 8 | bytes.data[i]; /* the flush's checkpoint */
    cr_assert(jfrp_flush_at(&f, bytes.data, bytes.len, at, true));
    cr_assert_eq(f.end, end);
    bytes.data[64] = 0xff;
    cr_assert_eq(jfr_chunk_finish(header, &size, bytes.data, bytes.len), JFR_OK);
    /* a copy that names another checkpoint as the last is not a flush end */
    jg_put_be(bytes.data + end - 68 + 16, 68, 8);
    cr_assert_not(jfrp_flush_at(&f, bytes.data, bytes.len, at, true));
    cr_assert_eq(jfr_chunk_finish(header, &size, bytes.data, bytes.len), JFR_ENOTFOUND);
}

Test(assemble, finished_chunk_reads_as_a_closed_one)
{
    uint8_t header[68];
    uint64_t size;
    jg_buf fixed = {0};
    jfr_chunk *c;

    live_chunk(&bytes, 3);
    add_flush(&bytes, 0, 2);
    add_events(&bytes, 3, 2);
    bytes.data[64] = 0xff;
    cr_assert_eq(jfr_chunk_finish(header, &size, bytes.data, bytes.len), JFR_OK);
    jg_bytes(&fixed, header, 68);
    jg_bytes(&fixed, bytes.data + 68, (size_t)size - 68);
    rec = unit_open(&fixed);
    c = unit_next_chunk(rec);
    cr_assert_not(jfr_chunk_is_unfinished(c));
    cr_assert_null(jfr_chunk_warning(c));
    cr_assert_eq(jfr_chunk_header(c)->chunk_size, size);
    jfr_recording_free(rec);
    rec = NULL;
    jg_buf_free(&fixed);
}

/* ---- extents ------------------------------------------------------------------------ */

static jg_chunk *closed_chunk(int nevents)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *e;

    jg_primitives(c);
    e = jg_class(c, ID_EVENT, "test.A", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_field(e, "n", JG_INT, 0);
    for (int i = 0; i < nevents; i++) {
        jg_buf *p = jg_event(c, ID_EVENT);
        jg_i64(p, 1000 + i);
        jg_i32(p, i);
    }
    return c;
}

static size_t add_closed(jg_buf *out, int nevents)
{
    size_t start = out->len;
    jg_chunk *c = closed_chunk(nevents);

    jg_chunk_build(c, out);
    jg_chunk_free(c);
    return start;
}

static void next_extent_ok(jfr_extent *e, int kind)
{
    int rc = jfr_recording_next_extent(e, rec);

    cr_assert_eq(rc, JFR_OK, "next_extent: %s (%s)", jfr_strerror(rc),
                 jfr_recording_error(rec)->message);
    cr_assert_eq(e->kind, kind, "chunk %lld: kind %d, not %d", (long long)e->index,
                 e->kind, kind);
}

Test(assemble, extents_of_closed_chunks_are_their_bytes)
{
    size_t second;
    jfr_extent e;

    add_closed(&bytes, 2);
    second = add_closed(&bytes, 5);
    rec = unit_open(&bytes);
    next_extent_ok(&e, JFR_EXTENT_COMPLETE);
    cr_assert_eq(e.index, 0);
    cr_assert_eq(e.offset, 0);
    cr_assert_eq(e.size, second);
    cr_assert_eq(e.present, second);
    cr_assert_eq(e.declared, second);
    next_extent_ok(&e, JFR_EXTENT_COMPLETE);
    cr_assert_eq(e.index, 1);
    cr_assert_eq(e.offset, second);
    cr_assert_eq(e.size, bytes.len - second);
    cr_assert_eq(jfr_recording_next_extent(&e, rec), JFR_DONE);
    cr_assert_eq(jfr_recording_next_extent(&e, rec), JFR_DONE);
}

Test(assemble, bytes_between_chunks_are_reported_and_skipped)
{
    static const char junk[] = "not a chunk, not at all";
    size_t second;
    jfr_extent e;

    add_closed(&bytes, 2);
    jg_bytes(&bytes, junk, sizeof junk);
    second = add_closed(&bytes, 3);
    rec = unit_open(&bytes);
    next_extent_ok(&e, JFR_EXTENT_COMPLETE);
    cr_assert_eq(e.size, second - sizeof junk, "its records fill it");
    cr_assert_eq(jfr_recording_next_extent(&e, rec), JFR_ECORRUPT);
    cr_assert_eq(jfr_recording_error(rec)->offset, second - sizeof junk);
    cr_assert_eq(jfr_recording_error(rec)->chunk, 1);
    cr_assert_not_null(strstr(jfr_recording_error(rec)->message, "24 bytes skipped"),
                       "%s", jfr_recording_error(rec)->message);
    next_extent_ok(&e, JFR_EXTENT_COMPLETE);
    cr_assert_eq(e.index, 2);
    cr_assert_eq(e.offset, second);
    cr_assert_eq(jfr_recording_next_extent(&e, rec), JFR_DONE);
}

Test(assemble, bytes_after_the_last_chunk_are_reported)
{
    jfr_extent e;

    add_closed(&bytes, 2);
    jg_bytes(&bytes, "0123456789", 10);
    rec = unit_open(&bytes);
    next_extent_ok(&e, JFR_EXTENT_COMPLETE);
    cr_assert_eq(jfr_recording_next_extent(&e, rec), JFR_ECORRUPT);
    cr_assert_not_null(strstr(jfr_recording_error(rec)->message, "last 10 bytes"));
    cr_assert_eq(jfr_recording_next_extent(&e, rec), JFR_DONE);
}

Test(assemble, unfinished_chunk_is_finished_at_its_last_flush)
{
    size_t live;
    uint64_t end;
    jfr_extent e;

    add_closed(&bytes, 2);
    live = live_chunk(&bytes, 3);
    end = add_flush(&bytes, live, 2);
    add_events(&bytes, 3, 3);
    rec = unit_open(&bytes);
    next_extent_ok(&e, JFR_EXTENT_COMPLETE);
    next_extent_ok(&e, JFR_EXTENT_FINISHED);
    cr_assert_eq(e.offset, live);
    cr_assert_eq(e.state, 2);
    cr_assert_eq(e.size, end);
    cr_assert_eq(e.present, bytes.len - live);
    cr_assert_eq(e.declared, end);
    cr_assert_eq(e.header[64], 0);
    cr_assert_eq(jfr_recording_next_extent(&e, rec), JFR_DONE);
}

Test(assemble, chunk_without_a_flush_is_empty)
{
    size_t live;
    jfr_extent e;

    live = live_chunk(&bytes, 3);
    /* the header as the JVM opens a chunk: nothing flushed yet */
    jg_put_be(bytes.data + live + 8, 68, 8);
    jg_put_be(bytes.data + live + 16, 0, 8);
    jg_put_be(bytes.data + live + 24, 0, 8);
    add_closed(&bytes, 1);
    rec = unit_open(&bytes);
    next_extent_ok(&e, JFR_EXTENT_EMPTY);
    cr_assert_eq(e.size, 0);
    cr_assert_eq(e.declared, 68);
    cr_assert_gt(e.present, 68);
    next_extent_ok(&e, JFR_EXTENT_COMPLETE);
    cr_assert_eq(e.index, 1);
}

Test(assemble, cut_closed_chunk_keeps_its_flushes)
{
    size_t live;
    uint64_t first;
    jfr_extent e;

    live = live_chunk(&bytes, 3);
    first = add_flush(&bytes, live, 2);
    add_events(&bytes, 3, 3);
    add_flush(&bytes, live, 3);
    bytes.data[live + 64] = 0; /* as if closed; then the file is cut */
    bytes.len -= 5;
    rec = unit_open(&bytes);
    next_extent_ok(&e, JFR_EXTENT_FINISHED);
    cr_assert_eq(e.state, 0);
    cr_assert_eq(e.size, first);
    cr_assert_gt(e.declared, e.present);
}

Test(assemble, input_cut_inside_a_header)
{
    jfr_extent e;
    size_t second;

    add_closed(&bytes, 2);
    second = add_closed(&bytes, 2);
    bytes.len = second + 30;
    rec = unit_open(&bytes);
    next_extent_ok(&e, JFR_EXTENT_COMPLETE);
    cr_assert_eq(jfr_recording_next_extent(&e, rec), JFR_ETRUNCATED);
    cr_assert_eq(jfr_recording_error(rec)->offset, second);
    cr_assert_eq(jfr_recording_next_extent(&e, rec), JFR_DONE);
}

/* Read back what was written to the temporary file at `fd`. */
static void read_back(int fd, jg_buf *out)
{
    char buf[4096];
    ssize_t n;

    cr_assert_eq(lseek(fd, 0, SEEK_SET), 0);
    while ((n = read(fd, buf, sizeof buf)) > 0)
        jg_bytes(out, buf, (size_t)n);
    cr_assert_eq(n, 0);
}

Test(assemble, written_extents_make_a_recording_of_closed_chunks)
{
    FILE *tmp = tmpfile();
    jg_buf got = {0};
    size_t live, n = 0;
    jfr_extent e;
    jfr_error err;
    int rc;

    cr_assert_not_null(tmp);
    add_closed(&bytes, 2);
    live = live_chunk(&bytes, 3);
    add_flush(&bytes, live, 2);
    add_events(&bytes, 3, 3);
    rec = unit_open(&bytes);
    while ((rc = jfr_recording_next_extent(&e, rec)) == JFR_OK)
        cr_assert_eq(jfr_recording_write_extent(fileno(tmp), rec, &e, &err), JFR_OK);
    cr_assert_eq(rc, JFR_DONE);
    read_back(fileno(tmp), &got);
    fclose(tmp);
    jfr_recording_free(rec);
    rec = unit_open(&got);
    while ((rc = jfr_recording_next_extent(&e, rec)) == JFR_OK) {
        cr_assert_eq(e.kind, JFR_EXTENT_COMPLETE);
        cr_assert_eq(e.state, 0);
        n++;
    }
    cr_assert_eq(rc, JFR_DONE);
    cr_assert_eq(n, 2);
    /* the closed chunk byte for byte, the finished one up to its flush */
    cr_assert_eq(memcmp(got.data, bytes.data, live), 0);
    cr_assert_eq(
        memcmp(got.data + live + 68, bytes.data + live + 68, got.len - live - 68), 0);
    jg_buf_free(&got);
}

Test(assemble, extents_of_a_mapped_file)
{
    char path[] = "/tmp/jfr-assemble-in-XXXXXX";
    FILE *tmp = tmpfile();
    jg_buf got = {0};
    size_t live;
    uint64_t finished = 0;
    jfr_extent e;
    jfr_error err;
    int fd = mkstemp(path), rc;

    cr_assert(fd >= 0 && tmp);
    add_closed(&bytes, 2);
    live = live_chunk(&bytes, 3);
    add_flush(&bytes, live, 2);
    add_events(&bytes, 3, 3);
    cr_assert_eq(write(fd, bytes.data, bytes.len), (ssize_t)bytes.len);
    close(fd);
    cr_assert_eq(jfr_recording_open_file(&rec, path, NULL, &err), JFR_OK);
    unlink(path);
    while ((rc = jfr_recording_next_extent(&e, rec)) == JFR_OK) {
        if (e.kind == JFR_EXTENT_FINISHED)
            finished = e.size;
        cr_assert_eq(jfr_recording_write_extent(fileno(tmp), rec, &e, &err), JFR_OK);
    }
    cr_assert_eq(rc, JFR_DONE);
    cr_assert_gt(finished, 68);
    cr_assert_eq(jfr_recording_write_bytes(fileno(tmp), rec, 0, live, &err), JFR_OK);
    read_back(fileno(tmp), &got);
    fclose(tmp);
    /* the closed chunk, the finished one, then the closed one again */
    cr_assert_eq(got.len, 2 * live + finished);
    cr_assert_eq(memcmp(got.data, bytes.data, live), 0);
    cr_assert_eq(memcmp(got.data + live + 68, bytes.data + live + 68, finished - 68), 0);
    cr_assert_eq(got.data[live + 64], 0, "finished: closed");
    cr_assert_eq(memcmp(got.data + got.len - live, bytes.data, live), 0);
    jg_buf_free(&got);
}

Test(assemble, writes_fail_cleanly)
{
    jfr_extent e;
    jfr_error err;
    int fds[2];

    add_closed(&bytes, 2);
    rec = unit_open(&bytes);
    next_extent_ok(&e, JFR_EXTENT_COMPLETE);
    cr_assert_eq(jfr_recording_write_extent(-1, rec, &e, &err), JFR_EINVAL);
    cr_assert_eq(jfr_recording_write_bytes(1, rec, bytes.len, 1, &err), JFR_EINVAL);
    cr_assert_eq(pipe(fds), 0);
    close(fds[0]);
    signal(SIGPIPE, SIG_IGN);
    cr_assert_eq(jfr_recording_write_extent(fds[1], rec, &e, &err), JFR_EIO);
    cr_assert_eq(err.sys_errno, EPIPE);
    cr_assert_eq(err.chunk, 0);
    close(fds[1]);
}

/* ---- grouping and names (the JDK's Disassemble) ------------------------------------- */

Test(assemble, split_take_follows_max_chunks_and_max_size)
{
    const uint64_t ten[7] = {10, 10, 10, 10, 10, 10, 10};
    const uint64_t big_first[3] = {30, 10, 10};
    jfr_split_options o = JFR_SPLIT_OPTIONS_INIT;

    cr_assert_eq(jfr_split_take(ten, 7, &o), 7, "no limit");
    o.max_chunks = 5;
    cr_assert_eq(jfr_split_take(ten, 7, &o), 5);
    cr_assert_eq(jfr_split_take(ten + 5, 2, &o), 2);
    o.max_chunks = 0;
    o.max_size = 25;
    cr_assert_eq(jfr_split_take(ten, 7, &o), 2, "20 fits, 30 does not");
    o.max_size = 30;
    cr_assert_eq(jfr_split_take(ten, 7, &o), 3, "exactly max_size fits");
    cr_assert_eq(jfr_split_take(big_first, 3, &o), 1, "a big chunk goes alone");
    o.max_size = 25;
    cr_assert_eq(jfr_split_take(big_first, 3, &o), 1);
    cr_assert_eq(jfr_split_take(big_first + 1, 2, &o), 2);
    o.max_chunks = 1;
    cr_assert_eq(jfr_split_take(big_first + 1, 2, &o), 1);
    cr_assert_eq(jfr_split_take(ten, 0, &o), 0);
    cr_assert_eq(jfr_split_take(NULL, 3, &o), 0);
    o.version = 0;
    cr_assert_eq(jfr_split_take(ten, 3, &o), 0);
}

Test(assemble, split_name_as_the_jdk)
{
    char buf[64];

    cr_assert_eq(jfr_split_name(buf, sizeof buf, "/tmp/x/rec.jfr", 0, 1), JFR_OK);
    cr_assert_str_eq(buf, "rec_0.jfr");
    cr_assert_eq(jfr_split_name(buf, sizeof buf, "rec.jfr", 9, 10), JFR_OK);
    cr_assert_str_eq(buf, "rec_9.jfr", "digits of the last number, 9");
    cr_assert_eq(jfr_split_name(buf, sizeof buf, "rec.jfr", 3, 11), JFR_OK);
    cr_assert_str_eq(buf, "rec_03.jfr");
    cr_assert_eq(jfr_split_name(buf, sizeof buf, "rec.jfr", 100, 101), JFR_OK);
    cr_assert_str_eq(buf, "rec_100.jfr");
    cr_assert_eq(jfr_split_name(buf, sizeof buf, "a.b/c.jfr.gz", 0, 2), JFR_OK);
    cr_assert_str_eq(buf, "c_0.jfr");
    cr_assert_eq(jfr_split_name(buf, sizeof buf, "plain", 1, 2), JFR_OK);
    cr_assert_str_eq(buf, "plain_1.jfr");
    cr_assert_eq(jfr_split_name(buf, sizeof buf, "x.lz4", 0, 1), JFR_OK);
    cr_assert_str_eq(buf, "x_0.jfr");
    cr_assert_eq(jfr_split_name(buf, 9, "rec.jfr", 0, 1), JFR_ELIMIT);
    cr_assert_eq(jfr_split_name(buf, 10, "rec.jfr", 0, 1), JFR_OK);
    cr_assert_eq(jfr_split_name(buf, sizeof buf, "rec.jfr", 2, 2), JFR_EINVAL);
    cr_assert_eq(jfr_split_name(NULL, 1, "rec.jfr", 0, 1), JFR_EINVAL);
}

/* ---- a repository's files ------------------------------------------------------------- */

static void touch(const char *name)
{
    char path[128];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
    cr_assert_not_null(f = fopen(path, "w"));
    fclose(f);
}

Test(assemble, repository_files_in_name_order)
{
    char path[128], target[128], **files;
    size_t n;
    jfr_error err;

    strcpy(tmp_dir, "/tmp/jfr-assemble-XXXXXX");
    cr_assert_not_null(mkdtemp(tmp_dir));
    touch("2024_01_02_00_00_00.jfr");
    touch("2024_01_01_23_59_59_1.jfr");
    touch("2024_01_01_23_59_59.jfr");
    touch("notes.txt");
    touch("\xc3\xa9.jfr"); /* bytes over 0x7f sort last, unsigned */
    snprintf(path, sizeof path, "%s/sub.jfr", tmp_dir);
    cr_assert_eq(mkdir(path, 0700), 0);
    snprintf(target, sizeof target, "%s/notes.txt", tmp_dir);
    snprintf(path, sizeof path, "%s/link.jfr", tmp_dir);
    cr_assert_eq(symlink(target, path), 0);
    snprintf(path, sizeof path, "%s/dangling.jfr", tmp_dir);
    cr_assert_eq(symlink("/nonexistent/x", path), 0);
    snprintf(path, sizeof path, "%s/", tmp_dir);
    cr_assert_eq(jfr_assemble_files(&files, &n, path, &err), JFR_OK);
    cr_assert_eq(n, 5);
    cr_assert_not_null(strstr(files[0], "/2024_01_01_23_59_59.jfr"), "%s", files[0]);
    cr_assert_null(strstr(files[0], "//"), "%s", files[0]);
    cr_assert_not_null(strstr(files[1], "/2024_01_01_23_59_59_1.jfr"));
    cr_assert_not_null(strstr(files[2], "/2024_01_02_00_00_00.jfr"));
    cr_assert_not_null(strstr(files[3], "/link.jfr"));
    cr_assert_not_null(strstr(files[4], "/\xc3\xa9.jfr"));
    jfr_assemble_files_free(files, n);
    cr_assert_eq(jfr_assemble_files(&files, &n, target, &err), JFR_EIO);
    cr_assert_eq(err.sys_errno, ENOTDIR);
    cr_assert_eq(jfr_assemble_files(&files, &n, "/nonexistent/dir", &err), JFR_EIO);
    cr_assert_eq(err.sys_errno, ENOENT);
    jfr_assemble_files_free(NULL, 0);
}
