/* report_input.c - the report's inputs: opened once per pass, standard
 * input read into memory once for both, and the time axis from the
 * chunk headers. */
#include <stdio.h>
#include <string.h>

#include "jfrtool.h"
#include "report.h"

int report_open(const report *r, const char *path, jfr_recording **out, jfr_error *err)
{
    if (strcmp(path, "-") == 0)
        return jfr_recording_open_memory(out, r->stdin_data ? (void *)r->stdin_data : "",
                                         r->stdin_size, NULL, err);
    return jfr_recording_open_file(out, path, NULL, err);
}

/* Standard input, whole: both passes read it. Capped at libjfr's default
 * limit of an input (jfr_options.max_input_size). */
#define STDIN_MAX ((size_t)64 << 30)

void report_read_stdin(report *r)
{
    size_t cap = 1 << 20;

    r->stdin_data = xmalloc(cap);
    for (;;) {
        size_t n = fread(r->stdin_data + r->stdin_size, 1, cap - r->stdin_size, stdin);
        r->stdin_size += n;
        if (n == 0)
            break;
        if (r->stdin_size == cap) {
            if (cap >= STDIN_MAX)
                diex(EXIT_INPUT, "(standard input): more than %zu bytes", STDIN_MAX);
            cap *= 2;
            r->stdin_data = xrealloc(r->stdin_data, cap, 1);
        }
    }
    if (ferror(stdin))
        diex(EXIT_INPUT, "(standard input): read error");
}

/* The time axis from the chunk headers: from the earliest start of the
 * inputs (the first input's start, where `folded --from 10s` counts from,
 * when it is the earliest) to the latest end. */
void report_time_axis(report *r)
{
    bool any = false;

    for (int f = 0; f < r->nfiles; f++) {
        jfr_recording *rec;
        int64_t start, end;

        if (report_open(r, r->files[f], &rec, NULL) < 0)
            continue;
        if (jfr_recording_span_nanos(&start, &end, rec) == JFR_OK) {
            if (!any || start < r->origin)
                r->origin = start;
            if (!any || end > r->end)
                r->end = end;
            any = true;
        }
        jfr_recording_free(rec);
    }
}
