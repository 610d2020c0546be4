/* main.c - jfrtool: global options, the subcommand table, dispatch. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "config.h"
#include "input_guard.h"
#include "jfrtool.h"
#include "output.h"
#include "progress.h"
#include "util.h"

static const jfrtool_cmd commands[] = {
    {"summary", cmd_summary, "event counts and sizes per type", usage_summary},
    {"metadata", cmd_metadata, "the types a recording declares", usage_metadata},
    {"print", cmd_print, "every event, as text or JSON", usage_print},
    {"leaks", cmd_leaks, "memory-leak candidates from old-object samples", usage_leaks},
    {"folded", cmd_folded, "folded stacks for flame-graph tools", usage_folded},
    {"flame", cmd_flame, "flame graph as HTML or SVG", usage_flame},
    {"diff", cmd_diff, "differential flame graph of two profiles", usage_diff},
    {"view", cmd_view, "JDK-style views: hot methods, CPU time, allocation", usage_view},
    {"report", cmd_report, "one HTML page: overview, timelines, profiles, findings",
     usage_report},
#ifdef HAVE_SQLITE
    {"sql", cmd_sql, "SQL over recordings: event types as tables", usage_sql},
    {"rules", cmd_rules, "the report's findings as text or JSON, for CI", usage_rules},
#endif
    {"scrub", cmd_scrub, "copy a recording without some events, or with secrets redacted",
     usage_scrub},
    {"repair", cmd_repair, "what can be read of a damaged recording, as a valid one",
     usage_repair},
    {"top", cmd_top, "a running JVM's hot methods, live", usage_top},
    {"disassemble", cmd_disassemble, "split a recording at chunk boundaries into files",
     usage_disassemble},
    {"assemble", cmd_assemble, "join chunks and repositories into one recording",
     usage_assemble},
    /* @@COMMANDS@@ (new commands go above this line) */
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const jfrtool_cmd *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static void usage(FILE *out)
{
    fputs("Usage: jfrtool [--strict] COMMAND [OPTIONS] FILE...\n"
          "       jfrtool help COMMAND | jfrtool COMMAND --help\n"
          "       jfrtool --version\n"
          "\n"
          "Reads JDK Flight Recorder recordings (plain, gzip, lz4, xz or bzip2;\n"
          "FILE '-' is standard input). Several files are read as one recording.\n"
          "\n"
          "Commands:\n",
          out);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-11s %s\n", commands[i].name, commands[i].summary);
    fputs("\n--strict makes any warning about damaged input an error (exit status 2).\n"
          "\nExit status: 0 success (warnings about damaged input go to standard\n"
          "error), 1 usage error, 2 input that could not be read, 3 (repair) part\n"
          "of the input left out.\n",
          out);
}

void jfrtool_usage(FILE *out, const char *name)
{
    const jfrtool_cmd *cmd = find_command(name);

    if (cmd)
        fputs(cmd->usage, out);
    else
        usage(out);
}

#ifdef HAVE_SQLITE
#define SQL_FEATURE "yes"
#else
#define SQL_FEATURE "no"
#endif

static void version(void)
{
    unsigned f = jfr_features();

    printf("jfrtool %s (libjfr %s; gzip %s, lz4 %s, xz %s, bzip2 %s, sql %s)\n",
           JFR_VERSION_STRING, jfr_version_string(), f & JFR_FEATURE_GZIP ? "yes" : "no",
           f & JFR_FEATURE_LZ4 ? "yes" : "no", f & JFR_FEATURE_XZ ? "yes" : "no",
           f & JFR_FEATURE_BZIP2 ? "yes" : "no", SQL_FEATURE);
}

/* Each chunk allocates and frees much the same memory as the one before:
 * glibc gave it back to the system at each free and took it again as page
 * faults (a recording of 200 small chunks: 15,000 faults, a sixth of its
 * CPU time; 5,000 without). Peak memory is unchanged: what is kept is what
 * the next chunk uses. Setting the trim threshold also stops glibc from
 * raising its mmap threshold as big blocks are freed, so a chunk's arrays
 * of more than 128 KiB were mapped and unmapped chunk after chunk: the
 * threshold is set to the ceiling glibc's own raising would reach (a
 * 66 MB recording of 137 k stacks: 17,000 -> 12,400 faults). */
static void keep_freed_memory(void)
{
#if defined(__GLIBC__) && defined(M_TRIM_THRESHOLD)
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
    /* One heap for every thread. With an arena per decoding thread, what
     * a chunk freed in one arena was kept there (the threshold above) and
     * never reused by the profile growing in another: `report --jobs 2`
     * of a 104 MB recording ended with 154-164 MB of heap pages against
     * 116 MB in one arena. jfrtool allocates little and in big blocks
     * (25,000 calls for that report), so the one lock is not contended. */
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
    mallopt(M_ARENA_MAX, 1);
#endif
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
}

int main(int argc, char **argv)
{
    const jfrtool_cmd *cmd;
    static char prog[64];

    output_hold_standard_fds();
    output_buffer_stdout();
    keep_freed_memory();

    if (argc > 1 && strcmp(argv[1], "--strict") == 0) {
        set_strict(true);
        argv[1] = argv[0];
        argv++;
        argc--;
    }
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        version();
        return EXIT_OK;
    }
    if (strcmp(argv[1], "help") == 0) {
        if (argc > 2 && !find_command(argv[2])) {
            fprintf(stderr, "jfrtool: unknown command '%s'\n", argv[2]);
            return EXIT_USAGE;
        }
        jfrtool_usage(stdout, argc > 2 ? argv[2] : "");
        return EXIT_OK;
    }
    cmd = find_command(argv[1]);
    if (!cmd) {
        fprintf(stderr, "jfrtool: unknown command '%s' (see jfrtool --help)\n", argv[1]);
        return EXIT_USAGE;
    }
    /* a caller that ignores SIGPIPE (some supervisors and runtimes do)
     * would leave every write failing with EPIPE while the command runs
     * on: a closed pipe ends jfrtool, as it ends other filters */
    signal(SIGPIPE, SIG_DFL);
    /* getopt names argv[0] in its messages: make them "jfrtool: CMD: ..." too */
    snprintf(prog, sizeof prog, "jfrtool: %s", cmd->name);
    argv[1] = prog;
    set_command_name(cmd->name);
    input_guard_install(cmd->name);
    progress_init(strcmp(cmd->name, "print") == 0); /* print writes as it reads */
    return output_finish(command_status(cmd->run(argc - 1, argv + 1)));
}
