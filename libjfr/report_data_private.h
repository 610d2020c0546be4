/* report_data_private.h - between the parts of jfr_report_data_build:
 * the data as it grows, and a growable text for the fields read. Memory
 * failures set no_memory and are answered once, at the end of the
 * build. */
#ifndef JFR_REPORT_DATA_PRIVATE_H
#define JFR_REPORT_DATA_PRIVATE_H

#include "jfr.h"
#include "jfr_private.h"

/* the series, in jfr_report_data_series order */
enum {
    JFRP_S_CPU,
    JFRP_S_HEAP,
    JFRP_S_GC,
    JFRP_S_PAUSE,
    JFRP_S_THREADS,
    JFRP_S_SAFEPT,
    JFRP_S_CPU_LOST,
    JFRP_NSERIES
};

/** A series as it grows; `pub` points into it once the build is done. */
typedef struct jfrp_series {
    double *v[JFR_REPORT_SERIES_COLUMNS];
    char **text;
    size_t count, cap;
} jfrp_series;

/** A list of key/value rows. */
typedef struct jfrp_rows {
    jfr_report_row *row;
    size_t count;
} jfrp_rows;

struct jfr_report_data {
    jfr_report_summary summary;
    jfrp_rows overview, settings;
    jfrp_series grow[JFRP_NSERIES];
    jfr_report_series series[JFRP_NSERIES];
    jfr_report_lost *lost;
    size_t nlost;
    jfr_leaks *leaks;
    jfr_rate *rate;
    jfr_timeline *timeline;
    bool no_memory;
};

/** A growable NUL-terminated text. */
typedef struct jfrp_rdtext {
    char *s;
    size_t len, cap;
    bool failed; /* a growth failed: the text is cut */
} jfrp_rdtext;

void jfrp_rdtext_clear(jfrp_rdtext *t);
void jfrp_rdtext_putn(jfrp_rdtext *t, const char *s, size_t n);
void jfrp_rdtext_puts(jfrp_rdtext *t, const char *s);
void jfrp_rdtext_printf(jfrp_rdtext *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/** The text ("" when empty). */
const char *jfrp_rdtext_str(const jfrp_rdtext *t);
void jfrp_rdtext_free(jfrp_rdtext *t);

/** Set `key` to `value` in `rows`: added at the end when new, else
 * replaced only when `replace`. */
void jfrp_rows_set(jfr_report_data *d, jfrp_rows *rows, const char *key,
                   const char *value, bool replace);
void jfrp_rows_free(jfrp_rows *rows);

/** Add a point (the series' columns of `vals`) and its text (may be NULL). */
void jfrp_series_add(jfr_report_data *d, int series, const double *vals,
                     const char *text);
/** The series' names and columns, and their view of what was added. */
void jfrp_series_publish(jfr_report_data *d);
void jfrp_series_free(jfr_report_data *d);

/** Read the report's events of one chunk (report_data_events.c): false
 * when decoding stopped before the chunk's end (the recording's error
 * says why). */
bool jfrp_report_read_chunk(jfr_report_data *d, jfr_chunk *chunk);

#endif
