/* views.h - `jfrtool view`: the view table and what views share.
 *
 * A view is one view_def: its name, its title, the event types it reads and
 * the function that reads the inputs and prints. cmd_view.c holds the table;
 * a view written in its own file is declared here and listed there. The
 * shared parts are the input walk (view_scan.c), the JDK's group order
 * (view_groups.c), the table renderer (view_table.c) and the number formats
 * (view_format.c). doc/views.md says what each view prints. */
#ifndef JFRTOOL_VIEWS_H
#define JFRTOOL_VIEWS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>
#include <jfr.h>

#include "util.h"

typedef struct view_def view_def;

/** The inputs and the options common to all views. */
typedef struct view_ctx {
    char **files;
    int nfiles;
    int width;          /**< --width N; 0: the JDK's automatic width */
    bool json;          /**< --json */
    bool weight_period; /**< --weight period: CPU seconds by samplingPeriod */
    bool jdk_order;     /**< --jdk-order: ties in the JDK's HashMap order, not by name */
    bool ascii_only;    /**< print non-ASCII as '?' (as Java does in the C locale) */
    int jobs;           /**< --jobs N: threads per file where a view can use them */
    /** for the generic engine, which reads its inputs several times: the
     * first input is JFR 1.0, whose com.oracle.jfr.types names the JDK does
     * not know, so method and stack columns get no more spare width than
     * the others (the hand-made views, which read each input once, see it
     * in view_presence.first_jfr10) */
    bool first_jfr10;
    int cell_height; /**< --cell-height N (0: the view's) */
    int truncate;    /**< --truncate: 0 the view's, 1 beginning, 2 end */
    /** the first input's first chunk, open for the generic engine, whose
     * metadata labels the columns (NULL: standard input, or not open) */
    jfr_chunk *first_chunk;
    FILE *out;
} view_ctx;

/** One view. */
struct view_def {
    const char *name;               /**< "hot-methods" */
    const char *title;              /**< "Java Methods that Execute the Most" */
    const char *const *event_types; /**< NULL-terminated; [0] is the sampled type */
    int (*run)(const view_def *view, const view_ctx *ctx);
    const char *help; /**< one line for `jfrtool view --help` */
    /** lays out --cell-height and --truncate as the view's definition
     * does (every column; the definition sets neither), so those options
     * keep this view, and --jdk-order with them */
    bool cell_options;
};

/* The views. Views in other files: declare them here, list them in cmd_view.c. */
extern const view_def view_hot_methods;
extern const view_def view_cpu_time_hot_methods;
extern const view_def view_native_methods;
extern const view_def view_cpu_time_statistics;
extern const view_def view_allocation_by_class;
extern const view_def view_allocation_by_site;
extern const view_def view_allocation_by_thread;
extern const view_def view_memory_leaks_by_class, view_memory_leaks_by_site;
/* @@VIEW_DECLS@@ (declarations of views in other files go above this line) */

/* ---- walking the inputs (view_scan.c) --------------------------------------- */

/** A chunk being read, and where it came from (for messages). */
typedef struct view_chunk {
    jfr_chunk *chunk;
    uint64_t ordinal; /**< counts chunks over all inputs */
    const char *path;
    jfr_recording *rec;
} view_chunk;

/** Called for every chunk of every input, in order. Return 0 to go on. */
typedef int (*view_chunk_fn)(const view_chunk *c, void *user);

/**
 * A view's work split for threads (jfrtool/parallel.h): `decode` runs in
 * a worker on one chunk and may only read `user`; `merge` takes its result
 * in the calling thread, in chunk order, with the chunk's ordinal over all
 * inputs. It replaces view_chunk_fn for files that can be shared out.
 */
typedef struct view_parallel {
    void *(*decode)(jfr_chunk *chunk, jfr_recording *rec, const char *path,
                    strbuf *messages, void *user);
    void (*merge)(void *result, uint64_t ordinal, void *user);
} view_parallel;

/** Report an error of the event iteration of chunk `c` as a warning. */
void view_report_chunk_error(const view_chunk *c);

/**
 * Call `fn` for each chunk of each input of `ctx`, reporting damaged input
 * as warnings. Returns EXIT_OK, or EXIT_INPUT when an input could not be
 * opened (the others are still read) or when no chunk could be read at all.
 */
int view_for_each_chunk(const view_ctx *ctx, view_chunk_fn fn, void *user);

/**
 * The same, with the files that can be shared out among ctx->jobs threads
 * read through `par` (whose merge sees every chunk, in order) and the
 * others through `fn`. The result is the same either way.
 */
int view_for_each_chunk_parallel(const view_ctx *ctx, view_chunk_fn fn,
                                 const view_parallel *par, void *user);

/** Which of a view's event types the inputs declare (any chunk). */
typedef struct view_presence {
    bool declared;       /**< event_types[0] is declared by some chunk */
    bool experimental;   /**< ... and carries @Experimental */
    bool first_declares; /**< the first chunk declares it (the JDK looks only there) */
    /** the first chunk is JFR 1.0, whose com.oracle.jfr.types names the JDK
     * does not know: method and stack columns get no more spare width than
     * the others (doc/views.md) */
    bool first_jfr10;
} view_presence;

/**
 * The event type `name` ("jdk.ExecutionSample") of `chunk`: that name, or
 * in JFR 1.0 files (JDK 9/10) "com.oracle.jdk.ExecutionSample". (The JDK
 * takes any type whose name ends in ".ExecutionSample"; a third-party type
 * such as datadog.ExecutionSample is not taken here.)
 */
const jfr_type *view_find_type(jfr_chunk *chunk, const char *name);

/** Record in `p` what `chunk` declares about `type_name`. */
void view_note_type(view_presence *p, jfr_chunk *chunk, uint64_t ordinal,
                    const char *type_name);
/** Whether a chunk declares a type, found in a worker thread and noted,
 * in chunk order, in the calling one (view_note_type in two steps). */
typedef struct view_declared {
    bool declared, experimental;
    bool jfr10; /**< the chunk is JFR 1.0 (JDK 9/10) */
} view_declared;
view_declared view_type_declared(jfr_chunk *chunk, const char *type_name);
void view_note_declared(view_presence *p, view_declared d, uint64_t ordinal);

/**
 * The event's end time in ticks (startTime + duration, or startTime for
 * instant events): the key by which the JDK orders a chunk's events.
 */
int64_t view_event_end_ticks(const jfr_event *ev);

/** An integer field of the event (0 when absent or null). */
int64_t view_event_int(const jfr_event *ev, const char *field);
/** A boolean field of the event (false when absent). */
bool view_event_bool(const jfr_event *ev, const char *field);

/** The JDK's messages for a view whose type no input declares, or that has
 * no events (doc/views.md §8). */
void view_print_missing(const view_def *view, const view_ctx *ctx);
void view_print_no_events(const view_def *view, const view_ctx *ctx);
/** The JDK's words when the first chunk's type lacks `field`. */
void view_print_missing_field(const view_def *view, const view_ctx *ctx,
                              const char *field);
/** The same for any view: `type` as the recording names it, `short_type`
 * as the query does (JSON: the view, its title and the field). */
void view_say_missing_field(const view_ctx *ctx, const char *view, const char *title,
                            const char *type, const char *short_type, const char *field);

/* ---- text of methods and classes (view_names.c) ------------------------------ */

/**
 * "pkg.Class.method(int, String[])" as the JDK's views print a method;
 * with `compact`, "(...)" stands for a non-empty parameter list.
 */
void view_method_text(strbuf *sb, jfr_str class_name, jfr_str method, jfr_str descriptor,
                      bool compact);
/** A class name as the JDK's views print it ("[B" -> "byte[]"); with
 * `compact` only the part after the last dot. */
void view_class_text(strbuf *sb, jfr_str class_name, bool compact);
/** Java's String.hashCode of UTF-8 text (hashing its UTF-16 code units). */
int32_t java_string_hash(const char *s, size_t len);
/** Java's Long.hashCode. */
static inline int32_t java_long_hash(uint64_t v)
{
    return (int32_t)(uint32_t)(v ^ (v >> 32));
}
/** Length in UTF-16 code units of UTF-8 text (the unit of the JDK's widths). */
size_t utf16_length(const char *s, size_t len);

/* ---- number formats (view_format.c) ------------------------------------------ */

/* Java's String.format("%.Nf", d) is fmt_java_fixed (out_text.h). */
/** A share as the JDK prints it: (part / total) * 100 with two decimals, "%". */
void fmt_percent(strbuf *sb, uint64_t part, uint64_t total);
/** The same share as a number for JSON (the printed value, e.g. 15.7). */
double percent_value(uint64_t part, uint64_t total);

/* ---- groups in the JDK's order (view_groups.c) ------------------------------- */

/** One row key: a method, a class, or N/A. */
typedef struct view_group {
    char *key; /**< identity (NUL-separated parts), owned */
    size_t key_len;
    char *text;      /**< the cell text, owned */
    char *compact;   /**< the compact cell text, owned */
    int32_t hash;    /**< hashCode of the JDK's HashMap key for this group */
    uint64_t count;  /**< events */
    uint64_t weight; /**< sum of weights (bytes, ns, or the count) */
    /* first occurrence in the JDK's dispatch order */
    uint64_t first_chunk;
    int64_t first_end;
    uint64_t first_seq;
} view_group;

typedef struct view_groups {
    view_group *v;
    size_t n, cap;
    strmap index; /* key -> index in v */
    /* the last event in dispatch order, to know whether the JDK's map grew
     * once more after the last new key */
    bool any;
    uint64_t last_chunk;
    int64_t last_end;
    uint64_t last_seq;
    size_t last_group;
    uint64_t total_count;
    uint64_t total_weight;
} view_groups;

/** The group with this identity, or a new empty one (*created set). */
size_t view_group_find(view_groups *g, const char *key, size_t key_len, bool *created);
/** Add `count` events of total `weight` to group `gi` (no order tracking:
 * for rows taken from a profile, ordered by name). */
void view_group_add_many(view_groups *g, size_t gi, uint64_t count, uint64_t weight);
/** Count one event of group `gi` at dispatch position (chunk, end, seq). */
void view_group_add(view_groups *g, size_t gi, uint64_t weight, uint64_t chunk,
                    int64_t end_ticks, uint64_t seq);
/**
 * The groups in table order: `by_weight` (or count) descending; equal
 * values by text (byte order), or with `jdk_order` in the iteration order
 * of the JDK's HashMap, which reproduces `jfr view` byte for byte
 * (doc/views.md §4). Returns an array of group indices (caller frees).
 */
size_t *view_groups_order(const view_groups *g, bool by_weight, bool jdk_order);
void view_groups_free(view_groups *g);

/** A map from chunk-local pool keys to group indices, reset per chunk. */
typedef struct view_keymap {
    uint64_t *keys;
    size_t *vals;
    size_t cap, n;
} view_keymap;

/** The value for `key`, or SIZE_MAX. */
size_t view_keymap_get(const view_keymap *m, uint64_t key);
void view_keymap_put(view_keymap *m, uint64_t key, size_t val);
void view_keymap_clear(view_keymap *m);
void view_keymap_free(view_keymap *m);

/* ---- the table renderer (view_table.c) --------------------------------------- */

typedef struct view_column {
    const char *label;   /**< header text */
    bool right;          /**< right-aligned, fixed width (numbers) */
    int cell_height;     /**< lines a cell may take (0, 1: one) */
    bool truncate_begin; /**< cut long text at its beginning ("...end") */
    bool fixed;          /**< fixed width like `right`, but left-aligned (times) */
    /** the text is values one a line: a stack's frames (its one-line text
     * the top frame) or a `set` (its one-line text the values joined by
     * ", "); a cell taller than one line shows them one a line */
    bool lines;
    bool set;
    bool flex; /**< takes spare width though right-aligned (the JDK's
                              counts of text fields are not of fixed width) */
} view_column;

typedef struct view_table {
    const char *title; /**< NULL: no title lines */
    bool experimental; /**< title gets " (Experimental)" */
    const view_column *cols;
    size_t ncols;
    size_t limit; /**< rows printed; 0: all */
    /** the cells point to the caller's texts, which outlive the table
     * (not copied, not freed) */
    bool borrowed;
    /* cells, row-major: full text and compact text (NULL: same) */
    const char **full;
    const char **compact;
    size_t nrows, cap;
} view_table;

/** Append a row; `full` and `compact` hold ncols strings each (copied,
 * unless the table is `borrowed`). */
/** --cell-height and --truncate of `ctx` on each of the `n` columns: the
 * hand-made views with view_def.cell_options, whose definitions set
 * neither for any column. */
void view_columns_take_options(view_column *cols, size_t n, const view_ctx *ctx);
void view_table_add(view_table *t, const char *const *full, const char *const *compact);
/** Print the table as `jfr view` does at width `width` (0: automatic). */
void view_table_print(FILE *out, const view_table *t, int width, bool ascii_only);
void view_table_free(view_table *t);

/** A JSON integer for a count (counts and byte sums stay below 2^63). */
json_t *json_count(uint64_t v);
/** Write `j` (an object) as indented JSON with a final newline. */
void view_json_print(FILE *out, json_t *j);

/* ---- views of rows grouped by top frame or class (view_rows.c) --------------- */

/** How a row view groups events, weighs them and prints. */
typedef struct view_rows_spec {
    const char *class_field;  /**< group by this class field; NULL: by top frame */
    const char *thread_field; /**< or by this thread field (its Java, else OS, name) */
    const char *weight_field; /**< sum this field; NULL: count events */
    const char *key_label;    /**< "Method", "Object Type" */
    const char *key_json;     /**< "method", "objectType" */
    bool show_count;          /**< a "Samples" column */
    const char *share_label;  /**< "Percent", "Allocation Pressure"; NULL: none */
    size_t limit;             /**< rows shown; 0: all */
    bool cpu_lines;           /**< honest CPU-time lines after the table */
} view_rows_spec;

/** Run a row view: read the inputs, group, print text or JSON. */
int view_rows_run(const view_def *view, const view_ctx *ctx, const view_rows_spec *spec);

/* ---- honest CPU time (view_cpu.c) -------------------------------------------- */

/** What CPU-time samples stand for (JEP 509), over all inputs. */
/**
 * A profile that only keeps the CPU-time accounting (jfr_profile_cpu: the
 * library's one definition of JEP 509's counts), for views that do not
 * build the profile themselves. NULL when out of memory (reported).
 */
jfr_profile *view_cpu_profile(void);

void view_cpu_print_lines(FILE *out, const jfr_cpu_accounting *c, bool weight_period);
/** The same as a JSON object. */
json_t *view_cpu_json(const jfr_cpu_accounting *c, bool weight_period);

#endif
