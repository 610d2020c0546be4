/* catalog.h - inside the SQL part: the tables and columns a catalog holds,
 * and how the virtual tables read them (not used outside sql/). */
#ifndef JFRSQL_CATALOG_H
#define JFRSQL_CATALOG_H

#include "jfrsql.h"

/** How a column's value is made from the field its path leads to. */
typedef enum jfrsql_render {
    RENDER_VALUE,              /**< the value itself: INTEGER, REAL or TEXT */
    RENDER_UNSIGNED,           /**< an integer with @Unsigned */
    RENDER_TIMESTAMP,          /**< an instant: ns since the epoch */
    RENDER_TIMESPAN,           /**< a duration: ns */
    RENDER_CLASS,              /**< a java.lang.Class: its Java name */
    RENDER_THREAD,             /**< a java.lang.Thread: its Java name, else its OS name */
    RENDER_METHOD,             /**< a method: "pkg.Class.method(int, String)" */
    RENDER_TOP_FRAME,          /**< a stack trace: the method of frame 0 */
    RENDER_FRAMES,             /**< a stack trace: every frame's method, one per line */
    RENDER_IDENTITY,           /**< a thread, class, class loader or method: its group
                           (jfr/identity.h), the same number for the same thing */
    RENDER_TOP_FRAME_IDENTITY, /**< a stack trace: the group of frame 0's method */
    RENDER_FRAMES_IDENTITY,    /**< a stack trace: its frames' groups, "3 7 12" */
    RENDER_APP_FRAME,          /**< a stack trace: the method of its first application
                                    frame (jfr_chunk_method_is_application) */
    RENDER_APP_FRAME_IDENTITY, /**< a stack trace: the group of that method */
    RENDER_TOP_FRAME_TYPE,     /**< a stack trace: the class of frame 0's method */
    RENDER_TOP_FRAME_TYPE_IDENTITY, /**< a stack trace: the group of that class */
    RENDER_END_TIME,                /**< the event's end: startTime + duration (startTime
                                    when its type has no duration), ns since the
                                    epoch: the time the JDK's views order by */
    RENDER_CHUNK,                   /**< the chunk's index in its file */
    RENDER_FILE,                    /**< the file, as given */
    RENDER_OFFSET                   /**< where the event's record is in its file */
} jfrsql_render;

typedef struct jfrsql_column {
    char *name; /**< "eventThread.javaName" */
    /** the field names from the event down; a simple type adds its one field */
    char *path[JFRSQL_MAX_DEPTH + 1];
    int depth;
    jfrsql_render render;
    jfr_time_unit unit; /**< of instants and durations (jfr_field_time_unit) */
    const char *decl;   /**< "INTEGER", "REAL", "TEXT" */
} jfrsql_column;

typedef struct jfrsql_table {
    char *name;  /**< "jdk.ExecutionSample" (JFR 1.0's "com.oracle." dropped) */
    char *alias; /**< "ExecutionSample", or NULL when ambiguous */
    jfrsql_column *cols;
    size_t ncols, cap;
} jfrsql_table;

/** An event type as the files declare it, by the id that events and
 * settings (jdk.ActiveSetting's id) use: the table jfr_event_types. */
typedef struct jfrsql_event_type {
    uint64_t id;
    char *name;  /**< as its table is named */
    char *label; /**< NULL when it has none */
} jfrsql_event_type;

/** A chunk that opened: the table jfr_chunks. */
typedef struct jfrsql_chunk_info {
    size_t file;
    int64_t index;
    int64_t start, duration; /**< ns since the epoch; ns */
    uint64_t size;           /**< bytes, header included */
} jfrsql_chunk_info;

struct jfrsql_catalog {
    int refs;
    char **files;
    size_t nfiles;
    /* the files as the scan opened them (NULL: could not be), lent to one
     * cursor at a time: standard input can be read only once, and
     * compressed input is decompressed once */
    jfr_recording **recs;
    bool *lent;
    jfrsql_table *tables;
    size_t ntables, cap;
    jfrsql_event_type *event_types; /* one per id, the last chunk's word */
    size_t nevent_types, event_types_cap;
    jfrsql_warn_fn warn;
    void *user;
    uint64_t *shapes; /* metadata already read (chunk_shape): not again */
    size_t nshapes, shapes_cap;
    char *first_warning; /* its text, for errors of CREATE VIRTUAL TABLE */
    char **seen;         /* warnings already told */
    size_t nseen, seen_cap;
    size_t unopened, unreadable, chunks;
    /* the groups of the identity columns, made on first use: one
     * numbering for every table of the catalog */
    jfr_identity *ids;
    /* @Unsigned values as the signed integers of their width, as the JDK's
     * views read them (jfrsql_catalog_jdk_integers) */
    bool jdk_integers;
    jfrsql_chunk_info *chunk_infos; /* every chunk read, in order */
    size_t nchunk_infos, chunk_infos_cap;
    /* event tables SQLite planned to read on this connection: from the
     * second on, each chunk's records are listed by type on its first walk
     * (JFR_ITER_INDEX) rather than its second */
    size_t tables_planned;
    /* with more than one, each file's chunks are listed in that many
     * threads before the first scan that has such a second table
     * (jfrsql_catalog_threads); `listed` says which files were */
    unsigned list_threads;
    bool *listed;
    jfrsql_open_fn open; /* NULL: jfr_recording_open_file */
    void *open_user;
};

/** Add the columns of event type `type` to `t` (columns.c). */
int jfrsql_table_add_type(jfrsql_table *t, const jfr_type *type);

/** Move `col` into `t` unless `t` has a column of that name (columns.c). */
int jfrsql_table_take_column(jfrsql_table *t, jfrsql_column *col);

/** The table's name for an event type name: JFR 1.0's prefix dropped. */
const char *jfrsql_canonical_name(const char *type_name);

/** Tell `warn` about `err` of `file`, once per distinct message. */
void jfrsql_catalog_warn(jfrsql_catalog *cat, const char *file, const jfr_error *err);

/** Open file `i` of the catalog; NULL when it cannot be (told to warn once). */
jfr_recording *jfrsql_catalog_open(jfrsql_catalog *cat, size_t i);

/** File `i` for a cursor to read: the catalog's own handle when no other
 * cursor has it (*lent set), else a new one; NULL when it cannot be read. */
jfr_recording *jfrsql_catalog_borrow(jfrsql_catalog *cat, size_t i, bool *lent);
/** Hand back what jfrsql_catalog_borrow gave. */
void jfrsql_catalog_give_back(jfrsql_catalog *cat, size_t i, jfr_recording *rec,
                              bool lent);

/** Before the first scan of file `i` by a query over several tables:
 * list its chunks' records in the catalog's threads, once, while the
 * catalog's handle is not lent (jfrsql_catalog_threads). */
void jfrsql_catalog_list_ahead(jfrsql_catalog *cat, size_t i);

/** "CREATE TABLE x(...)" for table `t` (sqlite3_free it). */
char *jfrsql_table_schema(const jfrsql_table *t);

/** jfrsql_catalog_unref as the destructor of a function's user data. */
void jfrsql_catalog_release(void *cat);

/** Find the table named `name` (full or short, case-insensitive) or NULL. */
jfrsql_table *jfrsql_catalog_find(jfrsql_catalog *cat, const char *name);

/** The name of the module that carries `cat` to its tables' xCreate
 * (tables.c; sqlite3_free it). */
char *jfrsql_module_name(const jfrsql_catalog *cat);

/** CREATE VIRTUAL TABLE for `t` through `module`, and the view of its
 * short name (tables.c). */
int jfrsql_create_table(sqlite3 *db, const char *module, const jfrsql_table *t,
                        char **errmsg);
/* The SQL function jfr_make_tables(text) of a connection attached to
 * `cat`: jfrsql_attach_tables_in, the number of tables it made. */
int jfrsql_register_make_tables(sqlite3 *db, jfrsql_catalog *cat);

/** The virtual-table module (vtab.c): pAux NULL for "jfr", or a catalog. */
extern const sqlite3_module jfrsql_module;

#endif
