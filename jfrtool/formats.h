/* formats.h - jfrtool's output formats, one table (formats.c), in the way
 * libarchive's archive_write_set_format_by_name finds a writer by name:
 * each row is a --format name with its writer, whether its output needs a
 * file (binary data or a page, refused on a terminal without -o), the
 * extension such a file has, and the commands that take it. Commands
 * parse --format (and their --json and --csv aliases) through it, so one
 * message lists what a command takes and `--format list` shows it. */
#ifndef JFRTOOL_FORMATS_H
#define JFRTOOL_FORMATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "flame_tree.h"
#include "select.h"

/** The commands that take --format, as bits of out_format.commands. */
enum out_command {
    OUT_FOLDED = 1u << 0,
    OUT_FLAME = 1u << 1,
    OUT_DIFF = 1u << 2,
    OUT_VIEW = 1u << 3,
    OUT_SQL = 1u << 4,
    OUT_LEAKS = 1u << 5,
    OUT_PRINT = 1u << 6,
    OUT_REPORT = 1u << 7
};

/** What a row writes, for the commands that write several formats with
 * code of their own (views, sql, leaks, print). */
typedef enum out_format_id {
    OUT_FMT_FOLDED,
    OUT_FMT_HTML,
    OUT_FMT_SVG,
    OUT_FMT_PPROF,
    OUT_FMT_SPEEDSCOPE,
    OUT_FMT_TEXT,
    OUT_FMT_JSON,
    OUT_FMT_JSON_LINES,
    OUT_FMT_CSV,
    OUT_FMT_XML,
    OUT_FMT_REPORT
} out_format_id;

/** What a profile writer is given: the selection and the inputs it came
 * from (for names). */
typedef struct profile_output {
    const select_result *r;
    const select_opts *s;
    char **files;
    int nfiles;
} profile_output;

typedef struct out_format {
    const char *name;      /**< --format NAME */
    out_format_id id;      /**< what it is, for commands that switch on it */
    unsigned commands;     /**< the enum out_command bits of the commands taking it */
    const char *extension; /**< of a file of it ("pb.gz"); NULL: text for a terminal */
    const char *noun;      /**< what the terminal hint asks to write: "page", "profile" */
    /** JFR_PROFILE_* flags and time buckets (ns, 0: none) the writer
     * needs of the profile */
    unsigned profile_flags;
    int64_t bucket_nanos;
    /** Writers: of a profile (folded, pprof, speedscope; 0, or -1 after a
     * message) or of a flame graph's tree (html, svg); NULL where the
     * command has its own. */
    int (*write_profile)(FILE *out, const profile_output *po);
    void (*write_tree)(FILE *out, const flame_tree *t, const char *title);
    const char *summary; /**< one line for --format list */
} out_format;

/** The format NAME of command `command` (an enum out_command bit), or
 * NULL. */
const out_format *out_format_find(const char *name, unsigned command);

/** The format a command writes when it is not told: its first row. */
const out_format *out_format_default(unsigned command);

/**
 * Parse --format's argument `arg` for `command` into *f. "list" prints
 * the command's formats with their summaries. Returns -1 when the command
 * should go on, else its exit status: EXIT_OK after the list, EXIT_USAGE
 * after one message naming every format the command takes.
 */
int out_format_option(const out_format **f, const char *arg, unsigned command);

/** The formats of `command`, "a, b or c", for messages. */
void out_format_names(strbuf *sb, unsigned command);

/** A format that needs a file is not written to a terminal: EXIT_USAGE
 * after a hint naming -o OUT.EXT when `output` is NULL and standard
 * output is a terminal, else EXIT_OK. */
int out_format_check_terminal(const out_format *f, const char *output);

/** Write the selection with f->write_profile to `output` (NULL: standard
 * output), which takes the output only when `status` (the inputs'
 * reading) and the writing succeeded; returns the command's exit status. */
int out_format_emit_profile(const out_format *f, const profile_output *po,
                            const char *output, int status);

/** The same for f->write_tree, a flame graph's tree and its title. */
int out_format_emit_tree(const out_format *f, const flame_tree *t, const char *title,
                         const char *output, int status);

#endif
