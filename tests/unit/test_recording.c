/* test_recording.c - opening recordings (memory, fd, file, gzip, lz4),
 * stepping through chunks, damaged and foreign input
 * (libjfr/recording.c, libjfr/source.c, the filters; jfr-format.md §2, §12). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifdef HAVE_ZLIB
#include <zlib.h>
#endif
#ifdef HAVE_LZ4
#include <lz4frame.h>
#endif

#include <criterion/criterion.h>

#include "jfr_private.h"
#include "source.h"
#include "jfrgen.h"
#include "unit_util.h"

enum { ID_EVENT = 20, ID_NAME = 30 };

static jfr_recording *rec;
static jg_buf bytes, packed;
static char tmp_path[4096];

static void cleanup(void)
{
    jfr_recording_free(rec);
    rec = NULL;
    jg_buf_free(&bytes);
    jg_buf_free(&packed);
    if (tmp_path[0])
        unlink(tmp_path);
    tmp_path[0] = '\0';
}

TestSuite(recording, .fini = cleanup);

/* A chunk with `nevents` events test.A {long startTime, int n} whose n
 * counts from `first`. */
static jg_chunk *chunk_a(int nevents, int first)
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
        jg_i32(p, first + i);
    }
    return c;
}

static void add_chunk(jg_buf *out, jg_chunk *c)
{
    jg_chunk_build(c, out);
    jg_chunk_free(c);
}

/* Count the events of a chunk and check their n run on from *next. */
static int count_events(jfr_chunk *c, int *next)
{
    jfr_event_iter *it;
    const jfr_event *ev;
    jfr_value v;
    int n = 0, rc;

    cr_assert_eq(jfr_event_iter_new(&it, c, NULL, 0, 0), JFR_OK);
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
        cr_assert_eq(jfr_event_field(&v, ev, "n"), JFR_OK);
        if (next)
            cr_assert_eq(v.as.i, (*next)++);
        n++;
    }
    cr_assert_eq(rc, JFR_DONE);
    jfr_event_iter_free(it);
    return n;
}

/* Every chunk of `r` opens; returns the total event count. */
static int count_all(jfr_recording *r, int *nchunks)
{
    jfr_chunk *c;
    int total = 0, next = 0, rc;

    *nchunks = 0;
    while ((rc = jfr_recording_next_chunk(&c, r)) == JFR_OK) {
        cr_assert_eq(jfr_chunk_index(c), *nchunks);
        total += count_events(c, &next);
        (*nchunks)++;
    }
    cr_assert_eq(rc, JFR_DONE, "%s", jfr_recording_error(r)->message);
    return total;
}

/* Two chunks: 3 events then 2, numbered 0..4. */
static void two_chunks(jg_buf *out)
{
    add_chunk(out, chunk_a(3, 0));
    add_chunk(out, chunk_a(2, 3));
}

/* Every chunk of `r`, chunks that fail and the final note included, as
 * "I:N " (chunk I with N events), "I:w " (with a warning) or "E:CODE " (a
 * failure); events must number on from `next` across the whole walk. */
static void walk_from(jfr_recording *r, int next, char *out, size_t cap)
{
    jfr_chunk *c;
    size_t len = 0;
    int rc, guard = 0;

    out[0] = '\0';
    while ((rc = jfr_recording_next_chunk(&c, r)) != JFR_DONE && guard++ < 100) {
        if (rc < 0)
            len += (size_t)snprintf(out + len, cap - len, "E:%d ", rc);
        else
            len += (size_t)snprintf(out + len, cap - len, "%lld:%d%s ",
                                    (long long)jfr_chunk_index(c), count_events(c, &next),
                                    jfr_chunk_warning(c) ? "w" : "");
        cr_assert_lt(len, cap);
    }
}

static void walk(jfr_recording *r, char *out, size_t cap)
{
    walk_from(r, 0, out, cap);
}

Test(recording, open_memory)
{
    int n;

    two_chunks(&bytes);
    rec = unit_open(&bytes);
    cr_assert_str_eq(jfr_recording_container(rec), "raw");
    cr_assert_eq(jfr_recording_size(rec), bytes.len);
    cr_assert_eq(count_all(rec, &n), 5);
    cr_assert_eq(n, 2);
}

static void write_tmp(const jg_buf *b)
{
    const char *dir = getenv("TMPDIR");
    int fd;

    snprintf(tmp_path, sizeof tmp_path, "%s/jfr-unit-XXXXXX", dir && *dir ? dir : "/tmp");
    fd = mkstemp(tmp_path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, b->data, b->len), (ssize_t)b->len);
    close(fd);
}

Test(recording, open_file_and_fd)
{
    jfr_error err;
    int n, fd;

    two_chunks(&bytes);
    write_tmp(&bytes);
    cr_assert_eq(jfr_recording_open_file(&rec, tmp_path, NULL, &err), JFR_OK, "%s",
                 err.message);
    cr_assert_eq(count_all(rec, &n), 5);
    jfr_recording_free(rec);

    fd = open(tmp_path, O_RDONLY);
    cr_assert_geq(fd, 0);
    cr_assert_eq(jfr_recording_open_fd(&rec, fd, NULL, &err), JFR_OK, "%s", err.message);
    cr_assert_geq(fcntl(fd, F_GETFD), 0, "the descriptor is left open");
    close(fd);
    cr_assert_eq(jfr_recording_size(rec), bytes.len);
    cr_assert_eq(count_all(rec, &n), 5);
    cr_assert_eq(n, 2);
}

Test(recording, standard_input)
{
    jfr_error err;
    int fds[2], n;

    two_chunks(&bytes);
    cr_assert_lt(bytes.len, 4096, "fits a pipe without a writer thread");
    cr_assert_eq(pipe(fds), 0);
    cr_assert_eq(write(fds[1], bytes.data, bytes.len), (ssize_t)bytes.len);
    close(fds[1]);
    cr_assert_geq(dup2(fds[0], STDIN_FILENO), 0); /* each test is its own process */
    close(fds[0]);
    cr_assert_eq(jfr_recording_open_file(&rec, "-", NULL, &err), JFR_OK, "%s",
                 err.message);
    cr_assert_eq(jfr_recording_size(rec), bytes.len);
    cr_assert_eq(count_all(rec, &n), 5);
    cr_assert_eq(n, 2);
}

Test(recording, missing_file_is_an_io_error)
{
    jfr_error err;

    cr_assert_eq(jfr_recording_open_file(&rec, "/nonexistent/x.jfr", NULL, &err),
                 JFR_EIO);
    cr_assert_null(rec);
    cr_assert_eq(err.code, JFR_EIO);
    cr_assert_eq(err.sys_errno, ENOENT);
}

Test(recording, bad_arguments)
{
    jfr_error err;
    jfr_chunk *c;

    cr_assert_eq(jfr_recording_open_memory(NULL, "", 0, NULL, &err), JFR_EINVAL);
    cr_assert_eq(jfr_recording_open_memory(&rec, NULL, 5, NULL, &err), JFR_EINVAL);
    cr_assert_eq(jfr_recording_open_memory(&rec, NULL, 0, NULL, &err), JFR_EINVAL,
                 "no data is a caller's mistake, not a format");
    cr_assert_eq(jfr_recording_open_fd(&rec, -1, NULL, &err), JFR_EINVAL);
    cr_assert_eq(jfr_recording_open_file(&rec, NULL, NULL, NULL), JFR_EINVAL);
    cr_assert_eq(jfr_recording_next_chunk(&c, NULL), JFR_EINVAL);
    cr_assert_null(jfr_recording_error(NULL));
    jfr_recording_free(NULL);
}

Test(recording, options_of_an_unknown_version)
{
    static const uint8_t magic[] = "FLR";
    jfr_options o = JFR_OPTIONS_INIT;
    jfr_error err;

    o.version = 0; /* not initialised with JFR_OPTIONS_INIT */
    cr_assert_eq(jfr_recording_open_memory(&rec, magic, 3, &o, &err), JFR_EINVAL);
    cr_assert_null(rec);
    o.version = 99;
    cr_assert_eq(jfr_recording_open_memory(&rec, magic, 3, &o, &err), JFR_EINVAL);
    cr_assert_eq(jfr_recording_open_file(&rec, "/dev/null", &o, &err), JFR_EINVAL);
    cr_assert_eq(err.code, JFR_EINVAL);
    o.version = JFR_OPTIONS_VERSION;
    cr_assert_neq(jfr_recording_open_memory(&rec, magic, 3, &o, &err), JFR_EINVAL,
                  "a known version is read (and this input is not a recording)");
}

Test(recording, not_a_recording)
{
    static const struct {
        const char *bytes;
        size_t n;
    } cases[] = {
        {"", 0},
        {"hello, world", 12},
        {"FLR", 3},
        {"PK\x03\x04zipzipzip", 12},
        {"\x28\xb5\x2f\xfd....", 8},
        {"flr\0\0\2\0\1", 8},
    };

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        jfr_error err;

        cr_assert_eq(
            jfr_recording_open_memory(&rec, cases[i].bytes, cases[i].n, NULL, &err),
            JFR_EFORMAT, "case %zu", i);
        cr_assert_null(rec);
        cr_assert_eq(err.code, JFR_EFORMAT);
        cr_assert_eq(err.chunk, -1);
        cr_assert_neq(err.message[0], '\0');
    }
}

Test(recording, input_size_limit)
{
    jfr_options o = JFR_OPTIONS_INIT;

    two_chunks(&bytes);
    o.max_input_size = bytes.len - 1;
    cr_assert_eq(jfr_recording_open_memory(&rec, bytes.data, bytes.len, &o, NULL),
                 JFR_ELIMIT);
}

#ifdef HAVE_ZLIB
/* `in` as one gzip member appended to `out`. */
static void gzip_member(jg_buf *out, const uint8_t *in, size_t n)
{
    z_stream zs = {0};
    uint8_t buf[4096];
    int zrc;

    cr_assert_eq(deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    zs.next_in = (Bytef *)(uintptr_t)in;
    zs.avail_in = (uInt)n;
    do {
        zs.next_out = buf;
        zs.avail_out = sizeof buf;
        zrc = deflate(&zs, Z_FINISH);
        jg_bytes(out, buf, sizeof buf - zs.avail_out);
    } while (zrc == Z_OK);
    cr_assert_eq(zrc, Z_STREAM_END);
    deflateEnd(&zs);
}

Test(recording, gzip_input)
{
    int n;

    two_chunks(&bytes);
    gzip_member(&packed, bytes.data, bytes.len);
    rec = unit_open(&packed);
    cr_assert_str_eq(jfr_recording_container(rec), "gzip");
    cr_assert_eq(jfr_recording_size(rec), bytes.len, "the decompressed size");
    cr_assert_eq(count_all(rec, &n), 5);
    cr_assert_eq(n, 2);
}

Test(recording, gzip_members_concatenate)
{
    jg_buf one = {0}, two = {0};
    int n;

    add_chunk(&one, chunk_a(3, 0));
    add_chunk(&two, chunk_a(2, 3));
    gzip_member(&packed, one.data, one.len);
    gzip_member(&packed, two.data, two.len);
    rec = unit_open(&packed);
    cr_assert_eq(count_all(rec, &n), 5);
    cr_assert_eq(n, 2);
    jg_buf_free(&one);
    jg_buf_free(&two);
}

Test(recording, gzip_from_a_file_named_jfr)
{
    jfr_error err;
    int n;

    two_chunks(&bytes);
    gzip_member(&packed, bytes.data, bytes.len);
    write_tmp(&packed);
    cr_assert_eq(jfr_recording_open_file(&rec, tmp_path, NULL, &err), JFR_OK, "%s",
                 err.message);
    cr_assert_str_eq(jfr_recording_container(rec), "gzip");
    cr_assert_eq(count_all(rec, &n), 5);
}

Test(recording, gzip_damage)
{
    jfr_error err;

    two_chunks(&bytes);
    gzip_member(&packed, bytes.data, bytes.len);
    /* nothing decompressed at all: refused by the open call */
    cr_assert_eq(jfr_recording_open_memory(&rec, packed.data, 12, NULL, &err),
                 JFR_ETRUNCATED, "%s", err.message);
    cr_assert(strstr(err.message, "gzip data ends early") != NULL, "%s", err.message);
    packed.data[12] ^= 0xff;
    packed.data[13] ^= 0xff;
    cr_assert_lt(jfr_recording_open_memory(&rec, packed.data, packed.len, NULL, &err), 0);
    cr_assert_null(rec);
}

Test(recording, gzip_of_something_else)
{
    jfr_error err;
    static const char text[] = "not a recording at all";

    gzip_member(&packed, (const uint8_t *)text, sizeof text);
    cr_assert_eq(jfr_recording_open_memory(&rec, packed.data, packed.len, NULL, &err),
                 JFR_EFORMAT);
    cr_assert(strstr(err.message, "gzip") != NULL, "%s", err.message);
}
#endif

#ifdef HAVE_LZ4
Test(recording, lz4_input)
{
    size_t bound;
    int n;

    two_chunks(&bytes);
    bound = LZ4F_compressFrameBound(bytes.len, NULL);
    packed.data = malloc(bound);
    packed.cap = bound;
    packed.len = LZ4F_compressFrame(packed.data, bound, bytes.data, bytes.len, NULL);
    cr_assert_not(LZ4F_isError(packed.len));
    rec = unit_open(&packed);
    cr_assert_str_eq(jfr_recording_container(rec), "lz4");
    cr_assert_eq(jfr_recording_size(rec), bytes.len);
    cr_assert_eq(count_all(rec, &n), 5);
    cr_assert_eq(n, 2);
}
#endif

/* Chunks from different JVMs: each has its own metadata, the same ids mean
 * different types, and pool keys collide. */
Test(recording, chunks_with_different_metadata_and_colliding_ids)
{
    jg_chunk *c1 = jg_chunk_new(), *c2 = jg_chunk_new();
    jg_elem *e;
    jg_buf *p;
    jfr_chunk *c;
    jfr_event_iter *it;
    const jfr_event *ev;
    jfr_value v, name;
    uint64_t first_size;

    jg_primitives(c1);
    e = jg_class(c1, ID_EVENT, "jvm1.Event", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_field(e, "who", ID_NAME, JG_POOL);
    jg_field(jg_class(c1, ID_NAME, "jvm1.Name", NULL), "name", JG_STRING, 0);
    jg_string(jg_entry(jg_pool_new(jg_checkpoint(c1), ID_NAME), 1), "first JVM");
    p = jg_event(c1, ID_EVENT);
    jg_i64(p, 5);
    jg_key(p, 1);

    /* the second JVM swaps the ids and lays its event out differently */
    c2->h.major = 2;
    c2->h.minor = 0;
    c2->h.start_nanos = INT64_C(1800000000000000000);
    jg_primitives(c2);
    e = jg_class(c2, ID_NAME, "jvm2.Event", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_field(e, "label", JG_STRING, 0);
    jg_field(e, "who", ID_EVENT, JG_POOL);
    e = jg_class(c2, ID_EVENT, "jvm2.Thing", NULL);
    jg_field(e, "size", JG_INT, 0);
    jg_field(e, "name", JG_STRING, 0);
    jg_region(c2, "3600000");
    p = jg_entry(jg_pool_new(jg_checkpoint(c2), ID_EVENT), 1);
    jg_i32(p, 99);
    jg_string(p, "second JVM");
    p = jg_event(c2, ID_NAME);
    jg_i64(p, 6);
    jg_string(p, "hello");
    jg_key(p, 1);

    add_chunk(&bytes, c1);
    first_size = bytes.len;
    add_chunk(&bytes, c2);
    rec = unit_open(&bytes);

    c = unit_next_chunk(rec);
    cr_assert_str_eq(jfr_type_name(jfr_chunk_type_by_id(c, ID_EVENT)), "jvm1.Event");
    ev = unit_first_event(c, &it);
    cr_assert_eq(jfr_event_field(&v, ev, "who"), JFR_OK);
    cr_assert_eq(jfr_value_field(&name, &v, "name"), JFR_OK);
    cr_assert(unit_str_eq(name.as.str, "first JVM"));
    cr_assert_eq(jfr_chunk_gmt_offset_ms(c), 0);
    jfr_event_iter_free(it);

    c = unit_next_chunk(rec);
    cr_assert_eq(jfr_chunk_index(c), 1);
    cr_assert_eq(jfr_chunk_header(c)->file_offset, first_size);
    cr_assert_eq(jfr_chunk_header(c)->minor, 0);
    cr_assert_eq(jfr_chunk_gmt_offset_ms(c), 3600000);
    cr_assert_str_eq(jfr_type_name(jfr_chunk_type_by_id(c, ID_EVENT)), "jvm2.Thing");
    ev = unit_first_event(c, &it);
    cr_assert_str_eq(jfr_type_name(jfr_event_type(ev)), "jvm2.Event");
    cr_assert_gt(jfr_event_offset(ev), first_size, "offsets are absolute");
    cr_assert_eq(jfr_chunk_ticks_to_epoch_nanos(c, jfr_event_start_ticks(ev)),
                 INT64_C(1800000000000000000) + 6 - 1000, "the chunk's own time base");
    cr_assert_eq(jfr_event_field(&v, ev, "label"), JFR_OK);
    cr_assert(unit_str_eq(v.as.str, "hello"));
    cr_assert_eq(jfr_event_field(&v, ev, "who"), JFR_OK);
    cr_assert_str_eq(jfr_type_name(v.type), "jvm2.Thing");
    cr_assert_eq(jfr_value_field(&name, &v, "name"), JFR_OK);
    cr_assert(unit_str_eq(name.as.str, "second JVM"));
    cr_assert_eq(jfr_value_field(&name, &v, "size"), JFR_OK);
    cr_assert_eq(name.as.i, 99);
    jfr_event_iter_free(it);
    cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_DONE);
}

Test(recording, truncated_last_chunk_header)
{
    jg_buf two = {0};
    jfr_chunk *c;
    int next = 0;

    two_chunks(&two);
    two_chunks(&bytes);
    add_chunk(&bytes, chunk_a(4, 5));
    bytes.len = two.len + 30; /* inside the third chunk's header */
    jg_buf_free(&two);
    rec = unit_open(&bytes);
    c = unit_next_chunk(rec);
    cr_assert_eq(count_events(c, &next), 3);
    c = unit_next_chunk(rec);
    cr_assert_eq(count_events(c, &next), 2);
    cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_ETRUNCATED);
    cr_assert_eq(jfr_recording_error(rec)->chunk, 2);
    cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_DONE);
}

Test(recording, truncated_last_chunk_without_metadata)
{
    jg_chunk *third = chunk_a(4, 5);
    jfr_chunk *c;
    int next = 0;

    jg_metadata_record(third); /* the metadata at the end, as JDK 11 wrote it */
    two_chunks(&bytes);
    add_chunk(&bytes, third);
    bytes.len -= 10; /* the cut loses the metadata */
    rec = unit_open(&bytes);
    c = unit_next_chunk(rec);
    cr_assert_eq(count_events(c, &next), 3);
    c = unit_next_chunk(rec);
    cr_assert_eq(count_events(c, &next), 2);
    {
        int rc = jfr_recording_next_chunk(&c, rec);
        cr_assert_eq(rc, JFR_ETRUNCATED, "rc %d: %s", rc,
                     jfr_recording_error(rec)->message);
    }
    cr_assert_eq(jfr_recording_error(rec)->chunk, 2);
    cr_assert_eq(jfr_recording_error(rec)->code, JFR_ETRUNCATED);
    cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_DONE);
}

/* A cut last chunk whose metadata survived is read up to its last whole
 * record, with a warning (jfr-format.md §3.4). */
Test(recording, truncated_last_chunk_is_salvaged)
{
    jfr_chunk *c;
    const jfr_error *w;
    int next = 0;

    add_chunk(&bytes, chunk_a(3, 0));
    add_chunk(&bytes, chunk_a(5, 3));
    bytes.len -= 3; /* inside the last event */
    rec = unit_open(&bytes);
    c = unit_next_chunk(rec);
    cr_assert_eq(count_events(c, &next), 3);
    cr_assert_null(jfr_chunk_warning(c));
    c = unit_next_chunk(rec);
    cr_assert_eq(count_events(c, &next), 4, "the cut event is dropped");
    w = jfr_chunk_warning(c);
    cr_assert_not_null(w);
    cr_assert_eq(w->code, JFR_ETRUNCATED);
    cr_assert_eq(w->chunk, 1);
    cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_DONE);
}

Test(recording, corrupt_middle_chunk_is_skipped)
{
    jg_chunk *bad = chunk_a(2, 100);
    jfr_chunk *c;
    uint64_t start;
    int next = 0;

    add_chunk(&bytes, chunk_a(3, 0));
    start = bytes.len;
    jg_chunk_build(bad, &bytes);
    /* point its metadata offset at an event record */
    jg_put_be(bytes.data + start + 24, bad->size - 2, 8);
    jg_chunk_free(bad);
    add_chunk(&bytes, chunk_a(2, 3));
    rec = unit_open(&bytes);
    c = unit_next_chunk(rec);
    cr_assert_eq(count_events(c, &next), 3);
    cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_ECORRUPT);
    cr_assert_eq(jfr_recording_error(rec)->chunk, 1);
    c = unit_next_chunk(rec);
    cr_assert_eq(jfr_chunk_index(c), 2, "the next call moves on");
    cr_assert_eq(count_events(c, &next), 2);
    cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_DONE);
}

Test(recording, unfinished_chunk_ignores_unflushed_tail)
{
    jg_chunk *ch = chunk_a(2, 0);
    jfr_chunk *c;
    const jfr_error *w;
    int next = 0;

    ch->h.state = 4;
    ch->h.flags = 1;
    add_chunk(&bytes, ch);
    jg_bytes(&bytes, "\x05\x14garbage written after the last flush", 38);
    rec = unit_open(&bytes);
    c = unit_next_chunk(rec);
    cr_assert(jfr_chunk_is_unfinished(c));
    cr_assert_eq(count_events(c, &next), 2);
    w = jfr_chunk_warning(c);
    cr_assert_not_null(w);
    cr_assert_eq(w->code, JFR_ETRUNCATED);
    cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_DONE, "the tail is not a chunk");
}

Test(recording, version_1_and_fixed_integers_mix)
{
    jg_chunk *c1 = chunk_a(2, 0), *c2 = jg_chunk_new();
    jg_elem *e;
    int n;

    c1->h.major = 1;
    c1->h.minor = 0;
    jg_chunk_fixed_ints(c2);
    jg_primitives(c2);
    e = jg_class(c2, ID_EVENT, "test.A", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_field(e, "n", JG_INT, 0);
    for (int i = 2; i < 5; i++) {
        jg_buf *p = jg_event(c2, ID_EVENT);
        jg_i64(p, 1000);
        jg_i32(p, i);
    }
    add_chunk(&bytes, c1);
    add_chunk(&bytes, c2);
    rec = unit_open(&bytes);
    cr_assert_eq(count_all(rec, &n), 5);
    cr_assert_eq(n, 2);
}

/* ---- damaged chunk headers: resynchronising (jfr-format.md §3.5) ---- */

/* Three chunks of 3, 2 and 4 events; *starts gets their offsets. */
static void three_chunks(jg_buf *out, uint64_t starts[3])
{
    starts[0] = out->len;
    add_chunk(out, chunk_a(3, 0));
    starts[1] = out->len;
    add_chunk(out, chunk_a(2, 3));
    starts[2] = out->len;
    add_chunk(out, chunk_a(4, 5));
}

static uint64_t get_be64(const uint8_t *p)
{
    uint64_t v = 0;

    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

Test(recording, destroyed_magic_skips_to_the_next_chunk)
{
    uint64_t at[3];
    char got[256];
    int skipped;

    three_chunks(&bytes, at);
    memcpy(bytes.data + at[1], "XXXX", 4);
    rec = unit_open(&bytes);
    cr_assert_eq(unit_next_chunk(rec) != NULL, true);
    cr_assert_eq(jfr_recording_next_chunk(&(jfr_chunk *){NULL}, rec), JFR_ECORRUPT);
    cr_assert_eq(jfr_recording_error(rec)->chunk, 1);
    cr_assert_eq(jfr_recording_error(rec)->offset, at[1]);
    cr_assert(strstr(jfr_recording_error(rec)->message, "skipped") != NULL, "%s",
              jfr_recording_error(rec)->message);
    cr_assert_eq(jfr_chunk_header(unit_next_chunk(rec))->file_offset, at[2]);
    jfr_recording_free(rec);

    /* skipping by headers refuses chunk 0 (no chunk follows it): left to
     * next_chunk, which reads it and reports the damage */
    rec = unit_open(&bytes);
    for (skipped = 0; jfr_recording_skip_chunk(rec) == JFR_OK; skipped++)
        ;
    cr_assert_eq(skipped, 0);
    cr_assert_eq(jfr_chunk_index(unit_next_chunk(rec)), 0);
    cr_assert_eq(jfr_recording_next_chunk(&(jfr_chunk *){NULL}, rec), JFR_ECORRUPT);
    cr_assert_eq(jfr_recording_skip_chunk(rec), JFR_OK, "chunk 2 is sound");
    cr_assert_eq(jfr_recording_skip_chunk(rec), JFR_DONE);
    jfr_recording_free(rec);

    /* the first magic: the open call finds the recording all the same */
    memcpy(bytes.data + at[1], "FLR\0", 4);
    memcpy(bytes.data, "\0\0\0\0", 4);
    rec = unit_open(&bytes);
    walk_from(rec, 3, got, sizeof got);
    cr_assert_str_eq(got, "E:-6 1:2 2:4 ", "chunk 0 is lost, 1 and 2 are read");
}

/* Sizes off either way on a middle chunk: it is read up to the next chunk
 * header, which it must not swallow. */
Test(recording, wrong_chunk_size_does_not_swallow_the_next_chunk)
{
    static const int64_t deltas[] = {-7, +7, -30, +40, (int64_t)1 << 40};
    uint64_t at[3];
    char got[256];

    three_chunks(&bytes, at);
    for (size_t i = 0; i < sizeof deltas / sizeof deltas[0]; i++) {
        uint64_t size = at[2] - at[1];
        jg_buf copy = {0};
        int skipped;

        jg_bytes(&copy, bytes.data, bytes.len);
        jg_put_be(copy.data + at[1] + 8, (uint64_t)((int64_t)size + deltas[i]), 8);
        cr_assert_eq(get_be64(copy.data + at[1] + 8), size + (uint64_t)deltas[i]);
        rec = unit_open(&copy);
        walk(rec, got, sizeof got);
        /* the events number on: none is lost or read twice */
        cr_assert_str_eq(got, "0:3 1:2w 2:4 ", "delta %lld", (long long)deltas[i]);
        jfr_recording_free(rec);

        rec = unit_open(&copy);
        for (skipped = 0; jfr_recording_skip_chunk(rec) == JFR_OK; skipped++)
            ;
        cr_assert_eq(skipped, 1, "skipping stops at the damaged chunk");
        jfr_recording_free(rec);
        rec = NULL;
        jg_buf_free(&copy);
    }
}

/* The JDK copies its chunk header into the chunk at flushes: a copy must
 * not be taken for the next chunk. */
Test(recording, header_copy_inside_a_chunk_is_not_a_chunk)
{
    uint64_t at[3];
    char got[256];
    jg_chunk *c = chunk_a(2, 3);
    jg_buf *p;
    uint8_t copy[JFRP_HEADER_SIZE];

    add_chunk(&bytes, chunk_a(3, 0));
    at[1] = bytes.len;
    memcpy(copy, bytes.data, sizeof copy);            /* chunk 0's header, as a copy */
    jg_put_be(copy + 8, get_be64(copy + 24) + 10, 8); /* parses, ends nowhere */
    p = jg_event(c, ID_EVENT + 1);                    /* a record of an undeclared type */
    jg_bytes(p, copy, sizeof copy);
    add_chunk(&bytes, c);
    at[2] = bytes.len;
    add_chunk(&bytes, chunk_a(4, 5));
    /* chunk 1's size lands inside chunk 2: resynchronise */
    jg_put_be(bytes.data + at[1] + 8, at[2] - at[1] + 20, 8);
    rec = unit_open(&bytes);
    walk(rec, got, sizeof got);
    cr_assert_str_eq(got, "0:3 1:2w 2:4 ");
}

#if defined(HAVE_ZLIB)
/* A cut .gz reads as the raw file cut where its output ends: every whole
 * chunk, the cut one salvaged, then why the data ended. */
Test(recording, cut_gzip_reads_like_the_cut_raw_file)
{
    uint64_t at[3];
    char want[256], got[256];

    three_chunks(&bytes, at);
    gzip_member(&packed, bytes.data, bytes.len);
    for (size_t cut = 20; cut < packed.len; cut += 7) {
        z_stream zs = {0};
        uint8_t *out = malloc(bytes.len);
        jfr_recording *raw;
        jfr_error err;
        size_t n;
        int rc;

        cr_assert_eq(inflateInit2(&zs, 31), Z_OK);
        zs.next_in = packed.data;
        zs.avail_in = (uInt)cut;
        zs.next_out = out;
        zs.avail_out = (uInt)bytes.len;
        (void)inflate(&zs, Z_SYNC_FLUSH);
        n = bytes.len - zs.avail_out;
        inflateEnd(&zs);
        free(out);

        rc = jfr_recording_open_memory(&rec, packed.data, cut, NULL, &err);
        if (jfr_recording_open_memory(&raw, bytes.data, n, NULL, NULL) < 0) {
            cr_assert_lt(rc, 0, "cut at %zu: refused like the raw prefix", cut);
            continue;
        }
        cr_assert_eq(rc, JFR_OK, "cut at %zu (%zu bytes out): %s", cut, n, err.message);
        cr_assert_eq(jfr_recording_size(rec), n);
        walk(raw, want, sizeof want);
        jfr_recording_free(raw);
        walk(rec, got, sizeof got);
        jfr_recording_free(rec);
        rec = NULL;
        /* the same chunks, then one failure: the cut */
        strcat(want, "E:-7 ");
        cr_assert_str_eq(got, want, "cut at %zu (%zu bytes out)", cut, n);
    }
}

/* A bomb: gzip of zeros. Refused after a bounded amount of output. */
Test(recording, gzip_bomb_is_refused_early)
{
    static uint8_t zeros[1 << 20];
    jfr_error err;
    z_stream zs = {0};
    uint8_t *buf = malloc(1 << 20);
    uint64_t at[3];
    char got[256];

    /* 64 MiB of zeros after a sound recording, and alone */
    three_chunks(&bytes, at);
    for (int with_chunks = 1; with_chunks >= 0; with_chunks--) {
        cr_assert_eq(deflateInit2(&zs, 9, Z_DEFLATED, 31, 9, Z_DEFAULT_STRATEGY), Z_OK);
        packed.len = 0;
        if (with_chunks) {
            zs.next_in = bytes.data;
            zs.avail_in = (uInt)bytes.len;
        }
        for (int i = 0; i <= 64; i++) {
            if (i > 0) {
                zs.next_in = zeros;
                zs.avail_in = sizeof zeros;
            }
            do {
                zs.next_out = buf;
                zs.avail_out = 1 << 20;
                (void)deflate(&zs, i == 64 ? Z_FINISH : Z_NO_FLUSH);
                jg_bytes(&packed, buf, (1 << 20) - zs.avail_out);
            } while (zs.avail_out == 0);
        }
        deflateEnd(&zs);
        if (!with_chunks) {
            cr_assert_eq(
                jfr_recording_open_memory(&rec, packed.data, packed.len, NULL, &err),
                JFR_EFORMAT);
            cr_assert(strstr(err.message, "gzip") != NULL, "%s", err.message);
            continue;
        }
        rec = unit_open(&packed);
        cr_assert_leq(jfr_recording_size(rec), bytes.len + JFRP_GUARD_SLACK + (2 << 20),
                      "decompression stopped (%llu bytes)",
                      (unsigned long long)jfr_recording_size(rec));
        walk(rec, got, sizeof got);
        cr_assert_str_eq(got, "0:3 1:2 2:4 E:-6 E:-6 ",
                         "the chunks, the zeros after them, the stop");
        cr_assert(strstr(jfr_recording_error(rec)->message, "decompression stopped"));
        jfr_recording_free(rec);
        rec = NULL;
    }
    free(buf);
}

Test(recording, junk_after_gzip_is_ignored_with_a_note)
{
    char got[256];

    two_chunks(&bytes);
    gzip_member(&packed, bytes.data, bytes.len);
    jg_bytes(&packed, "junk!", 5);
    rec = unit_open(&packed);
    walk(rec, got, sizeof got);
    cr_assert_str_eq(got, "0:3 1:2 E:-6 ");
    cr_assert(strstr(jfr_recording_error(rec)->message, "5 bytes after the gzip data"));
}
#endif

#ifdef HAVE_LZ4
Test(recording, lz4_cut_and_junk)
{
    size_t bound;
    char got[256];

    two_chunks(&bytes);
    bound = LZ4F_compressFrameBound(bytes.len, NULL);
    packed.data = malloc(bound + 16);
    packed.cap = bound + 16;
    packed.len = LZ4F_compressFrame(packed.data, bound, bytes.data, bytes.len, NULL);
    cr_assert_not(LZ4F_isError(packed.len));
    /* the end mark cut: every chunk is there, then the cut is reported */
    packed.len -= 3;
    rec = unit_open(&packed);
    walk(rec, got, sizeof got);
    cr_assert_str_eq(got, "0:3 1:2 E:-7 ");
    jfr_recording_free(rec);
    /* a whole frame, then junk: read as gzip plus junk is */
    packed.len += 3;
    jg_bytes(&packed, "junk!", 5);
    rec = unit_open(&packed);
    walk(rec, got, sizeof got);
    cr_assert_str_eq(got, "0:3 1:2 E:-6 ");
    cr_assert(strstr(jfr_recording_error(rec)->message, "not an lz4 frame"));
}
#endif
