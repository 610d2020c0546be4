/* report_read.c - the report's first pass: libjfr's report data
 * (jfr/report.h: overview, settings, timelines' points, leak analysis,
 * allocation rate, thread-state timeline, what could not be read), read
 * in file order, and what could not be read said on standard error and
 * kept as the page's lines. */
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "report.h"

static jfr_recording *open_input(size_t i, jfr_error *err, void *user)
{
    const report *r = user;
    jfr_recording *rec;

    return report_open(r, r->files[i], &rec, err) < 0 ? NULL : rec;
}

/* What could not be read: on standard error, and as the page's lines. */
static void say_lost(report *r)
{
    size_t n;
    const jfr_report_lost *lost = jfr_report_data_lost(&n, r->data);

    for (size_t i = 0; i < n; i++) {
        const char *name = input_name(r->files[lost[i].input]);
        strbuf sb = {0};

        report_error(name, &lost[i].error);
        format_error(&sb, name, &lost[i].error);
        if (lost[i].rest_of_chunk)
            sb_puts(&sb, " (the rest of that chunk is not shown)");
        r->lost = xrealloc(r->lost, r->nlost + 1, sizeof *r->lost);
        r->lost[r->nlost++] = xstrdup(sb_str(&sb));
        sb_free(&sb);
    }
}

int report_read(report *r)
{
    jfr_report_data_options o;
    jfr_timeline_options to;
    jfr_recording **inputs = xcalloc((size_t)r->nfiles + 1, sizeof *inputs);
    const jfr_report_summary *sum;
    jfr_error err;

    if (!r->findings && jfr_findings_new(&r->findings, NULL, &err) < 0)
        diex(EXIT_INPUT, "report: %s", err.message);
    /* the rules' tables' handles when there are (report_rules.c): this
     * walk leaves them the record lists the rules' queries use */
    for (int f = 0; r->recs && f < r->nfiles; f++)
        if ((inputs[f] = r->recs[f]) != NULL)
            jfr_recording_rewind(inputs[f]);
    jfr_report_data_options_init(&o, JFR_REPORT_DATA_OPTIONS_VERSION);
    o.origin_nanos = r->origin;
    o.end_nanos = r->end;
    o.bucket_nanos = r->bucket_ns;
    report_threads_options(&to, r);
    o.timeline = &to;
    o.findings = r->findings;
    o.open = open_input;
    o.user = r;
    if (jfr_report_data_build(&r->data, inputs, (size_t)r->nfiles, &o, &err) < 0)
        diex(EXIT_INPUT, "report: %s", err.message);
    free(inputs);
    sum = jfr_report_data_summary(r->data);
    if (r->origin == 0) /* the profiles' thread read it: written only when unset */
        r->origin = sum->origin_nanos;
    r->end = sum->end_nanos;
    r->chunks = sum->chunks;
    r->bytes = sum->bytes;
    say_lost(r);
    return sum->inputs_read < (size_t)r->nfiles || sum->chunks == 0 ? EXIT_INPUT
                                                                    : EXIT_OK;
}
