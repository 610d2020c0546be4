/* formats.c - the table of output formats (formats.h): adding a format is
 * a row here and its writer (doc/internals.md, "A new output format"). */
#include <string.h>

#include "flame_output.h"
#include "formats.h"
#include "jfrtool.h"
#include "out_folded.h"
#include "out_speedscope.h"
#include "output.h"
#include "pprof.h"
#include "util.h"

/* A command lists its formats in this order, its default first. */
static const out_format formats[] = {
    {"folded", OUT_FMT_FOLDED, OUT_FOLDED, NULL, NULL, 0, 0, folded_write_profile, NULL,
     "folded stacks: frames from the root joined by ';', a space, the weight"},
    {"html", OUT_FMT_HTML, OUT_FLAME | OUT_DIFF, "html", "page", JFR_PROFILE_FRAME_KIND,
     0, NULL, flame_write_html,
     "one page with zoom, search and tooltips, no network needed"},
    {"svg", OUT_FMT_SVG, OUT_FLAME | OUT_DIFF, "svg", "page", JFR_PROFILE_FRAME_KIND, 0,
     NULL, flame_write_svg, "a standalone SVG with search and zoom"},
    {"pprof", OUT_FMT_PPROF, OUT_FOLDED | OUT_FLAME, "pb.gz", "profile", 0, 0,
     pprof_write_profile, NULL,
     "a gzipped pprof profile (go tool pprof, Pyroscope, Grafana)"},
    {"speedscope", OUT_FMT_SPEEDSCOPE, OUT_FOLDED | OUT_FLAME, "json", "profile",
     SPEEDSCOPE_PROFILE_FLAGS, SPEEDSCOPE_BUCKET_NS, speedscope_write_profile, NULL,
     "speedscope's JSON: a profile per thread, samples in time order"},
    {"text", OUT_FMT_TEXT, OUT_VIEW | OUT_SQL | OUT_LEAKS | OUT_PRINT, NULL, NULL, 0, 0,
     NULL, NULL, "text for people: tables, forms, lines"},
    {"json", OUT_FMT_JSON, OUT_VIEW | OUT_SQL | OUT_LEAKS | OUT_PRINT, NULL, NULL, 0, 0,
     NULL, NULL, "JSON (--json)"},
    {"json-lines", OUT_FMT_JSON_LINES, OUT_PRINT, NULL, NULL, 0, 0, NULL, NULL,
     "JSON, each event on a line of its own (--json-lines)"},
    {"csv", OUT_FMT_CSV, OUT_VIEW | OUT_SQL, NULL, NULL, 0, 0, NULL, NULL,
     "CSV by RFC 4180, a header line first (--csv)"},
    {"xml", OUT_FMT_XML, OUT_PRINT, NULL, NULL, 0, 0, NULL, NULL,
     "XML as the JDK's jfr print --xml writes it (--xml)"},
    {"html", OUT_FMT_REPORT, OUT_REPORT, "html", "page", 0, 0, NULL, NULL,
     "the report page, no network needed"},
};

#define NFORMATS (sizeof formats / sizeof formats[0])

const out_format *out_format_find(const char *name, unsigned command)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if ((formats[i].commands & command) && strcmp(formats[i].name, name) == 0)
            return &formats[i];
    return NULL;
}

const out_format *out_format_default(unsigned command)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (formats[i].commands & command)
            return &formats[i];
    return NULL;
}

void out_format_names(strbuf *sb, unsigned command)
{
    size_t n = 0, seen = 0;

    for (size_t i = 0; i < NFORMATS; i++)
        n += (formats[i].commands & command) != 0;
    for (size_t i = 0; i < NFORMATS; i++) {
        if (!(formats[i].commands & command))
            continue;
        if (seen)
            sb_puts(sb, seen + 1 == n ? " or " : ", ");
        sb_puts(sb, formats[i].name);
        seen++;
    }
}

static void list_formats(unsigned command)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (formats[i].commands & command)
            printf("%-11s %s\n", formats[i].name, formats[i].summary);
}

int out_format_option(const out_format **f, const char *arg, unsigned command)
{
    strbuf sb = {0};

    if (strcmp(arg, "list") == 0) {
        list_formats(command);
        return EXIT_OK;
    }
    *f = out_format_find(arg, command);
    if (*f)
        return -1;
    out_format_names(&sb, command);
    warnx_("--format is %s, not '%s'", sb_str(&sb), arg);
    sb_free(&sb);
    return EXIT_USAGE;
}

int out_format_check_terminal(const out_format *f, const char *output)
{
    if (!f->extension || !output_is_stdout(output) || output_terminal_width() <= 0)
        return EXIT_OK;
    warnx_("standard output is a terminal: write the %s to a file (-o OUT.%s,"
           " or redirect)",
           f->noun, f->extension);
    return EXIT_USAGE;
}

int out_format_emit_profile(const out_format *f, const profile_output *po,
                            const char *output, int status)
{
    outfile out;

    if (out_format_check_terminal(f, output) != EXIT_OK)
        return EXIT_USAGE;
    if (outfile_open(&out, output) != EXIT_OK)
        return EXIT_USAGE;
    if (f->write_profile(out.fp, po) < 0)
        status = EXIT_INPUT; /* OUT is left as it was */
    return outfile_close(&out, status);
}

int out_format_emit_tree(const out_format *f, const flame_tree *t, const char *title,
                         const char *output, int status)
{
    outfile out;

    if (out_format_check_terminal(f, output) != EXIT_OK)
        return EXIT_USAGE;
    if (outfile_open(&out, output) != EXIT_OK)
        return EXIT_USAGE;
    f->write_tree(out.fp, t, title);
    return outfile_close(&out, status);
}
