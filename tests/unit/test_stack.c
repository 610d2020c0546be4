/* test_stack.c - stack traces, frames, frame kinds, methods and classes
 * through Symbol pools, threads (libjfr/stack.c, jfr-format.md §10.1). */
#include <stdio.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "jfr_private.h"
#include "jfrgen.h"
#include "unit_util.h"
#include "unit_fixture.h"

enum {
    ID_THREAD = 50,
    ID_SYMBOL,
    ID_CLASS,
    ID_METHOD,
    ID_FRAMETYPE,
    ID_FRAME,
    ID_STACKTRACE,
    ID_EXEC = 60,
    ID_ALLOC,
};

TestSuite(stack, .fini = unit_close);

static const char *const kind_names[] = {"Interpreted", "JIT compiled", "Inlined",
                                         "Native",      "C++",          "Kernel",
                                         "C1 compiled", "Weird"};
static const jfr_frame_kind kinds[] = {
    JFR_FRAME_INTERPRETED, JFR_FRAME_JIT,    JFR_FRAME_INLINED, JFR_FRAME_NATIVE,
    JFR_FRAME_CPP,         JFR_FRAME_KERNEL, JFR_FRAME_C1,      JFR_FRAME_UNKNOWN};

/* The JDK's stack types, named with `prefix` ("jdk.types." or JDK 9/10's
 * "com.oracle.jfr.types."). */
static void declare_types(jg_chunk *c, const char *prefix)
{
    char name[64];
    jg_elem *e;

    jg_primitives(c);
    e = jg_class(c, ID_THREAD, "java.lang.Thread", NULL);
    jg_field(e, "osName", JG_STRING, 0);
    jg_field(e, "osThreadId", JG_LONG, 0);
    jg_field(e, "javaName", JG_STRING, 0);
    jg_field(e, "javaThreadId", JG_LONG, 0);
    jg_field(e, "virtual", JG_BOOLEAN, 0);

    snprintf(name, sizeof name, "%sSymbol", prefix);
    e = jg_class(c, ID_SYMBOL, name, NULL);
    jg_attr(e, "simpleType", "true");
    jg_field(e, "string", JG_STRING, 0);

    e = jg_class(c, ID_CLASS, "java.lang.Class", NULL);
    jg_field(e, "name", ID_SYMBOL, JG_POOL);
    jg_field(e, "modifiers", JG_INT, 0);

    snprintf(name, sizeof name, "%sMethod", prefix);
    e = jg_class(c, ID_METHOD, name, NULL);
    jg_field(e, "type", ID_CLASS, JG_POOL);
    jg_field(e, "name", ID_SYMBOL, JG_POOL);
    jg_field(e, "descriptor", ID_SYMBOL, JG_POOL);
    jg_field(e, "modifiers", JG_INT, 0);
    jg_field(e, "hidden", JG_BOOLEAN, 0);

    snprintf(name, sizeof name, "%sFrameType", prefix);
    e = jg_class(c, ID_FRAMETYPE, name, NULL);
    jg_attr(e, "simpleType", "true");
    jg_field(e, "description", JG_STRING, 0);

    snprintf(name, sizeof name, "%sStackFrame", prefix);
    e = jg_class(c, ID_FRAME, name, NULL);
    jg_field(e, "method", ID_METHOD, JG_POOL);
    jg_field(e, "lineNumber", JG_INT, 0);
    jg_field(e, "bytecodeIndex", JG_INT, 0);
    jg_field(e, "type", ID_FRAMETYPE, JG_POOL);

    snprintf(name, sizeof name, "%sStackTrace", prefix);
    e = jg_class(c, ID_STACKTRACE, name, NULL);
    jg_field(e, "truncated", JG_BOOLEAN, 0);
    jg_field(e, "frames", ID_FRAME, JG_ARRAY);

    e = jg_class(c, ID_EXEC, "jdk.ExecutionSample", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_field(e, "sampledThread", ID_THREAD, JG_POOL);
    jg_field(e, "stackTrace", ID_STACKTRACE, JG_POOL);

    e = jg_class(c, ID_ALLOC, "test.Alloc", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_field(e, "eventThread", ID_THREAD, JG_POOL);
    jg_field(e, "stackTrace", ID_STACKTRACE, JG_POOL);
    jg_field(e, "otherThread", ID_THREAD, JG_POOL);
}

static void frame(jg_buf *b, uint64_t method, int32_t line, int32_t bci, uint64_t type)
{
    jg_key(b, method);
    jg_i32(b, line);
    jg_i32(b, bci);
    jg_key(b, type);
}

static void thread(jg_pool *p, uint64_t key, const char *os, int64_t tid,
                   const char *java, int64_t jtid, bool virt)
{
    jg_buf *b = jg_entry(p, key);

    jg_string(b, os);
    jg_i64(b, tid);
    jg_string(b, java);
    jg_i64(b, jtid);
    jg_u8(b, virt);
}

/* Pools spread over two checkpoints, events before them (forward refs). */
static void fill(jg_chunk *c)
{
    jg_cp *cp1, *cp2;
    jg_pool *p;
    jg_buf *b;
    static const char *const syms[] = {NULL,
                                       "java/util/HashMap",
                                       "get",
                                       "(Ljava/lang/Object;)Ljava/lang/Object;",
                                       "Main",
                                       "main",
                                       "([Ljava/lang/String;)V",
                                       "run"};

    /* events: (thread, stack) = (1, 100), (2, 101), (3, 102), (55, 555) */
    static const uint64_t ev[][2] = {{1, 100}, {2, 101}, {3, 102}, {55, 555}};
    for (size_t i = 0; i < 4; i++) {
        b = jg_event(c, ID_EXEC);
        jg_i64(b, 1000 + (int64_t)i);
        jg_key(b, ev[i][0]);
        jg_key(b, ev[i][1]);
    }
    b = jg_event(c, ID_ALLOC);
    jg_i64(b, 2000);
    jg_key(b, 3);
    jg_key(b, 103);
    jg_key(b, 2);

    cp1 = jg_checkpoint(c);
    p = jg_pool_new(cp1, ID_THREAD);
    thread(p, 1, "main", 1234, "main", 1, false);
    thread(p, 2, "GC Thread#0", 77, NULL, 0, false);
    thread(p, 3, "", 0, "virt", 99, true);
    p = jg_pool_new(cp1, ID_FRAMETYPE);
    for (uint64_t k = 0; k < 8; k++)
        jg_string(jg_entry(p, k), kind_names[k]);

    cp2 = jg_checkpoint(c);
    p = jg_pool_new(cp2, ID_STACKTRACE);
    b = jg_entry(p, 100);
    jg_u8(b, 0);
    jg_count(b, 2);
    frame(b, 20, 42, 7, 1);
    frame(b, 21, -1, -1, 0);
    b = jg_entry(p, 101);
    jg_u8(b, 1);
    jg_count(b, 8);
    for (uint64_t k = 0; k < 8; k++)
        frame(b, 22, (int32_t)k, 0, k);
    b = jg_entry(p, 102);
    jg_u8(b, 0);
    jg_count(b, 1);
    frame(b, 999, 1, 2, 99); /* undefined method and frame type */
    b = jg_entry(p, 103);
    jg_u8(b, 0);
    jg_count(b, 0);

    p = jg_pool_new(cp2, ID_METHOD);
    b = jg_entry(p, 20);
    jg_key(b, 10), jg_key(b, 2), jg_key(b, 3), jg_i32(b, 1), jg_u8(b, 0);
    b = jg_entry(p, 21);
    jg_key(b, 11), jg_key(b, 5), jg_key(b, 6), jg_i32(b, 9), jg_u8(b, 0);
    b = jg_entry(p, 22);
    jg_key(b, 12), jg_key(b, 7), jg_key(b, 6), jg_i32(b, 0x1000), jg_u8(b, 1);

    p = jg_pool_new(cp2, ID_CLASS);
    b = jg_entry(p, 10);
    jg_key(b, 1), jg_i32(b, 1);
    b = jg_entry(p, 11);
    jg_key(b, 4), jg_i32(b, 1);
    b = jg_entry(p, 12);
    jg_key(b, 888), jg_i32(b, 0); /* its name symbol is never written */

    p = jg_pool_new(cp2, ID_SYMBOL);
    for (uint64_t k = 1; k < 8; k++)
        jg_string(jg_entry(p, k), syms[k]);
}

static jfr_chunk *open_chunk(const char *prefix)
{
    jg_chunk *c = jg_chunk_new();
    jfr_chunk *ch;

    declare_types(c, prefix);
    fill(c);
    unit_close();
    jg_chunk_build(c, &bytes);
    jg_chunk_free(c);
    rec = unit_open(&bytes);
    ch = unit_next_chunk(rec);
    cr_assert_eq(jfr_event_iter_new(&iter, ch, NULL, 0, 0), JFR_OK);
    return ch;
}

static const jfr_event *next_event(void)
{
    const jfr_event *ev;

    cr_assert_eq(jfr_event_next(&ev, iter), JFR_OK);
    return ev;
}

Test(stack, resolves_frames_through_symbol_pools)
{
    jfr_chunk *c = open_chunk("jdk.types.");
    const jfr_stacktrace *st;
    jfr_frame f;

    cr_assert_eq(jfr_event_stacktrace(&st, next_event()), JFR_OK);
    cr_assert_eq(jfr_stacktrace_depth(st), 2);
    cr_assert_not(jfr_stacktrace_truncated(st));
    cr_assert_eq(jfr_stacktrace_key(st), 100);

    cr_assert_eq(jfr_stacktrace_frame(&f, st, 0), JFR_OK);
    cr_assert(unit_str_eq(f.class_name, "java/util/HashMap"));
    cr_assert(unit_str_eq(f.method_name, "get"));
    cr_assert(unit_str_eq(f.descriptor, "(Ljava/lang/Object;)Ljava/lang/Object;"));
    cr_assert_eq(f.line, 42);
    cr_assert_eq(f.bci, 7);
    cr_assert_eq(f.modifiers, 1);
    cr_assert_not(f.hidden);
    cr_assert_eq(f.kind, JFR_FRAME_JIT);
    cr_assert(unit_str_eq(f.kind_name, "JIT compiled"));
    cr_assert_eq(f.method_key, 20);

    cr_assert_eq(jfr_stacktrace_frame(&f, st, 1), JFR_OK);
    cr_assert(unit_str_eq(f.class_name, "Main"));
    cr_assert(unit_str_eq(f.method_name, "main"));
    cr_assert_eq(f.line, -1, "int -1 is ff ff ff ff 0f");
    cr_assert_eq(f.bci, -1);
    cr_assert_eq(f.kind, JFR_FRAME_INTERPRETED, "FrameType key 0 is real");

    cr_assert_eq(jfr_stacktrace_frame(&f, st, 2), JFR_ENOTFOUND);
    (void)c;
}

Test(stack, frame_kinds_and_hidden_methods)
{
    const jfr_stacktrace *st;
    jfr_frame f;

    open_chunk("jdk.types.");
    (void)next_event();
    cr_assert_eq(jfr_event_stacktrace(&st, next_event()), JFR_OK);
    cr_assert(jfr_stacktrace_truncated(st));
    cr_assert_eq(jfr_stacktrace_depth(st), 8);
    for (size_t i = 0; i < 8; i++) {
        cr_assert_eq(jfr_stacktrace_frame(&f, st, i), JFR_OK);
        cr_assert_eq(f.kind, kinds[i], "%s", kind_names[i]);
        cr_assert(unit_str_eq(f.kind_name, kind_names[i]));
        cr_assert_eq(f.line, (int32_t)i);
        cr_assert(f.hidden);
        cr_assert_eq(f.modifiers, 0x1000);
        cr_assert(unit_str_eq(f.method_name, "run"));
        cr_assert_null(f.class_name.ptr, "the class's name symbol is missing");
    }
}

Test(stack, undefined_method_and_frame_type)
{
    const jfr_stacktrace *st;
    jfr_frame f;

    open_chunk("jdk.types.");
    (void)next_event();
    (void)next_event();
    cr_assert_eq(jfr_event_stacktrace(&st, next_event()), JFR_OK);
    cr_assert_eq(jfr_stacktrace_frame(&f, st, 0), JFR_OK);
    cr_assert_eq(f.method_key, 999);
    cr_assert_null(f.method_name.ptr);
    cr_assert_null(f.class_name.ptr);
    cr_assert_eq(f.line, 1);
    cr_assert_eq(f.bci, 2);
    cr_assert_eq(f.kind, JFR_FRAME_UNKNOWN);
    cr_assert_null(f.kind_name.ptr);
}

Test(stack, undefined_stack_trace)
{
    jfr_chunk *c = open_chunk("jdk.types.");
    const jfr_stacktrace *st;

    for (int i = 0; i < 3; i++)
        (void)next_event();
    cr_assert_eq(jfr_event_stacktrace(&st, next_event()), JFR_ENOTFOUND);
    cr_assert_null(st);
    cr_assert_eq(jfr_chunk_stacktrace(&st, c, 12345), JFR_ENOTFOUND);
}

Test(stack, empty_stack_trace)
{
    jfr_chunk *c = open_chunk("jdk.types.");
    const jfr_stacktrace *st;

    cr_assert_eq(jfr_chunk_stacktrace(&st, c, 103), JFR_OK);
    cr_assert_eq(jfr_stacktrace_depth(st), 0);
    cr_assert_eq(jfr_stacktrace_frame(&(jfr_frame){0}, st, 0), JFR_ENOTFOUND);
}

Test(stack, stack_traces_are_cached_per_chunk)
{
    jfr_chunk *c = open_chunk("jdk.types.");
    const jfr_stacktrace *a, *b;

    cr_assert_eq(jfr_chunk_stacktrace(&a, c, 100), JFR_OK);
    cr_assert_eq(jfr_event_stacktrace(&b, next_event()), JFR_OK);
    cr_assert_eq(a, b);
    cr_assert_eq(jfr_chunk_stacktrace(&b, c, 101), JFR_OK);
    cr_assert_neq(a, b);
}

Test(stack, jdk9_type_names)
{
    const jfr_stacktrace *st;
    jfr_frame f;

    open_chunk("com.oracle.jfr.types.");
    cr_assert_eq(jfr_event_stacktrace(&st, next_event()), JFR_OK);
    cr_assert_eq(jfr_stacktrace_frame(&f, st, 0), JFR_OK);
    cr_assert(unit_str_eq(f.method_name, "get"));
    cr_assert_eq(f.kind, JFR_FRAME_JIT);
}

Test(stack, threads)
{
    jfr_thread t;
    const jfr_event *ev;

    open_chunk("jdk.types.");
    ev = next_event();
    cr_assert_eq(jfr_event_thread(&t, ev, NULL), JFR_OK, "sampledThread by default");
    cr_assert(unit_str_eq(t.os_name, "main"));
    cr_assert_eq(t.os_thread_id, 1234);
    cr_assert(unit_str_eq(t.java_name, "main"));
    cr_assert_eq(t.java_thread_id, 1);
    cr_assert_not(t.is_virtual);
    cr_assert_eq(t.key, 1);

    ev = next_event();
    cr_assert_eq(jfr_event_thread(&t, ev, "sampledThread"), JFR_OK);
    cr_assert(unit_str_eq(t.os_name, "GC Thread#0"));
    cr_assert_null(t.java_name.ptr, "a VM thread has no Java name");
    cr_assert_eq(t.java_thread_id, 0);

    ev = next_event();
    cr_assert_eq(jfr_event_thread(&t, ev, NULL), JFR_OK);
    cr_assert(t.is_virtual);
    cr_assert_eq(t.java_thread_id, 99);
    cr_assert(unit_str_eq(t.os_name, ""));

    ev = next_event();
    cr_assert_eq(jfr_event_thread(&t, ev, NULL), JFR_ENOTFOUND, "key 55 is dangling");
    cr_assert_eq(jfr_event_thread(&t, ev, "noSuchField"), JFR_ENOTFOUND);
    cr_assert_eq(jfr_event_thread(&t, ev, "stackTrace"), JFR_EINVAL, "not a thread");
    cr_assert_eq(jfr_event_thread(&t, ev, "startTime"), JFR_EINVAL, "not a thread");

    ev = next_event();
    cr_assert_str_eq(jfr_type_name(jfr_event_type(ev)), "test.Alloc");
    cr_assert_eq(jfr_event_thread(&t, ev, NULL), JFR_OK, "eventThread by default");
    cr_assert(unit_str_eq(t.java_name, "virt"));
    cr_assert_eq(jfr_event_thread(&t, ev, "otherThread"), JFR_OK);
    cr_assert(unit_str_eq(t.os_name, "GC Thread#0"));
}

Test(stack, chunk_without_stack_types)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *e;
    jfr_chunk *ch;
    const jfr_stacktrace *st;
    const jfr_event *ev;
    jfr_thread t;

    jg_primitives(c);
    e = jg_class(c, ID_ALLOC, "test.Bare", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_i64(jg_event(c, ID_ALLOC), 1);
    unit_close();
    jg_chunk_build(c, &bytes);
    jg_chunk_free(c);
    rec = unit_open(&bytes);
    ch = unit_next_chunk(rec);
    cr_assert_eq(jfr_chunk_stacktrace(&st, ch, 1), JFR_ENOTFOUND);
    ev = unit_first_event(ch, &iter);
    cr_assert_eq(jfr_event_stacktrace(&st, ev), JFR_ENOTFOUND);
    cr_assert_eq(jfr_event_thread(&t, ev, NULL), JFR_ENOTFOUND);
    cr_assert_eq(jfr_stacktrace_depth(NULL), 0);
    cr_assert_eq(jfr_stacktrace_frame(NULL, NULL, 0), JFR_EINVAL);
}

/* ---- damaged copies of the rich chunk above ------------------------------- */

/* Walk a value tree; returns false on the first error. */
static bool walk_value(const jfr_value *v, int depth)
{
    jfr_cursor cur;
    jfr_value child;
    int rc;

    if (depth > 16 || (v->kind != JFR_VALUE_OBJECT && v->kind != JFR_VALUE_ARRAY))
        return true;
    if (jfr_value_iter(&cur, v) < 0)
        return false;
    while ((rc = jfr_cursor_next(&child, &cur)) == JFR_OK) {
        if (child.kind == JFR_VALUE_STRING)
            cr_assert_eq(child.as.str.ptr[child.as.str.len], '\0');
        if (!walk_value(&child, depth + 1))
            return false;
    }
    return rc == JFR_DONE;
}

/* Read everything a reader could ask for; every status must be a known one. */
static void read_everything(const uint8_t *data, size_t len)
{
    jfr_recording *r = NULL;
    jfr_chunk *c;
    int rc;

    rc = jfr_recording_open_memory(&r, data, len, NULL, NULL);
    cr_assert(rc == JFR_OK || (rc <= JFR_EINVAL && rc >= JFR_ENOTFOUND), "rc %d", rc);
    if (rc < 0)
        return;
    while ((rc = jfr_recording_next_chunk(&c, r)) != JFR_DONE) {
        jfr_event_iter *it;
        const jfr_event *ev;

        cr_assert(rc == JFR_OK || rc < 0);
        if (rc == JFR_ECORRUPT)
            continue; /* the next chunk, if any */
        if (rc < 0)
            break;
        cr_assert_eq(jfr_event_iter_new(&it, c, NULL, 0, JFR_ITER_ALL_RECORDS), JFR_OK);
        while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
            const jfr_stacktrace *st;
            jfr_value v;
            jfr_thread t;
            jfr_frame f;

            cr_assert_leq(jfr_event_offset(ev) + jfr_event_size(ev), len);
            if (jfr_event_value(&v, ev) == JFR_OK)
                (void)walk_value(&v, 0);
            (void)jfr_event_thread(&t, ev, NULL);
            if (jfr_event_stacktrace(&st, ev) == JFR_OK)
                for (size_t i = 0; i < jfr_stacktrace_depth(st); i++)
                    (void)jfr_stacktrace_frame(&f, st, i);
        }
        cr_assert(rc == JFR_DONE || rc == JFR_ECORRUPT, "rc %d", rc);
        jfr_event_iter_free(it);
    }
    jfr_recording_free(r);
}

Test(stack, every_cut_reads_or_fails_cleanly)
{
    jg_chunk *c = jg_chunk_new();

    declare_types(c, "jdk.types.");
    fill(c);
    jg_chunk_build(c, &bytes);
    jg_chunk_free(c);
    for (size_t len = 0; len <= bytes.len; len++) {
        /* an exact-size copy, so reading past `len` is caught by ASan */
        uint8_t *copy = malloc(len ? len : 1);

        memcpy(copy, bytes.data, len);
        read_everything(copy, len);
        free(copy);
    }
}

Test(stack, every_byte_damage_reads_or_fails_cleanly)
{
    static const uint8_t values[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
    jg_chunk *c = jg_chunk_new();

    declare_types(c, "jdk.types.");
    fill(c);
    jg_chunk_build(c, &bytes);
    jg_chunk_free(c);
    for (size_t i = 0; i < bytes.len; i++) {
        uint8_t keep = bytes.data[i];

        for (size_t v = 0; v < sizeof values; v++) {
            bytes.data[i] = values[v];
            read_everything(bytes.data, bytes.len);
        }
        bytes.data[i] = keep;
    }
}

/* jfr_top_frames reads frame 0's method key as jfr_stacktrace_frame does
 * (stack_top.c). */
Test(stack, top_frames_give_frame_zero_method_keys)
{
    static const uint64_t keys[] = {100, 101, 102};
    jfr_chunk *c = open_chunk("jdk.types.");
    jfr_top_frames *tf;
    uint64_t method = 1;

    cr_assert_eq(jfr_top_frames_new(&tf, c), JFR_OK);
    for (size_t i = 0; i < 3; i++) {
        const jfr_stacktrace *st;
        jfr_frame f;
        cr_assert_eq(jfr_chunk_stacktrace(&st, c, keys[i]), JFR_OK);
        cr_assert_eq(jfr_stacktrace_frame(&f, st, 0), JFR_OK);
        cr_assert_eq(jfr_top_frames_method(&method, tf, keys[i]), JFR_OK);
        cr_assert_eq(method, f.method_key, "stack %llu: %llu, not %llu",
                     (unsigned long long)keys[i], (unsigned long long)method,
                     (unsigned long long)f.method_key);
    }
    cr_assert_eq(method, 999, "an undefined method's key is still its key");
    /* an empty stack, an undefined one */
    cr_assert_eq(jfr_top_frames_method(&method, tf, 103), JFR_ENOTFOUND);
    cr_assert_eq(method, 0);
    cr_assert_eq(jfr_top_frames_method(&method, tf, 555), JFR_ENOTFOUND);
    cr_assert_eq(jfr_top_frames_method(NULL, tf, 100), JFR_EINVAL);
    cr_assert_eq(jfr_top_frames_method(&method, NULL, 100), JFR_EINVAL);
    jfr_top_frames_free(tf);
    jfr_top_frames_free(NULL);
    cr_assert_eq(jfr_top_frames_new(&tf, NULL), JFR_EINVAL);
    cr_assert_null(tf);
}
