/* cmd_folded.c - jfrtool folded: one line per distinct stack, frames from
 * the root joined by ';', a space and the count or weight, lines sorted by
 * bytes (design.md §3 "Folded stacks"), the input of flamegraph.pl and
 * other flame-graph tools. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "formats.h"
#include "jfrtool.h"
#include "select.h"
#include "util.h"

const char usage_folded[] =
    "Usage: jfrtool folded [SELECT] [SHAPE] [-o OUT] FILE...\n"
    "       jfrtool folded --follow [--interval T] [SELECT] [SHAPE] [-o OUT] "
    "PID|DIR|FILE\n"
    "\n"
    "Print folded (collapsed) stacks: one line per distinct stack, frames\n"
    "from the root (thread entry) to the leaf joined by ';', then a space and\n"
    "the number of samples (or the weight: bytes for alloc; ns for lock,\n"
    "wait, io and --weight period). Lines are sorted by byte order. Frames\n"
    "are package.Class.method; spaces and ';' inside a frame become '_'.\n"
    "Samples without a stack trace count on the frame [no_stack_trace].\n"
    "Several files are merged.\n"
    "\n"
    "  --format F        folded (the default), or pprof: a gzipped pprof profile\n"
    "                    (perftools.profiles) for go tool pprof, Pyroscope and\n"
    "                    Grafana, with sample counts and the kind's weight; or\n"
    "                    speedscope: speedscope's JSON file format, a sampled\n"
    "                    profile per thread with its samples in time order\n"
    "                    (1 ms apart or more) and weights in the kind's unit\n"
    "  -o, --output OUT  write to OUT instead of standard output\n"
    "  --follow          follow a running JVM (its process id or its repository)\n"
    "                    or a growing file, adding each flush's samples; write\n"
    "                    the profile when it ends (the JVM exits, Ctrl-C)\n"
    "  --interval T      with --follow, write a profile of the samples of every\n"
    "                    T (60s, 5m; a bare number is seconds) and start afresh:\n"
    "                    %t in OUT is the interval's start (20261126T120000Z),\n"
    "                    one file each; without -o profiles follow each other\n"
    "                    on standard output, an empty line after each\n"
    "\n" SELECT_USAGE_TEXT;

/* --follow and --interval: the follow's status, or -1 to go on. */
static int maybe_follow(const select_opts *s, const out_format *format,
                        const char *output, const char *interval, bool follow, int argc,
                        char **argv)
{
    if (interval && !follow) {
        warnx_("--interval goes with --follow");
        return EXIT_USAGE;
    }
    if (!follow)
        return -1;
    if (format->id == OUT_FMT_SPEEDSCOPE) {
        warnx_("--format speedscope reads whole files: not with --follow");
        return EXIT_USAGE;
    }
    return folded_follow(s, format, output, interval, argc - optind, argv + optind);
}

int cmd_folded(int argc, char **argv)
{
    static const struct option opts[] = {
        SELECT_OPTIONS,
        {"output", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'F'},
        {"follow", no_argument, NULL, 'f'},
        {"interval", required_argument, NULL, 'I'},
        {"help", no_argument, NULL, 'h'},
        {0},
    };
    select_opts s = {0};
    select_result r;
    const char *output = NULL, *interval = NULL;
    const out_format *format = out_format_default(OUT_FOLDED);
    bool follow = false;
    int c, status;

    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        if (select_option(&s, c, optarg))
            continue;
        switch (c) {
        case 'o':
            output = optarg;
            break;
        case 'F':
            if ((status = out_format_option(&format, optarg, OUT_FOLDED)) >= 0)
                return status;
            break;
        case 'f':
            follow = true;
            break;
        case 'I':
            interval = optarg;
            break;
        case 'h':
            fputs(usage_folded, stdout);
            return EXIT_OK;
        default:
            fputs(usage_folded, stderr);
            return EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        fputs(usage_folded, stderr);
        return EXIT_USAGE;
    }
    if ((status = maybe_follow(&s, format, output, interval, follow, argc, argv)) >= 0)
        return status;
    s.bucket_nanos = format->bucket_nanos;
    status =
        select_build(&r, &s, NULL, argv + optind, argc - optind, format->profile_flags);
    if (!r.profile)
        return status;
    {
        profile_output po = {&r, &s, argv + optind, argc - optind};

        status = out_format_emit_profile(format, &po, output, status);
    }
    select_result_free(&r);
    return status;
}
