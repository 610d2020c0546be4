/* view_generic.h - runs the views of sql/view_list.h (their SQL over the
 * recording's tables, doc/sql.md) and prints each as a table, a form,
 * JSON or CSV. */
#ifndef JFRTOOL_VIEW_GENERIC_H
#define JFRTOOL_VIEW_GENERIC_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"
#include "views.h"
#include "view_list.h"

/** Options of the generic path beyond view_ctx. */
typedef struct gview_opts {
    bool verbose;    /**< print the query first */
    bool csv;        /**< CSV instead of the table */
    int cell_height; /**< --cell-height N (0: the view's) */
    int truncate;    /**< 0: the view's, 1: beginning, 2: end */
    bool generic;    /**< run the SQL even where a native path exists */
    /** the table reads an experimental event type (a type view's), which
     * the JDK's renderer marks in the title again */
    bool experimental;
    /** all-events: each type's table titled by its label alone (the JDK's
     * view of one experimental type says so in the title twice) */
    bool label_titles;
} gview_opts;

/** One row of a span_stats view: the name, then its SPAN_STATS. */
typedef struct gv_span_row {
    char *name;
    bool has_values; /**< false: every duration was missing (NULLs) */
    int64_t avg, p95, max, count, sum;
} gv_span_row;

/** Whether `v`'s row names view_spans.c as its fast path: its SQL is
 * `name` and SPAN_STATS(duration) by name, by total descending (the GC
 * phase views), which view_spans.c computes in one pass. */
bool gview_is_span_stats(const jfrsql_view *v);
/** The rows of such a view over the inputs of `ctx`, in its order: 0, or
 * -1 when an input is standard input (already read as a table). */
int gview_span_stats(const jfrsql_view *v, const view_ctx *ctx, gv_span_row **rows,
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

/** Open the first input's first chunk once for the generic engine:
 * ctx->first_chunk (NULL for standard input, which is not read twice, or
 * an input that cannot be read) and ctx->first_jfr10, whether it is JFR
 * 1.0. Returns its recording, to free once the views have run. */
jfr_recording *gview_open_first_chunk(view_ctx *ctx);

/** Run `v` on the inputs of `ctx`; the exit status. */
int gview_run(const jfrsql_view *v, const view_ctx *ctx, const gview_opts *o);
/** `view EVENT-TYPE`: the events of one type as a table (NULL when no such
 * type: returns -1 without printing). */
int gview_run_type(const char *type, const view_ctx *ctx, const gview_opts *o);

#endif
