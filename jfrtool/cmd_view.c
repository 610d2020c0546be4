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

#include "formats.h"
#include "jfrtool.h"
#include "csv_writer.h"
#include "json_writer.h"
#include "options.h"
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
    "Usage: jfrtool view [--width N] [--json | --csv | --format F] [--verbose]\n"
    "                    [--truncate beginning|end] [--cell-height N]\n"
    "                    [--weight samples|period] [--jdk-order] [--generic]\n"
    "                    [--jobs N] VIEW|EVENT-TYPE FILE...\n"
    "       jfrtool view --list\n"
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
    "  --format F       text (default), json (as --json) or csv (as --csv); the\n"
    "                   last of the three counts; `--format list`\n"
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
    "  --list           print the views (as below) and exit\n"
    "  --jobs N         decode the chunks of each file in N threads for the views\n"
    "                   by top frame and the GC phase statistics, and list the\n"
    "                   records the other views read (default: one per idle\n"
    "                   CPU and 4 MB; 1: no threads); the output is the same\n"
    "\n"
    "The views are listed below (jfrtool view --help); doc/views.md describes\n"
    "them and where they differ from the JDK's.\n";

static const view_def *find_view_fast(const char *name);

/* The views in the list's order (sql/view_list.c); without SQLite, the
 * hand-made ones only. */
static void list_views(FILE *out)
{
#ifdef HAVE_SQLITE
    for (size_t i = 0; i < jfrsql_nviews; i++) {
        const view_def *fast = find_view_fast(jfrsql_views[i].name);
        fprintf(out, "  %-26s %s\n", jfrsql_views[i].name,
                fast ? fast->help : jfrsql_views[i].title);
    }
#else
    for (size_t i = 0; i < NVIEWS; i++)
        fprintf(out, "  %-26s %s\n", views[i]->name, views[i]->help);
#endif
}

/* The hand-made path of view `name`: only where its row in sql/ names one
 * (the row decides; without SQLite there are no rows, only these). */
static const view_def *find_view_fast(const char *name)
{
#ifdef HAVE_SQLITE
    const jfrsql_view *row = jfrsql_view_find(name);

    if (!row || !row->fast_path)
        return NULL;
#endif
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

/* A JSON value as a CSV field: text as it is, other values as compact
 * JSON, null (or no value) empty. */
static void csv_json_field(csv_row *row, json_t *v)
{
    strbuf text = {0};

    if (json_is_string(v)) {
        csv_field_str(row, json_string_value(v));
        return;
    }
    if (v && !json_is_null(v))
        json_tree_text(&text, v, &json_compact, 15);
    csv_field(row, text.ptr, text.len);
    sb_free(&text);
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
        csv_row row;

        csv_row_begin(&row, ctx->out);
        json_object_foreach(first, k, v)
        {
            csv_field_str(&row, k);
        }
        csv_row_end(&row);
        for (size_t i = 0; i < json_array_size(rows); i++) {
            json_object_foreach(first, k, v)
            {
                csv_json_field(&row, json_object_get(json_array_get(rows, i), k));
            }
            csv_row_end(&row);
        }
    }
    json_decref(doc);
    return status;
}

#ifdef HAVE_SQLITE
/* all-views: every view that has something to show, one after the other. */
static int run_all_views(const view_ctx *ctx, const gview_opts *o)
{
    int status = EXIT_OK;

    for (size_t i = 0; i < jfrsql_nviews; i++) {
        const view_def *fast = find_view_fast(jfrsql_views[i].name);
        const jfrsql_view *gv = jfrsql_views[i].sql ? &jfrsql_views[i] : NULL;

        if (jfrsql_views[i].ours)
            continue; /* the JDK's all-views has only its own */
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
        gview_opts each = *o;
        int rc;

        each.label_titles = true;
        rc = gview_run_type(names[i], ctx, &each);

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

/* A number option from 1 to `max`: 0, or a usage error. */
static int view_number(const char *option, const char *arg, long max, int *out)
{
    char *end;
    long n = strtol(arg, &end, 10);

    if (*arg == '\0' || *end != '\0' || n < 1 || n > max) {
        warnx_("bad --%s '%s' (a number from 1 to %ld) (see jfrtool view --help)", option,
               arg, max);
        return -1;
    }
    *out = (int)n;
    return 0;
}

enum {
    OPT_WIDTH = 0x100,
    OPT_JSON,
    OPT_WEIGHT,
    OPT_JDK_ORDER,
    OPT_JOBS,
    OPT_CSV,
    OPT_VERBOSE,
    OPT_TRUNCATE,
    OPT_CELL_HEIGHT,
    OPT_GENERIC,
    OPT_FORMAT,
    OPT_LIST
};

/* The options that take a value; false after a usage message. */
static bool view_value_option(int c, const char *arg, view_ctx *ctx, gview_opts *gopts)
{
    switch (c) {
    case OPT_WIDTH:
        return view_number("width", arg, 100000, &ctx->width) == 0;
    case OPT_CELL_HEIGHT:
        return view_number("cell-height", arg, 100000, &gopts->cell_height) == 0;
    case OPT_JOBS:
        return option_jobs(arg, &ctx->jobs) == 0;
    case OPT_TRUNCATE:
        if (strcmp(arg, "beginning") != 0 && strcmp(arg, "end") != 0) {
            usage_error("bad --truncate '%s' (beginning or end)", arg);
            return false;
        }
        gopts->truncate = strcmp(arg, "beginning") == 0 ? 1 : 2;
        return true;
    case OPT_WEIGHT:
        if (strcmp(arg, "period") != 0 && strcmp(arg, "samples") != 0) {
            usage_error("bad --weight '%s' (samples or period)", arg);
            return false;
        }
        ctx->weight_period = strcmp(arg, "period") == 0;
        return true;
    }
    return false;
}

/* -1 to go on with the view, else the exit status (after --help, --format
 * list or a usage error). The last of --format, --json and --csv counts. */
static int parse_view_options(int argc, char **argv, view_ctx *ctx, gview_opts *gopts)
{
    static const struct option opts[] = {
        {"help", no_argument, NULL, 'h'},
        {"width", required_argument, NULL, OPT_WIDTH},
        {"json", no_argument, NULL, OPT_JSON},
        {"weight", required_argument, NULL, OPT_WEIGHT},
        {"jdk-order", no_argument, NULL, OPT_JDK_ORDER},
        {"jobs", required_argument, NULL, OPT_JOBS},
        {"csv", no_argument, NULL, OPT_CSV},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"verbose", no_argument, NULL, OPT_VERBOSE},
        {"truncate", required_argument, NULL, OPT_TRUNCATE},
        {"cell-height", required_argument, NULL, OPT_CELL_HEIGHT},
        {"generic", no_argument, NULL, OPT_GENERIC},
        {"list", no_argument, NULL, OPT_LIST},
        {0}};
    const out_format *format = out_format_default(OUT_VIEW);
    int c, st;

    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(usage_view, stdout);
            fputs("\nViews:\n", stdout);
            list_views(stdout);
            return EXIT_OK;
        case OPT_LIST:
            list_views(stdout);
            return EXIT_OK;
        case OPT_JSON:
        case OPT_CSV:
            format = out_format_find(c == OPT_JSON ? "json" : "csv", OUT_VIEW);
            break;
        case OPT_FORMAT:
            if ((st = out_format_option(&format, optarg, OUT_VIEW)) >= 0)
                return st;
            break;
        case OPT_JDK_ORDER:
            ctx->jdk_order = true;
            break;
        case OPT_VERBOSE:
            gopts->verbose = true;
            break;
        case OPT_GENERIC:
            gopts->generic = true;
            break;
        case OPT_WIDTH:
        case OPT_CELL_HEIGHT:
        case OPT_JOBS:
        case OPT_TRUNCATE:
        case OPT_WEIGHT:
            if (view_value_option(c, optarg, ctx, gopts))
                break;
            return EXIT_USAGE;
        default:
            fputs(usage_view, stderr);
            return EXIT_USAGE;
        }
    }
    ctx->json = format->id == OUT_FMT_JSON;
    gopts->csv = format->id == OUT_FMT_CSV;
    return -1;
}

#ifdef HAVE_SQLITE
/* View `gv` (NULL: all-views or all-events, as `name` says) by the generic
 * engine. all-views and all-events open the first input's first chunk once
 * for all their tables; one view opens it once its inputs are attached
 * (gview_run), so that the metadata's memory comes after the catalog's. */
static int run_generic(const jfrsql_view *gv, const char *name, view_ctx *ctx,
                       const gview_opts *o)
{
    jfr_recording *first = NULL;
    int st;

    /* a view over every type reads no type's metadata: only whether the
     * first chunk is JFR 1.0 */
    if (gv && strcmp(gv->types, "*") == 0) {
        jfr_recording_free(gview_open_first_chunk(ctx));
        ctx->first_chunk = NULL;
    } else if (!gv) {
        first = gview_open_first_chunk(ctx);
    }
    st = gv                               ? gview_run(gv, ctx, o)
         : strcmp(name, "all-views") == 0 ? run_all_views(ctx, o)
                                          : run_all_events(ctx, o);

    ctx->first_chunk = NULL;
    jfr_recording_free(first);
    return st;
}
#endif

int cmd_view(int argc, char **argv)
{
    view_ctx ctx = {.out = stdout};
    gview_opts gopts = {0};
    const view_def *view;
    int st;

    if ((st = parse_view_options(argc, argv, &ctx, &gopts)) >= 0)
        return st;
    if (optind + 2 > argc)
        return usage_error("%s", optind < argc ? "no FILE given" : "no VIEW given");
#ifdef HAVE_SQLITE
    if (strcmp(argv[optind], "all-views") == 0 ||
        strcmp(argv[optind], "all-events") == 0) {
        ctx.files = argv + optind + 1;
        ctx.nfiles = argc - optind - 1;
        ctx.ascii_only = locale_is_ascii();
        return run_generic(NULL, argv[optind], &ctx, &gopts);
    }
#endif
    view = gopts.generic ? NULL : find_view_fast(argv[optind]);
    ctx.files = argv + optind + 1;
    ctx.nfiles = argc - optind - 1;
    /* on a terminal, fit it, as --width would */
    if (!ctx.width && !ctx.json && !gopts.csv)
        ctx.width = output_terminal_width();
    ctx.ascii_only = locale_is_ascii();
    ctx.cell_height = gopts.cell_height; /* for the views made only by hand */
    ctx.truncate = gopts.truncate;
    if (view && gopts.csv)
        return csv_of_json(view, &ctx);
    /* most hand-made views lay out one line a cell, as the JDK's views
     * without options: --cell-height and --truncate take the definition
     * there (whose equal rows are by name, even with --jdk-order) */
    if (view && !gopts.verbose &&
        (view->cell_options || (!gopts.cell_height && !gopts.truncate)))
        return view->run(view, &ctx);
#ifdef HAVE_SQLITE
    {
        const jfrsql_view *gv = jfrsql_view_find(argv[optind]);
        if (gv && gv->sql)
            return run_generic(gv, argv[optind], &ctx, &gopts);
    }
#endif
    if (view)
        return view->run(view, &ctx);
#ifdef HAVE_SQLITE
    {
        const char **names = xcalloc(jfrsql_nviews, sizeof *names);
        size_t n = 0;
        int rc;

        for (size_t i = 0; i < jfrsql_nviews; i++)
            names[n++] = jfrsql_views[i].name;
        rc = view_event_types(argv[optind], &ctx, &gopts, names, n);
        free(names);
        return rc;
    }
#endif
    return usage_error("unknown view '%s'", argv[optind]);
}
