/* select.h - the SELECT and SHAPE options shared by the profile commands
 * (folded, flame, diff; design.md §3) and turning them into a jfr_profile
 * built from a list of files. */
#ifndef JFRTOOL_SELECT_H
#define JFRTOOL_SELECT_H

#include <getopt.h>
#include <stdbool.h>

#include <jfr.h>

#include "util.h"

/** The options as given on the command line. */
typedef struct select_opts {
    const char *event;             /**< --event: a profile kind or an event type name */
    const char *base_event;        /**< --base-event (diff only) */
    const char *weight;            /**< --weight: count, period or a field name */
    const char *thread;            /**< --thread REGEX */
    const char *from, *to;         /**< --from/--to: ISO-8601 or an offset ("10s") */
    const char *include, *exclude; /**< --include/--exclude REGEX */
    bool threads, lines, annotate; /**< SHAPE */
    int normalize;        /**< --normalize 1, --no-normalize 0 (diff: -1 unset) */
    bool no_class_frames; /**< --no-class-frames: no class frame on top */
    int jobs;             /**< --jobs: threads per file, 0: one per CPU */
    /** Not an option: time buckets (jfr_profile_options.bucket_nanos) from
     * the first input's start, for writers that order samples by time. */
    int64_t bucket_nanos;
} select_opts;

/** getopt_long codes of the shared options (above any short option). */
enum {
    SEL_EVENT = 0x100,
    SEL_BASE_EVENT,
    SEL_WEIGHT,
    SEL_THREAD,
    SEL_FROM,
    SEL_TO,
    SEL_INCLUDE,
    SEL_EXCLUDE,
    SEL_THREADS,
    SEL_LINES,
    SEL_ANNOTATE,
    SEL_NORMALIZE,
    SEL_NO_NORMALIZE,
    SEL_JOBS,
    SEL_NO_CLASS_FRAMES
};

/** The option table entries, for a command's own table (see SELECT_OPTIONS). */
/* clang-format off */
#define SELECT_OPTIONS \
    {"event", required_argument, NULL, SEL_EVENT}, \
    {"weight", required_argument, NULL, SEL_WEIGHT}, \
    {"thread", required_argument, NULL, SEL_THREAD}, \
    {"from", required_argument, NULL, SEL_FROM}, \
    {"to", required_argument, NULL, SEL_TO}, \
    {"include", required_argument, NULL, SEL_INCLUDE}, \
    {"exclude", required_argument, NULL, SEL_EXCLUDE}, \
    {"threads", no_argument, NULL, SEL_THREADS}, \
    {"lines", no_argument, NULL, SEL_LINES}, \
    {"annotate", no_argument, NULL, SEL_ANNOTATE}, \
    {"normalize", no_argument, NULL, SEL_NORMALIZE}, \
    {"no-normalize", no_argument, NULL, SEL_NO_NORMALIZE}, \
    {"no-class-frames", no_argument, NULL, SEL_NO_CLASS_FRAMES}, \
    {"jobs", required_argument, NULL, SEL_JOBS}
/* clang-format on */

/** Help text of the shared options, for a command's usage string. */
#define SELECT_USAGE_TEXT                                                                \
    "Selecting samples (SELECT):\n"                                                      \
    "  --event E         a profile kind: cpu, exec, native, wall (every thread),\n"      \
    "                    alloc (bytes), lock, wait, io (ns), exceptions\n"               \
    "                    (`--event list` says what each reads); or any event\n"          \
    "                    type name with a stack trace; default: cpu when the\n"          \
    "                    first file has CPU-time samples, else exec (a line on\n"        \
    "                    standard error says when another kind has 100x more)\n"         \
    "  --weight W        count (events), period (CPU-time samples weighted by\n"         \
    "                    samplingPeriod, in ns) or the name of an integer field\n"       \
    "  --thread REGEX    only threads whose name matches (the sampled thread of\n"       \
    "                    sample events, else the event thread)\n"                        \
    "  --from T, --to T  only samples in [from, to): ISO-8601 time\n"                    \
    "                    (2026-11-22T03:02:58.5Z) or an offset from the start of\n"      \
    "                    the recording (10s, 500ms, 2m; a bare number is seconds)\n"     \
    "  --include REGEX   only stacks with a frame whose name matches\n"                  \
    "  --exclude REGEX   drop stacks with a frame whose name matches\n"                  \
    "Shaping frames (SHAPE):\n"                                                          \
    "  --threads         a root frame [thread NAME tid=N] per thread\n"                  \
    "  --lines           ':LINE' after each frame with a line number (frames\n"          \
    "                    then differ by line)\n"                                         \
    "  --annotate        frame-type suffixes: _[j] JIT compiled, _[i] inlined,\n"        \
    "                    _[0] interpreted, _[k] kernel, none for native\n"               \
    "  --normalize       lambda, hidden-class and generated names without their\n"       \
    "                    run-specific numbers (Foo$$Lambda$92/0x.. -> Foo$$Lambda);\n"   \
    "                    the default of diff (--no-normalize turns it off)\n"            \
    "  --no-class-frames no top frame naming the class of a lock (lock, wait),\n"        \
    "                    of the parked object or of the allocated objects\n"             \
    "                    (alloc; outside a TLAB: kind kernel, _[k])\n"                   \
    "Decoding:\n"                                                                        \
    "  --jobs N          decode each file's chunks in N threads (default: one per\n"     \
    "                    idle CPU and 4 MB; 1: no threads); the output is the same\n"    \
    "Regexes are POSIX extended; frames are named package.Class.method.\n"

/** The same text as an object. */
extern const char select_usage[];

/** Take option `c` if it is a shared one; false otherwise. */
bool select_option(select_opts *s, int c, const char *arg);

/** Whether --jobs lets the work after decoding (sorting, deflating) take
 * a second thread: --jobs 2 or more, or by default a CPU idle now. */
bool select_second_thread(const select_opts *s);

/** What select_build made, for the renderers. */
typedef struct select_result {
    jfr_profile *profile;
    const char *selection; /**< a kind ("lock") or a full event type name */
    /** For titles: the event type of a one-source kind, else the kind */
    const char *label;
    bool damaged;   /**< warnings about the input were printed */
    char *resolved; /**< the full name --event named (owned; selection) */
    /** The default kind has under 1 % of another kind's samples: which
     * kind and how many ("only 4 exec samples; --event wall has 29,867");
     * "" otherwise. Said on standard error; pages show it too. */
    char hint[160];
} select_result;

/**
 * Build the profile of `files` (`nfiles` paths) for the options, with
 * `extra_flags` (JFR_PROFILE_*) added to the SHAPE flags. `event` overrides
 * s->event when not NULL. Prints diagnostics. Returns EXIT_OK,
 * EXIT_USAGE (bad option values) or EXIT_INPUT (no file could be read).
 */
int select_build(select_result *out, const select_opts *s, const char *event,
                 char **files, int nfiles, unsigned extra_flags);

/**
 * Make the empty profile of the options for samples added later, chunk by
 * chunk (--follow): `event` is a kind or an event type name (the caller
 * decides the default); --from/--to only as ISO-8601 times. Prints
 * diagnostics. Returns EXIT_OK or EXIT_USAGE.
 */
int select_new_profile(select_result *out, const select_opts *s, const char *event,
                       unsigned extra_flags);

void select_result_free(select_result *r);

/**
 * Add the CPU-time samples that were lost (jdk.CPUTimeSamplesLost) as a
 * root frame "[lost samples]", weighted like the other samples (by the mean
 * sampling period when weights are nanoseconds). Does nothing for other
 * event types or when none were lost.
 */
void select_add_lost(select_result *r);

/** Print the profile kinds (--event list) to standard output. */
void select_list_kinds(void);

/**
 * Append frame `f` as the options show it: its name, ":LINE" with --lines.
 * `folded` also makes spaces, ';' and line breaks '_' and adds the
 * --annotate suffix.
 */
void select_frame_text(strbuf *sb, const jfr_profile_frame *f, const select_opts *s,
                       bool folded);

/** Append frame `f` as jfr_profile_frame_text writes it with `flags`. */
void append_frame_text(strbuf *sb, const jfr_profile_frame *f, unsigned flags);

/**
 * For --event E that is not a profile kind: *out = the full name of the
 * one event type E names among every input's types (full or short name,
 * or a glob of one type; jfr_type_filter(3)), malloc'd. EXIT_USAGE after
 * a message suggesting the nearest kinds and types when E names none, or
 * naming them when it names several. *out stays NULL for a kind, or when
 * no input could be read.
 */
int select_resolve_event(char **out, const char *event, char *const *files, int nfiles);

#endif
