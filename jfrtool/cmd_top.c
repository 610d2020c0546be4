/* cmd_top.c - jfrtool top: a running JVM's hot methods of the last seconds,
 * live, like top(1): followed through jfr_follow (follow.c), kept per
 * second (top_model.c), drawn on the terminal (top_screen.c, top_term.c)
 * or printed as a table per interval when standard output is not one. */
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "follow.h"
#include "jfrtool.h"
#include "select.h"
#include "top_model.h"
#include "top_screen.h"
#include "top_term.h"
#include "util.h"

const char usage_top[] =
    "Usage: jfrtool top [--event KIND] [--window T] [--interval T] [--top N]\n"
    "                   [--iterations N] PID|DIR|FILE\n"
    "\n"
    "A live view of a running JVM's hot methods, like top(1): for the samples\n"
    "of the last seconds, each method's self and total share, and a sparkline\n"
    "of its share over the last minute, below the JVM's CPU load, its GC pauses\n"
    "and the CPU-time samples it lost. The JVM is given by its process id or\n"
    "its repository directory; nothing is attached to it.\n"
    "\n"
    "  --event KIND      the kind shown first: cpu (CPU-time samples where the\n"
    "                    JVM records them, else execution samples; the\n"
    "                    default), alloc (bytes), lock or io (time)\n"
    "  --window T        the table sums the last T of samples (default 10s)\n"
    "  --interval T      refresh every T (default 1s)\n"
    "  --top N           methods in a plain table (default 20; a terminal shows\n"
    "                    what fits)\n"
    "  --iterations N    stop after N refreshes\n"
    "\n"
    "Keys: q quits; c, a, l, i show cpu, alloc, lock, io; s sorts by self or\n"
    "total share; p pauses the screen. When standard output is not a terminal,\n"
    "a plain table is printed every interval, for a log.\n";

typedef struct top_state {
    top_model *m;
    top_view v;
    /* the time the JVM's last flush stands for (ns since the epoch): top's
     * "now", so that the last seconds are the recording's, whatever the
     * clocks of this machine and the JVM's say (0: no flush yet) */
    int64_t data_now;
    bool screen;
    size_t rows;
    long iterations, refreshes;
    bool quit, drawn;
} top_state;

static void draw(top_state *t)
{
    int64_t now = t->data_now ? t->data_now : follow_now_nanos();
    int width = 80, height = 24;
    strbuf sb = {0};

    top_model_expire(t->m, now / 1000000000);
    if (!t->screen) {
        top_print_table(stdout, t->m, &t->v, now, t->rows);
        return;
    }
    term_size(&width, &height);
    top_draw_screen(&sb, t->m, &t->v, now, width, height);
    fwrite(sb_str(&sb), 1, sb.len, stdout);
    fflush(stdout);
    sb_free(&sb);
    t->drawn = true;
}

static void on_flush(const jfr_flush *fl, void *user)
{
    top_state *t = user;

    top_model_add(t->m, fl);
    if (fl->end_nanos > t->data_now)
        t->data_now = fl->end_nanos;
    /* the first data is shown at once, not at the next refresh */
    if (t->screen && !t->drawn && !t->v.paused)
        draw(t);
}

static void on_tick(int64_t now_nanos, bool last, void *user)
{
    top_state *t = user;

    (void)now_nanos;
    if (last) {
        /* messages after this go to the normal screen */
        if (t->screen)
            term_leave();
        return;
    }
    if (!t->v.paused || !t->screen)
        draw(t);
    if (t->iterations && ++t->refreshes >= t->iterations)
        t->quit = true;
}

static const top_kind key_kinds[128] = {
    ['c'] = TOP_CPU, ['a'] = TOP_ALLOC, ['l'] = TOP_LOCK, ['i'] = TOP_IO};

static bool on_keys(void *user)
{
    top_state *t = user;
    bool changed = term_redraw_needed();
    int key;

    while ((key = term_key()) >= 0) {
        if (key == 'q' || key == 'Q')
            t->quit = true;
        else if (key == 'c' || key == 'a' || key == 'l' || key == 'i')
            t->v.kind = key_kinds[key], changed = true;
        else if (key == 's')
            t->v.by_total = !t->v.by_total, changed = true;
        else if (key == 'p' || key == ' ')
            t->v.paused = !t->v.paused, changed = true;
    }
    if (changed && t->screen && !t->quit)
        draw(t);
    return !t->quit;
}

/* A duration option from 1 s to an hour, in seconds. */
static bool seconds_option(const char *arg, const char *name, int *out)
{
    int64_t ns;

    if (jfr_parse_time(&ns, arg, 0) != JFR_OK || ns < 1000000000 ||
        ns > INT64_C(3600000000000)) {
        warnx_("%s needs a duration from 1s to 1h (10s, 2m), not '%s'", name, arg);
        return false;
    }
    *out = (int)(ns / 1000000000);
    return true;
}

static bool count_option(const char *arg, const char *name, long *out)
{
    char *end;
    long n = strtol(arg, &end, 10);

    if (end == arg || *end || n < 1 || n > 1000000) {
        warnx_("%s needs a number from 1, not '%s'", name, arg);
        return false;
    }
    *out = n;
    return true;
}

static bool kind_option(const char *arg, top_kind *out)
{
    for (int k = 0; k < TOP_KINDS; k++)
        if (strcmp(arg, top_kind_name((top_kind)k)) == 0) {
            *out = (top_kind)k;
            return true;
        }
    warnx_("--event is cpu, exec, alloc, lock or io, not '%s'", arg);
    return false;
}

/* -1 to go on, else the exit status. */
static int parse_top_options(int argc, char **argv, top_state *t, int *interval)
{
    static const struct option opts[] = {
        {"event", required_argument, NULL, 'e'},
        {"window", required_argument, NULL, 'w'},
        {"interval", required_argument, NULL, 'I'},
        {"top", required_argument, NULL, 'n'},
        {"iterations", required_argument, NULL, 'N'},
        {"help", no_argument, NULL, 'h'},
        {0},
    };
    long rows = 20;
    int c;

    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        bool ok = true;

        switch (c) {
        case 'e':
            ok = kind_option(optarg, &t->v.kind);
            break;
        case 'w':
            ok = seconds_option(optarg, "--window", &t->v.window);
            break;
        case 'I':
            ok = seconds_option(optarg, "--interval", interval);
            break;
        case 'n':
            ok = count_option(optarg, "--top", &rows);
            break;
        case 'N':
            ok = count_option(optarg, "--iterations", &t->iterations);
            break;
        case 'h':
            fputs(usage_top, stdout);
            return EXIT_OK;
        default:
            ok = false;
        }
        if (!ok) {
            fputs(usage_top, stderr);
            return EXIT_USAGE;
        }
    }
    if (optind + 1 != argc) {
        if (optind < argc)
            warnx_("top follows one JVM: one process id, directory or file");
        fputs(usage_top, stderr);
        return EXIT_USAGE;
    }
    if (t->v.window > TOP_HISTORY) {
        warnx_("--window is at most %d s: top keeps a minute", TOP_HISTORY);
        return EXIT_USAGE;
    }
    t->rows = (size_t)rows;
    return -1;
}

int cmd_top(int argc, char **argv)
{
    top_state t = {.v = {TOP_CPU, false, false, 10, NULL, false}};
    follow_ops ops = {on_flush, on_tick, 1000, on_keys, JFR_FOLLOW_FROM_LATEST_CHUNK,
                      false};
    int interval = 1, status;

    if ((status = parse_top_options(argc, argv, &t, &interval)) >= 0)
        return status;
    setlocale(LC_CTYPE, "");
    t.v.utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    t.v.target = argv[optind];
    ops.tick_ms = (uint32_t)interval * 1000;
    t.m = top_model_new();
    t.screen = term_enter();
    status = follow_run(argv[optind], &ops, &t);
    term_leave();
    top_model_free(t.m);
    return status;
}
