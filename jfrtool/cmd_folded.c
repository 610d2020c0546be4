/* cmd_folded.c - jfrtool folded: one line per distinct stack, frames from
 * the root joined by ';', a space and the count or weight, lines sorted by
 * bytes (design.md §3 "Folded stacks"), the input of flamegraph.pl and
 * other flame-graph tools. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "select.h"
#include "util.h"

const char usage_folded[] =
    "Usage: jfrtool folded [SELECT] [SHAPE] [-o OUT] FILE...\n"
    "\n"
    "Print folded (collapsed) stacks: one line per distinct stack, frames\n"
    "from the root (thread entry) to the leaf joined by ';', then a space and\n"
    "the number of samples (or the weight: bytes for alloc; ns for lock,\n"
    "wait, io and --weight period). Lines are sorted by byte order. Frames\n"
    "are package.Class.method; spaces and ';' inside a frame become '_'.\n"
    "Samples without a stack trace count on the frame [no_stack_trace].\n"
    "Several files are merged.\n"
    "\n"
    "  -o, --output OUT  write to OUT instead of standard output\n"
    "\n" SELECT_USAGE_TEXT;

typedef struct folded_line {
    char *text; /* frames, without the count */
    uint64_t weight;
} folded_line;

static int compare_lines(const void *a, const void *b)
{
    const folded_line *x = a, *y = b;

    return strcmp(x->text, y->text);
}

/* A frame's text, made once per frame: stacks are deep and share frames. */
typedef struct frame_text {
    char *text; /* NULL until made */
    size_t len;
} frame_text;

static void put_frame(strbuf *sb, frame_text *cache, strbuf *scratch,
                      const jfr_profile *p, uint32_t id, const select_opts *s)
{
    frame_text *t = &cache[id];

    if (!t->text) {
        sb_clear(scratch);
        select_frame_text(scratch, jfr_profile_frame_at(p, id), s, true);
        t->text = xstrdup(sb_str(scratch));
        t->len = scratch->len;
    }
    sb_putn(sb, t->text, t->len);
}

/* All stacks as text, sorted; lines that came out equal (frames that
 * differ only in characters made '_') are merged. */
static folded_line *folded_lines(const jfr_profile *p, const select_opts *s,
                                 size_t *count)
{
    size_t n = jfr_profile_stack_count(p), k = 0;
    size_t nframes = jfr_profile_frame_count(p);
    folded_line *lines = xcalloc(n ? n : 1, sizeof *lines);
    frame_text *texts = xcalloc(nframes ? nframes : 1, sizeof *texts);
    strbuf sb = {0}, scratch = {0};

    for (size_t i = 0; i < n; i++) {
        const uint32_t *frames;
        size_t depth;
        uint64_t w;

        jfr_profile_stack(p, i, &w, &frames, &depth);
        if (!w)
            continue;
        sb_clear(&sb);
        for (size_t d = 0; d < depth; d++) {
            if (d)
                sb_putc(&sb, ';');
            put_frame(&sb, texts, &scratch, p, frames[d], s);
        }
        lines[k].text = xstrdup(sb_str(&sb));
        lines[k++].weight = w;
    }
    for (size_t i = 0; i < nframes; i++)
        free(texts[i].text);
    free(texts);
    sb_free(&scratch);
    sb_free(&sb);
    qsort(lines, k, sizeof *lines, compare_lines);
    n = 0;
    for (size_t i = 0; i < k; i++) {
        if (n && strcmp(lines[n - 1].text, lines[i].text) == 0) {
            lines[n - 1].weight += lines[i].weight;
            free(lines[i].text);
            continue;
        }
        lines[n++] = lines[i];
    }
    *count = n;
    return lines;
}

int cmd_folded(int argc, char **argv)
{
    static const struct option opts[] = {
        SELECT_OPTIONS,
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {0},
    };
    select_opts s = {0};
    select_result r;
    const char *output = NULL;
    folded_line *lines;
    size_t n;
    FILE *out = stdout;
    int c, status;

    while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
        if (select_option(&s, c, optarg))
            continue;
        switch (c) {
        case 'o':
            output = optarg;
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
    status = select_build(&r, &s, NULL, argv + optind, argc - optind, 0);
    if (!r.profile)
        return status;
    if (output && !(out = fopen(output, "w"))) {
        warnx_("%s: cannot write: %s", output, strerror(errno));
        select_result_free(&r);
        return EXIT_USAGE;
    }
    lines = folded_lines(r.profile, &s, &n);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%s %llu\n", lines[i].text, (unsigned long long)lines[i].weight);
        free(lines[i].text);
    }
    free(lines);
    if ((out != stdout && fclose(out) != 0) || (out == stdout && fflush(out) != 0))
        warnx_("%s: write error", output ? output : "(standard output)");
    select_result_free(&r);
    return status;
}
