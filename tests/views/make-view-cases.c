/* make-view-cases.c - writes view-cases.jfr, a synthetic recording of what
 * the JDK's views decide by rules the usual recordings rarely test:
 *  - tabs and line breaks in threads' names and in a string (test.Names,
 *    jdk.ThreadCPULoad): the views make spaces of them in strings only;
 *  - flags set and changed (jdk.*Flag, jdk.BooleanFlagChanged): jvm-flags
 *    shows each flag's last event over all the types, and a change event
 *    has no value (N/A);
 *  - GC phases of one name at two levels ending at the same tick
 *    (jdk.GCPhasePauseLevel1/2): gc-pause-phases names the type of the last
 *    in the JDK's order, file order where end times tie.
 *
 * tests/views/view-cases.sh compares jfrtool's views of this file with
 * what JDK 25's `jfr view` made of it (testdata/jdk/view-cases.*.txt;
 * regenerate: see that script). Usage: make-view-cases OUT.jfr */
#include <stdbool.h>
#include <stdio.h>

#include "jfrgen.h"

enum {
    T_CONTENT_TYPE = 30,
    T_LABEL,
    T_TIMESTAMP,
    T_TIMESPAN,
    T_PERCENTAGE,
    T_THREAD = 40,
    T_NAMES = 50,
    T_CPU_LOAD,
    T_INT_FLAG,
    T_BOOLEAN_FLAG,
    T_BOOLEAN_FLAG_CHANGED,
    T_PHASE_LEVEL1,
    T_PHASE_LEVEL2,
    T_OTHER_TYPES = 100 /* declared, without events */
};

static const char *const thread_names[] = {"tab\there", "line\nbreak", "carriage\rreturn",
                                           "plain"};
#define NTHREADS (sizeof thread_names / sizeof thread_names[0])

static jg_elem *event_type(jg_chunk *c, uint64_t id, const char *name, const char *label)
{
    jg_elem *ev = jg_class(c, id, name, "jdk.jfr.Event");

    jg_annotate(ev, T_LABEL, label);
    jg_annotate(jg_field(ev, "startTime", JG_LONG, 0), T_TIMESTAMP, "TICKS");
    return ev;
}

static void declare_annotations(jg_chunk *c)
{
    const char *ann = "java.lang.annotation.Annotation";
    jg_elem *t;

    jg_class(c, T_CONTENT_TYPE, "jdk.jfr.ContentType", ann);
    jg_field(jg_class(c, T_LABEL, "jdk.jfr.Label", ann), "value", JG_STRING, 0);
    t = jg_class(c, T_TIMESTAMP, "jdk.jfr.Timestamp", ann);
    jg_field(t, "value", JG_STRING, 0);
    jg_annotate(t, T_CONTENT_TYPE, NULL);
    t = jg_class(c, T_TIMESPAN, "jdk.jfr.Timespan", ann);
    jg_field(t, "value", JG_STRING, 0);
    jg_annotate(t, T_CONTENT_TYPE, NULL);
    jg_annotate(jg_class(c, T_PERCENTAGE, "jdk.jfr.Percentage", ann), T_CONTENT_TYPE,
                NULL);
}

/* Every type jvm-flags reads (the JDK's view wants all declared); events
 * of three of them. */
static void declare_flags(jg_chunk *c)
{
    static const struct {
        const char *name;
        uint64_t value_type;
    } kinds[] = {{"Int", JG_INT},      {"UnsignedInt", JG_INT},   {"Boolean", JG_BOOLEAN},
                 {"Long", JG_LONG},    {"UnsignedLong", JG_LONG}, {"Double", JG_DOUBLE},
                 {"String", JG_STRING}};
    uint64_t id = T_OTHER_TYPES;

    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        char name[64], label[64];
        bool is_int = i == 0, is_boolean = i == 2;
        jg_elem *ev;

        snprintf(name, sizeof name, "jdk.%sFlag", kinds[i].name);
        snprintf(label, sizeof label, "%s Flag", kinds[i].name);
        ev = event_type(c,
                        is_int       ? T_INT_FLAG
                        : is_boolean ? T_BOOLEAN_FLAG
                                     : id++,
                        name, label);
        jg_field(ev, "name", JG_STRING, 0);
        jg_field(ev, "value", kinds[i].value_type, 0);
        snprintf(name, sizeof name, "jdk.%sFlagChanged", kinds[i].name);
        snprintf(label, sizeof label, "%s Flag Changed", kinds[i].name);
        ev = event_type(c, is_boolean ? T_BOOLEAN_FLAG_CHANGED : id++, name, label);
        jg_field(ev, "name", JG_STRING, 0);
        jg_field(ev, "oldValue", kinds[i].value_type, 0);
        jg_field(ev, "newValue", kinds[i].value_type, 0);
    }
}

/* Every type gc-pause-phases reads; events of levels 1 and 2. */
static void declare_phases(jg_chunk *c)
{
    uint64_t id = T_OTHER_TYPES + 100;

    for (int level = 0; level <= 4; level++) {
        char name[64], label[64];
        jg_elem *ev;

        snprintf(name, sizeof name,
                 level ? "jdk.GCPhasePauseLevel%d" : "jdk.GCPhasePause", level);
        snprintf(label, sizeof label,
                 level ? "GC Phase Pause Level %d" : "GC Phase Pause", level);
        ev = event_type(c,
                        level == 1   ? T_PHASE_LEVEL1
                        : level == 2 ? T_PHASE_LEVEL2
                                     : id++,
                        name, label);
        jg_annotate(jg_field(ev, "duration", JG_LONG, 0), T_TIMESPAN, "TICKS");
        jg_field(ev, "name", JG_STRING, 0);
    }
}

static void declare_types(jg_chunk *c)
{
    jg_elem *t, *ev;

    jg_primitives(c);
    jg_region(c, "0");
    declare_annotations(c);
    t = jg_class(c, T_THREAD, "java.lang.Thread", NULL);
    jg_field(t, "osName", JG_STRING, 0);
    jg_field(t, "osThreadId", JG_LONG, 0);
    jg_field(t, "javaName", JG_STRING, 0);
    jg_field(t, "javaThreadId", JG_LONG, 0);

    /* no @Label on its fields: the generic view heads them by name */
    ev = jg_class(c, T_NAMES, "test.Names", "jdk.jfr.Event");
    jg_annotate(jg_field(ev, "startTime", JG_LONG, 0), T_TIMESTAMP, "TICKS");
    jg_field(ev, "eventThread", T_THREAD, JG_POOL);
    jg_field(ev, "text", JG_STRING, 0);
    ev = event_type(c, T_CPU_LOAD, "jdk.ThreadCPULoad", "Thread CPU Load");
    jg_field(ev, "eventThread", T_THREAD, JG_POOL);
    jg_annotate(jg_field(ev, "user", JG_FLOAT, 0), T_PERCENTAGE, NULL);
    jg_annotate(jg_field(ev, "system", JG_FLOAT, 0), T_PERCENTAGE, NULL);

    declare_flags(c);
    declare_phases(c);
}

static void thread_pool(jg_chunk *c)
{
    jg_pool *p = jg_pool_new(jg_checkpoint(c), T_THREAD);

    for (size_t i = 0; i < NTHREADS; i++) {
        jg_buf *e = jg_entry(p, i + 1);

        jg_string(e, thread_names[i]);
        jg_i64(e, 100 + (int64_t)i);
        jg_string(e, thread_names[i]);
        jg_i64(e, 1 + (int64_t)i);
    }
}

static void name_events(jg_chunk *c)
{
    for (size_t i = 0; i < NTHREADS; i++) {
        jg_buf *e = jg_event(c, T_NAMES);

        jg_i64(e, 1000 + 1000 * (int64_t)i);
        jg_key(e, i + 1);
        jg_string(e, i % 2 ? "a\tb\r\nc" : "no breaks");
        e = jg_event(c, T_CPU_LOAD);
        jg_i64(e, 1500 + 1000 * (int64_t)i);
        jg_key(e, i + 1);
        /* distinct loads: the view sorts by them */
        jg_f32(e, 0.125f * (float)(i + 1));
        jg_f32(e, 0.0625f);
    }
}

static void flag(jg_chunk *c, uint64_t type, int64_t time, const char *name, int value)
{
    jg_buf *e = jg_event(c, type);

    jg_i64(e, time);
    jg_string(e, name);
    if (type == T_INT_FLAG) {
        jg_i32(e, value);
    } else if (type == T_BOOLEAN_FLAG) {
        jg_u8(e, (uint8_t)value);
    } else {
        jg_u8(e, (uint8_t)!value);
        jg_u8(e, (uint8_t)value);
    }
}

/* Set, then changed (N/A); only changed (N/A); changed, then set at the
 * same tick in file order (its value); set at one tick, changed at the same
 * tick after it (N/A); set alone. */
static void flag_events(jg_chunk *c)
{
    flag(c, T_INT_FLAG, 5000, "Count", 7);
    flag(c, T_BOOLEAN_FLAG, 5000, "SetThenChanged", 0);
    flag(c, T_BOOLEAN_FLAG_CHANGED, 9000, "SetThenChanged", 1);
    flag(c, T_BOOLEAN_FLAG_CHANGED, 9000, "OnlyChanged", 1);
    flag(c, T_BOOLEAN_FLAG_CHANGED, 7000, "ChangedThenSet", 1);
    flag(c, T_BOOLEAN_FLAG, 7000, "ChangedThenSet", 1);
    flag(c, T_BOOLEAN_FLAG, 8000, "SetThenChangedAtOnce", 1);
    flag(c, T_BOOLEAN_FLAG_CHANGED, 8000, "SetThenChangedAtOnce", 0);
}

static void phase(jg_chunk *c, uint64_t type, int64_t start, int64_t duration,
                  const char *name)
{
    jg_buf *e = jg_event(c, type);

    jg_i64(e, start);
    jg_i64(e, duration);
    jg_string(e, name);
}

/* Two names at both levels, their last events ending at one tick: the one
 * written last names the type. Durations differ so that rows sort apart. */
static void phase_events(jg_chunk *c)
{
    phase(c, T_PHASE_LEVEL1, 10000, 300, "Weak");
    phase(c, T_PHASE_LEVEL2, 10100, 200, "Weak");
    phase(c, T_PHASE_LEVEL2, 11000, 500, "Phantom");
    phase(c, T_PHASE_LEVEL1, 11200, 300, "Phantom");
    phase(c, T_PHASE_LEVEL1, 12000, 700, "Final");
}

int main(int argc, char **argv)
{
    jg_buf out = {0};
    jg_chunk *c;
    FILE *f;

    if (argc != 2) {
        fprintf(stderr, "usage: make-view-cases OUT.jfr\n");
        return 2;
    }
    c = jg_chunk_new();
    declare_types(c);
    thread_pool(c);
    name_events(c);
    flag_events(c);
    phase_events(c);
    jg_chunk_build(c, &out);
    jg_chunk_free(c);
    f = fopen(argv[1], "wb");
    if (!f || fwrite(out.data, 1, out.len, f) != out.len || fclose(f) != 0) {
        perror(argv[1]);
        return 1;
    }
    jg_buf_free(&out);
    return 0;
}
