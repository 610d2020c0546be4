/* cmd_flame.c - jfrtool flame: a flame graph of the selected samples, as a
 * self-contained HTML page (default) or a standalone SVG. CPU-time graphs
 * carry the lost samples as a root frame "[lost samples]" so that widths
 * are shares of all sampled CPU time (design.md §4). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "flame_output.h"
#include "fmt_pretty.h"
#include "out_text.h"
#include "jfrtool.h"
#include "select.h"
#include "util.h"

const char usage_flame[] =
    "Usage: jfrtool flame [SELECT] [SHAPE] [--format html|svg|pprof|speedscope]\n"
    "                     [--title T]\n"
    "                     [--reverse] [-o OUT] FILE...\n"
    "\n"
    "Draw a flame graph of the selected samples: one box per frame, as wide\n"
    "as the samples (or weight) in it, callers below callees (the root at\n"
    "the bottom, in the page too); frames are coloured by type as in\n"
    "FlameGraph and async-profiler (JIT compiled green, inlined aqua,\n"
    "interpreted light green, C++ yellow, native red, kernel orange; thread\n"
    "roots, [lost samples] and [no stack trace] grey).\n"
    "CPU-time graphs (jdk.CPUTimeSample) have a root frame [lost samples] for\n"
    "the samples the JVM lost (jdk.CPUTimeSamplesLost), so widths are shares\n"
    "of all sampled CPU time; with --weight period it weighs the mean sampling\n"
    "period per lost sample.\n"
    "\n"
    "  --format F        html (default): one page, no network needed; zoom on\n"
    "                    click, regex search with the matched share, opens\n"
    "                    as a flame (a button turns it into an icicle, root\n"
    "                    at the top); svg: a standalone SVG with search and zoom;\n"
    "                    pprof: the selection as a gzipped pprof profile (as\n"
    "                    jfrtool folded --format pprof writes it); speedscope:\n"
    "                    speedscope's JSON, a profile per thread in time order\n"
    "                    (as jfrtool folded --format speedscope writes it)\n"
    "  --title T         the title (default: event type and file names)\n"
    "  --reverse         start from the leaves: callees below their callers\n"
    "  -o, --output OUT  write to OUT instead of standard output\n"
    "\n" SELECT_USAGE_TEXT;

void flame_total_text(strbuf *sb, const jfr_profile *p)
{
    uint64_t total = jfr_profile_total(p);
    jfr_unit unit = jfr_profile_unit(p);
    int64_t v = total > INT64_MAX ? INT64_MAX : (int64_t)total;

    if (unit == JFR_UNIT_NANOS) {
        fmt_pretty_duration(sb, jduration_of_nanos(v));
    } else if (unit == JFR_UNIT_BYTES) {
        fmt_pretty_bytes(sb, v);
    } else {
        fmt_grouped(sb, v);
        sb_printf(sb, " %s", unit == JFR_UNIT_NUMBER ? "in all" : jfr_unit_name(unit));
    }
}

/* "jdk.CPUTimeSample: a.jfr b.jfr (1,234 samples)" */
char *flame_default_title(const select_result *r, char **files, int nfiles)
{
    strbuf sb = {0};
    char *title;

    sb_puts(&sb, r->label);
    sb_puts(&sb, ":");
    for (int i = 0; i < nfiles; i++) {
        const char *slash = strrchr(files[i], '/');
        sb_putc(&sb, ' ');
        sb_puts(&sb, slash ? slash + 1 : files[i]);
    }
    sb_puts(&sb, " (");
    flame_total_text(&sb, r->profile);
    sb_putc(&sb, ')');
    title = xstrdup(sb_str(&sb));
    sb_free(&sb);
    return title;
}

int flame_parse_options(int argc, char **argv, const struct option *opts,
                        const char *usage, unsigned command, select_opts *s,
                        flame_args *a)
{
    int c, st;

    memset(a, 0, sizeof *a);
    a->format = out_format_default(command);
    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        if (select_option(s, c, optarg))
            continue;
        switch (c) {
        case FLAME_OPT_FORMAT:
            if ((st = out_format_option(&a->format, optarg, command)) >= 0)
                return st;
            break;
        case FLAME_OPT_TITLE:
            a->title = optarg;
            break;
        case FLAME_OPT_REVERSE:
            a->reverse = true;
            break;
        case FLAME_OPT_FOLDED:
            a->folded = true;
            break;
        case FLAME_OPT_UNIT:
            if (strcmp(optarg, "samples") != 0 && strcmp(optarg, "bytes") != 0 &&
                strcmp(optarg, "ns") != 0) {
                warnx_("--unit is samples, bytes or ns, not '%s'", optarg);
                return EXIT_USAGE;
            }
            a->unit = optarg;
            break;
        case 'o':
            a->output = optarg;
            break;
        case 'h':
            fputs(usage, stdout);
            return EXIT_OK;
        default:
            fputs(usage, stderr);
            return EXIT_USAGE;
        }
    }
    return -1;
}

int cmd_flame(int argc, char **argv)
{
    static const struct option opts[] = {SELECT_OPTIONS, FLAME_OPTIONS, {0}};
    select_opts s = {0};
    select_result r;
    flame_args a;
    flame_tree t;
    const char *title;
    char *made_title = NULL;
    int status, st;

    if ((st = flame_parse_options(argc, argv, opts, usage_flame, OUT_FLAME, &s, &a)) >= 0)
        return st;
    if (optind >= argc) {
        fputs(usage_flame, stderr);
        return EXIT_USAGE;
    }
    /* pprof and speedscope get what folded would write; the graphs split
     * frames by kind */
    s.bucket_nanos = a.format->bucket_nanos;
    status =
        select_build(&r, &s, NULL, argv + optind, argc - optind,
                     a.format->profile_flags |
                         (a.format->write_tree && a.reverse ? JFR_PROFILE_REVERSE : 0));
    if (!r.profile)
        return status;
    if (a.format->write_profile) {
        profile_output po = {&r, &s, argv + optind, argc - optind};

        status = out_format_emit_profile(a.format, &po, a.output, status);
        select_result_free(&r);
        return status;
    }
    select_add_lost(&r);
    title = a.title;
    if (!title)
        title = made_title = flame_default_title(&r, argv + optind, argc - optind);
    /* the tree is walked from the profile's stacks: it lives on until written */
    flame_tree_from_profile(&t, r.profile, &s, a.reverse);
    t.unit = flame_unit(&r);
    t.hint = r.hint;
    status = out_format_emit_tree(a.format, &t, title, a.output, status);
    flame_tree_free(&t);
    select_result_free(&r);
    free(made_title);
    return status;
}
