/* cmd_summary.c - jfrtool summary: version, chunks, time span and the
 * table of event types with count and size, in the layout of `jfr summary`.
 * Counts are kept per type name and chunk-local ordinal, so chunks from
 * different JVMs add up by name (the JDK tool keys by numeric id and gets
 * such files wrong, jfr-format.md §14). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "follow.h"
#include "jfrtool.h"
#include "options.h"
#include "out_text.h"
#include "parallel.h"
#include "select.h"
#include "util.h"

const char usage_summary[] =
    "Usage: jfrtool summary [--jobs N] FILE...\n"
    "       jfrtool summary --follow [--interval T] PID|DIR|FILE\n"
    "\n"
    "Print the format version, number of chunks, start time, duration, and\n"
    "for every event type the number of events and their total size in bytes\n"
    "(jdk.Metadata and jdk.Checkpoint count the metadata and checkpoint\n"
    "records). Several files are summarised together.\n"
    "\n"
    "  --jobs N          count each file's chunks in N threads (default: one per\n"
    "                    idle CPU and 4 MB; 1: no threads); the output is the same\n"
    "  --follow          follow a running JVM (its process id or its repository)\n"
    "                    or a growing file, counting each flush's records; print\n"
    "                    the summary when it ends (the JVM exits, Ctrl-C)\n"
    "  --interval T      with --follow, also print it every T (10s, 1m): the\n"
    "                    counts so far\n";

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

/* What one chunk adds: its rows by type name, and what the table names
 * only once the first chunk is known (the prefix of the record rows). */
typedef struct chunk_count {
    stats rows;
    jfr_record_stats other;
    jfr_header header;
    int width; /* longest event type name */
} chunk_count;

static void count_chunk(chunk_count *cc, const jfr_error *err, jfr_chunk *chunk,
                        const char *path, strbuf *messages)
{
    stats *s = &cc->rows;
    size_t n = jfr_chunk_type_count(chunk), *rows;
    uint64_t *counts = xcalloc(n ? n : 1, sizeof *counts);
    uint64_t *bytes = xcalloc(n ? n : 1, sizeof *bytes);
    stat_row *r;

    cc->header = *jfr_chunk_header(chunk);
    cc->width = 0;
    memset(&cc->other, 0, sizeof cc->other);
    if (jfr_chunk_count_records(counts, bytes, &cc->other, chunk) < 0) {
        /* what was counted before the damage still counts */
        parallel_say(messages, path, err);
    }
    rows = chunk_rows(s, chunk);
    for (size_t i = 0; i < n; i++) {
        const jfr_type *t = jfr_chunk_type_at(chunk, i);
        int len = (int)strlen(jfr_type_name(t));

        if (jfr_type_is_event(t) && len > cc->width)
            cc->width = len;
        if (!counts[i] && !rows[i])
            continue;
        /* a record typed by a declared non-event type gets a row by name */
        r = rows[i] ? &s->rows[rows[i] - 1] : row_for(s, jfr_type_name(t), 0);
        r->count += counts[i];
        r->size += bytes[i];
    }
    if (cc->other.unknown_count)
        count_unknown(s, chunk);
    free(rows);
    free(counts);
    free(bytes);
}

static void stats_free(stats *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->rows[i].name);
    free(s->rows);
    strmap_free(&s->index);
    memset(s, 0, sizeof *s);
}

/* The whole summary, added to chunk by chunk in file order. */
typedef struct summary {
    stats s;
    int width;
    uint64_t chunks;
    int64_t duration, start;
    uint16_t major, minor;
    bool any;
} summary;

static void add_chunk(summary *sum, const chunk_count *cc)
{
    /* record rows are named as the first chunk's JFR version names them */
    const char *prefix;
    char name[64];
    stat_row *r;

    if (!sum->any) {
        sum->major = cc->header.major;
        sum->minor = cc->header.minor;
        sum->start = cc->header.start_nanos;
        sum->any = true;
    }
    prefix = sum->major == 1 ? "com.oracle.jdk." : "jdk.";
    sum->chunks++;
    /* a damaged header's duration saturates instead of overflowing */
    if (__builtin_add_overflow(sum->duration, cc->header.duration_nanos, &sum->duration))
        sum->duration = cc->header.duration_nanos > 0 ? INT64_MAX : INT64_MIN;
    if (cc->width > sum->width)
        sum->width = cc->width;
    snprintf(name, sizeof name, "%sMetadata", prefix);
    r = row_for(&sum->s, name, 0);
    r->count += cc->other.metadata_count;
    r->size += cc->other.metadata_bytes;
    snprintf(name, sizeof name, "%sCheckpoint", prefix);
    r = row_for(&sum->s, name, 0);
    r->count += cc->other.checkpoint_count;
    r->size += cc->other.checkpoint_bytes;
    for (size_t i = 0; i < cc->rows.n; i++) {
        const stat_row *from = &cc->rows.rows[i];
        r = row_for(&sum->s, from->name, from->ordinal);
        r->count += from->count;
        r->size += from->size;
    }
}

/* Nanoseconds to seconds rounded half up, as the JDK's (ns + 500000000) /
 * 1000000000, without its overflow near INT64_MAX. */
static long long rounded_seconds(int64_t ns)
{
    if (ns < 0)
        return (long long)((ns + 500000000) / 1000000000);
    return (long long)(ns / 1000000000 + (ns % 1000000000 >= 500000000));
}

/* ---- chunks in threads (--jobs): rows are sorted at the end, so the
 * order chunks are added in changes nothing but the first chunk's fields */

static void *decode_count(jfr_chunk *chunk, jfr_recording *rec, const char *path,
                          strbuf *messages, void *user)
{
    chunk_count *cc = xcalloc(1, sizeof *cc);

    (void)user;
    count_chunk(cc, jfr_recording_error(rec), chunk, path, messages);
    return cc;
}

static void merge_count(void *result, size_t chunk_index, void *user)
{
    chunk_count *cc = result;

    (void)chunk_index;
    add_chunk(user, cc);
    stats_free(&cc->rows);
    free(cc);
}

static void add_file(summary *sum, const char *path, int jobs, int *status, bool *damaged)
{
    static const parallel_ops ops = {decode_count, merge_count};
    jfr_recording *rec;

    if (!(rec = open_recording(path, status)))
        return;
    parallel_read(rec, path, jobs, &ops, sum, damaged);
    close_recording(rec);
}

/* The summary as the JDK's tool lays it out. */
static void print_summary(summary *sum)
{
    const stats *s = &sum->s;
    strbuf sb = {0};
    int64_t secs;
    int32_t ns;

    qsort(s->rows, s->n, sizeof *s->rows, compare_rows);
    printf("\n Version: %u.%u\n Chunks: %llu\n Start: ", sum->major, sum->minor,
           (unsigned long long)sum->chunks);
    split_nanos(sum->start, &secs, &ns);
    fmt_utc_seconds(&sb, secs);
    printf("%s (UTC)\n Duration: %lld s\n\n", sb_str(&sb),
           rounded_seconds(sum->duration));
    printf(" Event Type%*s      Count  Size (bytes) \n", sum->width - 11, "");
    for (int i = 0; i < sum->width + 26; i++)
        putchar('=');
    putchar('\n');
    for (size_t i = 0; i < s->n; i++)
        printf(" %-*s%10llu  %12llu\n", sum->width, s->rows[i].name,
               (unsigned long long)s->rows[i].count, (unsigned long long)s->rows[i].size);
    sb_free(&sb);
}

/* ---- --follow: each flush's records counted as a chunk's are; a chunk
 * counts once, its duration as of its last flush */

typedef struct summary_live {
    summary *sum;
    int64_t chunk_duration; /* of the chunk being followed, counted so far */
    strbuf messages;
} summary_live;

static void count_flush(const jfr_flush *fl, void *user)
{
    summary_live *l = user;
    chunk_count cc = {0};
    int64_t duration;

    count_chunk(&cc, fl->chunk_error, fl->chunk, fl->path, &l->messages);
    if (l->messages.len) {
        put_messages(sb_str(&l->messages));
        sb_clear(&l->messages);
    }
    duration = cc.header.duration_nanos;
    add_chunk(l->sum, &cc);
    if (!fl->first_in_chunk) {
        l->sum->chunks--;
        l->sum->duration -= l->chunk_duration;
    }
    l->chunk_duration = duration;
    stats_free(&cc.rows);
}

static void print_live(int64_t now_nanos, bool last, void *user)
{
    summary_live *l = user;

    (void)now_nanos;
    (void)last;
    if (l->sum->any)
        print_summary(l->sum);
    fflush(stdout);
}

static int summary_follow(summary *sum, const char *arg, const char *interval)
{
    summary_live l = {sum, 0, {0}};
    follow_ops ops = {count_flush, print_live, 0, NULL, JFR_FOLLOW_FROM_FIRST, false};
    int64_t every = 0;
    int status;

    if (*interval) {
        if (jfr_parse_time(&every, interval, 0) != JFR_OK || every < 1000000000 ||
            every > INT64_C(604800000000000)) {
            warnx_("--interval needs a duration from 1s to 7 days (10s, 1m), not '%s'",
                   interval);
            return EXIT_USAGE;
        }
        ops.tick_ms = (uint32_t)(every / 1000000);
    }
    status = follow_run(arg, &ops, &l);
    stats_free(&sum->s);
    sb_free(&l.messages);
    return status;
}

/* -1 to go on, else the exit status (after --help or a usage error). */
static int parse_summary_options(int argc, char **argv, int *jobs, const char **follow)
{
    static const struct option opts[] = {{"help", no_argument, NULL, 'h'},
                                         {"jobs", required_argument, NULL, 'j'},
                                         {"follow", no_argument, NULL, 'f'},
                                         {"interval", required_argument, NULL, 'I'},
                                         {0}};
    const char *interval = NULL;
    bool following = false;
    int c;

    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(usage_summary, stdout);
            return EXIT_OK;
        case 'j':
            if (option_jobs(optarg, jobs) < 0)
                return EXIT_USAGE;
            break;
        case 'f':
            following = true;
            break;
        case 'I':
            interval = optarg;
            break;
        default:
            fputs(usage_summary, stderr);
            return EXIT_USAGE;
        }
    }
    if (optind >= argc || (following && optind + 1 != argc) || (interval && !following)) {
        if (interval && !following)
            warnx_("--interval goes with --follow");
        else if (following && optind < argc)
            warnx_("--follow follows one JVM: one process id, directory or file");
        fputs(usage_summary, stderr);
        return EXIT_USAGE;
    }
    if (following)
        *follow = interval ? interval : "";
    return -1;
}

int cmd_summary(int argc, char **argv)
{
    summary sum = {.width = 11};
    int status = EXIT_OK, c, jobs = 0;
    const char *follow = NULL;
    bool damaged = false;

    if ((c = parse_summary_options(argc, argv, &jobs, &follow)) >= 0)
        return c;
    if (follow)
        return summary_follow(&sum, argv[optind], follow);
    for (int i = optind; i < argc; i++)
        add_file(&sum, argv[i], jobs, &status, &damaged);
    if (!sum.any)
        return status == EXIT_OK ? EXIT_INPUT : status;
    print_summary(&sum);
    stats_free(&sum.s);
    return status;
}
