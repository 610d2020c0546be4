/* view_list.h - the views of `jfr view` as rows (view_list.c): one list, in the
 * order of JDK 25's `jfr help view`, read by jfrtool view (which renders
 * them). Each row
 * gives the view's name, category, title, the event types it reads, its
 * SQL over the recording's tables (doc/sql.md), its row limit, and per
 * column its label (or the recording's @Label of a field), format and
 * unit. doc/views.md says what each view shows. */
#ifndef JFRSQL_VIEW_LIST_H
#define JFRSQL_VIEW_LIST_H

#include <stdbool.h>
#include <stddef.h>

/** How a column's values print (the JDK's ValueFormatter, per content type).
 * Only strings (text, a flag's text) have their tabs and line breaks made
 * spaces, as the JDK's FieldFormatter does: the names of threads,
 * classes and methods are printed as they are, even where that breaks
 * the table's lines. */
typedef enum jfrsql_view_fmt {
    JFRSQL_FMT_TEXT,       /**< a string, tabs and line breaks as spaces; NULL "N/A" */
    JFRSQL_FMT_METHOD,     /**< a method; compact form "(...)" when cut */
    JFRSQL_FMT_CLASS,      /**< a class; compact form: the simple name */
    JFRSQL_FMT_INT,        /**< integer with ',' grouping */
    JFRSQL_FMT_SPAN,       /**< nanoseconds as "8.27 ms" */
    JFRSQL_FMT_BYTES,      /**< bytes as "4.9 MB" */
    JFRSQL_FMT_TIME,       /**< epoch nanoseconds as local "HH:mm:ss" */
    JFRSQL_FMT_PERCENT,    /**< a fraction (0..1) as "27.07%" */
    JFRSQL_FMT_NORMALIZED, /**< the value's share of the column's total, "12.34%" */
    JFRSQL_FMT_BOOL,       /**< 0/1 as "false"/"true" */
    JFRSQL_FMT_FRAMES,     /**< stack frames, one per line */
    JFRSQL_FMT_HEX,        /**< an address as "0x7f..." */
    JFRSQL_FMT_RATE,       /**< bits per second as "12.3 Mbps" */
    JFRSQL_FMT_DOUBLE,    /**< a double as the JDK's views print one: "10,000", "0.125" */
    JFRSQL_FMT_HZ,        /**< a frequency as "1000 Hz" */
    JFRSQL_FMT_FLAG,      /**< a flag's value: integers grouped, other values as is */
    JFRSQL_FMT_BYTE_RATE, /**< bytes per second as "4.5 MB/s" */
    JFRSQL_FMT_BITS,      /**< bits as "12.0 kbit" */
    JFRSQL_FMT_CHAR,      /**< a char field's UTF-16 code unit as the character */
    JFRSQL_FMT_THREAD     /**< a thread's name, tabs and line breaks kept (see below) */
} jfrsql_view_fmt;

/** One column of a view. */
typedef struct jfrsql_view_col {
    const char *label; /**< header */
    jfrsql_view_fmt fmt;
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
    /** the values of the JDK's SET or LIST, one a line (list_distinct(x,
     * char(10))): a cell of one line shows them joined by ", ", a taller
     * one each on its line, sorted when all fit (doc/views.md §5) */
    bool set;
    bool float_value; /**< a float field (its toString is Float's) */
    bool int_value;   /**< an int field (Integer.MIN_VALUE is "no value") */
    bool real_value;  /**< a float or double field: its long saturates */
} jfrsql_view_col;

/* The columns a view may have: an event type's own view has one per field
 * (a struct's fields one level down), and the JDK's has no bound; 40 cut
 * the last columns of wide custom events. */
#define JFRSQL_VIEW_MAX_COLS 128

/** One view. */
typedef struct jfrsql_view {
    const char *name;     /**< "gc-pauses" */
    const char *category; /**< "jvm", "environment", "application" */
    const char *title;    /**< "GC Pauses" */
    bool form;            /**< a form (label: value lines), not a table */
    /** the event types the view reads, space-separated; the first one no
     * input declares is reported as missing, as the JDK does; "*": every
     * type, counted in C (events-by-count, events-by-name; `sql` says so) */
    const char *types;
    /** the query; NULL for a view only hand-made code computes (fast_path),
     * a text in parentheses for the "*" views */
    const char *sql;
    size_t limit; /**< rows shown (0: all); normalized shares are of all rows */
    jfrsql_view_col cols[JFRSQL_VIEW_MAX_COLS];
    /** the file of jfrtool that computes the same table faster by hand
     * (tests/views/check-generic.sh compares them; jfrtool takes that path
     * only where the row names it), or for a view without SQL the only
     * code that computes it; NULL: the SQL alone */
    const char *fast_path;
    /** not one of the JDK's views (doc/views.md says so): `view all-views`
     * leaves it out, as the JDK's has no such view */
    bool ours;
    /** pairs of a column of `sql` and the field as the JDK's query spells
     * it ("stackTrace.frames", "S.stackTrace"), NULL-terminated, for the
     * message on a recording that lacks it; NULL: the column's own name */
    const char *const *jdk_fields;
} jfrsql_view;

/** The field the JDK's query names where `v`'s SQL lacks column `col`:
 * its jdk_fields spelling, else `col` after its first dot (SQLite's
 * "a.objectAge" for a qualified name). */
const char *jfrsql_view_jdk_field(const jfrsql_view *v, const char *col);

/** The views, in `jfr help view` order (then ours). */
extern const jfrsql_view jfrsql_views[];
extern const size_t jfrsql_nviews;

/** The view named `name`, or NULL. */
const jfrsql_view *jfrsql_view_find(const char *name);

/** Whether `v` runs as SQL (not only as hand-made code or a count of every
 * type). */
bool jfrsql_view_has_sql(const jfrsql_view *v);

/** The unit of a format's values in JSON and CSV ("ns", "bytes", "%"...),
 * or NULL for none. */
const char *jfrsql_view_unit(jfrsql_view_fmt f);

/** The format's name in jfr_view_columns ("span", "normalized"...). */
const char *jfrsql_view_fmt_name(jfrsql_view_fmt f);

/** The rows of `v` as `jfrtool view --json` gives them, as one SELECT:
 * "WITH q(c1, ...) AS (SQL) SELECT ... FROM q", columns named by the
 * labels, shares in percent, the row limit applied (view_tables.c;
 * sqlite3_free it; NULL when out of memory). The SQL views "view:NAME"
 * are made of it. */
char *jfrsql_view_values_sql(const jfrsql_view *v);

/** The number of columns of `v`. */
size_t jfrsql_view_ncols(const jfrsql_view *v);

#endif
