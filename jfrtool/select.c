/* select.c - SELECT/SHAPE options (design.md §3) and building the profile
 * of a list of files with them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jfrtool.h"
#include "out_text.h"
#include "parallel.h"
#include "options.h"
#include "select.h"
#include "util.h"

const char select_usage[] = SELECT_USAGE_TEXT;

bool select_option(select_opts *s, int c, const char *arg)
{
    switch (c) {
    case SEL_EVENT:
        if (strcmp(arg, "list") == 0) {
            select_list_kinds();
            exit(EXIT_OK);
        }
        s->event = arg;
        return true;
    case SEL_BASE_EVENT:
        s->base_event = arg;
        return true;
    case SEL_WEIGHT:
        s->weight = arg;
        return true;
    case SEL_THREAD:
        s->thread = arg;
        return true;
    case SEL_FROM:
        s->from = arg;
        return true;
    case SEL_TO:
        s->to = arg;
        return true;
    case SEL_INCLUDE:
        s->include = arg;
        return true;
    case SEL_EXCLUDE:
        s->exclude = arg;
        return true;
    case SEL_THREADS:
        s->threads = true;
        return true;
    case SEL_NO_CLASS_FRAMES:
        s->no_class_frames = true;
        return true;
    case SEL_LINES:
        s->lines = true;
        return true;
    case SEL_ANNOTATE:
        s->annotate = true;
        return true;
    case SEL_NORMALIZE:
    case SEL_NO_NORMALIZE:
        s->normalize = c == SEL_NORMALIZE;
        return true;
    case SEL_JOBS:
        if (option_jobs(arg, &s->jobs) < 0)
            exit(EXIT_USAGE);
        return true;
    default:
        return false;
    }
}

/* "  TYPE by FIELD, states A B, class frame F" of one source. */
static void print_source(const jfr_profile_source *src, bool first_of_group)
{
    printf("%-11s   %s%s by %s", "", first_of_group && src->group ? "else " : "",
           src->event_type, src->weight_field ? src->weight_field : "count");
    if (src->states) {
        printf(", states");
        for (const char *const *st = src->states; *st; st++)
            printf(" %s", *st);
    }
    if (src->class_field)
        printf(", class frame %s", src->class_field);
    printf("\n");
}

void select_list_kinds(void)
{
    size_t n;
    const jfr_profile_kind *k = jfr_profile_kinds(&n);

    for (size_t i = 0; i < n; i++, k++) {
        printf("%-11s %s\n", k->name, k->description);
        for (size_t j = 0; j < k->nsources; j++)
            print_source(&k->sources[j],
                         j == 0 || k->sources[j - 1].group != k->sources[j].group);
    }
    printf("  Per chunk, a kind reads its first group of event types (\"else\" starts\n"
           "  the next) that has events or is enabled in the chunk's settings.\n");
}

/* ---- building ----------------------------------------------------------------- */

/* A kind's name for titles: the JDK event type it reads when it reads one
 * (exec: jdk.ExecutionSample; another producer's stand-in aside), else
 * the kind ("wall"). */
static const char *kind_label(const jfr_profile_kind *kind)
{
    const char *one = NULL;

    for (size_t i = 0; i < kind->nsources; i++) {
        const char *t = kind->sources[i].event_type;
        if (strncmp(t, "jdk.", 4) != 0 || (one && strcmp(one, t) == 0))
            continue;
        if (one)
            return kind->name;
        one = t;
    }
    return one ? one : kind->name;
}

/* What --event and --weight select: a kind, or one event type. A kind
 * counted instead of weighed (--weight count) is its sources without
 * weights, kept in `counted`. */
static int set_selection(select_result *out, jfr_profile_options *po,
                         const select_opts *s, jfr_profile_source **counted)
{
    const jfr_profile_kind *kind = jfr_profile_kind_by_name(out->selection);
    bool count = s->weight &&
                 (strcmp(s->weight, "count") == 0 || strcmp(s->weight, "samples") == 0);

    out->label = kind ? kind_label(kind) : out->selection;
    if (s->weight && strcmp(s->weight, "period") == 0) {
        if (!kind || strcmp(kind->name, "cpu") != 0) {
            warnx_("--weight period needs CPU-time samples (--event cpu)");
            return EXIT_USAGE;
        }
        po->weight_field = "samplingPeriod";
    } else if (s->weight && !count) {
        po->weight_field = s->weight;
    }
    if (!kind) {
        po->event_type = out->selection;
    } else if (count) {
        *counted = xcalloc(kind->nsources, sizeof **counted);
        for (size_t i = 0; i < kind->nsources; i++) {
            (*counted)[i] = kind->sources[i];
            (*counted)[i].weight_field = NULL;
        }
        po->sources = *counted;
        po->nsources = kind->nsources;
    } else {
        po->kind = kind->name;
    }
    return EXIT_OK;
}

static void add_file(select_result *out, jfr_recording *rec, const char *path,
                     const jfr_profile_options *po, int jobs)
{
    uint64_t lost = jfr_profile_lost_stacks(out->profile);
    uint64_t samples = jfr_profile_samples(out->profile);

    parallel_add_profile(out->profile, po, rec, path, jobs, &out->damaged);
    close_recording(rec);
    lost = jfr_profile_lost_stacks(out->profile) - lost;
    samples = jfr_profile_samples(out->profile) - samples;
    /* the JDK shows these as null stack traces; a cut chain of checkpoints
     * makes many, a producer that ends a chunk early a few */
    if (lost)
        warnx_("%s: %llu of %llu samples refer to stack traces the recording does"
               " not define (damaged or cut constant pools?): counted on"
               " [no_stack_trace]",
               path, (unsigned long long)lost, (unsigned long long)samples);
}

int select_new_profile(select_result *out, const select_opts *s, const char *event,
                       unsigned extra_flags)
{
    jfr_profile_options po = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile_source *counted = NULL;
    int status;
    jfr_error err;

    memset(out, 0, sizeof *out);
    out->selection = event;
    po.thread_regex = s->thread;
    po.include_regex = s->include;
    po.exclude_regex = s->exclude;
    po.flags = extra_flags | (s->threads ? JFR_PROFILE_THREADS : 0) |
               (s->lines ? JFR_PROFILE_LINES : 0) |
               (s->annotate ? JFR_PROFILE_FRAME_KIND : 0) |
               (s->normalize > 0 ? JFR_PROFILE_NORMALIZE : 0) |
               (s->no_class_frames ? 0 : JFR_PROFILE_CLASS_FRAMES);
    /* no recording to count offsets from: times only */
    if ((s->from &&
         jfr_parse_time(&po.from_nanos, s->from, JFR_TIME_NO_START) != JFR_OK) ||
        (s->to && jfr_parse_time(&po.to_nanos, s->to, JFR_TIME_NO_START) != JFR_OK) ||
        (s->from && po.from_nanos < 0) || (s->to && po.to_nanos < 0)) {
        warnx_("--from/--to need an ISO-8601 time when following, not '%s'",
               s->from ? s->from : s->to);
        return EXIT_USAGE;
    }
    if ((status = set_selection(out, &po, s, &counted)) == EXIT_OK &&
        jfr_profile_new(&out->profile, &po, &err) < 0) {
        warnx_("%s", err.message);
        status = EXIT_USAGE;
    }
    free(counted);
    return status;
}

int select_build(select_result *out, const select_opts *s, const char *event,
                 char **files, int nfiles, unsigned extra_flags)
{
    jfr_profile_options po = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile_source *counted = NULL;
    jfr_recording *first = NULL;
    int64_t start = 0;
    const char *default_kind = "exec";
    int status = EXIT_OK, opened = 0;
    jfr_error err;

    memset(out, 0, sizeof *out);
    if (nfiles < 1)
        return EXIT_USAGE;
    if (!event)
        event = s->event;
    if (event &&
        (status = select_resolve_event(&out->resolved, event, files, nfiles)) != EXIT_OK)
        return status;
    if (out->resolved)
        event = out->resolved;
    /* each input is opened once: the first one also gives the start that
     * --from/--to offsets count from, and the default kind */
    first = open_recording(files[0], &status);
    if (first && !event)
        jfr_recording_default_kind(&default_kind, first);
    /* the walk over chunk headers maps a page (and its neighbours) of every
     * chunk: only when an offset needs it */
    if (first && (s->from || s->to || s->bucket_nanos))
        jfr_recording_start_nanos(&start, first);
    out->selection = event ? event : default_kind;
    po.thread_regex = s->thread;
    po.bucket_nanos = s->bucket_nanos;
    po.bucket_origin_nanos = start;
    po.include_regex = s->include;
    po.exclude_regex = s->exclude;
    po.flags = extra_flags | (s->threads ? JFR_PROFILE_THREADS : 0) |
               (s->lines ? JFR_PROFILE_LINES : 0) |
               (s->annotate ? JFR_PROFILE_FRAME_KIND : 0) |
               (s->normalize > 0 ? JFR_PROFILE_NORMALIZE : 0) |
               (s->no_class_frames ? 0 : JFR_PROFILE_CLASS_FRAMES) |
               (event ? 0 : JFR_PROFILE_KIND_SAMPLES);
    if ((s->from && jfr_parse_time(&po.from_nanos, s->from, start) != JFR_OK) ||
        (s->to && jfr_parse_time(&po.to_nanos, s->to, start) != JFR_OK)) {
        warnx_("--from/--to need an ISO-8601 time or an offset such as 10s, not '%s'",
               s->from && jfr_parse_time(&po.from_nanos, s->from, start) != JFR_OK
                   ? s->from
                   : s->to);
        status = EXIT_USAGE;
        goto done;
    }
    if ((status = set_selection(out, &po, s, &counted)) != EXIT_OK ||
        (status = select_check(first, s, &po, po.from_nanos, po.to_nanos)) != EXIT_OK)
        goto done;
    if (jfr_profile_new(&out->profile, &po, &err) < 0) {
        warnx_("%s", err.message);
        status = EXIT_USAGE;
        goto done;
    }
    for (int i = 0; i < nfiles; i++) {
        jfr_recording *rec = i == 0 ? first : open_recording(files[i], &status);

        if (i == 0)
            first = NULL;
        if (!rec)
            continue;
        opened++;
        add_file(out, rec, files[i], &po, s->jobs);
    }
    if (!opened)
        status = EXIT_INPUT;
    else if (!jfr_profile_samples(out->profile))
        warnx_("no %s samples selected", out->label);
    if (opened && !event) {
        jfr_profile_kind_hint(out->hint, sizeof out->hint, out->profile, out->selection);
        if (out->hint[0])
            warnx_("%s", out->hint);
    }
done:
    close_recording(first);
    free(counted);
    return status;
}

void select_add_lost(select_result *r)
{
    const jfr_cpu_accounting *cpu = jfr_profile_cpu(r->profile);
    uint64_t weight;

    if (!cpu || !cpu->lost)
        return;
    weight = cpu->lost;
    if (jfr_profile_unit(r->profile) == JFR_UNIT_NANOS)
        weight = cpu->samples ? cpu->lost * (cpu->period_ns / cpu->samples) : 0;
    if (weight &&
        jfr_profile_add_synthetic(r->profile, "[lost samples]", weight, cpu->lost) < 0)
        diex(EXIT_INPUT, "out of memory");
}

void select_result_free(select_result *r)
{
    jfr_profile_free(r->profile);
    free(r->resolved);
    memset(r, 0, sizeof *r);
}

/* ---- frame text ------------------------------------------------------------------ */

void append_frame_text(strbuf *sb, const jfr_profile_frame *f, unsigned flags)
{
    size_t n = jfr_profile_frame_text(NULL, 0, f, flags);

    jfr_profile_frame_text(sb_extend(sb, n), n + 1, f, flags);
}

void select_frame_text(strbuf *sb, const jfr_profile_frame *f, const select_opts *s,
                       bool folded)
{
    unsigned flags = s->lines ? JFR_FRAME_TEXT_LINES : 0;

    if (folded)
        flags |= JFR_FRAME_TEXT_FOLDED | (s->annotate ? JFR_FRAME_TEXT_ANNOTATE : 0);
    append_frame_text(sb, f, flags);
}
