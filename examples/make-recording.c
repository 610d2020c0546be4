/* make-recording.c - write a small recording from scratch with libjfr's
 * writer: one event type of our own, a constant pool of the threads it
 * names, one chunk.
 *
 *     make-recording OUT [EVENTS]
 *
 * writes EVENTS (default 100) events "example.Tick" into OUT, which jfrtool
 * and the JDK's `jfr` tool read: jfr print --events Tick OUT. Build against
 * an installed libjfr with
 *
 *     cc make-recording.c -o make-recording $(pkg-config --cflags --libs libjfr)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jfr.h>

/* Declare annotation type `name` with its one element, as the JDK does
 * (jdk.jfr.Label has a String value), and return its id. */
static uint64_t annotation(jfr_writer *w, const char *name)
{
    uint64_t id, string;

    jfr_writer_type_id(&string, w, "java.lang.String");
    jfr_writer_declare_type(&id, w, name, "java.lang.annotation.Annotation", 0);
    jfr_writer_declare_field(w, id, "value", string, 0);
    return id;
}

static void annotate(jfr_writer *w, uint64_t type, const char *field, uint64_t ann,
                     const char *value)
{
    const char *names[] = {"value"}, *values[] = {value};

    jfr_writer_annotate(w, type, field, ann, names, values, 1);
}

int main(int argc, char **argv)
{
    jfr_writer *w;
    jfr_error err;
    jfr_chunk_spec spec = JFR_CHUNK_SPEC_INIT;
    uint64_t lng, integer, string, thread, tick, label, timestamp;
    long events = argc > 2 ? strtol(argv[2], NULL, 10) : 100;

    if (argc < 2 || events < 0) {
        fputs("usage: make-recording OUT [EVENTS]\n", stderr);
        return 1;
    }
    if (jfr_writer_open_file(&w, argv[1], NULL, &err) < 0) {
        fprintf(stderr, "make-recording: %s: %s\n", argv[1], err.message);
        return 2;
    }
    /* the types: a thread (pooled) and the event, with its labels */
    jfr_writer_type_id(&lng, w, "long");
    jfr_writer_type_id(&integer, w, "int");
    jfr_writer_type_id(&string, w, "java.lang.String");
    label = annotation(w, "jdk.jfr.Label");
    timestamp = annotation(w, "jdk.jfr.Timestamp");
    jfr_writer_declare_type(&thread, w, "java.lang.Thread", NULL, 0);
    jfr_writer_declare_field(w, thread, "osName", string, 0);
    jfr_writer_declare_field(w, thread, "osThreadId", lng, 0);
    jfr_writer_declare_field(w, thread, "javaName", string, 0);
    jfr_writer_declare_field(w, thread, "javaThreadId", lng, 0);
    jfr_writer_declare_type(&tick, w, "example.Tick", "jdk.jfr.Event", 0);
    jfr_writer_declare_field(w, tick, "startTime", lng, 0);
    jfr_writer_declare_field(w, tick, "eventThread", thread, JFR_FIELD_POOLED);
    jfr_writer_declare_field(w, tick, "count", integer, 0);
    jfr_writer_declare_field(w, tick, "message", string, 0);
    annotate(w, tick, NULL, label, "Tick");
    annotate(w, tick, "startTime", timestamp, "TICKS");
    annotate(w, tick, "count", label, "Count");

    /* one chunk: times in nanoseconds from now */
    spec.start_nanos = (int64_t)time(NULL) * 1000000000;
    jfr_writer_begin_chunk(w, &spec);
    for (uint64_t key = 1; key <= 2; key++) {
        const char *name = key == 1 ? "main" : "worker";

        jfr_writer_begin_entry(w, thread, key);
        jfr_writer_put_string(w, name, strlen(name));
        jfr_writer_put_int(w, (int64_t)(1000 + key));
        jfr_writer_put_string(w, name, strlen(name));
        jfr_writer_put_int(w, (int64_t)key);
        jfr_writer_end(w);
    }
    for (long i = 0; i < events; i++) {
        char msg[32];
        int n = snprintf(msg, sizeof msg, "tick %ld", i);

        jfr_writer_begin_event(w, tick);
        jfr_writer_put_int(w, i * 1000000); /* one a millisecond */
        jfr_writer_put_key(w, 1 + (uint64_t)(i % 2));
        jfr_writer_put_int(w, i);
        jfr_writer_put_string(w, msg, (size_t)n);
        jfr_writer_end(w);
    }
    jfr_writer_end_chunk(w, events * 1000000);
    /* a failure of any call above is reported here, where it sticks */
    if (jfr_writer_close(w) < 0) {
        fprintf(stderr, "make-recording: %s: %s\n", argv[1],
                jfr_writer_error(w)->message);
        jfr_writer_free(w);
        return 2;
    }
    printf("%s: %ld events, %llu bytes\n", argv[1], events,
           (unsigned long long)jfr_writer_size(w));
    jfr_writer_free(w);
    return 0;
}
