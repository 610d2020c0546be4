/* cmd_summary.c - jfrtool summary: version, chunks, time span and the
 * table of event types with count and size, in the layout of `jfr summary`.
 * Counts are kept per type name and chunk-local ordinal, so chunks from
 * different JVMs add up by name (the JDK tool keys by numeric id and gets
 * such files wrong, jfr-format.md §14). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "out_text.h"
#include "util.h"

const char usage_summary[] =
    "Usage: jfrtool summary FILE...\n"
    "\n"
    "Print the format version, number of chunks, start time, duration, and\n"
    "for every event type the number of events and their total size in bytes\n"
    "(jdk.Metadata and jdk.Checkpoint count the metadata and checkpoint\n"
    "records). Several files are summarised together.\n";

typedef struct stat_row {
    char *name;
    unsigned ordinal; /* among same-named types of one chunk (perfGenie) */
    uint64_t count;
    uint64_t size;
} stat_row;

typedef struct stats {
    stat_row *rows;
    size_t n, cap;
    strmap index; /* "ordinal name" -> row */
} stats;

static stat_row *row_for(stats *s, const char *name, unsigned ordinal)
{
    char key[512];
    long i;

    snprintf(key, sizeof key, "%u %s", ordinal, name);
    if ((i = strmap_get(&s->index, key)) >= 0)
        return &s->rows[i];
    strmap_put(&s->index, key, s->n);
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 256;
        s->rows = xrealloc(s->rows, s->cap, sizeof *s->rows);
    }
    s->rows[s->n] = (stat_row){xstrdup(name), ordinal, 0, 0};
    return &s->rows[s->n++];
}

static int compare_rows(const void *a, const void *b)
{
    const stat_row *x = a, *y = b;
    int c;

    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    c = strcmp(x->name, y->name);
    if (c)
        return c;
    return x->ordinal < y->ordinal ? -1 : x->ordinal > y->ordinal;
}

/* For each declared event type of the chunk, its row index + 1 (0: none). */
static size_t *chunk_rows(stats *s, jfr_chunk *chunk)
{
    size_t n = jfr_chunk_type_count(chunk);
    size_t *idx = xcalloc(n ? n : 1, sizeof *idx);
    strmap seen = {0}; /* name -> how many event types of that name so far */

    for (size_t i = 0; i < n; i++) {
        const jfr_type *t = jfr_chunk_type_at(chunk, i);
        long ordinal;

        if (!jfr_type_is_event(t))
            continue;
        ordinal = strmap_get(&seen, jfr_type_name(t));
        ordinal = ordinal < 0 ? 0 : ordinal + 1;
        strmap_put(&seen, jfr_type_name(t), (size_t)ordinal);
        idx[i] = (size_t)(row_for(s, jfr_type_name(t), (unsigned)ordinal) - s->rows) + 1;
    }
    strmap_free(&seen);
    return idx;
}

/* The JDK lists each undeclared type id on its own row. Rare: a second,
 * slower pass names them. */
static void count_unknown(stats *s, jfr_chunk *chunk)
{
    jfr_event_iter *it;
    const jfr_event *ev;
    char name[64];

    if (jfr_event_iter_new(&it, chunk, NULL, 0, JFR_ITER_ALL_RECORDS) < 0)
        return;
    while (jfr_event_next(&ev, it) == JFR_OK) {
        stat_row *r;

        if (jfr_event_type(ev) || jfr_event_type_id(ev) < 2)
            continue;
        snprintf(name, sizeof name, "%llu (missing event metadata)",
                 (unsigned long long)jfr_event_type_id(ev));
        r = row_for(s, name, 0);
        r->count++;
        r->size += jfr_event_size(ev);
    }
    jfr_event_iter_free(it);
}

static void count_chunk(stats *s, jfr_recording *rec, jfr_chunk *chunk,
                        const char *prefix, const char *path, bool *damaged)
{
    size_t n = jfr_chunk_type_count(chunk), *rows;
    uint64_t *counts = xcalloc(n ? n : 1, sizeof *counts);
    uint64_t *bytes = xcalloc(n ? n : 1, sizeof *bytes);
    jfr_record_stats other = {0};
    char name[64];
    stat_row *r;

    if (jfr_chunk_count_records(chunk, counts, bytes, &other) < 0) {
        /* what was counted before the damage still counts */
        report_error(path, jfr_recording_error(rec));
        *damaged = true;
    }
    snprintf(name, sizeof name, "%sMetadata", prefix);
    r = row_for(s, name, 0);
    r->count += other.metadata_count;
    r->size += other.metadata_bytes;
    snprintf(name, sizeof name, "%sCheckpoint", prefix);
    r = row_for(s, name, 0);
    r->count += other.checkpoint_count;
    r->size += other.checkpoint_bytes;
    rows = chunk_rows(s, chunk);
    for (size_t i = 0; i < n; i++) {
        if (!counts[i] && !rows[i])
            continue;
        /* a record typed by a declared non-event type gets a row by name */
        r = rows[i] ? &s->rows[rows[i] - 1]
                    : row_for(s, jfr_type_name(jfr_chunk_type_at(chunk, i)), 0);
        r->count += counts[i];
        r->size += bytes[i];
    }
    if (other.unknown_count)
        count_unknown(s, chunk);
    free(rows);
    free(counts);
    free(bytes);
}

int cmd_summary(int argc, char **argv)
{
    stats s = {0};
    int status = EXIT_OK, c, width = 11;
    uint64_t chunks = 0;
    int64_t duration = 0, start = 0;
    uint16_t major = 0, minor = 0;
    bool any = false, damaged = false;
    strbuf sb = {0};

    if ((c = parse_help_only(argc, argv, usage_summary)) >= 0)
        return c;
    for (int i = optind; i < argc; i++) {
        jfr_recording *rec = open_recording(argv[i], &status);
        jfr_chunk *chunk;

        if (!rec)
            continue;
        while (next_chunk(&chunk, rec, argv[i], &damaged) == JFR_OK) {
            const jfr_header *h = jfr_chunk_header(chunk);

            if (!any) {
                major = h->major;
                minor = h->minor;
                start = h->start_nanos;
                any = true;
            }
            chunks++;
            duration += h->duration_nanos;
            count_chunk(&s, rec, chunk, major == 1 ? "com.oracle.jdk." : "jdk.", argv[i],
                        &damaged);
            for (size_t t = 0; t < jfr_chunk_type_count(chunk); t++) {
                const jfr_type *ty = jfr_chunk_type_at(chunk, t);
                int len = (int)strlen(jfr_type_name(ty));
                if (jfr_type_is_event(ty) && len > width)
                    width = len;
            }
        }
        jfr_recording_free(rec);
    }
    if (!any)
        return status == EXIT_OK ? EXIT_INPUT : status;
    qsort(s.rows, s.n, sizeof *s.rows, compare_rows);
    printf("\n Version: %u.%u\n Chunks: %llu\n Start: ", major, minor,
           (unsigned long long)chunks);
    {
        int64_t secs;
        int32_t ns;
        split_nanos(start, &secs, &ns);
        fmt_utc_seconds(&sb, secs);
    }
    printf("%s (UTC)\n Duration: %lld s\n\n", sb_str(&sb),
           (long long)((duration + 500000000) / 1000000000));
    printf(" Event Type%*s      Count  Size (bytes) \n", width - 11, "");
    for (int i = 0; i < width + 26; i++)
        putchar('=');
    putchar('\n');
    for (size_t i = 0; i < s.n; i++) {
        printf(" %-*s%10llu  %12llu\n", width, s.rows[i].name,
               (unsigned long long)s.rows[i].count, (unsigned long long)s.rows[i].size);
        free(s.rows[i].name);
    }
    free(s.rows);
    strmap_free(&s.index);
    sb_free(&sb);
    return status;
}
