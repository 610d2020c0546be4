/* make-names.c - writes names.jfr, a synthetic recording of threads and a
 * string with tabs and line breaks in them: test.Names events (a thread,
 * a string) and jdk.ThreadCPULoad events (what the view thread-cpu-load
 * reads). The JDK's views make spaces of these characters in strings
 * only; a thread's name is printed as it is.
 *
 * tests/views/names.sh compares jfrtool's views of this file with what
 * JDK 25's `jfr view` made of it (testdata/jdk/names.*.txt; regenerate:
 * see that script). Usage: make-names OUT.jfr */
#include <stdio.h>

#include "jfrgen.h"

enum {
    T_CONTENT_TYPE = 30,
    T_TIMESTAMP,
    T_PERCENTAGE,
    T_THREAD = 40,
    T_NAMES = 50,
    T_CPU_LOAD
};

static const char *const thread_names[] = {"tab\there", "line\nbreak", "carriage\rreturn",
                                           "plain"};
#define NTHREADS (sizeof thread_names / sizeof thread_names[0])

static void declare_types(jg_chunk *c)
{
    const char *ann = "java.lang.annotation.Annotation";
    jg_elem *t, *ev;

    jg_primitives(c);
    jg_region(c, "0");
    jg_class(c, T_CONTENT_TYPE, "jdk.jfr.ContentType", ann);
    t = jg_class(c, T_TIMESTAMP, "jdk.jfr.Timestamp", ann);
    jg_field(t, "value", JG_STRING, 0);
    jg_annotate(t, T_CONTENT_TYPE, NULL);
    jg_annotate(jg_class(c, T_PERCENTAGE, "jdk.jfr.Percentage", ann), T_CONTENT_TYPE,
                NULL);
    t = jg_class(c, T_THREAD, "java.lang.Thread", NULL);
    jg_field(t, "osName", JG_STRING, 0);
    jg_field(t, "osThreadId", JG_LONG, 0);
    jg_field(t, "javaName", JG_STRING, 0);
    jg_field(t, "javaThreadId", JG_LONG, 0);

    ev = jg_class(c, T_NAMES, "test.Names", "jdk.jfr.Event");
    jg_annotate(jg_field(ev, "startTime", JG_LONG, 0), T_TIMESTAMP, "TICKS");
    jg_field(ev, "eventThread", T_THREAD, JG_POOL);
    jg_field(ev, "text", JG_STRING, 0);
    ev = jg_class(c, T_CPU_LOAD, "jdk.ThreadCPULoad", "jdk.jfr.Event");
    jg_annotate(jg_field(ev, "startTime", JG_LONG, 0), T_TIMESTAMP, "TICKS");
    jg_field(ev, "eventThread", T_THREAD, JG_POOL);
    jg_annotate(jg_field(ev, "user", JG_FLOAT, 0), T_PERCENTAGE, NULL);
    jg_annotate(jg_field(ev, "system", JG_FLOAT, 0), T_PERCENTAGE, NULL);
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

static void events(jg_chunk *c)
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

int main(int argc, char **argv)
{
    jg_buf out = {0};
    jg_chunk *c;
    FILE *f;

    if (argc != 2) {
        fprintf(stderr, "usage: make-names OUT.jfr\n");
        return 2;
    }
    c = jg_chunk_new();
    declare_types(c);
    thread_pool(c);
    events(c);
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
