/* cmd_report.c - jfrtool report: one self-contained HTML page for a
 * recording (doc/report.md): overview, timelines on one time axis,
 * flame graphs and hot methods of every profile kind with time-range and
 * thread selection, findings and leak candidates: the options, the two
 * passes over the inputs at the same time, the time buckets; the page is
 * written by report_page.c. */
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats.h"
#include "jfrtool.h"
#include "options.h"
#include "output.h"
#include "report.h"
#include "util.h"

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
    "  --jobs N          decode chunks in N threads, and above 1 write the\n"
    "                    page's largest parts in two (default: one per idle\n"
    "                    CPU and 4 MB)\n"
    "  --rules FILE      add the rules of FILE to the findings (doc/report.md,\n"
    "                    \"Rules of your own\"); may be given more than once\n"
    "  -o, --output OUT  write to OUT instead of standard output\n";

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
        const char *name = input_name(files[i]), *slash = strrchr(name, '/');

        sb_putc(&sb, ' ');
        sb_puts(&sb, slash ? slash + 1 : name);
    }
    t = xstrdup(sb_str(&sb));
    sb_free(&sb);
    return t;
}

void report_free(report *r)
{
    for (size_t i = 0; i < r->nlost; i++)
        free(r->lost[i]);
    free(r->lost);
    report_profiles_free(r);
    report_rules_close(r);
    jfr_report_data_free(r->data);
    jfr_findings_free(r->findings);
    free(r->stdin_data);
}

/* What the command line asks for besides the report's own fields. */
typedef struct report_args {
    const char *output, *title;
    const char **rules; /* the --rules files, in order (free the array) */
    size_t nrules;
} report_args;

/* -1 to go on with the inputs at argv[optind], else the exit status
 * (after --help or a usage error). */
static int parse_report_options(int argc, char **argv, report *r, report_args *a)
{
    static const struct option opts[] = {
        {"title", required_argument, NULL, 'T'},  {"jobs", required_argument, NULL, 'j'},
        {"output", required_argument, NULL, 'o'}, {"rules", required_argument, NULL, 'r'},
        {"help", no_argument, NULL, 'h'},         {0},
    };
    int c;

    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'T':
            a->title = optarg;
            break;
        case 'j':
            if (option_jobs(optarg, &r->jobs) < 0)
                return EXIT_USAGE;
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

/* The inputs' bytes, for the default number of threads. */
static uint64_t input_bytes(const report *r)
{
    uint64_t sum = 0;
    struct stat st;

    for (int i = 0; i < r->nfiles; i++) {
        if (strcmp(r->files[i], "-") == 0)
            sum += r->stdin_size;
        else if (stat(r->files[i], &st) == 0 && st.st_size > 0)
            sum += (uint64_t)st.st_size;
    }
    return sum;
}

/* The rules, both passes over the inputs, then the page's time buckets:
 * -1 to go on (*status: the reading's exit status), else the exit status
 * of a rule that could not be loaded or run. */
static int read_report(report *r, const report_args *a, int *status)
{
    int c;

    /* standard input is read once, into memory: both passes read it */
    for (int i = 0; i < r->nfiles; i++)
        if (strcmp(r->files[i], "-") == 0 && !r->stdin_data)
            report_read_stdin(r);
    if ((c = report_rules_load(r, a->rules, a->nrules)) != EXIT_OK)
        return c;
    report_time_axis(r);
    if (r->end < r->origin)
        r->end = r->origin;
    r->bucket_ns =
        jfr_rate_bucket_width(jfr_nanos_between(r->origin, r->end), MAX_BUCKETS);
    /* the profiles' threads by default, asked before the passes start:
     * asked once they run, the in-order pass holds a CPU, and on two the
     * profiles then decode in one thread long after that pass is done */
    if (r->jobs == 0)
        r->jobs = (int)jfr_auto_threads(input_bytes(r));
    if ((c = read_passes(r, status)) != EXIT_OK)
        return c;
    report_rules_close(r); /* the first pass is done with its handles */
    if (r->end < r->origin)
        r->end = r->origin;
    r->nbuckets = jfr_nanos_between(r->origin, r->end) / r->bucket_ns + 1;
    /* samples past the headers' end (a chunk still being written) get
     * their buckets; absurd times (damage) do not stretch the axis far */
    if (report_max_bucket(r) >= r->nbuckets)
        r->nbuckets = report_max_bucket(r) + 1;
    if (r->nbuckets > 4 * MAX_BUCKETS)
        r->nbuckets = 4 * MAX_BUCKETS;
    return -1;
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
    if ((c = parse_report_options(argc, argv, &r, &a)) < 0 &&
        out_format_check_terminal(out_format_default(OUT_REPORT), a.output) != EXIT_OK)
        c = EXIT_USAGE;
    if (c >= 0) {
        free(a.rules);
        return c;
    }
    r.files = argv + optind;
    r.nfiles = argc - optind;
    c = read_report(&r, &a, &status);
    free(a.rules);
    if (c >= 0) {
        report_free(&r);
        return c;
    }
    if (r.chunks == 0) {
        report_free(&r);
        return status == EXIT_OK ? EXIT_INPUT : status;
    }
    title = a.title ? a.title : (made_title = default_title(r.files, r.nfiles));
    if (outfile_open(&out, a.output) != EXIT_OK) {
        report_free(&r);
        free(made_title);
        return EXIT_USAGE;
    }
    report_write_page(out.fp, &r, title);
    report_free(&r);
    free(made_title);
    /* damaged input still gives its page (what was lost is on it); a file
     * that could not be read at all still makes the exit status 2 */
    c = outfile_close(&out, EXIT_OK);
    return c != EXIT_OK ? c : status;
}
