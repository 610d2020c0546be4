/* report.h - jfrtool report: one self-contained HTML page for a recording
 * (doc/report.md). The data is gathered in two passes that run at the
 * same time: report_read.c reads the overview, the timelines, the leak
 * analysis and the findings' chunk facts in chunk order;
 * report_profiles.c builds every profile kind with thread roots and time
 * buckets, in threads. report_findings.c presents libjfr's findings
 * (jfr/findings.h); report_json.c writes it all as the page's data line;
 * cmd_report.c puts it into report.html. */
#ifndef JFRTOOL_REPORT_H
#define JFRTOOL_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jfr.h>

#include "util.h"

/* ---- a buffered JSON writer (report_json.c) ---------------------------------- */

typedef struct jw {
    FILE *out;
    size_t len;
    bool comma; /* the next value needs a comma before it */
    char buf[1 << 16];
} jw;

void jw_init(jw *w, FILE *out);
void jw_flush(jw *w);
/** Raw text, no separators. */
void jw_raw(jw *w, const char *s);
/** Containers; a key, then a value. */
void jw_begin(jw *w, char c); /* '{' or '[' */
void jw_end(jw *w, char c);   /* '}' or ']' */
void jw_key(jw *w, const char *key);
void jw_str(jw *w, const char *s);
void jw_strn(jw *w, const char *s, size_t len);
void jw_int(jw *w, int64_t v);
void jw_num(jw *w, double v); /* NaN and infinities are null */
void jw_bool(jw *w, bool v);
void jw_null(jw *w);

/* ---- series: a timeline's points --------------------------------------------- */

/** Columns of doubles; column 0 is the time (ms from the report's origin). */
typedef struct series {
    const char *name;
    size_t ncols;
    const char *cols[6];
    double *v[6];
    size_t count, cap;
    /* a text per point (GC name, heap before/after), NULL if none */
    char **text;
} series;

void series_add(series *s, const double *vals, const char *text);
void series_free(series *s);

enum {
    S_CPU,  /* jdk.CPULoad: t, jvmUser, jvmSystem, machineTotal */
    S_HEAP, /* jdk.GCHeapSummary: t, heapUsed, gcId; text when */
    S_GC, /* jdk.GarbageCollection: t, duration, longestPause, sumOfPauses, gcId; text name */
    S_PAUSE,    /* jdk.GCPhasePause: t, duration, gcId; text name */
    S_THREADS,  /* jdk.JavaThreadStatistics: t, activeCount, daemonCount */
    S_SAFEPT,   /* jdk.SafepointBegin: t, duration, totalThreadCount */
    S_CPU_LOST, /* jdk.CPUTimeSamplesLost: t, lostSamples */
    NSERIES
};

/* ---- what the report knows ---------------------------------------------------- */

typedef struct kv {
    char *key, *value;
} kv;

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
    kv *info;        /* overview rows: JVM, OS, command line, ... */
    size_t ninfo;
    kv *settings; /* "jdk.ExecutionSample period" -> "20 ms" */
    size_t nsettings;
    char **lost; /* what could not be read, one line each */
    size_t nlost;
    series series[NSERIES];
    jfr_leaks *leaks;
    jfr_findings *findings; /* the rules' analysis, fed by both passes */
    report_rules *rules;    /* their SQL connection (report_rules.c) */
    jfr_recording **recs;   /* per file, the rules' handle to read, or NULL */
    jfr_rate *alloc_rate;   /* bytes allocated per bucket, spread (jfr/rate.h) */
    report_profile *profiles;
    size_t nprofiles;
    jfr_timeline *timeline; /* the Threads section (report_threads.c) */
} report;

/** Open input `path` ("-": the bytes read from standard input) (report_open.c). */
int report_open(const report *r, const char *path, jfr_recording **out, jfr_error *err);

/** Read standard input whole into r->stdin_data (report_open.c); exits
 * with status 2 when it cannot. */
void report_read_stdin(report *r);

void report_info(report *r, const char *key, const char *value);
void report_lost(report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** Pass 1 over every file: overview, timelines, leaks. Returns an exit
 * status (EXIT_INPUT when no file could be read). */
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

/* The Threads section (report_threads.c): the thread-state timeline of
 * every chunk the in-order pass reads, and the page's data of it. */
void report_threads_add_chunk(report *r, jfr_chunk *chunk);
void report_threads_json(jw *w, report *r);
void report_threads_free(report *r);

void report_free(report *r);

#endif
