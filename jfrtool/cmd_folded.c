/* cmd_folded.c - jfrtool folded: one line per distinct stack, frames from
 * the root joined by ';', a space and the count or weight, lines sorted by
 * bytes (design.md §3 "Folded stacks"), the input of flamegraph.pl and
 * other flame-graph tools. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "output.h"
#include "pprof.h"
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
    "  --format F        folded (the default), or pprof: a gzipped pprof profile\n"
    "                    (perftools.profiles) for go tool pprof, Pyroscope and\n"
    "                    Grafana, with sample counts and the kind's weight\n"
    "  -o, --output OUT  write to OUT instead of standard output\n"
    "\n" SELECT_USAGE_TEXT;

/* A frame's text, made once per frame: stacks are deep and share frames. */
typedef struct frame_text {
    char *text;
    size_t len;
} frame_text;

/* The stacks to print, as profile stack indexes, and their frames' text:
 * lines are sorted and written from these, never held as text. */
typedef struct folded {
    const jfr_profile *p;
    frame_text *texts; /* by frame id */
    size_t *order;     /* stack indexes with a weight, sorted */
    size_t n;
} folded;

/* The byte after frame `d` of a line: ';' before the next frame, '\0' at
 * the end (as strcmp sees the line). */
static unsigned char after_frame(size_t d, size_t depth)
{
    return d + 1 < depth ? ';' : '\0';
}

/* Lines in byte order, compared frame by frame: equal frame ids are equal
 * text, so long shared prefixes cost one comparison per frame. */
static int compare_stacks(const folded *f, size_t a, size_t b)
{
    const uint32_t *fa, *fb;
    size_t da, db;
    uint64_t w;

    jfr_profile_stack(f->p, a, &w, &fa, &da);
    jfr_profile_stack(f->p, b, &w, &fb, &db);
    for (size_t d = 0; d < da && d < db; d++) {
        const frame_text *x = &f->texts[fa[d]], *y = &f->texts[fb[d]];
        size_t common = x->len < y->len ? x->len : y->len;
        int c;

        if (fa[d] == fb[d])
            continue;
        if ((c = memcmp(x->text, y->text, common)) != 0)
            return c;
        if (x->len == y->len)
            continue; /* different frames, the same text */
        /* one text is a prefix of the other: its line goes on with the
         * separator or ends, the other's with its next byte */
        if (x->len < y->len)
            return (int)after_frame(d, da) - (unsigned char)y->text[common];
        return (unsigned char)x->text[common] - (int)after_frame(d, db);
    }
    return da < db ? -1 : da > db;
}

static folded *sorting; /* qsort has no context argument */

static int compare_order(const void *a, const void *b)
{
    return compare_stacks(sorting, *(const size_t *)a, *(const size_t *)b);
}

/* Below this many stacks a second thread costs more than it saves
 * (tests/profile/check-jobs.sh lowers it with JFRTOOL_SORT_THREADS_MIN). */
#define PARALLEL_SORT_MIN 32768

static size_t parallel_sort_min(void)
{
    const char *env = getenv("JFRTOOL_SORT_THREADS_MIN");

    return env && *env ? (size_t)strtoull(env, NULL, 10) : PARALLEL_SORT_MIN;
}

typedef struct sort_part {
    size_t *v;
    size_t n;
} sort_part;

static void *sort_part_run(void *arg)
{
    sort_part *part = arg;

    qsort(part->v, part->n, sizeof *part->v, compare_order);
    return NULL;
}

/* f->order sorted: in two threads when `threads` allows and there are many
 * stacks, each sorting a half, then one merge. The sort runs after every
 * chunk is read, in the calling thread alone, so it is most of the wall
 * time that threads do not shorten otherwise. Equal lines are merged when
 * written, so their order does not matter. */
static void sort_stacks(folded *f, unsigned threads)
{
    sort_part a = {f->order, f->n / 2}, b = {f->order + f->n / 2, f->n - f->n / 2};
    pthread_t t;
    size_t *out, i = 0, j = 0, k = 0;

    sorting = f;
    if (threads < 2 || f->n < 2 || f->n < parallel_sort_min() ||
        pthread_create(&t, NULL, sort_part_run, &b) != 0) {
        qsort(f->order, f->n, sizeof *f->order, compare_order);
        sorting = NULL;
        return;
    }
    sort_part_run(&a);
    pthread_join(t, NULL);
    out = xcalloc(f->n, sizeof *out);
    while (i < a.n && j < b.n)
        out[k++] = compare_stacks(f, b.v[j], a.v[i]) < 0 ? b.v[j++] : a.v[i++];
    while (i < a.n)
        out[k++] = a.v[i++];
    while (j < b.n)
        out[k++] = b.v[j++];
    free(f->order);
    f->order = out;
    sorting = NULL;
    /* for tests/profile/check-jobs.sh */
    if (getenv("JFRTOOL_TRACE_JOBS"))
        warnx_("folded: %zu stacks sorted in 2 threads", f->n);
}

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
    f->order = xcalloc(nstacks ? nstacks : 1, sizeof *f->order);
    f->n = 0;
    for (size_t i = 0; i < nstacks; i++) {
        const uint32_t *frames;
        size_t depth;
        uint64_t w;

        if (jfr_profile_stack(p, i, &w, &frames, &depth) == JFR_OK && w)
            f->order[f->n++] = i;
    }
    sort_stacks(f, s->jobs > 0 ? (unsigned)s->jobs : jfr_idle_cpus());
}

static void folded_free(folded *f)
{
    for (size_t i = 0; i < jfr_profile_frame_count(f->p); i++)
        free(f->texts[i].text);
    free(f->texts);
    free(f->order);
}

/* Lines that come out equal (frames that differ only in characters made
 * '_') are merged; output goes through one buffer, not a call per line. */
static void folded_write(const folded *f, FILE *out)
{
    strbuf sb = {0};

    for (size_t i = 0; i < f->n;) {
        const uint32_t *frames;
        size_t depth;
        uint64_t w, sum = 0;
        size_t j = i;

        for (; j < f->n && (j == i || compare_stacks(f, f->order[i], f->order[j]) == 0);
             j++) {
            jfr_profile_stack(f->p, f->order[j], &w, &frames, &depth);
            sum += w;
        }
        jfr_profile_stack(f->p, f->order[i], &w, &frames, &depth);
        for (size_t d = 0; d < depth; d++) {
            if (d)
                sb_putc(&sb, ';');
            sb_putn(&sb, f->texts[frames[d]].text, f->texts[frames[d]].len);
        }
        sb_printf(&sb, " %llu\n", (unsigned long long)sum);
        if (sb.len >= 1 << 16) {
            fwrite(sb.ptr, 1, sb.len, out);
            sb_clear(&sb);
        }
        i = j;
    }
    fwrite(sb.ptr ? sb.ptr : "", 1, sb.len, out);
    sb_free(&sb);
}
int cmd_folded(int argc, char **argv)
{
    static const struct option opts[] = {
        SELECT_OPTIONS,
        {"output", required_argument, NULL, 'o'},
        {"format", required_argument, NULL, 'F'},
        {"help", no_argument, NULL, 'h'},
        {0},
    };
    select_opts s = {0};
    select_result r;
    const char *output = NULL;
    bool pprof = false;
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
            if (strcmp(optarg, "pprof") != 0 && strcmp(optarg, "folded") != 0) {
                warnx_("--format is folded or pprof, not '%s'", optarg);
                return EXIT_USAGE;
            }
            pprof = strcmp(optarg, "pprof") == 0;
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
