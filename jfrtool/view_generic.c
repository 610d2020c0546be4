/* view_generic.c - runs a view definition (view_generic.h): its table
 * from sql/ (jfrsql_view_table: the JDK's checks, the query, each cell as
 * the JDK writes it), laid out as `jfr view` lays out a table
 * (view_table.c) or a form; or the rows as JSON or CSV, numbers as
 * numbers with their units. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "csv_writer.h"
#include "json_writer.h"
#include "jfrsql.h"
#include "out_text.h"
#include "sql_open.h"
#include "type_names.h"
#include "type_view.h"
#include "view_cell.h"
#include "view_generic.h"

#define FORM_WIDTH 80 /* the JDK's form width without --width */

typedef jfrsql_view_result vresult;

/* The cell of row `i`, column `c`. */
static const jfrsql_result_cell *cell_at(const vresult *r, size_t i, size_t c)
{
    return &r->cells[i * r->ncols + c];
}

/* One "Label: value" of a form, as the JDK's FormRenderer writes it: a
 * line break after every `W - len("Label: ") - 1` units of the value (so
 * a value of that many ends with an empty line), the next piece indented
 * under the value. */
static void put_form_field(FILE *out, const char *label, const char *text, size_t width,
                           bool ascii_only)
{
    size_t indent = view_text_units(label) + 2, len = view_text_units(text);
    size_t room = width > indent + 1 ? width - indent - 1 : 1;

    fprintf(out, "\n%s: ", label);
    for (size_t done = 0; done < len; done += room) {
        const char *piece = text + view_unit_offset(text, done);
        if (done > 0)
            fprintf(out, "%*s", (int)indent, "");
        view_put_units(out, piece, room, ascii_only);
        if (done + room <= len)
            putc('\n', out);
    }
    putc('\n', out);
}

/* A form: the title underlined, then each column's label and value; at
 * --width W (else 80), "Columns are too wide" when a label does not fit. */
static void print_form(FILE *out, const char *title, const vresult *r,
                       const view_ctx *ctx)
{
    size_t width = ctx->width > 0 ? (size_t)ctx->width : FORM_WIDTH, widest = 0;

    for (size_t c = 0; c < r->ncols; c++) {
        size_t w = view_text_units(r->cols[c].label) + 3; /* ": " and one */
        if (w > widest)
            widest = w;
    }
    if (widest + 2 > width) {
        fprintf(out, "\nColumns are too wide to fit width %d.\n", ctx->width);
        return;
    }
    fprintf(out, "\n%s\n", title);
    for (size_t i = view_text_units(title); i > 0; i--)
        putc('-', out);
    putc('\n', out);
    for (size_t c = 0; c < r->ncols; c++)
        put_form_field(out, r->cols[c].label, cell_at(r, 0, c)->text, width,
                       ctx->ascii_only);
}

/* The first chunk of input `path`, through a recording the caller frees;
 * NULL when it cannot be read (standard input is not read twice). */
static jfr_recording *first_chunk_of(const char *path, jfr_chunk **chunk)
{
    jfr_recording *rec;

    if (strcmp(path, "-") == 0 ||
        jfr_recording_open_file(&rec, path, NULL, NULL) != JFR_OK)
        return NULL;
    if (jfr_recording_next_chunk(chunk, rec) != JFR_OK) {
        jfr_recording_free(rec);
        return NULL;
    }
    return rec;
}

jfr_recording *gview_open_first_chunk(view_ctx *ctx)
{
    jfr_chunk *chunk;
    jfr_recording *rec = ctx->nfiles > 0 ? first_chunk_of(ctx->files[0], &chunk) : NULL;

    ctx->first_chunk = rec ? chunk : NULL;
    ctx->first_jfr10 = rec && jfr_chunk_header(chunk)->major == 1;
    return rec;
}

/* The JDK's fixed-width columns take no spare width while others do:
 * numbers, times, addresses, chars, and left-aligned columns of a number field
 * (`left`: a DIFF, or jvm-flags' Value, text the JDK converts from mixed
 * types whose first is a number). JFR 1.0 names method and stack types so
 * that the JDK does not know them. */
static bool fixed_width(const jfrsql_view_col *g, const view_ctx *ctx)
{
    return g->fmt == JFRSQL_FMT_TIME || g->fmt == JFRSQL_FMT_HEX ||
           g->fmt == JFRSQL_FMT_CHAR || g->left ||
           (ctx->first_jfr10 &&
            (g->fmt == JFRSQL_FMT_METHOD || g->fmt == JFRSQL_FMT_FRAMES));
}

static void print_table(FILE *out, const char *title, const vresult *r,
                        const view_ctx *ctx, const gview_opts *o)
{
    view_column cols[JFRSQL_VIEW_MAX_COLS];
    view_table t = {0};
    size_t n = r->ncols;

    for (size_t c = 0; c < n; c++) {
        const jfrsql_view_col *g = r->cols[c].col;
        cols[c] = (view_column){
            .label = r->cols[c].label,
            .right = r->cols[c].right,
            .fixed = fixed_width(g, ctx),
            .flex = g->flex,
            .lines = g->fmt == JFRSQL_FMT_FRAMES || g->set,
            .set = g->set,
            .cell_height = o->cell_height ? o->cell_height : g->cell_height,
            .truncate_begin = o->truncate ? o->truncate == 1 : g->truncate_begin};
    }
    t.title = title;
    /* the JDK's renderer marks the title of a table over an experimental
     * type, the one the named views read or a type view's (whose title,
     * the JDK's too, says so already) */
    t.experimental = o->experimental || strncmp(r->view->types, "CPUTimeSample", 13) == 0;
    t.cols = cols;
    t.ncols = n;
    t.limit = r->view->limit;
    t.borrowed = true; /* the result's texts */
    for (size_t i = 0; i < r->nrows; i++) {
        const char *full[JFRSQL_VIEW_MAX_COLS], *compact[JFRSQL_VIEW_MAX_COLS];
        for (size_t c = 0; c < n; c++) {
            full[c] = cell_at(r, i, c)->text;
            compact[c] = cell_at(r, i, c)->compact;
        }
        view_table_add(&t, full, compact);
    }
    view_table_print(out, &t, ctx->width, ctx->ascii_only);
    view_table_free(&t);
}

/* A value for JSON: numbers as numbers (in the column's unit), text as text. */
static json_t *json_cell(const jfrsql_json_value *x)
{
    switch (x->kind) {
    case JFRSQL_JSON_INTEGER:
        return json_integer(x->i);
    case JFRSQL_JSON_REAL:
        return json_real(x->d);
    case JFRSQL_JSON_BOOL:
        return json_boolean(x->i != 0);
    case JFRSQL_JSON_STRING:
        return json_string(x->s);
    default:
        return json_null();
    }
}

/* JSON and CSV name columns by the view's own labels (the columns' keys),
 * whatever labels the recording gives them. */
static void print_json(FILE *out, const vresult *r)
{
    const jfrsql_view *v = r->view;
    json_t *j = json_object(), *cols = json_array(), *rows = json_array();
    size_t shown = v->limit && v->limit < r->nrows ? v->limit : r->nrows;

    json_object_set_new(j, "view", json_string(v->name));
    json_object_set_new(j, "title", v->title ? json_string(v->title) : json_null());
    json_object_set_new(j, "form", json_boolean(v->form));
    for (size_t c = 0; c < r->ncols; c++) {
        json_t *col = json_object();
        const char *unit = r->cols[c].unit;
        json_object_set_new(col, "label", json_string(r->cols[c].key));
        json_object_set_new(col, "unit", unit ? json_string(unit) : json_null());
        json_array_append_new(cols, col);
    }
    json_object_set_new(j, "columns", cols);
    for (size_t i = 0; i < shown; i++) {
        json_t *row = json_object();
        for (size_t c = 0; c < r->ncols; c++)
            json_object_set_new(row, r->cols[c].key, json_cell(&cell_at(r, i, c)->value));
        json_array_append_new(rows, row);
    }
    json_object_set_new(j, "rows", rows);
    view_json_print(out, j);
    json_decref(j);
}

static void print_csv(FILE *out, const vresult *r)
{
    size_t shown =
        r->view->limit && r->view->limit < r->nrows ? r->view->limit : r->nrows;
    csv_row row;
    strbuf sb = {0};

    csv_row_begin(&row, out);
    for (size_t c = 0; c < r->ncols; c++) {
        sb_clear(&sb);
        sb_puts(&sb, r->cols[c].key);
        if (r->cols[c].unit)
            sb_printf(&sb, " (%s)", r->cols[c].unit);
        csv_field_str(&row, sb_str(&sb));
    }
    csv_row_end(&row);
    for (size_t i = 0; i < shown; i++) {
        for (size_t c = 0; c < r->ncols; c++) {
            json_t *j = json_cell(&cell_at(r, i, c)->value);
            sb_clear(&sb);
            if (json_is_string(j))
                sb_puts(&sb, json_string_value(j));
            else if (!json_is_null(j)) /* a number or a boolean, as in --json */
                json_tree_text(&sb, j, &json_pretty, 15);
            csv_field(&row, sb_str(&sb), sb.len);
            json_decref(j);
        }
        csv_row_end(&row);
    }
    sb_free(&sb);
}

static const char *short_type(const char *t)
{
    const char *dot = strrchr(t, '.');
    return dot ? dot + 1 : t;
}

/* The JDK names a type without events by its label alone, without the
 * " (Experimental)" its table's title has. */
static void no_events(FILE *out, const char *title)
{
    static const char suffix[] = " (Experimental)";
    size_t len, n = sizeof suffix - 1;

    if (!title)
        return; /* a type without a label: the JDK says nothing */
    len = strlen(title);
    if (len > n && strcmp(title + len - n, suffix) == 0)
        len -= n;
    fprintf(out, "\nNo events found for '%.*s'.\n", (int)len, title);
}

/* The rows of a span_stats view, as its SQL would give them. */
/* The rows of a span_stats view, as its SQL would give them (the
 * options' rows: view_spans.c computes them in one pass). */
static int span_rows(jfrsql_value **cells, size_t *nrows, size_t *ncols,
                     const jfrsql_view *v, void *user)
{
    gv_span_row *rows;
    size_t n;
    jfrsql_value *x;

    if (gview_span_stats(v, user, &rows, &n) < 0)
        return -1;
    x = xcalloc(n ? n * 6 : 1, sizeof *x);
    for (size_t i = 0; i < n; i++) {
        jfrsql_value *c = &x[i * 6];
        int64_t vals[5] = {rows[i].avg, rows[i].p95, rows[i].max, rows[i].count,
                           rows[i].sum};

        c[0] = (jfrsql_value){.type = SQLITE_TEXT, .s = rows[i].name};
        for (int k = 0; k < 5; k++)
            if (k != 3 && !rows[i].has_values)
                c[k + 1] = (jfrsql_value){.type = SQLITE_NULL};
            else
                c[k + 1] = (jfrsql_value){
                    .type = SQLITE_INTEGER, .i = vals[k], .d = (double)vals[k]};
    }
    free(rows);
    *cells = x;
    *nrows = n;
    *ncols = 6;
    return 0;
}

static void free_rows(jfrsql_value *cells, size_t nrows, void *user)
{
    (void)user;
    for (size_t i = 0; i < nrows * 6; i++)
        free(cells[i].s);
    free(cells);
}

/* Free the values of the fast paths (view_recording.c, count_types). */
static void free_values(jfrsql_value *cells, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(cells[i].s);
    free(cells);
}

/* The name the recordings give the view's type `short_name`: jdk.X, or
 * com.oracle.jdk.X in JFR 1.0 (JDK 9/10), as the JDK's messages name it. */
static char *recorded_type_name(const view_ctx *ctx, const char *short_name)
{
    strbuf sb = {0};
    char *name = NULL;

    sb_printf(&sb, "jdk.%s", short_name);
    for (int f = 0; f < ctx->nfiles && !name; f++) {
        jfr_chunk *chunk;
        jfr_recording *rec = first_chunk_of(ctx->files[f], &chunk);
        const jfr_type *t = rec ? jfr_chunk_event_type(chunk, sb_str(&sb)) : NULL;
        if (t)
            name = xstrdup(jfr_type_name(t));
        jfr_recording_free(rec);
    }
    if (!name)
        name = xstrdup(sb_str(&sb));
    sb_free(&sb);
    return name;
}

/* A field this recording's type lacks (an older JDK's), `col`, as the
 * JDK says so: the field as its query spells it, in every type of its
 * FROM; nothing in CSV. */
static int missing_field(const jfrsql_view *v, const view_ctx *ctx, const gview_opts *o,
                         const char *col)
{
    strbuf types = {0};
    char first[128];
    const char *p = v->types;

    if (o->csv && !ctx->json)
        return EXIT_OK;
    snprintf(first, sizeof first, "%s", v->types);
    first[strcspn(first, " ")] = '\0';
    while (*p) {
        size_t n = strcspn(p, " ");
        char one[128];
        char *full;
        snprintf(one, sizeof one, "%.*s", (int)(n < sizeof one ? n : sizeof one - 1), p);
        full = recorded_type_name(ctx, short_type(one));
        sb_printf(&types, "%s%s", types.len ? ", " : "", full);
        free(full);
        p += n;
        p += strspn(p, " ");
    }
    view_say_missing_field(ctx, v->name, v->title, sb_str(&types), short_type(first),
                           ctx->json ? col : jfrsql_view_jdk_field(v, col));
    sb_free(&types);
    return EXIT_OK;
}

/* A view's table laid out as the options say (none: the JDK's message). */
static void print_result(const vresult *r, const char *title, const view_ctx *ctx,
                         const gview_opts *o)
{
    if (ctx->json)
        print_json(ctx->out, r);
    else if (o->csv)
        print_csv(ctx->out, r);
    else if (r->nrows == 0 || (r->view->form && r->ncols == 0))
        no_events(ctx->out, r->view->title);
    else if (r->view->form)
        print_form(ctx->out, title, r, ctx);
    else
        print_table(ctx->out, title, r, ctx, o);
}

static int gview_run_db(const jfrsql_view *v, sqlite3 *db, const view_ctx *ctx,
                        const gview_opts *o)
{
    jfrsql_view_table_options opts;
    view_ctx inputs = *ctx; /* what span_rows reads */
    vresult *r;
    char *err = NULL;
    int rc;

    if (o->verbose && !ctx->json && !o->csv)
        fprintf(ctx->out, "\n%s\n", v->sql);
    jfrsql_view_table_options_init(&opts, JFRSQL_VIEW_TABLE_OPTIONS_VERSION);
    opts.metadata_file = ctx->nfiles > 0 ? ctx->files[0] : NULL;
    opts.metadata_chunk = ctx->first_chunk;
    opts.query_without_events = ctx->json || o->csv;
    opts.parts = ctx->json || o->csv ? JFRSQL_RESULT_VALUES : JFRSQL_RESULT_TEXT;
    if (gview_is_span_stats(v) && !o->generic) {
        opts.rows = span_rows;
        opts.free_rows = free_rows;
        opts.rows_user = &inputs;
    }
    rc = jfrsql_view_table(&r, db, v, &opts, &err);
    if (rc == SQLITE_NOMEM)
        diex(EXIT_INPUT, "out of memory");
    if (rc != SQLITE_OK) {
        warnx_("%s", err ? err : sqlite3_errstr(rc));
        sqlite3_free(err);
        return EXIT_USAGE;
    }
    if (r->state == JFRSQL_RESULT_MISSING_TYPE) {
        if (ctx->json)
            fprintf(ctx->out,
                    "{\"view\": \"%s\", \"title\": \"%s\", \"declared\": false, "
                    "\"rows\": []}\n",
                    v->name, v->title ? v->title : "");
        else if (!o->csv)
            fprintf(ctx->out,
                    "Can't find event type named '%s'. 'SHOW EVENTS' will list available "
                    "event types.\nMissing event found for %s\n",
                    r->missing, v->name);
    } else if (r->state == JFRSQL_RESULT_NO_EVENTS) {
        no_events(ctx->out, v->title);
    } else if (r->state == JFRSQL_RESULT_MISSING_FIELD) {
        rc = missing_field(v, ctx, o, r->missing);
    } else {
        print_result(r, v->title, ctx, o);
    }
    jfrsql_view_result_free(r);
    return EXIT_OK;
}

static int run_event_counts(const jfrsql_view *v, const view_ctx *ctx,
                            const gview_opts *o);
static int run_recording(const jfrsql_view *v, const view_ctx *ctx, const gview_opts *o);
static int run_types(const jfrsql_view *v, const view_ctx *ctx, const gview_opts *o);

int gview_run(const jfrsql_view *v, const view_ctx *ctx, const gview_opts *o)
{
    if (strcmp(v->types, "*") == 0 && strcmp(v->name, "recording") == 0)
        return run_recording(v, ctx, o);
    if (strcmp(v->types, "*") == 0 && strcmp(v->name, "types") == 0)
        return run_types(v, ctx, o);
    if (strcmp(v->types, "*") == 0)
        return run_event_counts(v, ctx, o);
    jfrsql_catalog *cat = NULL;
    int status, rc;
    sqlite3 *db = sql_open_inputs((const char *const *)ctx->files, (size_t)ctx->nfiles,
                                  ctx->jobs, true, &cat, &status);
    char *errmsg = NULL;

    if (!db)
        return status;
    if (status != EXIT_OK && jfrsql_catalog_chunks(cat) == 0) {
        /* nothing could be read: the errors said so, a "missing event
         * type" message would blame the recording */
        sqlite3_close(db);
        jfrsql_catalog_unref(cat);
        return status;
    }
    /* the tables the view reads, not the two hundred a recording declares */
    if (jfrsql_view_attach_tables(db, cat, v, &errmsg) != SQLITE_OK) {
        warnx_("%s", errmsg ? errmsg : "out of memory");
        sqlite3_free(errmsg);
        sqlite3_close(db);
        jfrsql_catalog_unref(cat);
        return EXIT_INPUT;
    }
    /* the JDK's views read @Unsigned values as signed (2^64 - 2 is -2) */
    jfrsql_catalog_jdk_integers(cat, true);
    /* its tables are read whole (after the JDK's checks, which look for
     * each type alone): their records listed first, in --jobs threads;
     * not for rows made by hand (view_spans.c), whose own pass is in
     * threads and whose checks mostly stop at the first event */
    if (gview_is_span_stats(v) && !o->generic)
        jfrsql_catalog_threads(cat, 1);
    else
        jfrsql_view_list_records(cat, v);
    {
        view_ctx own = *ctx;
        jfr_recording *first = ctx->first_chunk ? NULL : gview_open_first_chunk(&own);
        rc = gview_run_db(v, db, &own, o);
        jfr_recording_free(first);
    }
    sqlite3_close(db);
    jfrsql_catalog_unref(cat);
    return rc != EXIT_OK ? rc : status;
}

/* ---- view EVENT-TYPE: the events of one type as a table -------------------- */

/* The event type `name` as the first input that declares it has it, in
 * `*rec` (standard input can be read only once: the event types of `-` are
 * not looked up); NULL with *status EXIT_INPUT when an input is unreadable. */
static const jfr_type *first_event_type(const char *name, const view_ctx *ctx,
                                        jfr_recording **rec, int *status)
{
    jfr_error err;

    *status = -1;
    for (int f = 0; f < ctx->nfiles; f++) {
        jfr_chunk *chunk = NULL;
        const jfr_type *t;
        if (strcmp(ctx->files[f], "-") == 0)
            continue;
        if (jfr_recording_open_file(rec, ctx->files[f], NULL, &err) < 0) {
            /* say so rather than "unknown view": the type may be in it */
            report_error(ctx->files[f], &err);
            *status = EXIT_INPUT;
            return NULL;
        }
        if ((t = jfrsql_find_event_type(&chunk, *rec, name)))
            return t;
        jfr_recording_free(*rec);
    }
    *rec = NULL;
    return NULL;
}

int gview_run_type(const char *type, const view_ctx *ctx, const gview_opts *o)
{
    jfr_recording *rec = NULL;
    jfrsql_type_view *tv = NULL;
    gview_opts opts = *o;
    const jfr_type *t;
    char *label = NULL;
    int status;

    if (!(t = first_event_type(type, ctx, &rec, &status)))
        return status;
    if (jfrsql_type_view_new(&tv, t, type) != SQLITE_OK)
        diex(EXIT_INPUT, "out of memory");
    opts.experimental = jfr_type_has_annotation(t, "jdk.jfr.Experimental");
    if (opts.label_titles && tv->view.title) /* the label outlives the recording */
        tv->view.title = label = xstrdup(jfr_type_label(t));
    jfr_recording_free(rec);
    status = tv->ncols > 0 ? gview_run(&tv->view, ctx, &opts) : -1;
    jfrsql_type_view_free(tv);
    free(label);
    return status;
}

/* ---- events-by-count, events-by-name: events of every type ---------------- *
 * Counted from the record headers of every chunk (jfr_chunk_count_records),
 * by type label, as the JDK's "FROM *" groups them. */

typedef struct type_count {
    char *label;
    uint64_t count;
} type_count;

static int by_count(const void *a, const void *b)
{
    const type_count *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    return strcmp(x->label, y->label);
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int by_label(const void *a, const void *b)
{
    const type_count *x = a, *y = b;
    int c = strcmp(x->label, y->label);
    return c ? c : (x->count < y->count) - (x->count > y->count);
}

/* The rows of count_types being made. By name, each type is keyed by its
 * identity (its id in its JVM run, jfr/identity.h), as the JDK lists types
 * by id: a class registered three times under one name is three rows. */
typedef struct type_counter {
    bool by_name, experimental;
    strmap index; /* key -> row */
    type_count *rows;
    size_t n, cap;
    jfr_identity *ids; /* by name */
    uint64_t run;      /* the JVM run of the chunk being counted */
} type_counter;

/* The row of type `t` (made when it is new): by simple name and identity,
 * or by label (the JDK groups by label: types without one are "N/A"). */
static type_count *type_row(type_counter *tc, const jfr_type *t)
{
    const char *label, *key;
    char idkey[32];
    uint64_t group;
    long at;

    if (tc->by_name) {
        label = strrchr(jfr_type_name(t), '.');
        label = label ? label + 1 : jfr_type_name(t);
        if (jfr_identity_type_group(&group, tc->ids, tc->run, t) != JFR_OK)
            diex(EXIT_INPUT, "out of memory");
        snprintf(idkey, sizeof idkey, "%" PRIu64, group);
        key = idkey;
    } else {
        label = jfr_type_label(t) ? jfr_type_label(t) : "N/A";
        key = label;
    }
    at = strmap_get(&tc->index, key);
    if (at < 0) {
        if (tc->n == tc->cap) {
            tc->cap = tc->cap ? tc->cap * 2 : 64;
            tc->rows = xrealloc(tc->rows, tc->cap, sizeof *tc->rows);
        }
        tc->rows[tc->n] = (type_count){xstrdup(label), 0};
        strmap_put(&tc->index, key, tc->n);
        at = (long)tc->n++;
    }
    return &tc->rows[at];
}

/* Count the event records of `chunk` of recording `rec` (file `path`). */
static void count_chunk_types(type_counter *tc, jfr_chunk *chunk, jfr_recording *rec,
                              const char *path)
{
    size_t nt = jfr_chunk_type_count(chunk);
    uint64_t *counts = xcalloc(nt ? nt : 1, sizeof *counts);
    uint64_t *bytes = xcalloc(nt ? nt : 1, sizeof *bytes);

    if (jfr_chunk_count_records(counts, bytes, NULL, chunk) < 0) {
        /* what was counted before the damage still counts */
        report_error(input_name(path), jfr_recording_error(rec));
    }
    for (size_t i = 0; i < nt; i++) {
        const jfr_type *t = jfr_chunk_type_at(chunk, i);

        if (!t || !jfr_type_is_event(t))
            continue;
        if (jfr_type_has_annotation(t, "jdk.jfr.Experimental")) {
            tc->experimental = true;
            if (tc->by_name)
                continue; /* the JDK's list leaves experimental types out */
        }
        if (counts[i] == 0 && !tc->by_name)
            continue;
        type_row(tc, t)->count += counts[i];
    }
    free(counts);
    free(bytes);
}

/* Events of every event type of the inputs, by type label (`by_name`:
 * by simple type name, types without events too). */
static int count_types(const view_ctx *ctx, bool by_name, type_count **out, size_t *nout,
                       bool *experimental_out)
{
    type_counter tc = {.by_name = by_name};
    bool have_last = false;
    jfr_header last;
    int status = EXIT_OK;

    if (by_name && jfr_identity_new(&tc.ids, NULL) != JFR_OK)
        diex(EXIT_INPUT, "out of memory");
    for (int f = 0; f < ctx->nfiles; f++) {
        jfr_recording *rec = open_recording(ctx->files[f], &status);
        jfr_chunk *chunk;
        bool damaged = false;

        if (!rec)
            continue;
        while (next_chunk(&chunk, rec, ctx->files[f], &damaged) == JFR_OK) {
            if (have_last && !jfr_header_continues(&last, jfr_chunk_header(chunk)))
                tc.run++;
            last = *jfr_chunk_header(chunk);
            have_last = true;
            count_chunk_types(&tc, chunk, rec, ctx->files[f]);
        }
        close_recording(rec);
    }
    strmap_free(&tc.index);
    jfr_identity_free(tc.ids);
    *out = tc.rows;
    *nout = tc.n;
    *experimental_out = tc.experimental;
    return status;
}

/* The table of `ncols` values computed here (no SQL), or exit. */
static vresult *values_result(const jfrsql_view *v, const jfrsql_value *cells,
                              size_t nrows, size_t ncols)
{
    vresult *r;

    if (jfrsql_view_table_of_values(&r, v, cells, nrows, ncols, NULL) != SQLITE_OK)
        diex(EXIT_INPUT, "out of memory");
    return r;
}

static int run_event_counts(const jfrsql_view *v, const view_ctx *ctx,
                            const gview_opts *o)
{
    type_count *tc = NULL;
    size_t n = 0;
    bool experimental = false;
    int status = count_types(ctx, false, &tc, &n, &experimental);
    jfrsql_value *cells = xcalloc(n ? 2 * n : 1, sizeof *cells);
    strbuf title = {0};
    vresult *r;

    if (n > 1)
        qsort(tc, n, sizeof *tc,
              strcmp(v->name, "events-by-name") == 0 ? by_label : by_count);
    for (size_t i = 0; i < n; i++) {
        cells[2 * i] = (jfrsql_value){.type = SQLITE_TEXT, .s = tc[i].label};
        cells[2 * i + 1] = (jfrsql_value){
            .type = SQLITE_INTEGER, .i = (int64_t)tc[i].count, .d = (double)tc[i].count};
    }
    r = values_result(v, cells, n, 2);
    if (o->verbose && !ctx->json && !o->csv)
        fprintf(ctx->out, "\n%s\n", v->sql);
    sb_puts(&title, v->title);
    if (experimental)
        sb_puts(&title, " (Experimental)");
    print_result(r, sb_str(&title), ctx, o);
    jfrsql_view_result_free(r);
    free_values(cells, 2 * n);
    free(tc);
    sb_free(&title);
    return status;
}

/* types: every event type's simple name, with its number of events when it
 * has any, sorted, in two columns filled down (the first one longer), each
 * cell a space and the name padded to its column's widest. */
static int run_types(const jfrsql_view *v, const view_ctx *ctx, const gview_opts *o)
{
    type_count *tc = NULL;
    size_t n = 0, rows, w1 = 0, w2 = 0;
    bool experimental;
    int status = count_types(ctx, true, &tc, &n, &experimental);
    char **items;

    if (n > 1)
        qsort(tc, n, sizeof *tc, by_label);
    items = xcalloc(n ? n : 1, sizeof *items);
    for (size_t i = 0; i < n; i++) {
        strbuf sb = {0};
        sb_puts(&sb, tc[i].label);
        if (tc[i].count > 0)
            sb_printf(&sb, " (%" PRIu64 ")", tc[i].count);
        items[i] = xstrdup(sb_str(&sb));
        sb_free(&sb);
    }
    /* the JDK sorts the lines it prints: "TxCPUEvent (144)" before "(148)" */
    if (n > 1)
        qsort(items, n, sizeof *items, by_text);
    rows = (n + 1) / 2;
    for (size_t i = 0; i < n; i++) {
        size_t len = utf16_length(items[i], strlen(items[i]));
        if (i < rows && len > w1)
            w1 = len;
        if (i >= rows && len > w2)
            w2 = len;
    }
    if (ctx->json || o->csv) {
        json_t *j = json_object(), *arr = json_array();
        for (size_t i = 0; i < n; i++) {
            json_t *row = json_object();
            json_object_set_new(row, "type", json_string(tc[i].label));
            json_object_set_new(row, "events", json_count(tc[i].count));
            json_array_append_new(arr, row);
        }
        if (o->csv) {
            fputs("type,events\r\n", ctx->out);
            for (size_t i = 0; i < n; i++)
                fprintf(ctx->out, "%s,%" PRIu64 "\r\n", tc[i].label, tc[i].count);
            json_decref(arr);
        } else {
            json_object_set_new(j, "view", json_string(v->name));
            json_object_set_new(j, "rows", arr);
            view_json_print(ctx->out, j);
        }
        json_decref(j);
    } else {
        fputs("Event Types (number of events):\n\n", ctx->out);
        for (size_t r = 0; r < rows; r++) {
            fprintf(ctx->out, " %-*s", (int)w1, items[r]);
            if (r + rows < n)
                fprintf(ctx->out, " %-*s", (int)w2, items[r + rows]);
            putc('\n', ctx->out);
        }
    }
    for (size_t i = 0; i < n; i++) {
        free(items[i]);
        free(tc[i].label);
    }
    free(items);
    free(tc);
    return status;
}

/* recording: every event of every type (view_recording.c) */
/* Where no input declares jdk.Shutdown (JFR 1.0's com.oracle.jdk.Shutdown
 * counts: jfrtool reads its names as the JDK's), the JDK's `recording`
 * finds no field jdk.Shutdown.reason in the types of its FROM *, every
 * event type, and says so: true when it is said here. */
static bool said_no_shutdown(const jfrsql_view *v, const view_ctx *ctx,
                             const gview_opts *o)
{
    jfr_type_set *set = input_type_set(ctx->files, ctx->nfiles, true);
    size_t n = jfr_type_set_count(set);
    strbuf types = {0};
    bool found = n == 0; /* nothing read: the reading says why */

    for (size_t i = 0; i < n && !found; i++)
        found = strcmp(jfr_type_set_name(set, i), "jdk.Shutdown") == 0;
    for (size_t i = 0; i < n && !found; i++) {
        const char *name = jfr_type_set_name(set, i);
        /* the set reads JFR 1.0's names as the JDK's: its message does not */
        bool jfr10 = ctx->first_jfr10 && strncmp(name, "jdk.", 4) == 0;
        sb_printf(&types, "%s%s%s", i ? ", " : "", jfr10 ? "com.oracle." : "", name);
    }
    if (!found && !(o->csv && !ctx->json))
        view_say_missing_field(ctx, v->name, v->title, sb_str(&types),
                               short_type(jfr_type_set_name(set, 0)),
                               "jdk.Shutdown.reason");
    sb_free(&types);
    jfr_type_set_free(set);
    return !found;
}

static int print_recording(const jfrsql_view *v, const view_ctx *ctx, const gview_opts *o)
{
    gv_recording_info info;
    int status = gview_recording_info(ctx, &info);
    int64_t count = (int64_t)info.count, span = jfr_nanos_between(info.first, info.last);
    jfrsql_value *cells = xcalloc(5, sizeof *cells);
    vresult *r;

    if (o->verbose && !ctx->json && !o->csv)
        fprintf(ctx->out, "\n%s\n", v->sql);
    for (int c = 1; c < 5; c++)
        cells[c].type = SQLITE_NULL;
    cells[0] = (jfrsql_value){.type = SQLITE_INTEGER, .i = count, .d = (double)count};
    if (info.has_first)
        cells[1] = (jfrsql_value){
            .type = SQLITE_INTEGER, .i = info.first, .d = (double)info.first};
    if (info.has_last)
        cells[2] = (jfrsql_value){
            .type = SQLITE_INTEGER, .i = info.last, .d = (double)info.last};
    if (count == 1) /* the JDK's DIFF of a single instant: ChronoUnit.FOREVER */
        span = INT64_MAX;
    if (info.has_first && info.has_last)
        cells[3] = (jfrsql_value){.type = SQLITE_INTEGER, .i = span, .d = (double)span};
    if (info.reason)
        cells[4] = (jfrsql_value){.type = SQLITE_TEXT, .s = info.reason};
    r = values_result(v, cells, 1, 5);
    if (count == 0 && !ctx->json && !o->csv)
        no_events(ctx->out, v->title);
    else
        print_result(r, v->title, ctx, o);
    jfrsql_view_result_free(r);
    free_values(cells, 5);
    return status;
}

static int run_recording(const jfrsql_view *v, const view_ctx *ctx, const gview_opts *o)
{
    view_ctx own = *ctx;
    jfr_recording *first = ctx->first_chunk ? NULL : gview_open_first_chunk(&own);
    bool said = said_no_shutdown(v, &own, o);

    jfr_recording_free(first);
    return said ? EXIT_OK : print_recording(v, ctx, o);
}
