/* cmd_diff.c - jfrtool diff: a differential flame graph of NEW against
 * BASE. The tree is the union of both call trees, drawn with NEW's widths;
 * BASE is scaled to NEW's total, so colours show shares that moved (red:
 * more in NEW, blue: less), not a difference in recording length. */
#include <stdlib.h>
#include <string.h>

#include "flame_output.h"
#include "jfrtool.h"
#include "select.h"
#include "util.h"

const char usage_diff[] =
    "Usage: jfrtool diff [SELECT] [SHAPE] [--base-event E] [--format svg|html]\n"
    "                    [--title T] [--reverse] [-o OUT] BASE NEW\n"
    "       jfrtool diff [SELECT] [SHAPE] --base-event E [...] FILE\n"
    "\n"
    "Draw a differential flame graph of NEW against BASE: frames are as wide\n"
    "as in NEW; BASE is scaled to the same total, and a frame is redder the\n"
    "larger its share grew in NEW, bluer the more it shrank (white: equal).\n"
    "Frames only in BASE appear with width 0 in NEW (visible in the HTML\n"
    "search and tooltips). Tooltips give both values and the delta.\n"
    "\n"
    "BASE and NEW are two recordings (or '-'), compared on the same event\n"
    "type (--event, default as for flame, decided on NEW), or, with one FILE\n"
    "and --base-event, two event types of one recording: for instance\n"
    "'jfrtool diff --base-event exec --event cpu app.jfr' shows where CPU time\n"
    "goes that execution sampling does not see (native code, JIT compiler\n"
    "threads). With two files, --base-event selects BASE's event type.\n"
    "\n"
    "  --base-event E    event type of BASE (cpu, exec, native, alloc, a name)\n"
    "  --format F        html (default) or svg, as for jfrtool flame\n"
    "  --title T         the title\n"
    "  --reverse         start from the leaves\n"
    "  -o, --output OUT  write to OUT instead of standard output\n"
    "\n" SELECT_USAGE_TEXT;

int cmd_diff(int argc, char **argv)
{
    static const struct option opts[] = {
        SELECT_OPTIONS,
        {"base-event", required_argument, NULL, SEL_BASE_EVENT},
        FLAME_OPTIONS,
        {0},
    };
    select_opts s = {0};
    select_result base, cur;
    flame_args a;
    flame_tree t;
    const char *title;
    char *made_title = NULL, **base_file, **new_file;
    int nfiles, status, st;
    unsigned flags;

    s.normalize = -1;
    if ((st = flame_parse_options(argc, argv, opts, usage_diff, &s, &a)) >= 0)
        return st;
    if (a.pprof) {
        warnx_("--format pprof holds one profile: diff draws html or svg");
        return EXIT_USAGE;
    }
    /* two runs name their lambdas differently: compare them as one */
    if (s.normalize < 0)
        s.normalize = 1;
    nfiles = argc - optind;
    if (nfiles != 2 && !(nfiles == 1 && s.base_event)) {
        warnx_("give BASE and NEW, or one file with --base-event");
        fputs(usage_diff, stderr);
        return EXIT_USAGE;
    }
    base_file = argv + optind;
    new_file = argv + optind + (nfiles - 1);
    if (nfiles == 1 && strcmp(*base_file, "-") == 0) {
        warnx_("one recording on standard input cannot be read twice");
        return EXIT_USAGE;
    }
    /* one box per method, as flame draws it; --annotate splits them by kind */
    flags =
        (s.annotate ? JFR_PROFILE_FRAME_KIND : 0) | (a.reverse ? JFR_PROFILE_REVERSE : 0);
    status = select_build(&cur, &s, NULL, new_file, 1, flags);
    if (!cur.profile)
        return status;
    st = select_build(&base, &s, s.base_event ? s.base_event : cur.selection, base_file,
                      1, flags);
    if (!base.profile) {
        select_result_free(&cur);
        return st;
    }
    /* the default kind comes from NEW: when BASE has no CPU-time samples
     * (a JDK before 25), everything would show as new; compare execution
     * samples on both sides instead, and say so */
    if (!s.event && !s.base_event && strcmp(cur.selection, "cpu") == 0 &&
        !jfr_profile_samples(base.profile)) {
        warnx_("%s has no CPU-time samples: both sides compared by execution"
               " samples (--event exec)",
               *base_file);
        select_result_free(&base);
        select_result_free(&cur);
        s.event = "exec";
        status = select_build(&cur, &s, NULL, new_file, 1, flags);
        if (!cur.profile)
            return status;
        st = select_build(&base, &s, NULL, base_file, 1, flags);
        if (!base.profile) {
            select_result_free(&cur);
            return st;
        }
    }
    if (st != EXIT_OK)
        status = st;
    select_add_lost(&base);
    select_add_lost(&cur);
    title = a.title;
    if (!title) {
        strbuf sb = {0};
        sb_printf(&sb, "%s %s (", base.label, *base_file);
        flame_total_text(&sb, base.profile);
        sb_printf(&sb, ") vs %s %s (", cur.label, *new_file);
        flame_total_text(&sb, cur.profile);
        sb_putc(&sb, ')');
        title = made_title = xstrdup(sb_str(&sb));
        sb_free(&sb);
    }
    flame_tree_diff(&t, base.profile, cur.profile, &s);
    t.unit = flame_unit(&cur);
    /* the tree has its own copies: the profiles' memory goes before writing */
    select_result_free(&base);
    select_result_free(&cur);
    status = flame_emit(&t, a.svg, title, a.output, status);
    flame_tree_free(&t);
    free(made_title);
    return status;
}
