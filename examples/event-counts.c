/* event-counts.c - print how many events of each type a recording holds.
 *
 *     event-counts FILE...
 *
 * An example of libjfr's public API: open, iterate chunks, iterate events.
 * Type ids are only valid inside one chunk, so events are counted by the
 * type's index in its chunk and the counts are merged by type name when the
 * chunk is done. Output: one "COUNT TYPE" line per event type, most events
 * first, ties by name. Build against an installed libjfr with
 *
 *     cc event-counts.c -o event-counts $(pkg-config --cflags --libs libjfr)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jfr.h>

typedef struct count {
    char *name;
    uint64_t events;
} count;

typedef struct table {
    count *rows;
    size_t len, cap;
} table;

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);

    if (!q) {
        fputs("event-counts: out of memory\n", stderr);
        exit(2);
    }
    return q;
}

/* Add `n` events of type `name`; a linear search is enough for the few
 * hundred types a recording declares, and runs once per type and chunk. */
static void table_add(table *t, const char *name, uint64_t n)
{
    for (size_t i = 0; i < t->len; i++) {
        if (strcmp(t->rows[i].name, name) == 0) {
            t->rows[i].events += n;
            return;
        }
    }
    if (t->len == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->rows = xrealloc(t->rows, t->cap * sizeof *t->rows);
    }
    t->rows[t->len].name = xrealloc(NULL, strlen(name) + 1);
    strcpy(t->rows[t->len].name, name);
    t->rows[t->len].events = n;
    t->len++;
}

/* Count the events of one chunk by type index, then merge them by name. */
static int count_chunk(table *t, jfr_chunk *chunk)
{
    size_t ntypes = jfr_chunk_type_count(chunk);
    uint64_t *per_type = calloc(ntypes ? ntypes : 1, sizeof *per_type);
    jfr_event_iter *it;
    const jfr_event *ev;
    int rc;

    if (!per_type)
        return JFR_ENOMEM;
    rc = jfr_event_iter_new(&it, chunk, NULL, 0, 0);
    if (rc < 0) {
        free(per_type);
        return rc;
    }
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK)
        per_type[jfr_type_index(jfr_event_type(ev))]++;
    jfr_event_iter_free(it);

    /* Events read before a damaged record still count. */
    for (size_t i = 0; i < ntypes; i++)
        if (per_type[i] > 0)
            table_add(t, jfr_type_name(jfr_chunk_type_at(chunk, i)), per_type[i]);
    free(per_type);
    return rc < 0 ? rc : JFR_OK;
}

/* Returns 0, or 1 when some of the file could not be read. */
static int count_file(table *t, const char *path)
{
    jfr_recording *rec;
    jfr_chunk *chunk;
    jfr_error err;
    int rc, damaged = 0;

    if (jfr_recording_open_file(&rec, path, NULL, &err) < 0) {
        fprintf(stderr, "event-counts: %s: %s\n", path, err.message);
        return 1;
    }
    while ((rc = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE) {
        if (rc == JFR_OK)
            rc = count_chunk(t, chunk);
        if (rc < 0) {
            /* The error is kept by the recording; after a damaged chunk
             * the next call moves on to the following one. */
            fprintf(stderr, "event-counts: %s: %s\n", path,
                    jfr_recording_error(rec)->message);
            damaged = 1;
        }
    }
    jfr_recording_free(rec);
    return damaged;
}

static int by_count_then_name(const void *a, const void *b)
{
    const count *x = a, *y = b;

    if (x->events != y->events)
        return x->events > y->events ? -1 : 1;
    return strcmp(x->name, y->name);
}

int main(int argc, char **argv)
{
    table t = {NULL, 0, 0};
    int status = 0;

    if (argc < 2) {
        fputs("usage: event-counts FILE...\n", stderr);
        return 1;
    }
    for (int i = 1; i < argc; i++)
        status |= count_file(&t, argv[i]);

    qsort(t.rows, t.len, sizeof *t.rows, by_count_then_name);
    for (size_t i = 0; i < t.len; i++) {
        printf("%10llu %s\n", (unsigned long long)t.rows[i].events, t.rows[i].name);
        free(t.rows[i].name);
    }
    free(t.rows);
    return status ? 2 : 0;
}
