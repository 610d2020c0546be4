/* cmd_diff.c - jfrtool diff: a differential flame graph of NEW against
 * BASE. The tree is the union of both call trees, drawn with NEW's widths;
 * BASE is scaled to NEW's total, so colours show shares that moved (red:
 * more in NEW, blue: less), not a difference in recording length. */
#include <errno.h>
#include <stdio.h>
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
    "       jfrtool diff --folded [--unit U] [...] BASE.folded NEW.folded\n"
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
    "With --folded, BASE and NEW are folded stacks, as jfrtool folded writes\n"
    "them (or merged elsewhere, e.g. by Python's jfr.fleet): a line is frames\n"
    "from the root joined by ';', a space and a weight; a FlameGraph suffix\n"
    "(_[j], _[i], _[0], _[k], from --annotate) gives the frame's type.\n"
    "Their frames are normalised as a recording's are (--no-normalize keeps\n"
    "them as written).\n"
    "\n"
    "  --base-event E    event type of BASE (cpu, exec, native, alloc, a name)\n"
    "  --folded          BASE and NEW are folded stacks, not recordings\n"
    "  --unit U          with --folded, what the weights are: samples (default),\n"
    "                    bytes or ns\n"
    "  --format F        html (default) or svg, as for jfrtool flame\n"
    "  --title T         the title\n"
    "  --reverse         start from the leaves\n"
    "  -o, --output OUT  write to OUT instead of standard output\n"
    "\n" SELECT_USAGE_TEXT;

/* ---- folded input (--folded) ---------------------------------------------------- */

/* The frame type a FlameGraph suffix of `frame` (`*len` bytes) names,
 * and the suffix cut off. Without one, a frame of an annotated file is
 * C++ when its name has "::" (FlameGraph's rule for its java palette),
 * else native (the convention has no suffix for them); otherwise its
 * type is not known. */
static jfr_frame_kind folded_kind(char *frame, size_t *len, bool annotated)
{
    jfr_frame_kind kind = jfr_frame_kind_of_suffix(len, frame, *len);

    if (kind != JFR_FRAME_UNKNOWN) {
        frame[*len] = '\0';
        return kind;
    }
    if (!annotated)
        return JFR_FRAME_UNKNOWN;
    return strstr(frame, "::") ? JFR_FRAME_CPP : JFR_FRAME_NATIVE;
}

/* Whether the folded text has frame-type suffixes (--annotate). */
static bool folded_annotated(const char *text)
{
    char mark[16];

    for (int k = JFR_FRAME_UNKNOWN; k <= JFR_FRAME_C1; k++) {
        const char *suffix = jfr_frame_kind_suffix((jfr_frame_kind)k);

        if (!*suffix)
            continue;
        snprintf(mark, sizeof mark, "%s;", suffix); /* before the next frame */
        if (strstr(text, mark))
            return true;
        snprintf(mark, sizeof mark, "%s ", suffix); /* before the weight */
        if (strstr(text, mark))
            return true;
    }
    return false;
}

/* The synthetic frames folded text made '_' of, given back their spaces:
 * "[no_stack_trace]", "[lost_samples]", "[thread_NAME_tid=N]" (a space
 * inside NAME stays '_'). */
static void folded_synthetic(char *frame, size_t len)
{
    char *tid;

    if (strcmp(frame, "[no_stack_trace]") == 0 || strcmp(frame, "[lost_samples]") == 0) {
        for (size_t i = 0; i < len; i++)
            frame[i] = frame[i] == '_' ? ' ' : frame[i];
    } else if (strncmp(frame, "[thread_", 8) == 0 && (tid = strstr(frame, "_tid="))) {
        frame[7] = ' ';
        tid[0] = ' ';
    }
}

/* One line "a;b;c WEIGHT" into the profile; false when it is malformed. */
static bool folded_line(jfr_profile *p, char *line, bool annotated,
                        jfr_profile_frame **frames, size_t *room)
{
    char *space = strrchr(line, ' '), *end, *frame;
    unsigned long long w;
    size_t depth = 0;

    if (!space || space == line)
        return false;
    *space = '\0';
    errno = 0;
    w = strtoull(space + 1, &end, 10);
    if (end == space + 1 || *end || errno || space[1] == '-')
        return false;
    for (frame = line;; frame++) {
        char *semi = strchr(frame, ';');
        size_t len = semi ? (size_t)(semi - frame) : strlen(frame);
        jfr_profile_frame *f;

        if (depth == *room) {
            *room = *room ? *room * 2 : 64;
            *frames = xrealloc(*frames, *room, sizeof **frames);
        }
        f = &(*frames)[depth++];
        memset(f, 0, sizeof *f);
        frame[len] = '\0';
        f->synthetic = len >= 2 && frame[0] == '[' && frame[len - 1] == ']';
        if (f->synthetic)
            folded_synthetic(frame, len);
        else
            f->kind = folded_kind(frame, &len, annotated);
        f->name = frame;
        f->line = -1;
        if (!semi)
            break;
        frame = semi;
    }
    if (w && jfr_profile_add_stack(p, *frames, depth, w, 1) < 0)
        diex(EXIT_INPUT, "out of memory");
    return true;
}

/* The profile of folded-stack file `path` ("-": standard input). */
static int folded_profile(select_result *r, const char *path, unsigned flags)
{
    jfr_profile_options po = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile_frame *frames = NULL;
    size_t room = 0, lineno = 0, n;
    strbuf text = {0};
    char buf[65536], *line, *next;
    jfr_error err;
    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    int status = EXIT_OK;
    bool annotated;

    memset(r, 0, sizeof *r);
    if (!in) {
        warnx_("%s: %s", path, strerror(errno));
        return EXIT_INPUT;
    }
    /* read whole: whether frames without a suffix are native depends on
     * the rest of the file */
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        sb_putn(&text, buf, n);
    if (ferror(in)) {
        warnx_("%s: %s", path, strerror(errno));
        status = EXIT_INPUT;
    }
    if (in != stdin)
        fclose(in);
    po.event_type = "folded";
    po.flags = flags;
    if (jfr_profile_new(&r->profile, &po, &err) < 0)
        diex(EXIT_INPUT, "%s", err.message);
    r->selection = r->label = "folded";
    annotated = folded_annotated(sb_str(&text));
    for (line = text.ptr; line && *line; line = next) {
        size_t len;

        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        len = strlen(line);
        while (len > 0 && line[len - 1] == '\r')
            line[--len] = '\0';
        if (len == 0)
            continue;
        if (!folded_line(r->profile, line, annotated, &frames, &room)) {
            warnx_("%s:%zu: not a folded stack (frames;... WEIGHT)", path, lineno);
            status = EXIT_INPUT;
        }
    }
    sb_free(&text);
    free(frames);
    return status;
}

static int diff_folded(select_opts *s, const flame_args *a, int nfiles, char **files)
{
    select_result base, cur;
    flame_tree t;
    const char *title = a->title;
    char *made_title = NULL;
    unsigned flags = JFR_PROFILE_FRAME_KIND | (a->reverse ? JFR_PROFILE_REVERSE : 0) |
                     (s->threads ? JFR_PROFILE_THREADS : 0) |
                     (s->normalize ? JFR_PROFILE_NORMALIZE : 0);
    int status, st;

    if (nfiles != 2 || (strcmp(files[0], "-") == 0 && strcmp(files[1], "-") == 0)) {
        warnx_("diff --folded: give BASE and NEW, two files of folded stacks");
        return EXIT_USAGE;
    }
    status = folded_profile(&base, files[0], flags);
    st = folded_profile(&cur, files[1], flags);
    if (!base.profile || !cur.profile) {
        select_result_free(&base);
        select_result_free(&cur);
        return EXIT_INPUT;
    }
    if (st != EXIT_OK)
        status = st;
    if (!title) {
        strbuf sb = {0};
        const char *unit = a->unit ? a->unit : "samples";
        sb_printf(&sb, "%s (%llu %s) vs %s (%llu %s)", files[0],
                  (unsigned long long)jfr_profile_total(base.profile), unit, files[1],
                  (unsigned long long)jfr_profile_total(cur.profile), unit);
        title = made_title = xstrdup(sb_str(&sb));
        sb_free(&sb);
    }
    /* frames are named already (with any :LINE): no --lines on top */
    s->lines = false;
    s->annotate = false;
    flame_tree_diff(&t, base.profile, cur.profile, s);
    t.two_threads = t.count >= FLAME_TWO_THREADS_FROM && select_second_thread(s);
    t.unit = a->unit ? a->unit : "samples";
    select_result_free(&base);
    select_result_free(&cur);
    status = out_format_emit_tree(a->format, &t, title, a->output, status);
    flame_tree_free(&t);
    free(made_title);
    return status;
}

/* Build NEW (*cur) and BASE (*base) from one input each. Returns -1 with
 * both built (*status: the reading's status), else the exit status. */
static int build_sides(select_result *base, select_result *cur, select_opts *s,
                       char **base_file, char **new_file, unsigned flags, int *status)
{
    int st;

    *status = select_build(cur, s, NULL, new_file, 1, flags);
    if (!cur->profile)
        return *status;
    st = select_build(base, s, s->base_event ? s->base_event : cur->selection, base_file,
                      1, flags);
    if (!base->profile) {
        select_result_free(cur);
        return st;
    }
    /* the default kind comes from NEW: when BASE has no CPU-time samples
     * (a JDK before 25), everything would show as new; compare execution
     * samples on both sides instead, and say so */
    if (!s->event && !s->base_event && strcmp(cur->selection, "cpu") == 0 &&
        !jfr_profile_samples(base->profile)) {
        warnx_("%s has no CPU-time samples: both sides compared by execution"
               " samples (--event exec)",
               *base_file);
        select_result_free(base);
        select_result_free(cur);
        s->event = "exec";
        *status = select_build(cur, s, NULL, new_file, 1, flags);
        if (!cur->profile)
            return *status;
        st = select_build(base, s, NULL, base_file, 1, flags);
        if (!base->profile) {
            select_result_free(cur);
            return st;
        }
    }
    if (st != EXIT_OK)
        *status = st;
    return -1;
}

int cmd_diff(int argc, char **argv)
{
    static const struct option opts[] = {
        SELECT_OPTIONS,
        {"base-event", required_argument, NULL, SEL_BASE_EVENT},
        {"folded", no_argument, NULL, FLAME_OPT_FOLDED},
        {"unit", required_argument, NULL, FLAME_OPT_UNIT},
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
    if ((st = flame_parse_options(argc, argv, opts, usage_diff, OUT_DIFF, &s, &a)) >= 0)
        return st;
    /* two runs name their lambdas differently: compare them as one */
    if (s.normalize < 0)
        s.normalize = 1;
    nfiles = argc - optind;
    if (a.folded)
        return diff_folded(&s, &a, argc - optind, argv + optind);
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
    if ((st = build_sides(&base, &cur, &s, base_file, new_file, flags, &status)) >= 0)
        return st;
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
    t.two_threads = t.count >= FLAME_TWO_THREADS_FROM && select_second_thread(&s);
    t.unit = flame_unit(&cur);
    /* the tree has its own copies: the profiles' memory goes before writing */
    select_result_free(&base);
    select_result_free(&cur);
    status = out_format_emit_tree(a.format, &t, title, a.output, status);
    flame_tree_free(&t);
    free(made_title);
    return status;
}
