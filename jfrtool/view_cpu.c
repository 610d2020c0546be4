/* view_cpu.c - honest CPU time (JEP 509, design.md §4) and the
 * cpu-time-statistics view.
 *
 * A CPU-time sample stands for one sampling period of CPU time of its
 * thread. Samples whose stack walk failed and samples the JVM could not
 * even queue (jdk.CPUTimeSamplesLost) stand for CPU time too, so shares
 * of "all sampled CPU time" count them: the lines printed after the JDK's
 * table or form say how much each kind stands for. */
#include <string.h>

#include "jfrtool.h"
#include "out_text.h"
#include "views.h"

jfr_profile *view_cpu_profile(void)
{
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile *p;
    jfr_error err;

    o.kind = "cpu";
    o.flags = JFR_PROFILE_ACCOUNTING_ONLY;
    if (jfr_profile_new(&p, &o, &err) < 0) {
        warnx_("%s", err.message);
        return NULL;
    }
    return p;
}

/* Lost samples carry no period: they are counted at the mean period. */
static uint64_t lost_ns_estimate(const jfr_cpu_accounting *c)
{
    if (c->samples == 0)
        return 0;
    return (uint64_t)((double)c->period_ns / (double)c->samples * (double)c->lost + 0.5);
}

static void put_line(FILE *out, const char *label, uint64_t n, uint64_t ns,
                     bool estimated, uint64_t part, uint64_t whole, bool weight_period,
                     const char *note)
{
    strbuf count = {0}, share = {0};

    fmt_grouped(&count, (int64_t)n);
    fmt_percent(&share, part, whole);
    fprintf(out, "  %-28s %10s", label, sb_str(&count));
    if (weight_period) {
        strbuf secs = {0};
        if (estimated)
            sb_putc(&secs, '~');
        fmt_java_fixed(&secs, (double)ns / 1e9, 3);
        fprintf(out, " %12s s", sb_str(&secs));
        sb_free(&secs);
    }
    fprintf(out, " %8s%s%s\n", sb_str(&share), note ? "  " : "", note ? note : "");
    sb_free(&count);
    sb_free(&share);
}

void view_cpu_print_lines(FILE *out, const jfr_cpu_accounting *c, bool weight_period)
{
    uint64_t ok_ns = c->period_ns - c->failed_period_ns;
    uint64_t lost_ns = lost_ns_estimate(c);
    uint64_t all = c->samples + c->lost, all_ns = c->period_ns + lost_ns;
    uint64_t w = weight_period ? all_ns : all;

    fprintf(out, "\nAll sampled CPU time (JEP 509)%s:\n",
            weight_period ? ", weighted by samplingPeriod" : "");
    put_line(out, "Samples with a stack trace", c->with_stack, ok_ns, false,
             weight_period ? ok_ns : c->with_stack, w, weight_period, NULL);
    put_line(out, "Failed samples (no stack)", c->failed, c->failed_period_ns, false,
             weight_period ? c->failed_period_ns : c->failed, w, weight_period, NULL);
    put_line(out, "Lost samples", c->lost, lost_ns, true,
             weight_period ? lost_ns : c->lost, w, weight_period,
             weight_period ? "(jdk.CPUTimeSamplesLost; time at the mean period)"
                           : "(jdk.CPUTimeSamplesLost)");
    put_line(out, "All sampled", all, all_ns, c->lost > 0, w, w, weight_period, NULL);
    put_line(out, "Biased samples (safepoint)", c->biased, c->biased_period_ns, false,
             weight_period ? c->biased_period_ns : c->biased, w, weight_period,
             "(part of the samples above)");
}

json_t *view_cpu_json(const jfr_cpu_accounting *c, bool weight_period)
{
    uint64_t ok_ns = c->period_ns - c->failed_period_ns;
    json_t *j = json_object(), *share = json_object();
    uint64_t lost_ns = lost_ns_estimate(c);
    uint64_t all = c->samples + c->lost, all_ns = c->period_ns + lost_ns;
    uint64_t w = weight_period ? all_ns : all;

    json_object_set_new(j, "samples", json_count(c->samples));
    json_object_set_new(j, "withStack", json_count(c->with_stack));
    json_object_set_new(j, "failed", json_count(c->failed));
    json_object_set_new(j, "biased", json_count(c->biased));
    json_object_set_new(j, "lost", json_count(c->lost));
    json_object_set_new(j, "lostEvents", json_count(c->lost_events));
    json_object_set_new(j, "allSampled", json_count(all));
    json_object_set_new(j, "weight", json_string(weight_period ? "period" : "samples"));
    json_object_set_new(
        share, "withStack",
        json_real(percent_value(weight_period ? ok_ns : c->with_stack, w)));
    json_object_set_new(
        share, "failed",
        json_real(percent_value(weight_period ? c->failed_period_ns : c->failed, w)));
    json_object_set_new(share, "lost",
                        json_real(percent_value(weight_period ? lost_ns : c->lost, w)));
    json_object_set_new(
        share, "biased",
        json_real(percent_value(weight_period ? c->biased_period_ns : c->biased, w)));
    json_object_set_new(j, "percent", share);
    if (weight_period) {
        json_t *ns = json_object();
        json_object_set_new(ns, "withStack", json_count(ok_ns));
        json_object_set_new(ns, "failed", json_count(c->failed_period_ns));
        json_object_set_new(ns, "lostEstimated", json_count(lost_ns));
        json_object_set_new(ns, "biased", json_count(c->biased_period_ns));
        json_object_set_new(ns, "allSampled", json_count(all_ns));
        json_object_set_new(j, "nanos", ns);
    }
    return j;
}

/* ---- cpu-time-statistics ------------------------------------------------------ */

typedef struct stats_run {
    view_presence presence;
    jfr_profile *profile; /* the accounting */
} stats_run;

static int stats_chunk(const view_chunk *c, void *user)
{
    stats_run *r = user;

    view_note_type(&r->presence, c->chunk, c->ordinal, "jdk.CPUTimeSample");
    if (!r->profile && !(r->profile = view_cpu_profile()))
        return 1;
    if (jfr_profile_add_chunk(r->profile, c->chunk) < 0)
        view_report_chunk_error(c);
    return 0;
}

/* One "Label: value" field of a JDK form, wrapped as FormRenderer wraps. */
static void form_field(FILE *out, const char *label, const char *text, int width)
{
    size_t llen = strlen(label) + 2;
    long p = width - (long)llen - 1;
    bool newline = false;

    fprintf(out, "\n%s: ", label);
    for (size_t i = 0; text[i]; i++) {
        if (newline) {
            fprintf(out, "%*s", (int)llen, "");
            newline = false;
        }
        putc(text[i], out);
        if (p > 0 && (long)(i % (size_t)p) == p - 1) {
            newline = true;
            putc('\n', out);
        }
    }
    putc('\n', out);
}

static int print_statistics(const view_def *view, const view_ctx *ctx, const stats_run *r,
                            int status);

static int run_cpu_time_statistics(const view_def *view, const view_ctx *ctx)
{
    stats_run r = {0};
    int status = view_for_each_chunk(ctx, stats_chunk, &r);

    status = print_statistics(view, ctx, &r, status);
    jfr_profile_free(r.profile);
    return status;
}

static int print_statistics(const view_def *view, const view_ctx *ctx, const stats_run *r,
                            int status)
{
    static const jfr_cpu_accounting none;
    const jfr_cpu_accounting *cpu = r->profile ? jfr_profile_cpu(r->profile) : &none;
    int width = ctx->width ? ctx->width : 80;
    const char *labels[] = {"Successful Samples", "Failed Samples", "Biased Samples",
                            "Total Samples", "Lost Samples"};
    uint64_t values[] = {cpu->with_stack, cpu->failed, cpu->biased, cpu->samples,
                         cpu->lost};
    strbuf sb = {0};

    if (!r->presence.declared) {
        if (status == EXIT_OK)
            view_print_missing(view, ctx);
        return status;
    }
    if (ctx->json) {
        json_t *j = json_object();
        json_object_set_new(j, "view", json_string(view->name));
        json_object_set_new(j, "title", json_string(view->title));
        json_object_set_new(j, "eventType", json_string(view->event_types[0]));
        json_object_set_new(j, "declared", json_true());
        json_object_set_new(j, "successfulSamples", json_count(cpu->with_stack));
        json_object_set_new(j, "failedSamples", json_count(cpu->failed));
        json_object_set_new(j, "biasedSamples", json_count(cpu->biased));
        json_object_set_new(j, "totalSamples", json_count(cpu->samples));
        json_object_set_new(j, "lostSamples",
                            cpu->lost_events ? json_count(cpu->lost) : json_null());
        json_object_set_new(j, "cpuTime", view_cpu_json(cpu, ctx->weight_period));
        view_json_print(ctx->out, j);
        json_decref(j);
        return status;
    }
    if (cpu->samples + cpu->lost_events == 0) {
        view_print_no_events(view, ctx);
        return status;
    }
    fputc('\n', ctx->out);
    if ((int)strlen("Successful Samples: ") + 3 > width) {
        fprintf(ctx->out, "Columns are too wide to fit width %d.\n", ctx->width);
        return status;
    }
    fprintf(ctx->out, "%s\n", view->title);
    for (size_t i = 0; i < strlen(view->title); i++)
        putc('-', ctx->out);
    putc('\n', ctx->out);
    for (size_t i = 0; i < 5; i++) {
        sb_clear(&sb);
        if (i == 4 && cpu->lost_events == 0)
            sb_puts(&sb, "N/A");
        else
            fmt_grouped(&sb, (int64_t)values[i]);
        form_field(ctx->out, labels[i], sb_str(&sb), width);
    }
    sb_free(&sb);
    view_cpu_print_lines(ctx->out, cpu, ctx->weight_period);
    return status;
}

static const char *const cpu_stats_types[] = {"jdk.CPUTimeSample",
                                              "jdk.CPUTimeSamplesLost", NULL};

const view_def view_cpu_time_statistics = {
    "cpu-time-statistics",
    "CPU Time Sample Statistics",
    cpu_stats_types,
    run_cpu_time_statistics,
    "successful, failed, biased, total and lost CPU-time samples (JEP 509)",
    .cell_options = false};
