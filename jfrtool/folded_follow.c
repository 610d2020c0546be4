/* folded_follow.c - folded --follow: the profile of a running JVM, fed each
 * flush's samples (jfr_profile_add_chunk on the flush's chunk, which walks
 * only what the flush added), written when following ends or, with
 * --interval, every interval: a continuous profiler in one command. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "folded.h"
#include "follow.h"
#include "jfrtool.h"
#include "output.h"
#include "util.h"

/* Intervals from a second to a week. */
#define MIN_INTERVAL_NS INT64_C(1000000000)
#define MAX_INTERVAL_NS (INT64_C(7) * 24 * 3600 * 1000000000)

typedef struct live_folded {
    const select_opts *s;
    const out_format *format; /* folded or pprof */
    const char *output;
    const char *event; /* --event, or NULL: cpu when there are CPU-time samples */
    select_result one, cpu, exec;
    int64_t interval_start; /* ns since the epoch */
    bool intervals;
    int status;
} live_folded;

static int new_profiles(live_folded *l)
{
    int status;

    if (l->event)
        return select_new_profile(&l->one, l->s, l->event, 0);
    /* which kind the JVM records shows in its samples: both are kept */
    if ((status = select_new_profile(&l->cpu, l->s, "cpu", 0)) != EXIT_OK)
        return status;
    return select_new_profile(&l->exec, l->s, "exec", 0);
}

static void free_profiles(live_folded *l)
{
    select_result_free(&l->one);
    select_result_free(&l->cpu);
    select_result_free(&l->exec);
}

static void add_flush(const jfr_flush *fl, void *user)
{
    live_folded *l = user;
    select_result *rs[] = {&l->one, &l->cpu, &l->exec};

    for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++)
        if (rs[i]->profile && jfr_profile_add_chunk(rs[i]->profile, fl->chunk) < 0)
            report_error(fl->path, fl->chunk_error);
}

/* OUT with %t replaced by the interval's start, 20261126T120000Z (UTC,
 * no characters that file names dislike), and %% by %. */
static char *output_name(const char *pattern, int64_t start_nanos)
{
    time_t secs = (time_t)(start_nanos / 1000000000);
    strbuf sb = {0};
    struct tm tm;
    char stamp[32];

    gmtime_r(&secs, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
    for (const char *p = pattern; *p; p++) {
        if (p[0] == '%' && p[1] == 't')
            sb_puts(&sb, stamp), p++;
        else if (p[0] == '%' && p[1] == '%')
            sb_putc(&sb, '%'), p++;
        else
            sb_putc(&sb, *p);
    }
    return xstrdup(sb_str(&sb));
}

static void write_profile(live_folded *l)
{
    select_result *r = l->event                                  ? &l->one
                       : jfr_profile_samples(l->cpu.profile) > 0 ? &l->cpu
                                                                 : &l->exec;
    char *path = l->output ? output_name(l->output, l->interval_start) : NULL;
    outfile out;

    if (l->format->id != OUT_FMT_FOLDED) {
        profile_output po = {r, l->s, NULL, 0};

        l->status = out_format_emit_profile(l->format, &po, path, l->status);
    } else if (outfile_open(&out, path) == EXIT_OK) {
        folded_print(r->profile, l->s, out.fp);
        if (output_is_stdout(path) && l->intervals)
            fputc('\n', out.fp); /* the end of this interval's profile */
        l->status = outfile_close(&out, l->status);
        fflush(stdout);
    } else {
        l->status = EXIT_USAGE;
    }
    free(path);
}

static void tick(int64_t now_nanos, bool last, void *user)
{
    live_folded *l = user;

    write_profile(l);
    if (last)
        return;
    free_profiles(l);
    if (new_profiles(l) != EXIT_OK)
        diex(EXIT_USAGE, "the profile cannot be made again"); /* it was made once */
    l->interval_start = now_nanos;
}

static void at_end(int64_t now_nanos, bool last, void *user)
{
    (void)now_nanos;
    if (last)
        write_profile(user);
}

int folded_follow(const select_opts *s, const out_format *format, const char *output,
                  const char *interval, int ninputs, char **inputs)
{
    live_folded l = {s, format, output, s->event, {0}, {0}, {0}, 0, false, EXIT_OK};
    follow_ops ops = {add_flush, at_end, 0, NULL, JFR_FOLLOW_FROM_FIRST, false};
    int64_t every = 0;
    int status;

    if (ninputs != 1 || (interval && jfr_parse_time(&every, interval, 0) != JFR_OK) ||
        (interval && (every < MIN_INTERVAL_NS || every > MAX_INTERVAL_NS))) {
        if (ninputs != 1)
            warnx_("--follow follows one JVM: one process id, directory or file");
        else
            warnx_("--interval needs a duration from 1s to 7 days (60s, 5m), not '%s'",
                   interval);
        return EXIT_USAGE;
    }
    if (out_format_check_terminal(format, output) != EXIT_OK)
        return EXIT_USAGE;
    if (!interval && output && strstr(output, "%t"))
        warnx_("%%t in the output's name stands for an interval's start: there are"
               " none without --interval");
    if ((status = new_profiles(&l)) != EXIT_OK) {
        free_profiles(&l);
        return status;
    }
    l.interval_start = follow_now_nanos();
    if (interval) {
        l.intervals = true;
        ops.tick = tick;
        ops.tick_ms = (uint32_t)(every / 1000000);
    }
    status = follow_run(inputs[0], &ops, &l);
    free_profiles(&l);
    return status != EXIT_OK ? status : l.status;
}
