/* view_generic.h - views as data: a view is one gview (its name, title,
 * the SQL it runs over the recording's tables (sql/, doc/sql.md) and how
 * each column prints); view_generic.c runs any of them and prints it as a
 * table, a form, JSON or CSV. view_defs.c holds the list. */
#ifndef JFRTOOL_VIEW_GENERIC_H
#define JFRTOOL_VIEW_GENERIC_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"
#include "views.h"

/** How a column's values print (the JDK's ValueFormatter, per content type). */
typedef enum gv_fmt {
    GV_TEXT,       /**< as is; NULL "N/A" */
    GV_METHOD,     /**< a method; compact form "(...)" when cut */
    GV_CLASS,      /**< a class; compact form: the simple name */
    GV_INT,        /**< integer with ',' grouping */
    GV_SPAN,       /**< nanoseconds as "8.27 ms" */
    GV_BYTES,      /**< bytes as "4.9 MB" */
    GV_TIME,       /**< epoch nanoseconds as local "HH:mm:ss" */
    GV_PERCENT,    /**< a fraction (0..1) as "27.07%" */
    GV_NORMALIZED, /**< the value's share of the column's total, "12.34%" */
    GV_BOOL,       /**< 0/1 as "false"/"true" */
    GV_FRAMES,     /**< stack frames, one per line */
    GV_HEX,        /**< an address as "0x7f..." */
    GV_RATE,       /**< bits per second as "12.3 Mbps" */
    GV_DOUBLE,     /**< a double as the JDK's views print one: "10,000", "0.125" */
    GV_HZ,         /**< a frequency as "1000 Hz" */
    GV_FLAG,       /**< a flag's value: integers grouped, other values as is */
    GV_BYTE_RATE,  /**< bytes per second as "4.5 MB/s" */
    GV_BITS,       /**< bits as "12.0 kbit" */
    GV_CHAR        /**< a char field's UTF-16 code unit as the character */
} gv_fmt;

typedef struct gv_col {
    const char *label; /**< header */
    gv_fmt fmt;
    int cell_height;     /**< lines a cell may take (0: one) */
    bool truncate_begin; /**< cut at the beginning */
    const char *missing; /**< text for NULL (default "N/A") */
    bool flex;           /**< not of fixed width: an aggregate of a text field */
    bool left;           /**< left-aligned though a number (the JDK's DIFF) */
    /** the field of the view's first type the column shows ("totalTimeSpent",
     * "source.name"): its format follows the file's annotations */
    const char *field;
    /** the JDK's view names no columns: the label is the field's, from the
     * recording's metadata, after `prefix` ("Avg. ", "Total ") */
    bool file_label;
    const char *prefix;
    /** durations below a second with N - 1 decimals of ms (the JDK's FORMAT
     * ms-precision:N-1); 0: the usual three significant figures */
    int ms_precision;
    bool float_value; /**< a float field (its toString is Float's) */
    bool int_value;   /**< an int field (Integer.MIN_VALUE is "no value") */
} gv_col;

#define GV_MAX_COLS 40

typedef struct gview {
    const char *name;     /**< "gc-pauses" */
    const char *category; /**< "jvm", "environment", "application" */
    const char *title;    /**< "GC Pauses" */
    bool form;            /**< a form (label: value lines), not a table */
    /** the event types the view reads, space-separated; the first one no
     * input declares is reported as missing, as the JDK does; "*": every
     * type, counted in C (events-by-count, events-by-name; `sql` says so) */
    const char *types;
    const char *sql;
    size_t limit; /**< rows shown (0: all); normalized shares are of all rows */
    gv_col cols[GV_MAX_COLS];
} gview;

extern const gview gviews[];
extern const size_t ngviews;

/** Options of the generic path beyond view_ctx. */
typedef struct gview_opts {
    bool verbose;    /**< print the query first */
    bool csv;        /**< CSV instead of the table */
    int cell_height; /**< --cell-height N (0: the view's) */
    int truncate;    /**< 0: the view's, 1: beginning, 2: end */
    bool generic;    /**< run the SQL even where a native path exists */
} gview_opts;

/** One row of a span_stats view: the name, then its SPAN_STATS. */
typedef struct gv_span_row {
    char *name;
    bool has_values; /**< false: every duration was missing (NULLs) */
    int64_t avg, p95, max, count, sum;
} gv_span_row;

/** Whether `v`'s SQL is `name` and SPAN_STATS(duration) by name, by total
 * descending (the GC phase views), which view_spans.c computes in one pass. */
bool gview_is_span_stats(const gview *v);
/** The rows of such a view over the inputs of `ctx`, in its order: 0, or
 * -1 when an input is standard input (already read as a table). */
int gview_span_stats(const gview *v, const view_ctx *ctx, gv_span_row **rows,
                     size_t *nrows);

/** What the `recording` view shows (view_recording.c). */
typedef struct gv_recording_info {
    uint64_t count; /**< events of every type */
    bool has_first, has_last;
    int64_t first, last; /**< epoch nanoseconds: the JDK's FIRST and LAST startTime */
    char *reason;        /**< the last jdk.Shutdown's reason, or NULL */
} gv_recording_info;

/** Read every event of the inputs for the `recording` view, in ctx->jobs
 * threads; damaged input is reported and read past. Returns the exit status
 * of opening the inputs. */
int gview_recording_info(const view_ctx *ctx, gv_recording_info *info);

/** Whether the first input's first chunk is JFR 1.0 (view_ctx.first_jfr10);
 * standard input counts as not (it is not read twice). */
bool gview_first_input_jfr10(const view_ctx *ctx);

/* ---- what the metadata says about fields (view_fields.c) ---------------- */

bool gv_field_has_annotation(const jfr_field *f, const char *name);
/** The column format of a field by its type and annotations, or -1 for a
 * field shown by no column; `colname` gets the column's name in sql/. */
int gv_field_format(const jfr_field *f, strbuf *colname);
/** The JDK's label of a field: its @Label, with a few short forms. */
const char *gv_field_label(const jfr_field *f, bool has_duration);
/**
 * The columns of `v` as the first chunk of the first input declares their
 * fields: labels (`file_label` columns) and formats from its metadata.
 * Fills GV_MAX_COLS `cols`; `labels` gets the labels it made (free them).
 */
void gview_file_columns(const gview *v, const view_ctx *ctx, gv_col *cols, char **labels);

const gview *gview_find(const char *name);
/** Run `v` on the inputs of `ctx`; the exit status. */
int gview_run(const gview *v, const view_ctx *ctx, const gview_opts *o);
/** `view EVENT-TYPE`: the events of one type as a table (NULL when no such
 * type: returns -1 without printing). */
int gview_run_type(const char *type, const view_ctx *ctx, const gview_opts *o);

#endif
