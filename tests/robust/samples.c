/* samples.c - small synthetic recordings, sound or damaged in one chosen
 * way (see samples.h). Built with tests/helpers/jfrgen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "samples.h"

/* Type ids; jg_primitives() takes 4..12. */
enum {
    T_THREAD = 20,
    T_CLASS,
    T_SYMBOL,
    T_METHOD,
    T_FRAMETYPE,
    T_FRAME,
    T_STACK,
    T_STATE,
    T_OLDOBJ,
    T_REF,
    T_OLDARRAY,
    T_OLDFIELD,
    T_GCROOT,
    T_TIMESTAMP = 40,
    T_TIMESPAN,
    T_LABEL,
    T_UNSIGNED,
    E_EXEC = 50,
    E_ALLOC,
    E_OLD,
    E_ARRAYS,
    E_NEST,
    E_ODD /* three types from here: odd_names */
};

/* Set while a JFR 1.0 (JDK 9/10) recording is made: its types are named
 * com.oracle.jfr.types.X and its events com.oracle.jdk.X. */
static bool jfr10;

/* `name` as the recording being made names it. */
static const char *jfr_name(const char *name)
{
    static char buf[4][128];
    static int next;
    char *out = buf[next++ % 4];

    if (!jfr10)
        return name;
    if (strncmp(name, "jdk.types.", 10) == 0)
        snprintf(out, sizeof buf[0], "com.oracle.jfr.types.%s", name + 10);
    else
        snprintf(out, sizeof buf[0], "com.oracle.%s", name);
    return out;
}

static void annotation_types(jg_chunk *c)
{
    jg_field(
        jg_class(c, T_TIMESTAMP, "jdk.jfr.Timestamp", "java.lang.annotation.Annotation"),
        "value", JG_STRING, 0);
    jg_field(
        jg_class(c, T_TIMESPAN, "jdk.jfr.Timespan", "java.lang.annotation.Annotation"),
        "value", JG_STRING, 0);
    jg_field(jg_class(c, T_LABEL, "jdk.jfr.Label", "java.lang.annotation.Annotation"),
             "value", JG_STRING, 0);
    jg_class(c, T_UNSIGNED, "jdk.jfr.Unsigned", "java.lang.annotation.Annotation");
}

/* Threads, classes, methods and stack traces, declared as the JDK does. */
static void stack_types(jg_chunk *c)
{
    jg_elem *e;

    e = jg_class(c, T_THREAD, "java.lang.Thread", NULL);
    jg_field(e, "osName", JG_STRING, 0);
    jg_field(e, "osThreadId", JG_LONG, 0);
    jg_field(e, "javaName", JG_STRING, 0);
    jg_field(e, "javaThreadId", JG_LONG, 0);
    jg_field(e, "virtual", JG_BOOLEAN, 0);
    e = jg_class(c, T_SYMBOL, jfr_name("jdk.types.Symbol"), NULL);
    jg_attr(e, "simpleType", "true");
    jg_field(e, "string", JG_STRING, 0);
    e = jg_class(c, T_CLASS, "java.lang.Class", NULL);
    jg_field(e, "name", T_SYMBOL, JG_POOL);
    jg_field(e, "modifiers", JG_INT, 0);
    e = jg_class(c, T_METHOD, jfr_name("jdk.types.Method"), NULL);
    jg_field(e, "type", T_CLASS, JG_POOL);
    jg_field(e, "name", T_SYMBOL, JG_POOL);
    jg_field(e, "descriptor", T_SYMBOL, JG_POOL);
    jg_field(e, "modifiers", JG_INT, 0);
    jg_field(e, "hidden", JG_BOOLEAN, 0);
    e = jg_class(c, T_FRAMETYPE, jfr_name("jdk.types.FrameType"), NULL);
    jg_attr(e, "simpleType", "true");
    jg_field(e, "description", JG_STRING, 0);
    e = jg_class(c, T_FRAME, jfr_name("jdk.types.StackFrame"), NULL);
    jg_field(e, "method", T_METHOD, JG_POOL);
    jg_field(e, "lineNumber", JG_INT, 0);
    jg_field(e, "bytecodeIndex", JG_INT, 0);
    jg_field(e, "type", T_FRAMETYPE, JG_POOL);
    e = jg_class(c, T_STACK, jfr_name("jdk.types.StackTrace"), NULL);
    jg_field(e, "truncated", JG_BOOLEAN, 0);
    jg_field(e, "frames", T_FRAME, JG_ARRAY);
    e = jg_class(c, T_STATE, jfr_name("jdk.types.ThreadState"), NULL);
    jg_attr(e, "simpleType", "true");
    jg_field(e, "name", JG_STRING, 0);
}

static void event_head(jg_elem *e, bool duration)
{
    jg_annotate(jg_field(e, "startTime", JG_LONG, 0), T_TIMESTAMP, "TICKS");
    if (duration)
        jg_annotate(jg_field(e, "duration", JG_LONG, 0), T_TIMESPAN, "TICKS");
}

static void sample_types(jg_chunk *c)
{
    jg_elem *e = jg_class(c, E_EXEC, jfr_name("jdk.ExecutionSample"), "jdk.jfr.Event");

    jg_annotate(e, T_LABEL, "Method Profiling Sample");
    event_head(e, false);
    jg_field(e, "sampledThread", T_THREAD, JG_POOL);
    jg_field(e, "stackTrace", T_STACK, JG_POOL);
    jg_field(e, "state", T_STATE, JG_POOL);
    e = jg_class(c, E_ALLOC, jfr_name("jdk.ObjectAllocationSample"), "jdk.jfr.Event");
    event_head(e, false);
    jg_field(e, "eventThread", T_THREAD, JG_POOL);
    jg_field(e, "stackTrace", T_STACK, JG_POOL);
    jg_field(e, "objectClass", T_CLASS, JG_POOL);
    jg_annotate(jg_field(e, "weight", JG_LONG, 0), T_UNSIGNED, NULL);
}

static void leak_types(jg_chunk *c)
{
    jg_elem *e = jg_class(c, T_OLDOBJ, "jdk.types.OldObject", NULL);

    jg_annotate(jg_field(e, "address", JG_LONG, 0), T_UNSIGNED, NULL);
    jg_field(e, "type", T_CLASS, JG_POOL);
    jg_field(e, "description", JG_STRING, 0);
    jg_field(e, "referrer", T_REF, JG_POOL);
    e = jg_class(c, T_REF, "jdk.types.Reference", NULL);
    jg_field(e, "array", T_OLDARRAY, JG_POOL);
    jg_field(e, "field", T_OLDFIELD, JG_POOL);
    jg_field(e, "object", T_OLDOBJ, JG_POOL);
    jg_field(e, "skip", JG_INT, 0);
    e = jg_class(c, T_OLDARRAY, "jdk.types.OldObjectArray", NULL);
    jg_field(e, "size", JG_INT, 0);
    jg_field(e, "index", JG_INT, 0);
    e = jg_class(c, T_OLDFIELD, "jdk.types.OldObjectField", NULL);
    jg_field(e, "name", JG_STRING, 0);
    jg_field(e, "modifiers", JG_SHORT, 0);
    e = jg_class(c, T_GCROOT, "jdk.types.OldObjectGcRoot", NULL);
    jg_field(e, "description", JG_STRING, 0);
    jg_field(e, "system", JG_STRING, 0);
    jg_field(e, "type", JG_STRING, 0);
    e = jg_class(c, E_OLD, "jdk.OldObjectSample", "jdk.jfr.Event");
    event_head(e, true);
    jg_field(e, "eventThread", T_THREAD, JG_POOL);
    jg_field(e, "stackTrace", T_STACK, JG_POOL);
    jg_annotate(jg_field(e, "allocationTime", JG_LONG, 0), T_TIMESTAMP, "TICKS");
    jg_field(e, "objectSize", JG_LONG, 0);
    jg_annotate(jg_field(e, "objectAge", JG_LONG, 0), T_TIMESPAN, "TICKS");
    jg_field(e, "lastKnownHeapUsage", JG_LONG, 0);
    jg_field(e, "object", T_OLDOBJ, JG_POOL);
    jg_field(e, "arrayElements", JG_INT, 0);
    jg_field(e, "root", T_GCROOT, JG_POOL);
}

static jg_chunk *base_chunk(void)
{
    jg_chunk *c = jg_chunk_new();

    c->h.start_nanos = INT64_C(1795000000000000000);
    c->h.duration_nanos = 1000000000;
    c->h.start_ticks = 1000;
    jg_primitives(c);
    annotation_types(c);
    stack_types(c);
    sample_types(c);
    jg_region(c, "0");
    return c;
}

static void symbol(jg_pool *p, uint64_t key, const char *s)
{
    jg_string(jg_entry(p, key), s);
}

/* Pools for two threads, three methods and three stack traces (keys 1..3;
 * stack 3 is empty, key 9 names a frame whose method is undefined). */
static void stack_pools(jg_chunk *c)
{
    jg_cp *cp = jg_checkpoint(c);
    jg_pool *p;
    jg_buf *b;

    p = jg_pool_new(cp, T_THREAD);
    b = jg_entry(p, 1);
    jg_string(b, "main"), jg_i64(b, 100), jg_string(b, "main"), jg_i64(b, 1), jg_u8(b, 0);
    b = jg_entry(p, 2);
    jg_string(b, "GC Thread#0"), jg_i64(b, 101), jg_str_null(b), jg_i64(b, 0),
        jg_u8(b, 0);
    p = jg_pool_new(cp, T_SYMBOL);
    symbol(p, 1, "app/Main"), symbol(p, 2, "main"),
        symbol(p, 3, "([Ljava/lang/String;)V");
    symbol(p, 4, "work"), symbol(p, 5, "()V"), symbol(p, 6, "java/util/HashMap"),
        symbol(p, 7, "put");
    p = jg_pool_new(cp, T_CLASS);
    b = jg_entry(p, 1), jg_key(b, 1), jg_i32(b, 1);
    b = jg_entry(p, 2), jg_key(b, 6), jg_i32(b, 1);
    p = jg_pool_new(cp, T_METHOD);
    b = jg_entry(p, 1), jg_key(b, 1), jg_key(b, 2), jg_key(b, 3), jg_i32(b, 9),
    jg_u8(b, 0);
    b = jg_entry(p, 2), jg_key(b, 1), jg_key(b, 4), jg_key(b, 5), jg_i32(b, 2),
    jg_u8(b, 0);
    b = jg_entry(p, 3), jg_key(b, 2), jg_key(b, 7), jg_key(b, 5), jg_i32(b, 1),
    jg_u8(b, 1);
    p = jg_pool_new(cp, T_FRAMETYPE);
    jg_string(jg_entry(p, 0), "Interpreted"), jg_string(jg_entry(p, 1), "JIT compiled");
    jg_string(jg_entry(p, 2), "Inlined");
    p = jg_pool_new(cp, T_STATE);
    jg_string(jg_entry(p, 0), "STATE_RUNNABLE");
    p = jg_pool_new(cp, T_STACK);
    b = jg_entry(p, 1), jg_u8(b, 0), jg_count(b, 2);
    jg_key(b, 2), jg_i32(b, 12), jg_i32(b, 4), jg_key(b, 1);
    jg_key(b, 1), jg_i32(b, 3), jg_i32(b, 0), jg_key(b, 0);
    b = jg_entry(p, 2), jg_u8(b, 1), jg_count(b, 3);
    jg_key(b, 3), jg_i32(b, 500), jg_i32(b, 17), jg_key(b, 2);
    jg_key(b, 2), jg_i32(b, 13), jg_i32(b, 9), jg_key(b, 1);
    jg_key(b, 9), jg_i32(b, -1), jg_i32(b, -1), jg_key(b, 7);
    b = jg_entry(p, 3), jg_u8(b, 0), jg_count(b, 0);
}

static void exec_sample(jg_chunk *c, int64_t t, uint64_t thread, uint64_t stack)
{
    jg_buf *e = jg_event(c, E_EXEC);
    jg_i64(e, t), jg_key(e, thread), jg_key(e, stack), jg_key(e, 0);
}

static jg_chunk *mini(void)
{
    jg_chunk *c = base_chunk();
    jg_buf *e;

    stack_pools(c);
    exec_sample(c, 1100, 1, 1);
    exec_sample(c, 1200, 1, 2);
    exec_sample(c, 1300, 2, 2);
    exec_sample(c, 1400, 1, 3);
    exec_sample(c, 1500, 7, 8); /* undefined thread and stack */
    e = jg_event(c, E_ALLOC);
    jg_i64(e, 1600), jg_key(e, 1), jg_key(e, 2), jg_key(e, 2), jg_i64(e, 4096);
    return c;
}

static void state_sample(jg_chunk *c, int64_t t, uint64_t thread, uint64_t stack,
                         uint64_t state)
{
    jg_buf *e = jg_event(c, E_EXEC);
    jg_i64(e, t), jg_key(e, thread), jg_key(e, stack), jg_key(e, state);
}

/* async-profiler 2's CPU and wall-clock samples in one chunk, told apart
 * by state: 2 CPU samples (STATE_DEFAULT), 1 running (STATE_RUNNABLE) and
 * 300 sleeping (STATE_SLEEPING) wall-clock samples. */
static jg_chunk *async_states(void)
{
    jg_chunk *c = base_chunk();
    jg_pool *p;

    stack_pools(c);
    p = jg_pool_new(jg_checkpoint(c), T_STATE);
    jg_string(jg_entry(p, 1), "STATE_DEFAULT");
    jg_string(jg_entry(p, 2), "STATE_SLEEPING");
    state_sample(c, 1100, 1, 1, 1);
    state_sample(c, 1200, 1, 2, 1);
    state_sample(c, 1300, 1, 2, 0);
    for (int i = 0; i < 300; i++)
        state_sample(c, 1400 + i, 2, 1, 2);
    return c;
}

/* Objects 1 <- 2 <- 3 (3 is the root-most); with `cycle`, 1's referrer
 * points back at 3's holder, so following referrers never ends. */
static jg_chunk *leak(bool cycle)
{
    jg_chunk *c = base_chunk();
    jg_cp *cp;
    jg_pool *p;
    jg_buf *b;

    leak_types(c);
    stack_pools(c);
    cp = jg_checkpoint(c);
    p = jg_pool_new(cp, T_OLDOBJ);
    b = jg_entry(p, 1), jg_i64(b, 0x1000), jg_key(b, 2), jg_string(b, "leaf"),
    jg_key(b, 1);
    b = jg_entry(p, 2), jg_i64(b, 0x2000), jg_key(b, 2), jg_str_null(b), jg_key(b, 2);
    b = jg_entry(p, 3), jg_i64(b, 0x3000), jg_key(b, 1), jg_string(b, "root"),
    jg_key(b, cycle ? 3 : 0);
    p = jg_pool_new(cp, T_REF);
    b = jg_entry(p, 1), jg_key(b, 1), jg_key(b, 0), jg_key(b, 2), jg_i32(b, 0);
    b = jg_entry(p, 2), jg_key(b, 0), jg_key(b, 1), jg_key(b, 3), jg_i32(b, 2);
    b = jg_entry(p, 3), jg_key(b, 0), jg_key(b, 1), jg_key(b, 1), jg_i32(b, 0);
    p = jg_pool_new(cp, T_OLDARRAY);
    b = jg_entry(p, 1), jg_i32(b, 10), jg_i32(b, 3);
    p = jg_pool_new(cp, T_OLDFIELD);
    b = jg_entry(p, 1), jg_string(b, "table"), jg_i16(b, 2);
    p = jg_pool_new(cp, T_GCROOT);
    b = jg_entry(p, 1), jg_string(b, "static field"), jg_string(b, "Class"),
    jg_string(b, "Unknown");
    for (int i = 0; i < 2; i++) {
        b = jg_event(c, E_OLD);
        jg_i64(b, 1500 + i), jg_i64(b, 10), jg_key(b, 1), jg_key(b, 2);
        jg_i64(b, 1100), jg_i64(b, 64), jg_i64(b, 400), jg_i64(b, 1 << 20);
        jg_key(b, 1), jg_i32(b, i ? -1 : 10), jg_key(b, 1);
    }
    return c;
}

/* An event with two int arrays and a string whose lengths are absurd. */
static jg_chunk *absurd(int which)
{
    jg_chunk *c = base_chunk();
    jg_elem *e = jg_class(c, E_ARRAYS, "test.Arrays", "jdk.jfr.Event");
    jg_buf *b;

    event_head(e, false);
    jg_field(e, "ints", JG_INT, JG_ARRAY);
    jg_field(e, "text", JG_STRING, 0);
    b = jg_event(c, E_ARRAYS);
    jg_i64(b, 1100);
    switch (which) {
    case 0: /* 2^31 elements */
        jg_count(b, UINT64_C(1) << 31), jg_i32(b, 1), jg_i32(b, 2);
        jg_string(b, "x");
        break;
    case 1: /* a negative int as the length */
        jg_varint(b, UINT64_C(0xffffffffffffffff)), jg_i32(b, 1), jg_string(b, "x");
        break;
    default: /* a UTF-8 string of 2^60 bytes */
        jg_count(b, 1), jg_i32(b, 1);
        jg_u8(b, 3), jg_varint(b, UINT64_C(1) << 60), jg_bytes(b, "abc", 3);
        break;
    }
    return c;
}

/* Types each holding the next inline, `levels` deep, and an event of the
 * outermost; or (levels 0) a type that holds itself inline. */
static jg_chunk *nesting(int levels)
{
    jg_chunk *c = base_chunk();
    jg_elem *e = jg_class(c, E_NEST, "test.Nest", "jdk.jfr.Event");
    jg_buf *b;
    char name[32];

    event_head(e, false);
    jg_field(e, "inner", levels ? 100 : E_NEST, 0);
    for (int i = 0; i < levels; i++) {
        snprintf(name, sizeof name, "test.Level%d", i);
        e = jg_class(c, 100 + (uint64_t)i, name, NULL);
        jg_field(e, "v", JG_INT, 0);
        if (i + 1 < levels)
            jg_field(e, "inner", 101 + (uint64_t)i, 0);
    }
    b = jg_event(c, E_NEST);
    jg_i64(b, 1100);
    for (int i = 0; i < levels; i++)
        jg_i32(b, i);
    return c;
}

/* Names that SQL reads without regard to case (jfrtool sql): types
 * "test.Odd", "test.odd" and "other.Odd" (one short name), each with fields
 * "value" and "Value", a field called "chunk" and one with a quote. */
static jg_chunk *odd_names(void)
{
    static const char *const types[] = {"test.Odd", "test.odd", "other.Odd"};
    jg_chunk *c = base_chunk();

    for (int i = 0; i < 3; i++) {
        jg_elem *e = jg_class(c, E_ODD + (uint64_t)i, types[i], "jdk.jfr.Event");
        event_head(e, false);
        jg_field(e, "value", JG_INT, 0);
        jg_field(e, "Value", JG_LONG, 0);
        jg_field(e, "chunk", JG_INT, 0);
        jg_field(e, "a\"b", JG_STRING, 0);
    }
    for (int i = 0; i < 3; i++) {
        jg_buf *b = jg_event(c, E_ODD + (uint64_t)i);
        jg_i64(b, 1100 + i), jg_i32(b, i), jg_i64(b, 10 + i), jg_i32(b, 7);
        jg_string(b, "x");
    }
    return c;
}

/* Metadata elements nested `levels` deep under the type list. */
static jg_chunk *deep_metadata(int levels)
{
    jg_chunk *c = mini();
    jg_elem *e = c->metadata;

    for (int i = 0; i < levels; i++)
        e = jg_elem_add(e, "x");
    return c;
}

/* A pool whose entry count claims 2^31 entries. */
static jg_chunk *huge_pool(void)
{
    jg_chunk *c = mini();
    jg_pool *p = jg_pool_new(jg_checkpoint(c), T_SYMBOL);

    symbol(p, 100, "a");
    /* jfrgen counts entries itself; patch through a raw checkpoint instead */
    jg_buf *raw = jg_raw(c);
    jg_buf cp = {0};
    jg_int(&cp, 1, 8);                                 /* type id: checkpoint */
    jg_i64(&cp, 1000), jg_i64(&cp, 0), jg_i64(&cp, 0); /* start, duration, delta */
    jg_u8(&cp, 0);                                     /* flags */
    jg_count(&cp, 1);                                  /* one pool */
    jg_int(&cp, T_SYMBOL, 8);
    jg_count(&cp, UINT64_C(1) << 31);
    jg_key(&cp, 200), jg_string(&cp, "b");
    jg_varint_padded(raw, cp.len + 4, 4); /* record size, itself included */
    jg_bytes(raw, cp.data, cp.len);
    jg_buf_free(&cp);
    return c;
}

/* A zero-size record between two events (async-profiler#1584). */
static jg_chunk *zero_size(void)
{
    jg_chunk *c = mini();
    jg_u8(jg_raw(c), 0);
    exec_sample(c, 1700, 1, 1);
    return c;
}

/* mini, plus stack trace 10 of `depth` frames cycling through the three
 * methods (root first: app.Main.main, then work, HashMap.put, ...), taken
 * by two execution samples and an allocation: a tree `depth` levels deep
 * for every command that walks frames. */
static jg_chunk *deep_stack(int depth)
{
    jg_chunk *c = mini();
    jg_pool *p = jg_pool_new(jg_checkpoint(c), T_STACK);
    jg_buf *b = jg_entry(p, 10), *e;

    jg_u8(b, 0), jg_count(b, (uint64_t)depth);
    for (int i = 0; i < depth; i++) /* leaf first, as the JVM writes them */
        jg_key(b, 3 - (uint64_t)((depth - 1 - i) % 3)), jg_i32(b, i % 1000), jg_i32(b, 0),
            jg_key(b, 1);
    exec_sample(c, 1700, 1, 10);
    exec_sample(c, 1800, 2, 10);
    e = jg_event(c, E_ALLOC);
    jg_i64(e, 1900), jg_key(e, 1), jg_key(e, 10), jg_key(e, 2), jg_i64(e, 64);
    return c;
}

/* mini, plus `n` stack traces (keys 100 on) of 11 frames, each frame one
 * of the three methods by a base-3 digit of the stack's number, and an
 * execution sample on each: with 70,000 stacks a flame tree of over
 * 100,000 nodes and a profile of more stacks than the sort shares out,
 * for the writers that take a second thread (two-threads.py). */
static jg_chunk *many_stacks(int n)
{
    jg_chunk *c = mini();
    jg_pool *p = jg_pool_new(jg_checkpoint(c), T_STACK);

    for (int s = 0; s < n; s++) {
        jg_buf *b = jg_entry(p, 100 + (uint64_t)s);
        int digits = s;

        jg_u8(b, 0), jg_count(b, 11);
        for (int i = 0; i < 11; i++, digits /= 3) /* leaf first: the last digit */
            jg_key(b, 1 + (uint64_t)(digits % 3)), jg_i32(b, i), jg_i32(b, 0),
                jg_key(b, 1);
    }
    for (int s = 0; s < n; s++)
        exec_sample(c, 2000 + s, 1 + s % 2, 100 + (uint64_t)s);
    return c;
}

/* mini, plus 2^`levels` stack traces (keys 100 on) of `levels` frames,
 * all the one method at one line, frame i interpreted or JIT-compiled by
 * bit i of the stack's number, and an execution sample on each: every
 * box of the flame graph merges two kinds of equal weight, a tie at each
 * depth over every stack (kind-ties.py). */
static jg_chunk *kind_ties(int levels)
{
    jg_chunk *c = mini();
    jg_pool *p = jg_pool_new(jg_checkpoint(c), T_STACK);
    int n = 1 << levels;

    for (int s = 0; s < n; s++) {
        jg_buf *b = jg_entry(p, 100 + (uint64_t)s);

        jg_u8(b, 0), jg_count(b, (uint64_t)levels);
        for (int i = levels - 1; i >= 0; i--) /* leaf first: the last bit */
            jg_key(b, 2), jg_i32(b, 7), jg_i32(b, 0), jg_key(b, (uint64_t)(s >> i & 1));
    }
    for (int s = 0; s < n; s++)
        exec_sample(c, 2000 + s, 1, 100 + (uint64_t)s);
    return c;
}

/* mini, plus frames of every length the JDK's layout takes: a method key
 * of nine varint bytes whose last has its top bit set (a ninth byte is
 * whole, not a continuation), one of eight bytes with a line and a
 * bytecode index of -1 (five bytes each: a frame of 19 bytes), and stacks
 * that repeat frames, within a stack and across stacks, in other orders,
 * for the profiles' reading of frames by their bytes
 * (tests/profile/check-frame-bytes.py). */
static jg_chunk *frame_bytes(void)
{
    const uint64_t nine = 0x8000000000000005u, eight = 0x00ffffffffffffffu;
    jg_chunk *c = mini();
    jg_cp *cp = jg_checkpoint(c);
    jg_pool *p = jg_pool_new(cp, T_SYMBOL);
    jg_buf *b;

    symbol(p, 20, "nineBytes"), symbol(p, 21, "longFrame"), symbol(p, 22, "repeated");
    p = jg_pool_new(cp, T_METHOD);
    b = jg_entry(p, nine), jg_key(b, 1), jg_key(b, 20), jg_key(b, 5), jg_i32(b, 2),
    jg_u8(b, 0);
    b = jg_entry(p, eight), jg_key(b, 1), jg_key(b, 21), jg_key(b, 5), jg_i32(b, 2),
    jg_u8(b, 0);
    b = jg_entry(p, 22), jg_key(b, 1), jg_key(b, 22), jg_key(b, 5), jg_i32(b, 2),
    jg_u8(b, 0);
    p = jg_pool_new(cp, T_STACK);
    /* leaf first: nineBytes:7, work:3, main:9 */
    b = jg_entry(p, 20), jg_u8(b, 0), jg_count(b, 3);
    jg_key(b, nine), jg_i32(b, 7), jg_i32(b, 1), jg_key(b, 1);
    jg_key(b, 2), jg_i32(b, 3), jg_i32(b, 2), jg_key(b, 0);
    jg_key(b, 1), jg_i32(b, 9), jg_i32(b, 0), jg_key(b, 0);
    /* longFrame (line and index -1), then the frames of stack 20 */
    b = jg_entry(p, 21), jg_u8(b, 0), jg_count(b, 4);
    jg_key(b, eight), jg_i32(b, -1), jg_i32(b, -1), jg_key(b, 1);
    jg_key(b, nine), jg_i32(b, 7), jg_i32(b, 1), jg_key(b, 1);
    jg_key(b, 2), jg_i32(b, 3), jg_i32(b, 2), jg_key(b, 0);
    jg_key(b, 1), jg_i32(b, 9), jg_i32(b, 0), jg_key(b, 0);
    /* repeated:5 and work:3 by turns, new frames met twice in one stack,
     * then longFrame and main:9 */
    b = jg_entry(p, 22), jg_u8(b, 0), jg_count(b, 10);
    for (int i = 0; i < 8; i++)
        if (i % 2)
            jg_key(b, 2), jg_i32(b, 3), jg_i32(b, 2), jg_key(b, 0);
        else
            jg_key(b, 22), jg_i32(b, 5 + i / 4), jg_i32(b, 4), jg_key(b, 2);
    jg_key(b, eight), jg_i32(b, -1), jg_i32(b, -1), jg_key(b, 1);
    jg_key(b, 1), jg_i32(b, 9), jg_i32(b, 0), jg_key(b, 0);
    /* the frames met so far, in another order */
    b = jg_entry(p, 23), jg_u8(b, 0), jg_count(b, 4);
    jg_key(b, 2), jg_i32(b, 3), jg_i32(b, 2), jg_key(b, 0);
    jg_key(b, 22), jg_i32(b, 6), jg_i32(b, 4), jg_key(b, 2);
    jg_key(b, nine), jg_i32(b, 7), jg_i32(b, 1), jg_key(b, 1);
    jg_key(b, 1), jg_i32(b, 9), jg_i32(b, 0), jg_key(b, 0);
    for (uint64_t s = 20; s <= 23; s++)
        for (int64_t i = 0; i < (int64_t)s - 19; i++)
            exec_sample(c, 2000 + 100 * (int64_t)s + i, 1, s);
    return c;
}

static jg_chunk *r_frame_bytes(int a)
{
    (void)a;
    return frame_bytes();
}

/* mini as JDK 9 writes it: version 1.0, com.oracle names */
static jg_chunk *r_mini_jfr10(int a)
{
    jg_chunk *c;

    (void)a;
    jfr10 = true;
    c = mini();
    jfr10 = false;
    c->h.major = 1;
    c->h.minor = 0;
    return c;
}

static jg_chunk *r_many_stacks(int a)
{
    return many_stacks(a);
}

static jg_chunk *r_kind_ties(int a)
{
    return kind_ties(a);
}

static jg_chunk *r_mini(int a)
{
    (void)a;
    return mini();
}
static jg_chunk *r_leak(int a)
{
    return leak(a != 0);
}
static jg_chunk *r_absurd(int a)
{
    return absurd(a);
}
static jg_chunk *r_nesting(int a)
{
    return nesting(a);
}
static jg_chunk *r_deep_meta(int a)
{
    return deep_metadata(a);
}
static jg_chunk *r_huge_pool(int a)
{
    (void)a;
    return huge_pool();
}
static jg_chunk *r_zero(int a)
{
    (void)a;
    return zero_size();
}
static jg_chunk *r_deep_stack(int a)
{
    return deep_stack(a);
}

static jg_chunk *r_async_states(int a)
{
    (void)a;
    return async_states();
}

static jg_chunk *r_odd_names(int a)
{
    (void)a;
    return odd_names();
}

static const struct recipe {
    const char *name;
    jg_chunk *(*make)(int arg);
    int arg;
    int chunks;
} recipes[] = {
    {"mini", r_mini, 0, 1},
    {"mini-2chunks", r_mini, 0, 2},
    {"mini-jfr10", r_mini_jfr10, 0, 1},
    {"leak", r_leak, 0, 1},
    {"leak-cycle", r_leak, 1, 1},
    {"array-2e31", r_absurd, 0, 1},
    {"array-negative", r_absurd, 1, 1},
    {"string-2e60", r_absurd, 2, 1},
    {"nest-inline-cycle", r_nesting, 0, 1},
    {"nest-deep-types", r_nesting, 200, 1},
    {"nest-deep-metadata", r_deep_meta, 10000, 1},
    {"pool-2e31-entries", r_huge_pool, 0, 1},
    {"zero-size-event", r_zero, 0, 1},
    {"deep-stack", r_deep_stack, 1000000, 1},
    {"deep-stack-200k", r_deep_stack, 200000, 1},
    {"many-stacks-70k", r_many_stacks, 70000, 1},
    {"kind-ties", r_kind_ties, 12, 1},
    {"odd-names", r_odd_names, 0, 1},
    {"frame-bytes", r_frame_bytes, 0, 1},
    {"async-states", r_async_states, 0, 1},
};

size_t sample_count(void)
{
    return sizeof recipes / sizeof recipes[0];
}

const char *sample_name(size_t i)
{
    return i < sample_count() ? recipes[i].name : NULL;
}

bool sample_build(const char *name, jg_buf *out)
{
    for (size_t i = 0; i < sample_count(); i++) {
        if (strcmp(recipes[i].name, name) != 0)
            continue;
        for (int k = 0; k < recipes[i].chunks; k++) {
            jg_chunk *c = recipes[i].make(recipes[i].arg);
            jg_chunk_build(c, out);
            jg_chunk_free(c);
        }
        return true;
    }
    return false;
}
