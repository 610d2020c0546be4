/* cmd_view.c - jfrtool view: options, the table of views, dispatch.
 *
 * Adding a view: write its view_def (name, title, event types, run
 * function, help line) in its own file, declare it in views.h and list it
 * in `views` below. */
#include "config.h"

#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "output.h"
#include "parallel.h"
#include "view_generic.h"
#include "view_types.h"
#include "views.h"

static const view_def *const views[] = {
    &view_hot_methods,           &view_cpu_time_hot_methods, &view_native_methods,
    &view_cpu_time_statistics,   &view_allocation_by_class,  &view_allocation_by_site,
    &view_memory_leaks_by_class, &view_memory_leaks_by_site, &view_allocation_by_thread,
    /* @@VIEWS@@ (views in other files go above this line) */
};

#define NVIEWS (sizeof views / sizeof views[0])

const char usage_view[] =
    "Usage: jfrtool view [--width N] [--json | --csv] [--verbose] [--truncate "
    "beginning|end]\n"
    "                    [--cell-height N] [--weight samples|period] [--jdk-order]\n"
    "                    [--generic] [--jobs N] VIEW|EVENT-TYPE FILE...\n"
    "\n"
    "Print VIEW of the recording as JDK 25's `jfr view VIEW` prints it: the same\n"
    "title, columns, rows, values and units (top 25 rows where the JDK shows 25),\n"
    "with numbers formatted independently of the locale and times of day in the\n"
    "local time zone. Rows with equal values are ordered by their values, then\n"
    "by name. Several files are read as one recording; recordings of any JDK\n"
    "(11, 17, 21, 25) can be viewed. An EVENT-TYPE (jdk.GarbageCollection, or\n"
    "GarbageCollection) shows every event of that type with all its fields;\n"
    "all-events shows every event type of the recording that way, all-views\n"
    "every view that finds something.\n"
    "\n"
    "For CPU-time views (cpu-time-hot-methods, cpu-time-statistics), lines after\n"
    "the table say what all sampled CPU time was made of (JEP 509): samples with\n"
    "a stack trace, failed samples, lost samples (jdk.CPUTimeSamplesLost) and\n"
    "biased samples, each with its share.\n"
    "\n"
    "Options:\n"
    "  --width N        table width in characters (default: the terminal's\n"
    "                   width on a terminal, else as the JDK chooses)\n"
    "  --json           the rows as JSON objects, numbers as numbers, with\n"
    "                   each column's unit (and the CPU-time accounting)\n"
    "  --csv            the rows as CSV (RFC 4180), units in the header\n"
    "  --verbose        print the query (SQL, doc/sql.md) the view runs first\n"
    "  --truncate beginning|end\n"
    "                   cut text that does not fit its cell at its beginning\n"
    "                   or at its end (default: as the view says)\n"
    "  --cell-height N  lines a table cell may take (default: as the view says)\n"
    "  --weight period  CPU-time lines in CPU seconds, by samplingPeriod\n"
    "  --weight samples CPU-time lines by sample counts (default)\n"
    "  --jdk-order      order equal rows of the sample views as the JDK does\n"
    "                   (its HashMap's order): then byte for byte `jfr view`'s\n"
    "  --generic        run a view's definition even where a faster hand-made\n"
    "                   path exists (the output is the same)\n"
    "  --jobs N         decode the chunks of each file in N threads for the views\n"
    "                   by top frame (default: one per idle CPU; 1: no threads); the\n"
    "                   output is the same\n"
    "\n"
    "The views are listed below (jfrtool view --help); doc/views.md describes\n"
    "them and where they differ from the JDK's.\n";

static const view_def *find_view_fast(const char *name);

static void list_views(FILE *out)
{
    fputs("\nViews:\n", out);
    for (size_t i = 0; i < NVIEWS; i++)
        fprintf(out, "  %-26s %s\n", views[i]->name, views[i]->help);
#ifdef HAVE_SQLITE
    for (size_t i = 0; i < ngviews; i++)
        if (!find_view_fast(gviews[i].name))
            fprintf(out, "  %-26s %s\n", gviews[i].name, gviews[i].title);
#endif
}

static const view_def *find_view_fast(const char *name)
{
    for (size_t i = 0; i < NVIEWS; i++)
        if (strcmp(views[i]->name, name) == 0)
            return views[i];
    return NULL;
}

/* Java writes text in the locale's charset: under C/POSIX every non-ASCII
 * character becomes '?'. Do the same, so output matches the JDK's. */
static bool locale_is_ascii(void)
{
    const char *saved = setlocale(LC_CTYPE, NULL);
    char *copy = xstrdup(saved ? saved : "C");
    bool ascii = true;

    if (setlocale(LC_CTYPE, "")) {
        const char *cs = nl_langinfo(CODESET);
        ascii = !(strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
    }
    setlocale(LC_CTYPE, copy);
    free(copy);
    return ascii;
}

static void csv_field(FILE *out, json_t *v)
{
    char *text = NULL;
    const char *s;

    if (json_is_null(v) || !v)
        return;
    if (json_is_string(v)) {
        s = json_string_value(v);
    } else if (json_is_object(v) || json_is_array(v) || json_is_number(v) ||
               json_is_boolean(v)) {
        text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(15));
        s = text ? text : "";
    } else {
        s = "";
    }
    csv_quote(out, s, strlen(s));
    free(text);
}

/* --csv of a hand-made view: its JSON's rows (or, for a form, its values)
 * as RFC 4180 lines, the keys of the first row as the header. */
static int csv_of_json(const view_def *view, const view_ctx *ctx)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    view_ctx jctx = *ctx;
    json_t *doc, *rows, *first;
    json_error_t jerr;
    int status;

    if (!mem)
        diex(EXIT_INPUT, "view: out of memory");
    jctx.json = true;
    jctx.out = mem;
    status = view->run(view, &jctx);
    fclose(mem);
    doc = json_loadb(buf ? buf : "", len, 0, &jerr);
    free(buf);
    if (!doc)
        return status != EXIT_OK ? status : EXIT_INPUT;
    rows = json_object_get(doc, "rows");
    if (!json_is_array(rows)) {
        /* a form: its scalar values as one row */
        json_t *one = json_object(), *v;
        const char *k;
        json_object_foreach(doc, k, v)
        {
            if (!json_is_object(v) && !json_is_array(v))
                json_object_set(one, k, v);
        }
        rows = json_array();
        json_array_append_new(rows, one);
        json_object_set_new(doc, "rows", rows);
    }
    first = json_array_get(rows, 0);
    if (first) {
        const char *k;
        json_t *v;
        bool sep = false;
        json_object_foreach(first, k, v)
        {
            json_t *name = json_string(k);
            if (sep)
                putc(',', ctx->out);
            csv_field(ctx->out, name);
            json_decref(name);
            sep = true;
        }
        fputs("\r\n", ctx->out);
        for (size_t i = 0; i < json_array_size(rows); i++) {
            json_t *row = json_array_get(rows, i);
            sep = false;
            json_object_foreach(first, k, v)
            {
                if (sep)
                    putc(',', ctx->out);
                csv_field(ctx->out, json_object_get(row, k));
                sep = true;
            }
            fputs("\r\n", ctx->out);
        }
    }
    json_decref(doc);
    return status;
}

#ifdef HAVE_SQLITE
/* The views in the order of the JDK's list (its view.ini), as `jfr view
 * all-views` prints them. */
static const char *const all_views_order[] = {"active-recordings",
                                              "active-settings",
                                              "allocation-by-class",
                                              "allocation-by-thread",
                                              "allocation-by-site",
                                              "blocked-by-system-gc",
                                              "class-loaders",
                                              "class-modifications",
                                              "compiler-configuration",
                                              "compiler-statistics",
                                              "compiler-phases",
                                              "container-configuration",
                                              "container-cpu-usage",
                                              "container-memory-usage",
                                              "container-io-usage",
                                              "container-cpu-throttling",
                                              "contention-by-thread",
                                              "contention-by-class",
                                              "contention-by-site",
                                              "contention-by-address",
                                              "deprecated-methods-for-removal",
                                              "cpu-information",
                                              "cpu-load",
                                              "cpu-load-samples",
                                              "cpu-tsc",
                                              "deoptimizations-by-reason",
                                              "deoptimizations-by-site",
                                              "events-by-count",
                                              "events-by-name",
                                              "environment-variables",
                                              "exception-count",
                                              "exception-by-type",
                                              "exception-by-message",
                                              "exception-by-site",
                                              "file-reads-by-path",
                                              "file-writes-by-path",
                                              "finalizers",
                                              "gc",
                                              "gc-concurrent-phases",
                                              "gc-parallel-phases",
                                              "gc-configuration",
                                              "gc-references",
                                              "gc-pause-phases",
                                              "gc-pauses",
                                              "gc-allocation-trigger",
                                              "gc-cpu-time",
                                              "heap-configuration",
                                              "hot-methods",
                                              "cpu-time-hot-methods",
                                              "cpu-time-statistics",
                                              "jdk-agents",
                                              "jvm-flags",
                                              "jvm-information",
                                              "latencies-by-type",
                                              "memory-leaks-by-class",
                                              "memory-leaks-by-site",
                                              "method-timing",
                                              "method-calls",
                                              "modules",
                                              "monitor-inflation",
                                              "native-libraries",
                                              "native-library-failures",
                                              "native-memory-committed",
                                              "native-memory-reserved",
                                              "native-methods",
                                              "network-utilization",
                                              "object-statistics",
                                              "pinned-threads",
                                              "thread-count",
                                              "recording",
                                              "safepoints",
                                              "longest-compilations",
                                              "longest-class-loading",
                                              "system-properties",
                                              "socket-writes-by-host",
                                              "socket-reads-by-host",
                                              "system-information",
                                              "system-processes",
                                              "tlabs",
                                              "thread-allocation",
                                              "thread-cpu-load",
                                              "thread-start",
                                              "vm-operations"};

/* all-views: every view that has something to show, one after the other. */
static int run_all_views(const view_ctx *ctx, const gview_opts *o)
{
    int status = EXIT_OK;

    for (size_t i = 0; i < sizeof all_views_order / sizeof all_views_order[0]; i++) {
        const view_def *fast = find_view_fast(all_views_order[i]);
        const gview *gv = gview_find(all_views_order[i]);
        char *buf = NULL;
        size_t len = 0;
        FILE *mem;
        view_ctx one = *ctx;
        int rc;

        if (!fast && !gv)
            continue; /* not implemented (doc/views.md) */
        if (!(mem = open_memstream(&buf, &len)))
            diex(EXIT_INPUT, "view: out of memory");
        one.out = mem;
        rc = fast ? fast->run(fast, &one) : gview_run(gv, &one, o);
        fclose(mem);
        if (rc > status)
            status = rc;
        /* the JDK leaves out the views that find nothing */
        if (buf && strncmp(buf, "\nNo events found", 17) != 0 &&
            strncmp(buf, "Can't find", 10) != 0)
            fwrite(buf, 1, len, ctx->out);
        free(buf);
    }
    return status;
}

/* all-events: every event type of the first input's metadata, in its order
 * (the order `jfr view all-events` follows), as `view EVENT-TYPE` shows it. */
static int run_all_events(const view_ctx *ctx, const gview_opts *o)
{
    jfr_recording *rec;
    jfr_chunk *chunk;
    jfr_error err;
    char **names = NULL;
    size_t n = 0;
    int status = EXIT_OK;

    if (strcmp(ctx->files[0], "-") == 0) {
        warnx_(
            "all-events reads its inputs once per event type: not from standard input");
        return EXIT_USAGE;
    }
    if (jfr_recording_open_file(&rec, ctx->files[0], NULL, &err) < 0) {
        report_error(ctx->files[0], &err);
        return EXIT_INPUT;
    }
    if (jfr_recording_next_chunk(&chunk, rec) == JFR_OK) {
        names = xcalloc(jfr_chunk_type_count(chunk) + 1, sizeof *names);
        for (size_t i = 0; i < jfr_chunk_type_count(chunk); i++) {
            const jfr_type *t = jfr_chunk_type_at(chunk, i);
            if (jfr_type_is_event(t))
                names[n++] = xstrdup(jfr_type_name(t));
        }
    }
    jfr_recording_free(rec);
    for (size_t i = 0; i < n; i++) {
        int rc = gview_run_type(names[i], ctx, o);

        fputc('\n', ctx->out); /* the JDK leaves a line between types */
        if (rc > status)
            status = rc;
        free(names[i]);
    }
    free(names);
    return status;
}
#endif

static int usage_error(const char *fmt, const char *arg)
{
    strbuf sb = {0};

    sb_printf(&sb, fmt, arg);
    warnx_("%s (see jfrtool view --help)", sb_str(&sb));
    sb_free(&sb);
    return EXIT_USAGE;
}

int cmd_view(int argc, char **argv)
{
    enum {
        OPT_WIDTH = 256,
        OPT_JSON,
        OPT_WEIGHT,
        OPT_JDK_ORDER,
        OPT_JOBS,
        OPT_CSV,
        OPT_VERBOSE,
        OPT_TRUNCATE,
        OPT_CELL_HEIGHT,
        OPT_GENERIC
    };
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"width", required_argument, NULL, OPT_WIDTH},
        {"json", no_argument, NULL, OPT_JSON},
        {"weight", required_argument, NULL, OPT_WEIGHT},
        {"jdk-order", no_argument, NULL, OPT_JDK_ORDER},
        {"jobs", required_argument, NULL, OPT_JOBS},
        {"csv", no_argument, NULL, OPT_CSV},
        {"verbose", no_argument, NULL, OPT_VERBOSE},
        {"truncate", required_argument, NULL, OPT_TRUNCATE},
        {"cell-height", required_argument, NULL, OPT_CELL_HEIGHT},
        {"generic", no_argument, NULL, OPT_GENERIC},
        {0}};
    view_ctx ctx = {.out = stdout};
    gview_opts gopts = {0};
    bool generic = false;
    const view_def *view;
    int c;

    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(usage_view, stdout);
            list_views(stdout);
            return EXIT_OK;
        case OPT_WIDTH: {
            char *end;
            long w = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || w < 1 || w > 100000)
                return usage_error("bad --width '%s' (a number from 1 to 100000)",
                                   optarg);
            ctx.width = (int)w;
            break;
        }
        case OPT_JSON:
            ctx.json = true;
            break;
        case OPT_JOBS: {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || n < 1 || n > 256)
                return usage_error("bad --jobs '%s' (a number from 1 to 256)", optarg);
            ctx.jobs = (int)n;
            break;
        }
        case OPT_JDK_ORDER:
            ctx.jdk_order = true;
            break;
        case OPT_CSV:
            gopts.csv = true;
            break;
        case OPT_VERBOSE:
            gopts.verbose = true;
            break;
        case OPT_GENERIC:
            generic = true;
            gopts.generic = true;
            break;
        case OPT_TRUNCATE:
            if (strcmp(optarg, "beginning") == 0)
                gopts.truncate = 1;
            else if (strcmp(optarg, "end") == 0)
                gopts.truncate = 2;
            else
                return usage_error("bad --truncate '%s' (beginning or end)", optarg);
            break;
        case OPT_CELL_HEIGHT: {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (*optarg == '\0' || *end != '\0' || n < 1 || n > 100000)
                return usage_error("bad --cell-height '%s' (a number from 1 to 100000)",
                                   optarg);
            gopts.cell_height = (int)n;
            break;
        }
        case OPT_WEIGHT:
            if (strcmp(optarg, "period") == 0)
                ctx.weight_period = true;
            else if (strcmp(optarg, "samples") != 0)
                return usage_error("bad --weight '%s' (samples or period)", optarg);
            break;
        default:
            fputs(usage_view, stderr);
            return EXIT_USAGE;
        }
    }
    if (optind + 2 > argc)
        return usage_error("%s", optind < argc ? "no FILE given" : "no VIEW given");
#ifdef HAVE_SQLITE
    if (strcmp(argv[optind], "all-views") == 0) {
        ctx.files = argv + optind + 1;
        ctx.nfiles = argc - optind - 1;
        ctx.ascii_only = locale_is_ascii();
        ctx.first_jfr10 = gview_first_input_jfr10(&ctx);
        return run_all_views(&ctx, &gopts);
    }
    if (strcmp(argv[optind], "all-events") == 0) {
        ctx.files = argv + optind + 1;
        ctx.nfiles = argc - optind - 1;
        ctx.ascii_only = locale_is_ascii();
        ctx.first_jfr10 = gview_first_input_jfr10(&ctx);
        return run_all_events(&ctx, &gopts);
    }
#endif
    view = generic ? NULL : find_view_fast(argv[optind]);
    ctx.files = argv + optind + 1;
    ctx.nfiles = argc - optind - 1;
    /* on a terminal, fit it, as --width would */
    if (!ctx.width && !ctx.json && !gopts.csv)
        ctx.width = output_terminal_width();
    ctx.ascii_only = locale_is_ascii();
    if (view && gopts.csv)
        return csv_of_json(view, &ctx);
    if (view && !gopts.verbose)
        return view->run(view, &ctx);
#ifdef HAVE_SQLITE
    /* the generic engine reads the inputs several times anyway */
    if (!ctx.json && !gopts.csv)
        ctx.first_jfr10 = gview_first_input_jfr10(&ctx);
    {
        const gview *gv = gview_find(argv[optind]);
        if (gv)
            return gview_run(gv, &ctx, &gopts);
    }
#endif
    if (view)
        return view->run(view, &ctx);
#ifdef HAVE_SQLITE
    {
        const char **names = xcalloc(NVIEWS + ngviews, sizeof *names);
        size_t n = 0;
        int rc;

        for (size_t i = 0; i < NVIEWS; i++)
            names[n++] = views[i]->name;
        for (size_t i = 0; i < ngviews; i++)
            if (!find_view_fast(gviews[i].name))
                names[n++] = gviews[i].name;
        rc = view_event_types(argv[optind], &ctx, &gopts, names, n);
        free(names);
        return rc;
    }
#endif
    return usage_error("unknown view '%s'", argv[optind]);
}
