/* test_writer.c - libjfr's writer (libjfr/writer_*.c, jfr/writer.h): the
 * encodings against the reader, chunks built from declared types and read
 * back, values refused for the wrong field, redaction rules on values
 * written and scrubbed, and outputs that cannot seek. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <unistd.h>

#include "writer_struct.h"
#include "writer_scrub_private.h"

/* ---- encodings ------------------------------------------------------------------ */

Test(writer, varints_read_back_at_every_width)
{
    static const uint64_t values[] = {0,          1,         127,        128,
                                      16383,      16384,     UINT32_MAX, (1ULL << 56) - 1,
                                      1ULL << 56, UINT64_MAX};
    jfrp_alloc al;

    jfrp_alloc_init(&al, NULL);
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        for (unsigned width = jfrw_varint_len(values[i]); width <= 9; width++) {
            jfrw_buf b;
            jfrp_reader r;

            jfrw_buf_init(&b, &al);
            if (width == jfrw_varint_len(values[i]))
                jfrw_varint(&b, values[i]);
            else if (width < 9 && values[i] >= (1ULL << (7 * width)))
                continue; /* does not fit padded to this width */
            else
                jfrw_varint_padded(&b, values[i], width);
            cr_assert_eq(b.len, width, "value %llu width %u",
                         (unsigned long long)values[i], width);
            jfrp_reader_init(&r, b.data, b.len, 0, true);
            cr_assert_eq(jfrp_varint(&r), values[i]);
            cr_assert(!r.err && r.p == r.end);
            jfrw_buf_free(&b);
        }
    }
}

/* A record's size counts its own bytes: around 127 and 16383 one more byte
 * of size makes the record longer than the size said (the framing bug
 * class that a redacted event fell into). */
Test(writer, record_sizes_count_themselves)
{
    jfrp_alloc al;

    jfrp_alloc_init(&al, NULL);
    for (size_t len = 1; len < 20000; len += len < 300 ? 1 : 97) {
        jfrw_buf b;
        jfrp_reader r;
        uint64_t size;

        jfrw_buf_init(&b, &al);
        jfrw_bytes(&b, "xx", 0);
        for (size_t i = 0; i < len; i++)
            jfrw_u8(&b, (uint8_t)i);
        jfrw_record(&b, true, 0);
        jfrp_reader_init(&r, b.data, b.len, 0, true);
        size = jfrp_varint(&r);
        cr_assert_eq(size, b.len, "body %zu: size %llu, record %zu", len,
                     (unsigned long long)size, b.len);
        cr_assert_eq(b.data[b.len - 1], (uint8_t)(len - 1));
        jfrw_buf_free(&b);
    }
}

/* ---- building ----------------------------------------------------------------- */

/* A writer in memory with an event type "t.E" (startTime long, s String,
 * n int, who pooled t.Who) and a pool type "t.Who" (name String). */
typedef struct built {
    jfr_writer *w;
    uint64_t ev, who;
} built;

static built build_types(void)
{
    built b;
    uint64_t lng, in, str;

    cr_assert_eq(jfr_writer_open_memory(&b.w, NULL, NULL), JFR_OK);
    cr_assert_eq(jfr_writer_type_id(&lng, b.w, "long"), JFR_OK);
    cr_assert_eq(jfr_writer_type_id(&in, b.w, "int"), JFR_OK);
    cr_assert_eq(jfr_writer_type_id(&str, b.w, "java.lang.String"), JFR_OK);
    cr_assert_eq(jfr_writer_declare_type(&b.who, b.w, "t.Who", NULL, 0), JFR_OK);
    cr_assert_eq(jfr_writer_declare_field(b.w, b.who, "name", str, 0), JFR_OK);
    cr_assert_eq(jfr_writer_declare_type(&b.ev, b.w, "t.E", "jdk.jfr.Event", 0), JFR_OK);
    cr_assert_eq(jfr_writer_declare_field(b.w, b.ev, "startTime", lng, 0), JFR_OK);
    cr_assert_eq(jfr_writer_declare_field(b.w, b.ev, "s", str, 0), JFR_OK);
    cr_assert_eq(jfr_writer_declare_field(b.w, b.ev, "n", in, 0), JFR_OK);
    cr_assert_eq(jfr_writer_declare_field(b.w, b.ev, "who", b.who, JFR_FIELD_POOLED),
                 JFR_OK);
    return b;
}

static void event(built *b, int64_t t, const char *s, int64_t n, uint64_t who)
{
    cr_assert_eq(jfr_writer_begin_event(b->w, b->ev), JFR_OK);
    cr_assert_eq(jfr_writer_put_int(b->w, t), JFR_OK);
    cr_assert_eq(jfr_writer_put_string(b->w, s, s ? strlen(s) : 0), JFR_OK);
    cr_assert_eq(jfr_writer_put_int(b->w, n), JFR_OK);
    cr_assert_eq(jfr_writer_put_key(b->w, who), JFR_OK);
    cr_assert_eq(jfr_writer_end(b->w), JFR_OK, "%s", jfr_writer_error(b->w)->message);
}

static void entry(built *b, uint64_t key, const char *name)
{
    cr_assert_eq(jfr_writer_begin_entry(b->w, b->who, key), JFR_OK);
    cr_assert_eq(jfr_writer_put_string(b->w, name, strlen(name)), JFR_OK);
    cr_assert_eq(jfr_writer_end(b->w), JFR_OK);
}

/* Read recording bytes back: "n s who.name" per event, in a string. */
static void read_back(const void *data, size_t size, char *out, size_t room,
                      size_t *chunks)
{
    jfr_recording *rec;
    jfr_chunk *c;
    size_t used = 0;
    int rc;

    *chunks = 0;
    out[0] = '\0';
    cr_assert_eq(jfr_recording_open_memory(&rec, data, size, NULL, NULL), JFR_OK);
    while ((rc = jfr_recording_next_chunk(&c, rec)) == JFR_OK) {
        jfr_event_iter *it;
        const jfr_event *ev;

        ++*chunks;
        cr_assert(!jfr_chunk_is_unfinished(c));
        cr_assert_eq(jfr_event_iter_new(&it, c, NULL, 0, 0), JFR_OK);
        while (jfr_event_next(&ev, it) == JFR_OK) {
            jfr_value v, who;
            jfr_str s = {NULL, 0}, name = {NULL, 0};

            cr_assert_eq(jfr_event_value(&v, ev), JFR_OK);
            cr_assert_eq(jfr_value_string_field(&s, &v, "s"), JFR_OK);
            cr_assert_eq(jfr_event_field(&who, ev, "who"), JFR_OK);
            (void)jfr_value_string_field(&name, &who, "name");
            used += (size_t)snprintf(out + used, room - used, "%g %s %s;",
                                     jfr_event_number(ev, "n"), s.ptr ? s.ptr : "null",
                                     name.ptr ? name.ptr : "null");
        }
        cr_assert_null(jfr_chunk_warning(c));
        jfr_event_iter_free(it);
    }
    cr_assert_eq(rc, JFR_DONE);
    jfr_recording_free(rec);
}

Test(writer, built_chunks_read_back)
{
    built b = build_types();
    const void *data;
    size_t size, chunks;
    char got[512];

    for (int c = 0; c < 2; c++) {
        jfr_chunk_spec spec = JFR_CHUNK_SPEC_INIT;
        spec.fixed_ints = c == 1; /* the second chunk: integers fixed width */
        cr_assert_eq(jfr_writer_begin_chunk(b.w, &spec), JFR_OK);
        entry(&b, 5, c ? "bob" : "ann");
        entry(&b, 5, "ignored"); /* a key given again keeps its first value */
        event(&b, 1, "héllo", -7, 5);
        event(&b, 2, NULL, 300 + c, 6); /* a key with no entry: null */
        cr_assert_eq(jfr_writer_end_chunk(b.w, 1000), JFR_OK);
    }
    cr_assert_eq(jfr_writer_close(b.w), JFR_OK);
    cr_assert_eq(jfr_writer_chunk_count(b.w), 2);
    cr_assert_eq(jfr_writer_memory(&data, &size, b.w), JFR_OK);
    cr_assert_eq(size, jfr_writer_size(b.w));
    read_back(data, size, got, sizeof got, &chunks);
    cr_assert_eq(chunks, 2);
    cr_assert_str_eq(got, "-7 héllo ann;300 null null;-7 héllo bob;301 null null;");
    jfr_writer_free(b.w);
}

/* A chunk with fixed-width integers (flags bit 0 clear) is copied in that
 * encoding: the copy reads back the same, its pools rebuilt. */
Test(writer, fixed_width_chunks_are_copied_as_they_are)
{
    built b = build_types();
    jfr_chunk_spec spec = JFR_CHUNK_SPEC_INIT;
    jfr_recording *rec;
    jfr_writer *w;
    jfr_chunk *c;
    const void *data, *copy;
    size_t size, copy_size, chunks;
    char want[256], got[256];
    jfr_write_stats st = {0};

    spec.fixed_ints = true;
    cr_assert_eq(jfr_writer_begin_chunk(b.w, &spec), JFR_OK);
    entry(&b, 1000000, "wide key");
    for (int i = 0; i < 3; i++)
        event(&b, i, "fixed", 70000 + i, 1000000);
    cr_assert_eq(jfr_writer_close(b.w), JFR_OK);
    cr_assert_eq(jfr_writer_memory(&data, &size, b.w), JFR_OK);
    read_back(data, size, want, sizeof want, &chunks);
    cr_assert_eq(jfr_recording_open_memory(&rec, data, size, NULL, NULL), JFR_OK);
    cr_assert_eq(jfr_writer_open_memory(&w, NULL, NULL), JFR_OK);
    cr_assert_eq(jfr_recording_next_chunk(&c, rec), JFR_OK);
    cr_assert_eq(jfr_chunk_header(c)->flags & JFR_CHUNK_FLAG_COMPRESSED_INTS, 0);
    cr_assert_eq(jfr_writer_add_chunk(&st, w, c, NULL), JFR_OK);
    cr_assert_eq(jfr_writer_close(w), JFR_OK);
    cr_assert_eq(st.events_written, 3);
    cr_assert_eq(st.pool_entries_written, 1);
    cr_assert_eq(jfr_writer_memory(&copy, &copy_size, w), JFR_OK);
    read_back(copy, copy_size, got, sizeof got, &chunks);
    cr_assert_str_eq(got, want);
    cr_assert_str_eq(got,
                     "70000 fixed wide key;70001 fixed wide key;70002 fixed wide key;");
    jfr_recording_free(rec);
    jfr_writer_free(w);
    jfr_writer_free(b.w);
}

Test(writer, a_value_of_the_wrong_kind_is_refused_and_named)
{
    built b = build_types();
    const void *data;
    size_t size, chunks;
    char got[256];

    cr_assert_eq(jfr_writer_begin_event(b.w, b.ev), JFR_EINVAL); /* no chunk yet */
    cr_assert_eq(jfr_writer_begin_chunk(b.w, NULL), JFR_OK);
    cr_assert_eq(jfr_writer_begin_event(b.w, b.who), JFR_EINVAL); /* not an event type */
    cr_assert_eq(jfr_writer_begin_event(b.w, b.ev), JFR_OK);
    cr_assert_eq(jfr_writer_put_string(b.w, "x", 1), JFR_EINVAL);
    cr_assert(strstr(jfr_writer_error(b.w)->message, "field startTime of t.E"), "%s",
              jfr_writer_error(b.w)->message);
    cr_assert_eq(jfr_writer_put_int(b.w, 1), JFR_OK);
    cr_assert_eq(jfr_writer_end(b.w), JFR_EINVAL); /* s, n, who missing */
    cr_assert(strstr(jfr_writer_error(b.w)->message, "field s of t.E"));
    cr_assert_eq(jfr_writer_end_chunk(b.w, 0), JFR_EINVAL); /* a value unfinished */
    cr_assert_eq(jfr_writer_cancel(b.w), JFR_OK);           /* nothing of it written */
    event(&b, 3, "kept", 1, 9);
    cr_assert_eq(jfr_writer_close(b.w), JFR_OK);
    cr_assert_eq(jfr_writer_memory(&data, &size, b.w), JFR_OK);
    read_back(data, size, got, sizeof got, &chunks);
    cr_assert_str_eq(got, "1 kept null;");
    jfr_writer_free(b.w);
}

/* ---- scrubbing a written recording -------------------------------------------- */

/* A recording of "jdk.InitialEnvironmentVariable" (key, value) and
 * "jdk.JVMInformation" (jvmArguments) events, as the JDK declares them. */
static void secret_recording(jfr_writer **w, const char *const (*kv)[2], size_t n,
                             const char *args)
{
    uint64_t lng, str, env, jvm;

    cr_assert_eq(jfr_writer_open_memory(w, NULL, NULL), JFR_OK);
    jfr_writer_type_id(&lng, *w, "long");
    jfr_writer_type_id(&str, *w, "java.lang.String");
    jfr_writer_declare_type(&env, *w, "jdk.InitialEnvironmentVariable", "jdk.jfr.Event",
                            0);
    jfr_writer_declare_field(*w, env, "startTime", lng, 0);
    jfr_writer_declare_field(*w, env, "key", str, 0);
    jfr_writer_declare_field(*w, env, "value", str, 0);
    jfr_writer_declare_type(&jvm, *w, "jdk.JVMInformation", "jdk.jfr.Event", 0);
    jfr_writer_declare_field(*w, jvm, "startTime", lng, 0);
    jfr_writer_declare_field(*w, jvm, "jvmArguments", str, 0);
    cr_assert_eq(jfr_writer_begin_chunk(*w, NULL), JFR_OK);
    for (size_t i = 0; i < n; i++) {
        jfr_writer_begin_event(*w, env);
        jfr_writer_put_int(*w, 1);
        jfr_writer_put_string(*w, kv[i][0], strlen(kv[i][0]));
        jfr_writer_put_string(*w, kv[i][1], strlen(kv[i][1]));
        cr_assert_eq(jfr_writer_end(*w), JFR_OK);
    }
    jfr_writer_begin_event(*w, jvm);
    jfr_writer_put_int(*w, 2);
    jfr_writer_put_string(*w, args, strlen(args));
    cr_assert_eq(jfr_writer_end(*w), JFR_OK);
    cr_assert_eq(jfr_writer_close(*w), JFR_OK);
}

/* Scrub `data` with the default redactions into memory; the strings of
 * its events, one per line, into `out`. */
static void redacted_strings(const void *data, size_t size, char *out, size_t room,
                             uint64_t *count)
{
    jfr_recording *rec, *copy;
    jfr_writer *w;
    jfr_scrub *s;
    jfr_chunk *c;
    const void *od;
    size_t os, used = 0;
    jfr_event_iter *it;
    const jfr_event *ev;

    cr_assert_eq(jfr_recording_open_memory(&rec, data, size, NULL, NULL), JFR_OK);
    cr_assert_eq(jfr_writer_open_memory(&w, NULL, NULL), JFR_OK);
    cr_assert_eq(jfr_scrub_new(&s, NULL), JFR_OK);
    cr_assert_eq(jfr_scrub_redact_defaults(s, NULL), JFR_OK);
    while (jfr_recording_next_chunk(&c, rec) == JFR_OK)
        cr_assert_eq(jfr_writer_add_chunk(NULL, w, c, s), JFR_OK);
    cr_assert_eq(jfr_writer_close(w), JFR_OK);
    *count = 0;
    for (size_t i = 0; i < jfr_scrub_redaction_count(s); i++) {
        uint64_t n;
        jfr_scrub_redaction_at(NULL, &n, s, i);
        *count += n;
    }
    cr_assert_eq(jfr_writer_memory(&od, &os, w), JFR_OK);
    cr_assert_eq(jfr_recording_open_memory(&copy, od, os, NULL, NULL), JFR_OK);
    cr_assert_eq(jfr_recording_next_chunk(&c, copy), JFR_OK);
    cr_assert_eq(jfr_event_iter_new(&it, c, NULL, 0, 0), JFR_OK);
    out[0] = '\0';
    while (jfr_event_next(&ev, it) == JFR_OK) {
        jfr_value v, f;
        jfr_cursor cur;

        cr_assert_eq(jfr_event_value(&v, ev), JFR_OK);
        cr_assert_eq(jfr_value_iter(&cur, &v), JFR_OK);
        while (jfr_cursor_next(&f, &cur) == JFR_OK)
            if (f.kind == JFR_VALUE_STRING)
                used += (size_t)snprintf(out + used, room - used, "%s\n", f.as.str.ptr);
    }
    jfr_event_iter_free(it);
    jfr_recording_free(copy);
    jfr_recording_free(rec);
    jfr_scrub_free(s);
    jfr_writer_free(w);
}

Test(writer, default_redactions)
{
    static const char *const kv[][2] = {
        {"DB_PASSWORD", "hunter2"},                      /* the key looks secret */
        {"PATH", "/usr/bin:/bin"},                       /* it does not */
        {"JAVA_TOOL_OPTIONS", "-Dapi.Token=abc -Xmx1g"}, /* arguments in a value */
        {"EMPTY_SECRET", ""},                            /* empty stays empty */
    };
    jfr_writer *w;
    const void *data;
    size_t size;
    uint64_t count;
    char got[1024];

    secret_recording(&w, kv, 4,
                     "-Ddb.password=s3 --api-key=s4 -Xmx1g --token s5 key=s6 "
                     "-XX:+UseG1GC --authz=");
    cr_assert_eq(jfr_writer_memory(&data, &size, w), JFR_OK);
    redacted_strings(data, size, got, sizeof got, &count);
    cr_assert_str_eq(got, "DB_PASSWORD\n[redacted]\n"
                          "PATH\n/usr/bin:/bin\n"
                          "JAVA_TOOL_OPTIONS\n-Dapi.Token=[redacted] -Xmx1g\n"
                          "EMPTY_SECRET\n\n"
                          "-Ddb.password=[redacted] --api-key=[redacted] -Xmx1g --token "
                          "[redacted] key=s6 -XX:+UseG1GC --authz=[redacted]\n");
    cr_assert_eq(count, 3); /* one value each: DB_PASSWORD, JAVA_TOOL_OPTIONS, args */
    jfr_writer_free(w);
}

/* A redacted event whose body crosses the one-byte size (127): its size
 * grows while it is written (a record framed after its body in the same
 * buffer read freed memory). */
Test(writer, redacted_events_of_every_size_read_back)
{
    for (size_t len = 100; len < 200; len += 3) {
        char value[256], args[300];
        static const char *const none[][2] = {{"X", "y"}};
        jfr_writer *w;
        const void *data;
        size_t size;
        uint64_t count;
        char got[1024];

        memset(value, 'v', len);
        value[len] = '\0';
        snprintf(args, sizeof args, "--password=%s tail", value);
        secret_recording(&w, none, 1, args);
        cr_assert_eq(jfr_writer_memory(&data, &size, w), JFR_OK);
        redacted_strings(data, size, got, sizeof got, &count);
        cr_assert_str_eq(got, "X\ny\n--password=[redacted] tail\n", "value of %zu", len);
        jfr_writer_free(w);
    }
}

/* ---- outputs ------------------------------------------------------------------ */

Test(writer, a_pipe_gets_whole_chunks)
{
    built b;
    int fds[2];
    uint8_t buf[4096];
    ssize_t n;
    size_t chunks;
    char got[256];
    uint64_t lng, str, in;

    cr_assert_eq(pipe(fds), 0);
    cr_assert_eq(jfr_writer_open_fd(&b.w, fds[1], NULL, NULL), JFR_OK);
    jfr_writer_type_id(&lng, b.w, "long");
    jfr_writer_type_id(&str, b.w, "java.lang.String");
    jfr_writer_type_id(&in, b.w, "int");
    jfr_writer_declare_type(&b.who, b.w, "t.Who", NULL, 0);
    jfr_writer_declare_field(b.w, b.who, "name", str, 0);
    jfr_writer_declare_type(&b.ev, b.w, "t.E", "jdk.jfr.Event", 0);
    jfr_writer_declare_field(b.w, b.ev, "startTime", lng, 0);
    jfr_writer_declare_field(b.w, b.ev, "s", str, 0);
    jfr_writer_declare_field(b.w, b.ev, "n", in, 0);
    jfr_writer_declare_field(b.w, b.ev, "who", b.who, JFR_FIELD_POOLED);
    cr_assert_eq(jfr_writer_begin_chunk(b.w, NULL), JFR_OK);
    entry(&b, 1, "p");
    event(&b, 1, "piped", 42, 1);
    cr_assert_eq(jfr_writer_close(b.w), JFR_OK); /* ends the chunk: header patched */
    close(fds[1]);
    n = read(fds[0], buf, sizeof buf);
    cr_assert_gt(n, 68);
    cr_assert_eq((uint64_t)n, jfr_writer_size(b.w));
    read_back(buf, (size_t)n, got, sizeof got, &chunks);
    cr_assert_str_eq(got, "42 piped p;");
    close(fds[0]);
    jfr_writer_free(b.w);
}

Test(writer, thread_globs_as_the_jdk_matcher)
{
    cr_assert(jfrw_glob("main", 4, "main", 4));
    cr_assert(jfrw_glob("worker-12", 9, "worker-*", 8));
    cr_assert(jfrw_glob("C2 CompilerThread0", 18, "C?*", 3));
    cr_assert(jfrw_glob("é中x", strlen("é中x"), "??x", 3)); /* '?' is a character */
    cr_assert(jfrw_glob("", 0, "*", 1));
    cr_assert(!jfrw_glob("", 0, "?", 1));
    cr_assert(!jfrw_glob("main", 4, "Main", 4));
    cr_assert(!jfrw_glob("mainx", 5, "main", 4));
    cr_assert(jfrw_glob("aaaaaaaaaaaaaaaaaaaaaaaaaab", 27, "*a*a*a*a*a*b", 12));
    cr_assert(!jfrw_glob("aaaaaaaaaaaaaaaaaaaaaaaaaaa", 27, "*a*a*a*a*a*b", 12));
}
