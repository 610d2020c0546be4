/* test_follow.c - following a recording while it is written (libjfr/
 * follow.c, jfr_follow(3), jfr-format.md §3.6). Chunks are laid out flush
 * by flush as the JVM writes them (tests/helpers/livegen) and written step
 * by step, into one file or a repository directory: the bytes of a flush
 * first, then the header in the JVM's three writes (255 over the state,
 * the fields, the new state), with part of the next flush already in the
 * file. After every step jfr_follow_poll must hand out exactly the events
 * of the flushes whose header was written: each once, in end-time order
 * within its segment, with its constant-pool references resolved by the
 * pools of the flushes so far. Real JDK recordings replayed the way their
 * JVM wrote them give the record counts and the profile of the file read
 * whole. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jfr_private.h"
#include "livegen.h"
#include "testdata.h"

enum { ID_EVENT = 20, ID_NAME = 21, ID_HEADER = 22, ID_LATE = 23 };

/* ---- a scratch directory ---------------------------------------------------- */

static char scratch[256];

static void make_scratch(void)
{
    const char *tmp = getenv("TMPDIR");

    snprintf(scratch, sizeof scratch, "%s/jfr-follow-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert_not_null(mkdtemp(scratch));
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[1024];

    if (!d)
        return;
    while ((e = readdir(d)) != NULL) {
        struct stat st;

        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(path);
        else
            unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

static void drop_scratch(void)
{
    if (scratch[0])
        remove_tree(scratch);
    scratch[0] = '\0';
}

TestSuite(follow, .init = make_scratch, .fini = drop_scratch);

/* A file of `n` bytes of `text`. */
static void write_bytes(const char *path, const char *text, size_t n)
{
    jg_buf b = {0};

    jg_bytes(&b, text, n);
    lg_write_file(path, &b);
    jg_buf_free(&b);
}

static char *in_scratch(const char *name)
{
    static char path[4][512];
    static int next;
    char *p = path[next++ % 4];

    snprintf(p, sizeof path[0], "%s/%s", scratch, name);
    return p;
}

/* ---- what the follower hands out --------------------------------------------- */

/* Every event seen: its segment, its seq field and who it names. */
typedef struct seen {
    int segments;
    int n;
    long seq[4096];
    char who[4096][16];
    int segment_of[4096];
} seen;

static const char *who_of(const jfr_event *ev, char *buf, size_t size)
{
    jfr_value v, name;

    buf[0] = '\0';
    if (jfr_event_field(&v, ev, "who") == JFR_OK && v.kind == JFR_VALUE_OBJECT &&
        jfr_value_field(&name, &v, "name") == JFR_OK && name.kind == JFR_VALUE_STRING)
        snprintf(buf, size, "%s", name.as.str.ptr);
    else if (jfr_event_field(&v, ev, "who") == JFR_OK)
        snprintf(buf, size, "null");
    return buf;
}

/* The end tick of an event as the JDK orders them. */
static int64_t end_of(const jfr_event *ev)
{
    jfr_value d;
    int64_t end = jfr_event_start_ticks(ev);

    if (jfr_type_field_index(jfr_event_type(ev), "duration") == 1 &&
        jfr_event_field(&d, ev, "duration") == JFR_OK)
        end += d.as.i;
    return end;
}

/* Take one segment: its events in end-time order. */
static void take_segment(seen *s, const jfr_flush *fl)
{
    jfr_event_iter *it;
    const jfr_event *ev;
    int64_t last = INT64_MIN;
    int rc;

    cr_assert_eq(jfr_event_iter_new(&it, fl->chunk, NULL, 0, JFR_ITER_BY_END_TIME),
                 JFR_OK);
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
        jfr_value v;
        int64_t end = end_of(ev);

        cr_assert_geq(end, last, "segment %d: events out of end-time order", s->segments);
        last = end;
        cr_assert_geq(jfr_event_offset(ev), fl->begin);
        cr_assert_lt(jfr_event_offset(ev), fl->end);
        cr_assert_lt(s->n, 4096);
        s->seq[s->n] = jfr_event_field(&v, ev, "seq") == JFR_OK ? v.as.i : -1;
        who_of(ev, s->who[s->n], sizeof s->who[0]);
        s->segment_of[s->n++] = s->segments;
    }
    cr_assert_eq(rc, JFR_DONE, "%s", fl->chunk_error->message);
    jfr_event_iter_free(it);
    s->segments++;
}

/* Poll until nothing is new; the number of segments taken. */
static int poll_all(jfr_follow *f, seen *s, int *last_rc)
{
    const jfr_flush *fl;
    int rc, got = 0;

    while ((rc = jfr_follow_poll(&fl, f)) == JFR_OK) {
        take_segment(s, fl);
        got++;
    }
    cr_assert(rc == JFR_AGAIN || rc == JFR_DONE, "poll: %s: %s", jfr_strerror(rc),
              jfr_follow_error(f)->message);
    if (last_rc)
        *last_rc = rc;
    return got;
}

static jfr_follow *follow(const char *path, jfr_follow_start start)
{
    jfr_follow_options o = JFR_FOLLOW_OPTIONS_INIT;
    jfr_follow *f;
    jfr_error err;

    o.start = start;
    cr_assert_eq(jfr_follow_open(&f, path, &o, &err), JFR_OK, "%s", err.message);
    return f;
}

/* ---- a synthetic chunk ------------------------------------------------------------ */

/* Flush k (0-based) of the synthetic chunk: events seq 100k+0..3 written
 * in the order 2, 0, 3, 1 with end times in seq order; event 100k+1 names
 * key k+2 (defined in this flush), the others key 1 (defined before the
 * first flush).
 * From flush 2 on a new metadata record declares test.Late, and each flush
 * adds a test.Late event (seq 100k+50). */
static void add_flush(jg_chunk *c, jg_chunk *late_types, int k, const char *tag)
{
    static const int order[] = {2, 0, 3, 1};
    char name[16];
    jg_cp *cp;

    if (k == 2)
        lg_metadata_record(late_types, jg_raw(c));
    for (int i = 0; i < 4; i++) {
        int e = order[i];
        jg_buf *b = jg_event(c, ID_EVENT);

        jg_i64(b, 10000 + k * 1000 + e * 100 - 50); /* start */
        jg_i64(b, 50);                              /* duration */
        jg_key(b, e == 1 ? (uint64_t)k + 2 : 1);
        jg_i32(b, 100 * k + e);
    }
    if (k >= 2) {
        jg_buf *b = jg_event(c, ID_LATE);
        jg_i64(b, 10000 + k * 1000 + 999);
        jg_i32(b, 100 * k + 50);
    }
    snprintf(name, sizeof name, "%s%d", tag, k + 1);
    jg_string(jg_entry(jg_pool_new(jg_checkpoint(c), ID_NAME), (uint64_t)k + 2), name);
    cp = jg_checkpoint(c);
    cp->flags = 3; /* FLUSH | CHUNK_HEADER, the header copy last */
    lg_header_copy(cp, ID_HEADER);
}

static void declare_types(jg_chunk *c, bool late)
{
    jg_elem *e;

    jg_primitives(c);
    jg_field(jg_class(c, ID_NAME, "test.Name", NULL), "name", JG_STRING, 0);
    lg_declare_header_type(c, ID_HEADER, JG_BYTE);
    e = jg_class(c, ID_EVENT, "test.Event", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_field(e, "duration", JG_LONG, 0);
    jg_field(e, "who", ID_NAME, JG_POOL);
    jg_field(e, "seq", JG_INT, 0);
    if (late) {
        e = jg_class(c, ID_LATE, "test.Late", "jdk.jfr.Event");
        jg_field(e, "startTime", JG_LONG, 0);
        jg_field(e, "seq", JG_INT, 0);
    }
}

/* A chunk of `flushes` flushes whose names carry `tag`; it starts at
 * `start_nanos`. The close adds one more event (seq 9000). */
static void synthetic_chunk(lg_chunk *lc, int flushes, const char *tag,
                            int64_t start_nanos)
{
    jg_chunk *c = jg_chunk_new(), *late = jg_chunk_new();
    jg_buf *b;

    c->h.start_nanos = start_nanos;
    declare_types(c, false);
    declare_types(late, true);
    late->metadata_id = 2;
    /* the name of key 1 comes first, as the JVM's first checkpoints do */
    jg_string(jg_entry(jg_pool_new(jg_checkpoint(c), ID_NAME), 1), "first");
    jg_metadata_record(c);
    for (int k = 0; k < flushes; k++)
        add_flush(c, late, k, tag);
    b = jg_event(c, ID_EVENT);
    jg_i64(b, 99000);
    jg_i64(b, 1);
    jg_key(b, 1);
    jg_i32(b, 9000);
    jg_checkpoint(c)->flags = 2;
    jg_chunk_free(late);
    lg_layout(lc, c);
}

/* The seq values a flush adds. */
static int flush_seqs(int k, long *out)
{
    int n = 0;

    for (int e = 0; e < 4; e++)
        out[n++] = 100 * k + e;
    if (k >= 2)
        out[n++] = 100 * k + 50;
    return n;
}

/* The file goes from flush k - 1 to flush k as the JVM writes it: the
 * flush's bytes, 255 over the state, the fields, the state and flags. The
 * follower must see nothing before the last write. */
static void write_flush(const lg_chunk *lc, const char *path, int k, jfr_follow *f,
                        seen *s)
{
    uint8_t hdr[68];
    jg_buf file = {0};
    int before = s->n;

    if (k > 0) {
        lg_file_at(lc, (size_t)k - 1, (size_t)(lc->end[k] - lc->end[k - 1]), &file);
        lg_write_file(path, &file);
        cr_assert_eq(poll_all(f, s, NULL), 0, "flush %d: data without its header", k);
    } else {
        /* a new chunk: size 68, no offsets, state 1, then its first data */
        lg_file_at(lc, 0, 0, &file);
        jg_put_be(file.data + 8, 68, 8);
        jg_put_be(file.data + 16, 0, 8);
        jg_put_be(file.data + 24, 0, 8);
        file.data[64] = 1;
        lg_write_file(path, &file);
        cr_assert_eq(poll_all(f, s, NULL), 0, "before the first flush");
    }
    lg_header_at(lc, (size_t)k, hdr);
    hdr[64] = 255;
    lg_write_header_part(path, hdr, 64, 66);
    cr_assert_eq(poll_all(f, s, NULL), 0, "flush %d: state 255", k);
    lg_write_header_part(path, hdr, 8, 64);
    cr_assert_eq(poll_all(f, s, NULL), 0, "flush %d: fields written, state 255", k);
    lg_header_at(lc, (size_t)k, hdr);
    lg_write_header_part(path, hdr, 64, 68);
    cr_assert_eq(poll_all(f, s, NULL), 1, "flush %d: one segment", k);
    /* the next flush's first bytes are written before its header */
    lg_file_at(lc, (size_t)k, (size_t)k * 7 + 1, &file);
    lg_write_file(path, &file);
    cr_assert_eq(poll_all(f, s, NULL), 0, "flush %d: the unflushed tail", k);
    {
        long want[8];
        int n = flush_seqs(k, want);

        cr_assert_eq(s->n - before, n, "flush %d: %d events, not %d", k, s->n - before,
                     n);
        for (int i = 0; i < n; i++)
            cr_assert_eq(s->seq[before + i], want[i], "flush %d: event %d is seq %ld", k,
                         i, s->seq[before + i]);
    }
    jg_buf_free(&file);
}

static void write_close(const lg_chunk *lc, const char *path, bool final)
{
    uint8_t hdr[68];
    jg_buf file = {0};

    lg_file_closed(lc, final, &file);
    memcpy(file.data, lc->image.data, 68); /* the old header for now */
    lg_file_at(lc, lc->nflush - 1, lc->image.len, &file);
    lg_write_file(path, &file);
    lg_header_closed(lc, final, hdr);
    hdr[64] = 255;
    lg_write_header_part(path, hdr, 64, 66);
    lg_write_header_part(path, hdr, 8, 64);
    lg_header_closed(lc, final, hdr);
    lg_write_header_part(path, hdr, 64, 68);
    jg_buf_free(&file);
}

Test(follow, a_growing_file_step_by_step)
{
    const char *path = in_scratch("live.jfr");
    static seen s;
    lg_chunk lc;
    jfr_follow *f;
    int rc;

    synthetic_chunk(&lc, 5, "n", INT64_C(1700000000000000000));
    write_bytes(path, "FL", 2); /* being created */
    f = follow(path, JFR_FOLLOW_FROM_FIRST);
    cr_assert_eq(poll_all(f, &s, &rc), 0);
    cr_assert_eq(rc, JFR_AGAIN);
    for (int k = 0; k < (int)lc.nflush; k++)
        write_flush(&lc, path, k, f, &s);
    /* pools of every flush so far resolve */
    for (int i = 0; i < s.n; i++) {
        char want[32];
        long seq = s.seq[i];

        if (seq % 100 == 50)
            continue; /* test.Late has no name */
        snprintf(want, sizeof want, "%s", seq % 100 == 1 ? "" : "first");
        if (seq % 100 == 1)
            snprintf(want, sizeof want, "n%ld", seq / 100 + 1);
        cr_assert_str_eq(s.who[i], want, "seq %ld", seq);
    }
    write_close(&lc, path, true);
    cr_assert_eq(poll_all(f, &s, &rc), 1, "the close: one segment");
    cr_assert_eq(s.seq[s.n - 1], 9000);
    cr_assert_eq(poll_all(f, &s, &rc), 0);
    cr_assert_eq(rc, JFR_DONE);
    cr_assert_eq(jfr_follow_end_reason(f), JFR_FOLLOW_FINISHED);
    jfr_follow_free(f);
    lg_free(&lc);
}

/* The file read whole afterwards has exactly the events handed out. */
Test(follow, everything_once_against_the_whole_file)
{
    const char *path = in_scratch("whole.jfr");
    static seen s;
    lg_chunk lc;
    jfr_follow *f;
    jfr_recording *rec;
    jfr_chunk *chunk;
    jfr_event_iter *it;
    const jfr_event *ev;
    jg_buf file = {0};
    int n = 0;

    synthetic_chunk(&lc, 4, "n", INT64_C(1700000000000000000));
    lg_file_at(&lc, 0, 3, &file);
    lg_write_file(path, &file);
    f = follow(path, JFR_FOLLOW_FROM_FIRST);
    for (size_t k = 0; k < lc.nflush; k++) {
        lg_file_at(&lc, k, k, &file);
        lg_write_file(path, &file);
        poll_all(f, &s, NULL);
    }
    lg_file_closed(&lc, false, &file);
    lg_write_file(path, &file);
    poll_all(f, &s, NULL);
    jfr_follow_free(f);
    cr_assert_eq(jfr_recording_open_memory(&rec, file.data, file.len, NULL, NULL),
                 JFR_OK);
    cr_assert_eq(jfr_recording_next_chunk(&chunk, rec), JFR_OK);
    cr_assert_eq(jfr_event_iter_new(&it, chunk, NULL, 0, 0), JFR_OK);
    while (jfr_event_next(&ev, it) == JFR_OK) {
        jfr_value v;
        bool found = false;

        cr_assert_eq(jfr_event_field(&v, ev, "seq"), JFR_OK);
        for (int i = 0; i < s.n; i++)
            if (s.seq[i] == v.as.i) {
                cr_assert(!found, "seq %lld handed out twice", (long long)v.as.i);
                found = true;
            }
        cr_assert(found, "seq %lld never handed out", (long long)v.as.i);
        n++;
    }
    cr_assert_eq(n, s.n);
    jfr_event_iter_free(it);
    jfr_recording_free(rec);
    jg_buf_free(&file);
    lg_free(&lc);
}

/* ---- a repository: rotation, retention, the end ------------------------------------ */

Test(follow, a_repository_rotates_and_deletes)
{
    char *dir = in_scratch("2026_01_02_03_04_05_4242");
    char a[512], b[512], z[512];
    static seen s;
    lg_chunk la, lb, lz;
    jg_buf file = {0};
    jfr_follow *f;
    int rc;

    cr_assert_eq(mkdir(dir, 0755), 0);
    snprintf(z, sizeof z, "%s/2026_01_02_03_04_04.jfr", dir);
    snprintf(a, sizeof a, "%s/2026_01_02_03_04_05.jfr", dir);
    snprintf(b, sizeof b, "%s/2026_01_02_03_04_09.jfr", dir);
    synthetic_chunk(&lz, 1, "z", INT64_C(1700000000000000000));
    synthetic_chunk(&la, 3, "a", INT64_C(1700000001000000000));
    synthetic_chunk(&lb, 3, "b", INT64_C(1700000005000000000));
    /* an old chunk the retention deletes before it is read, and a file
     * that is no chunk */
    lg_file_closed(&lz, false, &file);
    lg_write_file(z, &file);
    write_bytes(in_scratch("2026_01_02_03_04_05_4242/notes.jfr"), "hello, not a chunk",
                18);
    /* follow the base directory: the repository under it is found */
    f = follow(scratch, JFR_FOLLOW_FROM_FIRST);
    cr_assert_eq(poll_all(f, &s, &rc), 1, "the old chunk, closed");
    unlink(z);
    for (int k = 0; k < 3; k++)
        write_flush(&la, a, k, f, &s);
    /* rotation: a is closed, b starts */
    write_close(&la, a, false);
    cr_assert_eq(poll_all(f, &s, NULL), 1, "a's close");
    cr_assert_eq(poll_all(f, &s, &rc), 0);
    cr_assert_eq(rc, JFR_AGAIN, "no next chunk yet: waiting");
    for (int k = 0; k < 3; k++) {
        write_flush(&lb, b, k, f, &s);
        if (k == 0)
            unlink(a); /* the retention deletes the oldest file */
    }
    /* pools are per chunk: b's key 4 is b's name, a's was a's */
    cr_assert_str_eq(s.who[s.n - 5 - 3], "b2");
    write_close(&lb, b, true);
    cr_assert_eq(poll_all(f, &s, &rc), 1);
    cr_assert_eq(poll_all(f, &s, &rc), 0);
    cr_assert_eq(rc, JFR_DONE);
    cr_assert_eq(jfr_follow_end_reason(f), JFR_FOLLOW_FINISHED);
    /* 4 + 1 (z: one flush and the close), 3 flushes of 4, 4, 5 and a close,
     * for a and for b */
    cr_assert_eq(s.n, 5 + 2 * (4 + 4 + 5 + 1));
    jfr_follow_free(f);
    jg_buf_free(&file);
    lg_free(&la);
    lg_free(&lb);
    lg_free(&lz);
}

Test(follow, from_now_and_from_the_latest_chunk)
{
    char *dir = in_scratch("repo");
    char a[512], b[512];
    static seen now, latest;
    lg_chunk la, lb;
    jg_buf file = {0};
    jfr_follow *fn, *fl;

    cr_assert_eq(mkdir(dir, 0755), 0);
    snprintf(a, sizeof a, "%s/a.jfr", dir);
    snprintf(b, sizeof b, "%s/b.jfr", dir);
    synthetic_chunk(&la, 2, "a", INT64_C(1700000001000000000));
    synthetic_chunk(&lb, 4, "b", INT64_C(1700000005000000000));
    lg_file_closed(&la, false, &file);
    lg_write_file(a, &file);
    lg_file_at(&lb, 1, 0, &file);
    lg_write_file(b, &file);
    fn = follow(dir, JFR_FOLLOW_FROM_NOW);
    fl = follow(dir, JFR_FOLLOW_FROM_LATEST_CHUNK);
    cr_assert_eq(poll_all(fn, &now, NULL), 0, "from now: nothing yet");
    cr_assert_eq(poll_all(fl, &latest, NULL), 1, "the latest chunk so far");
    cr_assert_eq(latest.n, 8);
    lg_file_at(&lb, 2, 0, &file);
    lg_write_file(b, &file);
    cr_assert_eq(poll_all(fn, &now, NULL), 1);
    cr_assert_eq(poll_all(fl, &latest, NULL), 1);
    cr_assert_eq(now.n, 5);
    cr_assert_eq(now.seq[0], 200);
    cr_assert_str_eq(now.who[1], "b3", "pools of the skipped flushes are there");
    cr_assert_str_eq(now.who[0], "first");
    jfr_follow_free(fn);
    jfr_follow_free(fl);
    jg_buf_free(&file);
    lg_free(&la);
    lg_free(&lb);
}

/* From now, in a repository that is empty when following begins: all that
 * comes is new. */
Test(follow, from_now_in_an_empty_repository)
{
    char *dir = in_scratch("empty");
    char a[512];
    static seen s;
    lg_chunk la;
    jg_buf file = {0};
    jfr_follow *f;

    cr_assert_eq(mkdir(dir, 0755), 0);
    snprintf(a, sizeof a, "%s/a.jfr", dir);
    synthetic_chunk(&la, 2, "a", INT64_C(1700000001000000000));
    f = follow(dir, JFR_FOLLOW_FROM_NOW);
    cr_assert_eq(poll_all(f, &s, NULL), 0);
    lg_file_at(&la, 1, 0, &file);
    lg_write_file(a, &file);
    cr_assert_eq(poll_all(f, &s, NULL), 1);
    cr_assert_eq(s.n, 8, "both flushes' events, %d", s.n);
    jfr_follow_free(f);
    jg_buf_free(&file);
    lg_free(&la);
}

/* ---- how following ends --------------------------------------------------------- */

Test(follow, idle_and_gone)
{
    const char *path = in_scratch("idle.jfr");
    jfr_follow_options o = JFR_FOLLOW_OPTIONS_INIT;
    const jfr_flush *fl;
    static seen s;
    jfr_follow *f;
    jg_buf file = {0};
    lg_chunk lc;
    pid_t child;

    synthetic_chunk(&lc, 2, "n", INT64_C(1700000000000000000));
    lg_file_at(&lc, 0, 0, &file);
    lg_write_file(path, &file);
    /* no change for idle_ms: the end, said so */
    o.idle_ms = 1;
    o.poll_ms = 1;
    cr_assert_eq(jfr_follow_open(&f, path, &o, NULL), JFR_OK);
    cr_assert_eq(jfr_follow_next(&fl, f, -1), JFR_OK);
    cr_assert_eq(jfr_follow_next(&fl, f, -1), JFR_DONE);
    cr_assert_eq(jfr_follow_end_reason(f), JFR_FOLLOW_IDLE);
    cr_assert_str_eq(jfr_follow_end_name(jfr_follow_end_reason(f)), "idle");
    jfr_follow_free(f);
    /* the writing process is gone and the chunk stopped changing */
    child = fork();
    cr_assert_geq(child, 0);
    if (child == 0)
        _exit(0);
    waitpid(child, NULL, 0);
    o.idle_ms = 0;
    o.pid = child;
    cr_assert_eq(jfr_follow_open(&f, path, &o, NULL), JFR_OK);
    cr_assert_eq(poll_all(f, &s, NULL), 1, "what was flushed is read first");
    cr_assert_eq(jfr_follow_poll(&fl, f), JFR_DONE);
    cr_assert_eq(jfr_follow_end_reason(f), JFR_FOLLOW_GONE);
    jfr_follow_free(f);
    /* a timeout without anything new */
    o.pid = 0;
    cr_assert_eq(jfr_follow_open(&f, path, &o, NULL), JFR_OK);
    cr_assert_eq(jfr_follow_next(&fl, f, 0), JFR_OK);
    cr_assert_eq(jfr_follow_next(&fl, f, 5), JFR_AGAIN);
    cr_assert_eq(jfr_follow_end_reason(f), JFR_FOLLOW_RUNNING);
    jfr_follow_free(f);
    jg_buf_free(&file);
    lg_free(&lc);
}

Test(follow, damage_is_reported_and_stepped_over)
{
    char *dir = in_scratch("damaged");
    char a[512], b[512];
    static seen s;
    const jfr_flush *fl;
    lg_chunk la, lb;
    jg_buf file = {0};
    jfr_follow *f;
    int rc;

    cr_assert_eq(mkdir(dir, 0755), 0);
    snprintf(a, sizeof a, "%s/a.jfr", dir);
    snprintf(b, sizeof b, "%s/b.jfr", dir);
    synthetic_chunk(&la, 2, "a", INT64_C(1700000001000000000));
    synthetic_chunk(&lb, 2, "b", INT64_C(1700000005000000000));
    /* a's metadata offset points at an event */
    lg_file_closed(&la, false, &file);
    jg_put_be(file.data + 24, la.cp[0] - 5, 8);
    lg_write_file(a, &file);
    lg_file_closed(&lb, true, &file);
    lg_write_file(b, &file);
    f = follow(dir, JFR_FOLLOW_FROM_FIRST);
    rc = jfr_follow_poll(&fl, f);
    cr_assert_eq(rc, JFR_ECORRUPT, "%s", jfr_strerror(rc));
    cr_assert_str_eq(jfr_follow_error_path(f), a);
    cr_assert_eq(jfr_follow_error(f)->chunk, 0);
    cr_assert_eq(poll_all(f, &s, &rc), 1, "b is read after a");
    cr_assert_eq(rc, JFR_DONE);
    jfr_follow_free(f);
    /* a single file whose header is not one: the end */
    write_bytes(a,
                "FLR\0\0\x09\0\0garbage, not a header at all, not a header at all, "
                "not a header at all, ",
                76);
    f = follow(a, JFR_FOLLOW_FROM_FIRST);
    cr_assert_eq(jfr_follow_poll(&fl, f), JFR_EVERSION);
    cr_assert_eq(jfr_follow_poll(&fl, f), JFR_DONE);
    cr_assert_eq(jfr_follow_end_reason(f), JFR_FOLLOW_DAMAGED);
    jfr_follow_free(f);
    jg_buf_free(&file);
    lg_free(&la);
    lg_free(&lb);
}

Test(follow, arguments_are_checked)
{
    jfr_follow_options o = JFR_FOLLOW_OPTIONS_INIT;
    jfr_follow *f;
    jfr_error err;
    char out[8];

    cr_assert_eq(jfr_follow_open(NULL, scratch, NULL, NULL), JFR_EINVAL);
    cr_assert_eq(jfr_follow_open(&f, in_scratch("none"), NULL, &err), JFR_ENOTFOUND);
    o.version = 99;
    cr_assert_eq(jfr_follow_open(&f, scratch, &o, &err), JFR_EINVAL);
    cr_assert_eq(jfr_follow_poll(NULL, NULL), JFR_EINVAL);
    jfr_follow_free(NULL);
    cr_assert_eq(jfr_follow_find_pid(out, sizeof out, -3, &err), JFR_EINVAL);
}

Test(follow, finding_a_process_repository)
{
    char dir[600], out[600], other[600];
    jfr_error err;
    pid_t child;

    /* our own process, with a repository in $TMPDIR */
    setenv("TMPDIR", scratch, 1);
    snprintf(dir, sizeof dir, "%s/2026_01_02_03_04_05_%d", scratch, (int)getpid());
    snprintf(other, sizeof other, "%s/2026_01_02_03_04_05_%d9", scratch, (int)getpid());
    cr_assert_eq(mkdir(other, 0755), 0); /* another pid's: never taken */
    cr_assert_eq(jfr_follow_find_pid(out, sizeof out, getpid(), &err), JFR_ENOTFOUND);
    cr_assert(strstr(err.message, scratch), "%s", err.message);
    cr_assert_eq(mkdir(dir, 0755), 0);
    cr_assert_eq(jfr_follow_find_pid(out, sizeof out, getpid(), &err), JFR_OK, "%s",
                 err.message);
    cr_assert_str_eq(out, dir);
    cr_assert_eq(jfr_follow_find_pid(out, 10, getpid(), &err), JFR_ELIMIT);
    /* a process that is gone */
    child = fork();
    cr_assert_geq(child, 0);
    if (child == 0)
        _exit(0);
    waitpid(child, NULL, 0);
    cr_assert_eq(jfr_follow_find_pid(out, sizeof out, child, &err), JFR_ENOTFOUND);
    cr_assert(strstr(err.message, "no process"), "%s", err.message);
}

/* ---- real recordings, replayed as their JVM wrote them --------------------------- */

static uint8_t *read_testdata(const char *name, size_t *len)
{
    char path[1024], rel[256];
    uint8_t *buf;
    FILE *fp;
    long n;

    snprintf(rel, sizeof rel, "recordings/%s", name);
    testdata_path(path, sizeof path, rel);
    cr_assert_not_null(fp = fopen(path, "rb"), "%s", path);
    fseek(fp, 0, SEEK_END);
    n = ftell(fp);
    rewind(fp);
    buf = malloc((size_t)n);
    cr_assert_eq(fread(buf, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    *len = (size_t)n;
    return buf;
}

/* What both ways of reading must agree on. */
typedef struct totals {
    uint64_t counts[4096];
    size_t ntypes;
    jfr_profile *profile;
    uint64_t events;
} totals;

static void totals_init(totals *t, const char *kind)
{
    jfr_profile_options po = JFR_PROFILE_OPTIONS_INIT;

    memset(t, 0, sizeof *t);
    po.kind = kind;
    cr_assert_eq(jfr_profile_new(&t->profile, &po, NULL), JFR_OK);
}

/* Counts by type name (type indexes differ between chunks). */
static void add_counts(totals *t, jfr_chunk *c, char names[][96], size_t *nnames)
{
    size_t n = jfr_chunk_type_count(c);
    uint64_t *counts = calloc(n + 1, sizeof *counts),
             *bytes = calloc(n + 1, sizeof *bytes);

    cr_assert_eq(jfr_chunk_count_records(counts, bytes, NULL, c), JFR_OK);
    for (size_t i = 0; i < n; i++) {
        const char *name = jfr_type_name(jfr_chunk_type_at(c, i));
        size_t j;

        if (!counts[i])
            continue;
        for (j = 0; j < *nnames && strcmp(names[j], name) != 0; j++)
            ;
        if (j == *nnames) {
            cr_assert_lt(*nnames, 512);
            snprintf(names[(*nnames)++], 96, "%s", name);
        }
        t->counts[j] += counts[i];
        t->events += counts[i];
    }
    cr_assert_eq(jfr_profile_add_chunk(t->profile, c), JFR_OK);
    free(counts);
    free(bytes);
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The profile's stacks as sorted text lines. */
static char **stack_lines(const jfr_profile *p, size_t *n)
{
    char **lines;

    *n = jfr_profile_stack_count(p);
    lines = calloc(*n + 1, sizeof *lines);
    for (size_t i = 0; i < *n; i++) {
        const uint32_t *frames;
        size_t depth, len = 0;
        uint64_t w;
        char *line = calloc(1, 1);

        cr_assert_eq(jfr_profile_stack(&w, &frames, &depth, p, i), JFR_OK);
        for (size_t k = 0; k < depth; k++) {
            const char *name = jfr_profile_frame_at(p, frames[k])->name;
            line = realloc(line, len + strlen(name) + 2);
            len += (size_t)sprintf(line + len, "%s;", name);
        }
        line = realloc(line, len + 32);
        sprintf(line + len, " %llu", (unsigned long long)w);
        lines[i] = line;
    }
    qsort(lines, *n, sizeof *lines, compare_strings);
    return lines;
}

static void same_profiles(const jfr_profile *a, const jfr_profile *b)
{
    size_t na, nb;
    char **la = stack_lines(a, &na), **lb = stack_lines(b, &nb);

    cr_assert_gt(jfr_profile_samples(a), 0);
    cr_assert_eq(jfr_profile_samples(a), jfr_profile_samples(b));
    cr_assert_eq(jfr_profile_total(a), jfr_profile_total(b));
    cr_assert_eq(na, nb);
    for (size_t i = 0; i < na; i++) {
        cr_assert_str_eq(la[i], lb[i]);
        free(la[i]);
        free(lb[i]);
    }
    free(la);
    free(lb);
}

/* Replay `name`'s chunks as a repository (one file per chunk) or as one
 * file, flush by flush with half of the next flush already written; the
 * oldest file is deleted once the next chunk is being read. */
static void replay(const char *name, const char *kind, bool repository)
{
    static char names_a[512][96], names_b[512][96];
    size_t nnames_a = 0, nnames_b = 0, len, nchunks = 0;
    uint8_t *data = read_testdata(name, &len);
    static totals live, whole;
    jfr_recording *rec;
    jfr_chunk *chunk;
    jfr_follow *f = NULL;
    const jfr_flush *fl;
    jg_buf single = {0}, file = {0};
    char path[600], prev[600] = "";
    uint64_t pos = 0, segments = 0, flushes = 0;
    int rc;

    totals_init(&live, kind);
    totals_init(&whole, kind);
    cr_assert_eq(jfr_recording_open_memory(&rec, data, len, NULL, NULL), JFR_OK);
    while ((rc = jfr_recording_next_chunk(&chunk, rec)) == JFR_OK)
        add_counts(&whole, chunk, names_a, &nnames_a);
    cr_assert_eq(rc, JFR_DONE);
    jfr_recording_free(rec);
    memcpy(names_b, names_a, sizeof names_a);
    nnames_b = nnames_a;
    while (pos < len) {
        lg_chunk lc;
        uint64_t size = 0;

        for (int i = 8; i < 16; i++)
            size = size << 8 | data[pos + (size_t)i];
        lg_layout_bytes(&lc, data + pos, (size_t)size);
        flushes += lc.nflush;
        if (repository)
            snprintf(path, sizeof path, "%s/chunk_%02zu.jfr", scratch, nchunks);
        else
            snprintf(path, sizeof path, "%s/single.jfr", scratch);
        for (size_t k = 0; k < lc.nflush; k++) {
            size_t tail = k + 1 < lc.nflush ? (size_t)(lc.end[k + 1] - lc.end[k]) / 2 : 0;

            lg_file_at(&lc, k, tail, &file);
            if (!repository) {
                single.len = (size_t)(pos);
                jg_bytes(&single, file.data, file.len);
            }
            lg_write_file(path, repository ? &file : &single);
            if (!f)
                f = follow(repository ? scratch : path, JFR_FOLLOW_FROM_FIRST);
            while ((rc = jfr_follow_poll(&fl, f)) == JFR_OK) {
                add_counts(&live, fl->chunk, names_b, &nnames_b);
                segments++;
            }
            cr_assert_eq(rc, JFR_AGAIN, "%s: %s", jfr_strerror(rc),
                         jfr_follow_error(f)->message);
            if (k == 0 && prev[0]) {
                unlink(prev); /* the retention deletes the oldest */
                prev[0] = '\0';
            }
        }
        lg_file_closed(&lc, pos + size == len, &file);
        if (!repository) {
            single.len = (size_t)pos;
            jg_bytes(&single, file.data, file.len);
        }
        lg_write_file(path, repository ? &file : &single);
        while ((rc = jfr_follow_poll(&fl, f)) == JFR_OK) {
            add_counts(&live, fl->chunk, names_b, &nnames_b);
            segments++;
        }
        snprintf(prev, sizeof prev, "%s", path);
        pos += size;
        nchunks++;
        lg_free(&lc);
    }
    cr_assert_eq(rc, JFR_DONE, "%s", jfr_follow_error(f)->message);
    cr_assert_eq(jfr_follow_end_reason(f), JFR_FOLLOW_FINISHED);
    /* a segment per flush and one per close */
    cr_assert_eq(segments, flushes + nchunks, "%s: %llu segments", name,
                 (unsigned long long)segments);
    /* the same events of every type, the same profile */
    cr_assert_eq(live.events, whole.events);
    cr_assert_eq(nnames_a, nnames_b);
    for (size_t i = 0; i < nnames_a; i++)
        cr_assert_eq(live.counts[i], whole.counts[i], "%s", names_a[i]);
    same_profiles(live.profile, whole.profile);
    jfr_profile_free(live.profile);
    jfr_profile_free(whole.profile);
    jfr_follow_free(f);
    jg_buf_free(&file);
    jg_buf_free(&single);
    free(data);
}

Test(follow, jdk25_recording_replayed)
{
    replay("cpu-jdk25.jfr", "cpu", false);
}

Test(follow, jdk17_recording_replayed)
{
    replay("cpu-jdk17.jfr", "exec", false);
}

Test(follow, jdk25_repository_replayed)
{
    replay("multi-jdk25.jfr", "exec", true);
}
