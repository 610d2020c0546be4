/* cmd_folded.c - jfrtool folded: one line per distinct stack, frames from
 * the root joined by ';', a space and the count or weight, lines sorted by
 * bytes (design.md §3 "Folded stacks"), the input of flamegraph.pl and
 * other flame-graph tools. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "jfrtool.h"
#include "output.h"
#include "out_speedscope.h"
#include "pprof.h"
#include "select.h"
#include "stack_sort.h"
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

/* The stacks to print and their frames' text: lines are sorted and
 * written from these, never held as text. */
typedef struct folded {
    const jfr_profile *p;
    frame_text *texts; /* by frame id */
    stack_keys keys;   /* the byte order of the texts in a line */
    stack_ref *lines;  /* stacks with a weight, in line order */
    size_t n;
} folded;

static void folded_build(folded *f, const jfr_profile *p, const select_opts *s)
{
    size_t nstacks = jfr_profile_stack_count(p);
    size_t nframes = jfr_profile_frame_count(p);
    strbuf scratch = {0};

    f->p = p;
    f->texts = xcalloc(nframes ? nframes : 1, sizeof *f->texts);
    for (uint32_t id = 0; id < nframes; id++) {
        sb_clear(&scratch);
        select_frame_text(&scratch, jfr_profile_frame_at(p, id), s, true);
        f->texts[id].text = xstrdup(sb_str(&scratch));
        f->texts[id].len = scratch.len;
    }
    sb_free(&scratch);
    stack_keys_by_text(&f->keys, f->texts, nframes);
    f->lines = xcalloc(nstacks ? nstacks : 1, sizeof *f->lines);
    f->n = 0;
    for (size_t i = 0; i < nstacks; i++) {
        const uint32_t *frames;
        size_t depth;
        uint64_t w;

        if (jfr_profile_stack(p, i, &w, &frames, &depth) == JFR_OK && w)
            f->lines[f->n++] = (stack_ref){frames, (uint32_t)depth, (uint32_t)i};
    }
    stack_sort(f->lines, f->n, &f->keys);
}

static void folded_free(folded *f)
{
    for (size_t i = 0; i < jfr_profile_frame_count(f->p); i++)
        free(f->texts[i].text);
    free(f->texts);
    stack_keys_free(&f->keys);
    free(f->lines);
}

/* The text of the line being written, kept from the line before for the
 * leading frames the two share: sorted lines share long prefixes. */
typedef struct line_text {
    strbuf sb;
    size_t *ends; /* by depth: where frame d's text ends */
    size_t room;
} line_text;

static void line_text_set(line_text *lt, const folded *f, const stack_ref *line,
                          size_t shared)
{
    if (line->depth > lt->room) {
        lt->room = line->depth;
        lt->ends = xrealloc(lt->ends, lt->room, sizeof *lt->ends);
    }
    lt->sb.len = shared ? lt->ends[shared - 1] : 0;
    for (size_t d = shared; d < line->depth; d++) {
        const frame_text *t = &f->texts[line->frames[d]];

        if (d)
            sb_putc(&lt->sb, ';');
        sb_putn(&lt->sb, t->text, t->len);
        lt->ends[d] = lt->sb.len;
    }
}

/* Lines that come out equal (frames that differ only in characters made
 * '_') are merged; output goes through one buffer, not a call per line. */
static void folded_write(const folded *f, FILE *out)
{
    strbuf sb = {0};
    line_text lt = {0};
    size_t shared = 0;

    for (size_t i = 0, j; i < f->n; i = j) {
        const stack_ref *line = &f->lines[i];
        uint64_t w, sum = 0;
        size_t next_shared = 0;

        jfr_profile_stack(f->p, line->id, &sum, NULL, NULL);
        for (j = i + 1; j < f->n; j++) {
            next_shared = stack_keys_shared(line, &f->lines[j], &f->keys);
            if (next_shared != line->depth || f->lines[j].depth != line->depth)
                break;
            jfr_profile_stack(f->p, f->lines[j].id, &w, NULL, NULL);
            sum += w;
        }
        line_text_set(&lt, f, line, shared);
        sb_putn(&sb, lt.sb.ptr ? lt.sb.ptr : "", lt.sb.len);
        sb_putc(&sb, ' ');
        sb_put_u64(&sb, sum);
        sb_putc(&sb, '\n');
        if (sb.len >= 1 << 16) {
            fwrite(sb.ptr, 1, sb.len, out);
            sb_clear(&sb);
        }
        shared = next_shared;
    }
    fwrite(sb.ptr ? sb.ptr : "", 1, sb.len, out);
    sb_free(&sb);
    sb_free(&lt.sb);
    free(lt.ends);
}

void folded_print(const jfr_profile *p, const select_opts *s, FILE *out)
{
    folded f;

    folded_build(&f, p, s);
    folded_write(&f, out);
    folded_free(&f);
}

/* --format: 'f' folded, 'p' pprof, 's' speedscope; 0 after a message. */
static char format_option(const char *arg)
{
    if (strcmp(arg, "folded") == 0 || strcmp(arg, "pprof") == 0 ||
        strcmp(arg, "speedscope") == 0)
        return arg[0];
    warnx_("--format is folded, pprof or speedscope, not '%s'", arg);
    return 0;
}

/* --follow and --interval: the follow's status, or -1 to go on. */
static int maybe_follow(const select_opts *s, char format, const char *output,
                        const char *interval, bool follow, int argc, char **argv)
{
    if (interval && !follow) {
        warnx_("--interval goes with --follow");
        return EXIT_USAGE;
    }
    if (!follow)
        return -1;
    if (format == 's') {
        warnx_("--format speedscope reads whole files: not with --follow");
        return EXIT_USAGE;
    }
    return folded_follow(s, format == 'p', output, interval, argc - optind,
                         argv + optind);
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
    bool pprof, speedscope, follow = false;
    char format = 'f';
    folded f;
    outfile out;
    int c, status;

    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        if (select_option(&s, c, optarg))
            continue;
        switch (c) {
        case 'o':
            output = optarg;
            break;
        case 'F':
            if (!(format = format_option(optarg)))
                return EXIT_USAGE;
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
    pprof = format == 'p';
    speedscope = format == 's';
    if (speedscope)
        s.bucket_nanos = SPEEDSCOPE_BUCKET_NS;
    status = select_build(&r, &s, NULL, argv + optind, argc - optind,
                          speedscope ? SPEEDSCOPE_PROFILE_FLAGS : 0);
    if (!r.profile)
        return status;
    if (speedscope) {
        status = speedscope_emit(&r, &s, argv + optind, argc - optind, output, status);
        select_result_free(&r);
        return status;
    }
    if (pprof) {
        status = pprof_emit(&r, &s, output, status);
        select_result_free(&r);
        return status;
    }
    if (outfile_open(&out, output) != EXIT_OK) {
        select_result_free(&r);
        return EXIT_USAGE;
    }
    folded_build(&f, r.profile, &s);
    folded_write(&f, out.fp);
    folded_free(&f);
    status = outfile_close(&out, status);
    select_result_free(&r);
    return status;
}
