/* report.h - jfrtool report: one self-contained HTML page for a recording
 * (doc/report.md). The data is two library calls that run at the same
 * time: report_read.c makes libjfr's report data (jfr/report.h: overview,
 * timelines, leak analysis, allocation rate, thread timeline, losses, the
 * findings' chunk facts) in chunk order; report_profiles.c builds every
 * profile kind with thread roots and time buckets in one walk
 * (jfr_profile_build_many) and lays their stacks out for the page.
 * report_findings.c presents libjfr's findings (jfr/findings.h); they
 * write it all as the page's data line with the one JSON writer
 * (json_writer.h); cmd_report.c puts it into report.html. */
#ifndef JFRTOOL_REPORT_H
#define JFRTOOL_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jfr.h>

#include "json_writer.h"
#include "util.h"

/* ---- what the report knows ---------------------------------------------------- */

typedef struct report_profile report_profile; /* report_profiles.c */
typedef struct report_rules report_rules;     /* report_rules.c */

typedef struct report {
    char **files;
    int nfiles;
    unsigned char *stdin_data; /* "-": standard input, read once */
    size_t stdin_size;
    int jobs;
    int64_t origin;    /* epoch ns of time 0: the first input's start */
    int64_t end;       /* epoch ns of the latest chunk end */
    int64_t bucket_ns; /* width of a time bucket */
    int64_t nbuckets;
    uint64_t chunks; /* chunks that opened */
    uint64_t bytes;  /* input size (decompressed) */
    /* the in-order pass's data (jfr/report.h): overview, settings,
     * series, leaks, allocation rate, thread timeline */
    jfr_report_data *data;
    char **lost; /* what could not be read, one line each */
    size_t nlost;
    jfr_findings *findings; /* the rules' analysis, fed by both passes */
    report_rules *rules;    /* their SQL connection (report_rules.c) */
    jfr_recording **recs;   /* per file, the rules' handle to read, or NULL */
    report_profile *profiles;
    size_t nprofiles;
} report;

/* The inputs (report_input.c). */
/** Open input `path` ("-": the bytes read from standard input). */
int report_open(const report *r, const char *path, jfr_recording **out, jfr_error *err);
/** Read standard input whole into r->stdin_data (both passes read it). */
void report_read_stdin(report *r);
/** r->origin and r->end from the inputs' chunk headers: from the earliest
 * start (the first input's, where `folded --from 10s` counts from, when it
 * is the earliest) to the latest end. */
void report_time_axis(report *r);

/** Pass 1 over every file: r->data (jfr_report_data_build), and what
 * could not be read said and kept in r->lost. Returns an exit status
 * (EXIT_INPUT when a file or every chunk could not be read). */
int report_read(report *r);

/** Pass 2: the profiles, with r->bucket_ns set (may run in a thread of
 * its own beside report_read: they share no field but the settings). */
void report_read_profiles(report *r);
void report_profiles_json(jw *w, const report *r);
void report_profiles_free(report *r);

/** Give the profiles to the findings (after both passes). */
void report_profiles_to_findings(report *r);
/** The highest time bucket of any sample, -1 when none. */
int64_t report_max_bucket(const report *r);
/** Whether the recording has samples of profile kind `kind`. */
bool report_has_profile(const report *r, const char *kind);

/**
 * Before anything is read (report_rules.c): a connection with the rules
 * of sql/ and of the --rules files `rules`. EXIT_OK, or EXIT_USAGE after
 * saying what is wrong in a rules file.
 */
int report_rules_load(report *r, const char *const *rules, size_t nrules);
/**
 * Beside the profiles' pass, before the in-order pass: the recordings'
 * tables on the connection, r->findings made with the rules and their
 * queries run (the facts are given by both passes), r->recs the tables'
 * handles for the in-order pass to read. EXIT_OK, or EXIT_USAGE after
 * saying which rule's SQL is wrong.
 */
int report_rules_run(report *r);
/** Release the tables and r->recs (r->findings stays). */
void report_rules_close(report *r);

void report_findings_json(jw *w, report *r);
void report_leaks_json(jw *w, report *r);

/* The Threads section (report_threads.c): the options of the
 * thread-state timeline the in-order pass builds, and the page's data of
 * it. */
void report_threads_options(jfr_timeline_options *o, const report *r);
void report_threads_json(jw *w, report *r);

/** Write the page (report_page.c): report.html with the report's data. */
void report_write_page(FILE *out, report *r, const char *title);

void report_free(report *r);

#endif
