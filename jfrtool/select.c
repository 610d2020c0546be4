/* select.c - SELECT/SHAPE options (design.md §3) and building the profile
 * of a list of files with them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jfrtool.h"
#include "out_text.h"
#include "parallel.h"
#include "progress.h"
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
bool select_second_thread(const select_opts *s)
{
    return s->jobs != 1 && (s->jobs > 1 || jfr_idle_cpus() > 1);
}

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

/* The inputs of one jfr_profile_build call, and what its reports need. */
typedef struct build_inputs {
    char **files;
    jfr_recording **recs; /* opened, closed when done */
    int status;
    bool damaged, traced;
} build_inputs;

static jfr_recording *open_input(size_t i, void *user)
{
    build_inputs *in = user;

    return in->recs[i] = open_recording(in->files[i], &in->status);
}

static void say(build_inputs *in, const char *name, const jfr_error *err)
{
    strbuf sb = {0};

    parallel_say(&sb, name, err);
    progress_clear();
    put_messages(sb_str(&sb));
    sb_free(&sb);
    in->damaged = true;
}

/* One chunk taken: its messages as the sequential read prints them. */
static void chunk_taken(build_inputs *in, const jfr_profile_build_report *r)
{
    const char *path = in->files[r->input], *name = input_name(path);
    const jfr_chunk_report *c = r->chunk;

    parallel_trace(&in->traced, path, c->threads);
    if (c->error) {
        say(in, name, c->error);
        return;
    }
    progress_update(name, r->chunk_end, jfr_recording_size(in->recs[r->input]),
                    c->taken + 1);
    if (c->decode_error)
        say(in, name, c->decode_error);
    /* pool warnings are known once the chunk has been used */
    if (c->warning)
        say(in, name, c->warning);
}

static void input_report(const jfr_profile_build_report *r, void *user)
{
    build_inputs *in = user;
    const char *path = in->files[r->input];

    if (r->chunk) {
        chunk_taken(in, r);
        return;
    }
    progress_clear();
    in->traced = false;
    if (!r->chunks)
        note_unreadable_input();
    close_recording(in->recs[r->input]);
    in->recs[r->input] = NULL;
    /* the JDK shows these as null stack traces; a cut chain of checkpoints
     * makes many, a producer that ends a chunk early a few */
    if (r->lost_stacks)
        warnx_("%s: %llu of %llu samples refer to stack traces the recording does"
               " not define (damaged or cut constant pools?): counted on"
               " [no_stack_trace]",
               input_name(path), (unsigned long long)r->lost_stacks,
               (unsigned long long)r->samples);
}

/* The build options of the command line's. */
static void build_options(jfr_profile_build_options *bo, const select_opts *s,
                          const char *event, unsigned extra_flags)
{
    jfr_profile_build_options_init(bo, JFR_PROFILE_BUILD_OPTIONS_VERSION);
    bo->event = event;
    bo->weight = s->weight;
    bo->thread_regex = s->thread;
    bo->include_regex = s->include;
    bo->exclude_regex = s->exclude;
    bo->flags = extra_flags | (s->threads ? JFR_PROFILE_THREADS : 0) |
                (s->lines ? JFR_PROFILE_LINES : 0) |
                (s->annotate ? JFR_PROFILE_FRAME_KIND : 0) |
                (s->normalize > 0 ? JFR_PROFILE_NORMALIZE : 0) |
                (s->no_class_frames ? 0 : JFR_PROFILE_CLASS_FRAMES);
    bo->from = s->from;
    bo->to = s->to;
    bo->bucket_nanos = s->bucket_nanos;
    bo->threads = (unsigned)s->jobs;
}

/* The outcome of jfr_profile_build as an exit status, after its messages. */
static int build_status(select_result *out, int rc, const jfr_profile_build_info *info,
                        const jfr_error *err)
{
    out->selection = info->selection;
    out->label = info->label;
    memcpy(out->hint, info->hint, sizeof out->hint);
    if (rc == JFR_ENOMEM)
        diex(EXIT_INPUT, "out of memory");
    if (rc < 0) {
        warnx_("%s", info->refusal[0] ? info->refusal : err->message);
        return EXIT_USAGE;
    }
    return EXIT_OK;
}

int select_new_profile(select_result *out, const select_opts *s, const char *event,
                       unsigned extra_flags)
{
    jfr_profile_build_options bo;
    jfr_profile_build_info info;
    int64_t from = 0, to = 0;
    jfr_error err;
    int rc;

    memset(out, 0, sizeof *out);
    /* no recording to count offsets from: times only */
    if ((s->from && jfr_parse_time(&from, s->from, JFR_TIME_NO_START) != JFR_OK) ||
        (s->to && jfr_parse_time(&to, s->to, JFR_TIME_NO_START) != JFR_OK) || from < 0 ||
        to < 0) {
        warnx_("--from/--to need an ISO-8601 time when following, not '%s'",
               s->from ? s->from : s->to);
        return EXIT_USAGE;
    }
    build_options(&bo, s, event, extra_flags);
    bo.from = bo.to = NULL;
    bo.from_nanos = from;
    bo.to_nanos = to;
    rc = jfr_profile_build(&out->profile, &info, NULL, 0, &bo, &err);
    return build_status(out, rc, &info, &err);
}

int select_build(select_result *out, const select_opts *s, const char *event,
                 char **files, int nfiles, unsigned extra_flags)
{
    jfr_profile_build_options bo;
    jfr_profile_build_info info;
    build_inputs in = {files, NULL, EXIT_OK, false, false};
    jfr_error err;
    int status, rc;

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
    build_options(&bo, s, event, extra_flags);
    bo.open = open_input;
    bo.report = input_report;
    bo.user = &in;
    in.recs = xcalloc((size_t)nfiles, sizeof *in.recs);
    rc = jfr_profile_build(&out->profile, &info, (jfr_recording *const *)in.recs,
                           (size_t)nfiles, &bo, &err);
    for (int i = 0; i < nfiles; i++)
        close_recording(in.recs[i]);
    free(in.recs);
    out->damaged = in.damaged;
    if ((status = build_status(out, rc, &info, &err)) != EXIT_OK)
        return status;
    if (!info.inputs_read)
        return EXIT_INPUT;
    if (!jfr_profile_samples(out->profile))
        warnx_("no %s samples selected", out->label);
    if (out->hint[0])
        warnx_("%s", out->hint);
    return in.status;
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
