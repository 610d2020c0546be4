/* cmd_report.c - jfrtool report: one self-contained HTML page for a
 * recording (doc/report.md): overview, timelines on one time axis,
 * flame graphs and hot methods of every profile kind with time-range and
 * thread selection, findings and leak candidates. The page is
 * jfrtool/report.html, embedded at build time (report_template[]), with
 * its data line replaced by "const REPORT = {...};". */
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jfrtool.h"
#include "output.h"
#include "report.h"
#include "util.h"

extern const unsigned char report_template[];
extern const size_t report_template_size;

#define DATA_LINE   "/*@@REPORT_DATA@@*/"
#define MAX_BUCKETS 120

const char usage_report[] =
    "Usage: jfrtool report [--title T] [--jobs N] [--rules FILE]... [-o OUT] FILE...\n"
    "\n"
    "Write one self-contained HTML page about the recording, for a browser\n"
    "(no network needed): an overview (JVM, OS, command line, duration,\n"
    "sampling settings, data loss), timelines on one time axis (CPU load,\n"
    "heap before and after GC, GC pauses, allocation rate, threads,\n"
    "safepoints, lost CPU-time samples) that zoom and pan, a lane per thread\n"
    "on the same axis (samples, blocked, waiting, parked, sleeping and I/O\n"
    "intervals from the recording's events, GC pauses and safepoints across\n"
    "every lane, virtual threads grouped), flame graphs and\n"
    "hot methods for every profile kind present (cpu, exec, alloc, lock, io,\n"
    "exceptions, ...) restricted to a time range selected on a timeline and\n"
    "to one thread, findings (long GC pauses, lock contention,\n"
    "deoptimization storms, high allocation rate, many exceptions, safepoint\n"
    "bias, lost CPU-time samples, one thread dominating CPU, leak\n"
    "candidates; rules in doc/report.md, `jfrtool rules` prints them) and\n"
    "leak candidates as `jfrtool leaks` ranks them. A damaged recording\n"
    "gives the page of what could be read, saying at the top what was lost.\n"
    "\n"
    "  --title T         the page title (default: the file names)\n"
    "  --jobs N          decode chunks in N threads (default: one per CPU)\n"
    "  --rules FILE      add the rules of FILE to the findings (doc/report.md,\n"
    "                    \"Rules of your own\"); may be given more than once\n"
    "  -o, --output OUT  write to OUT instead of standard output\n";

static void write_series(jw *w, const series *s)
{
    jw_begin(w, '{');
    for (size_t c = 0; c < s->ncols; c++) {
        jw_key(w, s->cols[c]);
        jw_begin(w, '[');
        for (size_t i = 0; i < s->count; i++)
            jw_num(w, s->v[c][i]);
        jw_end(w, ']');
    }
    jw_key(w, "text");
    jw_begin(w, '[');
    for (size_t i = 0; i < s->count; i++)
        jw_str(w, s->text[i]);
    jw_end(w, ']');
    jw_end(w, '}');
}

/* The allocation rate's bytes per bucket of the page (jfr/rate.h: each
 * sample's weight spread over the time it stands for), with what falls
 * outside the page's buckets, the bytes read and how many samples were
 * spread. */
static void alloc_rate_json(jw *w, const report *r)
{
    const jfr_rate *rate = r->alloc_rate;
    int64_t first = jfr_rate_first_bucket(rate);
    int64_t end = first + (int64_t)jfr_rate_bucket_count(rate);
    double before = 0, after = 0;

    for (int64_t b = first; b < end; b++) {
        if (b < 0)
            before += jfr_rate_bucket(rate, b);
        else if (b >= r->nbuckets)
            after += jfr_rate_bucket(rate, b);
    }
    jw_begin(w, '{');
    jw_key(w, "bytes");
    jw_begin(w, '[');
    for (int64_t b = 0; b < r->nbuckets; b++)
        jw_num(w, round(jfr_rate_bucket(rate, b) * 1000) / 1000);
    jw_end(w, ']');
    jw_key(w, "before");
    jw_num(w, round(before));
    jw_key(w, "after");
    jw_num(w, round(after));
    jw_key(w, "originNanos"); /* a string: more digits than a double holds */
    {
        char origin[32];
        snprintf(origin, sizeof origin, "%lld", (long long)jfr_rate_origin_nanos(rate));
        jw_str(w, origin);
    }
    jw_key(w, "bucketNanos");
    jw_int(w, jfr_rate_bucket_nanos(rate));
    jw_key(w, "total");
    jw_int(w, (int64_t)jfr_rate_total(rate));
    jw_key(w, "samples");
    jw_int(w, (int64_t)jfr_rate_events(rate));
    jw_key(w, "spread");
    jw_int(w, (int64_t)jfr_rate_spread_events(rate));
    jw_end(w, '}');
}

static void write_kvs(jw *w, const kv *list, size_t n)
{
    jw_begin(w, '[');
    for (size_t i = 0; i < n; i++) {
        jw_begin(w, '[');
        jw_str(w, list[i].key);
        jw_str(w, list[i].value);
        jw_end(w, ']');
    }
    jw_end(w, ']');
}

static void write_data(FILE *out, report *r, const char *title)
{
    jw *w = xmalloc(sizeof *w);

    jw_init(w, out);
    jw_raw(w, "const REPORT = ");
    jw_begin(w, '{');
    jw_key(w, "title");
    jw_str(w, title);
    jw_key(w, "files");
    jw_begin(w, '[');
    for (int i = 0; i < r->nfiles; i++)
        jw_str(w, r->files[i]);
    jw_end(w, ']');
    jw_key(w, "origin");
    jw_num(w, (double)(r->origin / 1000000));
    jw_key(w, "duration");
    jw_num(w, (double)(r->end - r->origin) / 1e6);
    jw_key(w, "bucketMs");
    jw_int(w, r->bucket_ns / 1000000);
    jw_key(w, "nbuckets");
    jw_int(w, r->nbuckets);
    jw_key(w, "chunks");
    jw_int(w, (int64_t)r->chunks);
    jw_key(w, "bytes");
    jw_int(w, (int64_t)r->bytes);
    jw_key(w, "info");
    write_kvs(w, r->info, r->ninfo);
    jw_key(w, "settings");
    write_kvs(w, r->settings, r->nsettings);
    jw_key(w, "lost");
    jw_begin(w, '[');
    for (size_t i = 0; i < r->nlost; i++)
        jw_str(w, r->lost[i]);
    jw_end(w, ']');
    jw_key(w, "series");
    jw_begin(w, '{');
    for (int i = 0; i < NSERIES; i++) {
        jw_key(w, r->series[i].name);
        write_series(w, &r->series[i]);
    }
    jw_end(w, '}');
    jw_key(w, "allocRate");
    alloc_rate_json(w, r);
    jw_key(w, "profiles");
    report_profiles_json(w, r);
    jw_key(w, "findings");
    report_findings_json(w, r);
    jw_key(w, "leaks");
    report_leaks_json(w, r);
    jw_key(w, "threads");
    report_threads_json(w, r);
    jw_end(w, '}');
    jw_raw(w, ";\n");
    jw_flush(w);
    free(w);
}

typedef struct page {
    report *r;
    const char *title;
} page;

static void page_data(FILE *out, void *user)
{
    page *pg = user;

    write_data(out, pg->r, pg->title);
}

static void write_page(FILE *out, report *r, const char *title)
{
    page pg = {r, title};

    fill_template(out, report_template, report_template_size, DATA_LINE, title, page_data,
                  &pg);
}

/* The time axis from the chunk headers: from the earliest start of the
 * inputs (the first input's start, where `folded --from 10s` counts from,
 * when it is the earliest) to the latest end. */
static void time_axis(report *r)
{
    bool any = false;

    for (int f = 0; f < r->nfiles; f++) {
        jfr_recording *rec;
        int64_t start, end;

        if (report_open(r, r->files[f], &rec, NULL) < 0)
            continue;
        if (jfr_recording_span_nanos(rec, &start, &end) == JFR_OK) {
            if (!any || start < r->origin)
                r->origin = start;
            if (!any || end > r->end)
                r->end = end;
            any = true;
        }
        jfr_recording_free(rec);
    }
}

static void *profiles_thread(void *arg)
{
    report_read_profiles(arg);
    return NULL;
}

static char *default_title(char **files, int nfiles)
{
    strbuf sb = {0};
    char *t;

    sb_puts(&sb, "Recording report:");
    for (int i = 0; i < nfiles; i++) {
        const char *slash = strrchr(files[i], '/');
        sb_putc(&sb, ' ');
        sb_puts(&sb, strcmp(files[i], "-") == 0 ? "(standard input)"
                     : slash                    ? slash + 1
                                                : files[i]);
    }
    t = xstrdup(sb_str(&sb));
    sb_free(&sb);
    return t;
}

void report_free(report *r)
{
    for (size_t i = 0; i < r->ninfo; i++) {
        free(r->info[i].key);
        free(r->info[i].value);
    }
    free(r->info);
    for (size_t i = 0; i < r->nsettings; i++) {
        free(r->settings[i].key);
        free(r->settings[i].value);
    }
    free(r->settings);
    for (size_t i = 0; i < r->nlost; i++)
        free(r->lost[i]);
    free(r->lost);
    for (int i = 0; i < NSERIES; i++)
        series_free(&r->series[i]);
    report_profiles_free(r);
    report_rules_close(r);
    jfr_leaks_free(r->leaks);
    jfr_findings_free(r->findings);
    jfr_rate_free(r->alloc_rate);
    report_threads_free(r);
    free(r->stdin_data);
}

/* What the command line asks for besides the report's own fields. */
typedef struct report_args {
    const char *output, *title;
    const char **rules; /* the --rules files, in order (free the array) */
    size_t nrules;
} report_args;

/* Parse the options into `a` and `r`: -1 to go on, else the exit status. */
static int parse_args(report_args *a, report *r, int argc, char **argv)
{
    static const struct option opts[] = {
        {"title", required_argument, NULL, 'T'},  {"jobs", required_argument, NULL, 'j'},
        {"output", required_argument, NULL, 'o'}, {"rules", required_argument, NULL, 'r'},
        {"help", no_argument, NULL, 'h'},         {0},
    };
    char *end;
    long jobs;
    int c;

    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'T':
            a->title = optarg;
            break;
        case 'j':
            jobs = strtol(optarg, &end, 10);
            if (*end || !*optarg || jobs < 0 || jobs > 1024) {
                warnx_("report: --jobs wants a number from 0 to 1024, not '%s'", optarg);
                return EXIT_USAGE;
            }
            r->jobs = (int)jobs;
            break;
        case 'o':
            a->output = optarg;
            break;
        case 'r':
            a->rules = xrealloc(a->rules, a->nrules + 1, sizeof *a->rules);
            a->rules[a->nrules++] = optarg;
            break;
        case 'h':
            fputs(usage_report, stdout);
            return EXIT_OK;
        default:
            fputs(usage_report, stderr);
            return EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        fputs(usage_report, stderr);
        return EXIT_USAGE;
    }
    if (!a->output && output_terminal_width() > 0) {
        warnx_("report: standard output is a terminal: write the page to a file"
               " (-o OUT.html, or redirect)");
        return EXIT_USAGE;
    }
    return -1;
}

/* The profiles (in threads) and the rest (in order) at the same time; the
 * rules' queries first in this thread, whose in-order pass then reads the
 * handles they read. *status is the in-order pass's; returns the rules'. */
static int read_passes(report *r, int *status)
{
    pthread_t th;
    bool threaded = pthread_create(&th, NULL, profiles_thread, r) == 0;
    int rules_status = report_rules_run(r);

    if (rules_status == EXIT_OK)
        *status = report_read(r);
    if (threaded)
        pthread_join(th, NULL);
    else if (rules_status == EXIT_OK)
        report_read_profiles(r);
    return rules_status;
}

int cmd_report(int argc, char **argv)
{
    report_args a = {0};
    const char *title;
    char *made_title = NULL;
    report r;
    outfile out;
    int c, status = EXIT_OK;

    memset(&r, 0, sizeof r);
    if ((status = parse_args(&a, &r, argc, argv)) >= 0) {
        free(a.rules);
        return status;
    }
    r.files = argv + optind;
    r.nfiles = argc - optind;
    /* standard input is read once, into memory: both passes read it */
    for (int i = 0; i < r.nfiles; i++)
        if (strcmp(r.files[i], "-") == 0 && !r.stdin_data)
            report_read_stdin(&r);
    status = report_rules_load(&r, a.rules, a.nrules);
    free(a.rules);
    if (status != EXIT_OK) {
        report_free(&r);
        return status;
    }
    time_axis(&r);
    if (r.end < r.origin)
        r.end = r.origin;
    r.bucket_ns = jfr_rate_bucket_width(r.end - r.origin, MAX_BUCKETS);
    if ((c = read_passes(&r, &status)) != EXIT_OK) {
        report_free(&r);
        return c;
    }
    if (r.chunks == 0) {
        report_free(&r);
        return status == EXIT_OK ? EXIT_INPUT : status;
    }
    report_rules_close(&r); /* the first pass is done with its handles */
    if (r.end < r.origin)
        r.end = r.origin;
    r.nbuckets = (r.end - r.origin) / r.bucket_ns + 1;
    /* samples past the headers' end (a chunk still being written) get
     * their buckets; absurd times (damage) do not stretch the axis far */
    if (report_max_bucket(&r) >= r.nbuckets)
        r.nbuckets = report_max_bucket(&r) + 1;
    if (r.nbuckets > 4 * MAX_BUCKETS)
        r.nbuckets = 4 * MAX_BUCKETS;
    title = a.title ? a.title : (made_title = default_title(r.files, r.nfiles));
    if (outfile_open(&out, a.output) != EXIT_OK) {
        report_free(&r);
        free(made_title);
        return EXIT_USAGE;
    }
    write_page(out.fp, &r, title);
    report_free(&r);
    free(made_title);
    /* damaged input still gives its page (what was lost is on it); a file
     * that could not be read at all still makes the exit status 2 */
    c = outfile_close(&out, EXIT_OK);
    return c != EXIT_OK ? c : status;
}
