/* report_open.c - the report's inputs: standard input read once into
 * memory, and each input opened from it or its file by every pass (the
 * time axis, the rules' tables, the in-order pass, the profiles). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "report.h"
#include "util.h"

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
