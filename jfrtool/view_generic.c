/* view_generic.c - runs a view definition (view_generic.h): its SQL over
 * the recording's tables (sql/), each value printed as its column says,
 * laid out as `jfr view` lays out a table (view_table.c) or a form; or
 * the rows as JSON or CSV, numbers as numbers with their units. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fmt_pretty.h"
#include "jfrtool.h"
#include "csv_writer.h"
#include "json_writer.h"
#include "jfrsql.h"
#include "out_text.h"
#include "sql_open.h"
#include "type_view.h"
#include "view_generic.h"

#define FORM_WIDTH 79

typedef struct cell {
    int type; /* SQLITE_NULL, SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT */
    int64_t i;
    double d;
    char *s;
} cell;

typedef struct result {
    size_t ncols, nrows, cap;
    cell *cells; /* row-major */
} result;

static void result_free(result *r)
{
    for (size_t i = 0; i < r->nrows * r->ncols; i++)
        free(r->cells[i].s);
    free(r->cells);
}

/* Run `sql`; 0, or -1 after telling the SQL error. */
static int run_query(sqlite3 *db, const char *sql, result *r)
{
    sqlite3_stmt *st;
    int rc;

    memset(r, 0, sizeof *r);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1; /* the caller tells why (a missing column as the JDK does) */
    r->ncols = (size_t)sqlite3_column_count(st);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (r->nrows == r->cap) {
            r->cap = r->cap ? r->cap * 2 : 32;
            r->cells =
                xrealloc(r->cells, r->cap * (r->ncols ? r->ncols : 1), sizeof *r->cells);
        }
        for (size_t c = 0; c < r->ncols; c++) {
            cell *x = &r->cells[r->nrows * r->ncols + c];
            memset(x, 0, sizeof *x);
            x->type = sqlite3_column_type(st, (int)c);
            if (x->type == SQLITE_INTEGER) {
                x->i = sqlite3_column_int64(st, (int)c);
                x->d = (double)x->i;
            } else if (x->type == SQLITE_FLOAT) {
                x->d = sqlite3_column_double(st, (int)c);
                /* sql/ gives unsigned values past 2^63 as reals; the JDK
                 * shows such a field as its signed long (2^64 - 1: -1) */
                if (isnan(x->d))
                    x->i = 0;
                else if (x->d >= 18446744073709551616.0)
                    x->i = -1;
                else if (x->d >= 9223372036854775808.0)
                    x->i = (int64_t)(uint64_t)x->d;
                else if (x->d <= -9223372036854775808.0)
                    x->i = INT64_MIN;
                else
                    x->i = (int64_t)x->d;
            } else if (x->type != SQLITE_NULL) {
                const unsigned char *t = sqlite3_column_text(st, (int)c);
                x->type = SQLITE_TEXT;
                x->s = xstrdup(t ? (const char *)t : "");
            }
        }
        r->nrows++;
    }
    if (rc != SQLITE_DONE) {
        sqlite3_finalize(st);
        return -1;
    }
    sqlite3_finalize(st);
    return 0;
}

static double cell_number(const cell *x)
{
    if (x->type == SQLITE_TEXT)
        return strtod(x->s, NULL);
    return x->type == SQLITE_INTEGER ? (double)x->i : x->d;
}

static int64_t cell_int(const cell *x)
{
    if (x->type == SQLITE_TEXT)
        return strtoll(x->s, NULL, 10);
    return x->i; /* a real's, set when it was read */
}

static void fmt_time_of_day(strbuf *sb, int64_t ns)
{
    time_t t = (time_t)(ns / 1000000000 - (ns % 1000000000 < 0 ? 1 : 0));
    struct tm tm;

    if (!localtime_r(&t, &tm)) {
        sb_puts(sb, "N/A");
        return;
    }
    sb_printf(sb, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* A double with at most three decimals, ties to even, no trailing zeros
 * (Java's DecimalFormat as the JDK's views print doubles). */
static void fmt_decimal3(strbuf *sb, double d)
{
    char buf[64];
    size_t n;

    snprintf(buf, sizeof buf, "%.3f", d);
    n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0')
        buf[--n] = '\0';
    if (n > 0 && buf[n - 1] == '.')
        buf[--n] = '\0';
    sb_puts(sb, buf);
}

/* A char's UTF-16 code unit as UTF-8 (a lone surrogate as U+FFFD, as Java
 * writes it). */
static void put_code_unit(strbuf *sb, int64_t c)
{
    if (c < 0 || c > 0xFFFF || (c >= 0xD800 && c <= 0xDFFF))
        c = 0xFFFD;
    if (c < 0x80) {
        sb_putc(sb, (char)c);
    } else if (c < 0x800) {
        sb_putc(sb, (char)(0xC0 | c >> 6));
        sb_putc(sb, (char)(0x80 | (c & 0x3F)));
    } else {
        sb_putc(sb, (char)(0xE0 | c >> 12));
        sb_putc(sb, (char)(0x80 | (c >> 6 & 0x3F)));
        sb_putc(sb, (char)(0x80 | (c & 0x3F)));
    }
}

/* The column's text for "no value" (default "N/A"). */
static const char *missing_text(const jfrsql_view_col *col)
{
    return col->missing ? col->missing : "N/A";
}

static void format_int(strbuf *sb, const jfrsql_view_col *col, const cell *x)
{
    if (x->type == SQLITE_TEXT)
        sb_puts(sb, x->s);
    else if (x->type == SQLITE_INTEGER &&
             (x->i == INT64_MIN || (col->int_value && x->i == INT32_MIN)))
        sb_puts(sb, missing_text(col)); /* the JDK's "no value" */
    else
        fmt_grouped(sb, cell_int(x));
}

static void format_span(strbuf *sb, const jfrsql_view_col *col, const cell *x)
{
    int64_t v = cell_int(x);

    if (v == INT64_MAX)
        sb_puts(sb, "Indefinite");
    else if (v == INT64_MIN)
        sb_puts(sb, "N/A");
    else
        fmt_pretty_duration_ms(sb, jduration_of_nanos(v), col->ms_precision - 1);
}

static void format_time(strbuf *sb, const jfrsql_view_col *col, const cell *x)
{
    /* Long.MIN_VALUE is the JDK's "no time" (jdk.ThreadPark's until) */
    if (x->type == SQLITE_INTEGER && x->i == INT64_MIN)
        sb_puts(sb, missing_text(col));
    else
        fmt_time_of_day(sb, cell_int(x));
}

/* The JDK: the number's toString, then " Hz" (2916.276 Hz). */
static void format_hz(strbuf *sb, const jfrsql_view_col *col, const cell *x)
{
    if (x->type == SQLITE_FLOAT && col->float_value)
        fmt_java_float(sb, (float)x->d);
    else if (x->type == SQLITE_FLOAT)
        fmt_java_double(sb, x->d);
    else
        sb_printf(sb, "%" PRId64, cell_int(x));
    sb_puts(sb, " Hz");
}

/* A flag's value: unsigned flags above 2^63 read as REAL, and the JDK
 * prints the long. */
static void format_flag(strbuf *sb, const cell *x)
{
    if (x->type == SQLITE_FLOAT && x->d >= 18446744073709551615.0)
        sb_puts(sb, "-1");
    else if (x->type == SQLITE_FLOAT && x->d >= 9223372036854775808.0)
        fmt_grouped(sb, (int64_t)(uint64_t)x->d);
    else if (x->type == SQLITE_INTEGER)
        fmt_grouped(sb, x->i);
    else if (x->type == SQLITE_FLOAT && x->d == floor(x->d) && fabs(x->d) < 9e18)
        fmt_grouped(sb, (int64_t)x->d);
    else if (x->type == SQLITE_FLOAT)
        fmt_decimal3(sb, x->d);
    else
        sb_puts(sb, x->s);
}

/* The compact form of a method, or a stack's top frame: its parameters
 * elided. They start at the line's last '(' (a class name may have one:
 * async-profiler's "libc.so (deleted)"). */
static void compact_method(strbuf *compact, const char *s)
{
    const char *nl = strchr(s, '\n'), *open = NULL;

    for (const char *q = s; *q && q != nl; q++)
        if (*q == '(')
            open = q;
    if (open) {
        sb_putn(compact, s, (size_t)(open - s));
        sb_puts(compact, open[1] == ')' ? "()" : "(...)");
    }
}

/* Text, methods, classes and frames, with their compact forms. */
static void format_text(strbuf *sb, strbuf *compact, const jfrsql_view_col *col,
                        const cell *x)
{
    const char *dot;

    if (x->type == SQLITE_TEXT)
        sb_puts(sb, x->s);
    else if (x->type == SQLITE_INTEGER)
        sb_printf(sb, "%" PRId64, x->i);
    else
        fmt_java_double(sb, x->d);
    if (x->type != SQLITE_TEXT)
        return;
    if (col->fmt == JFRSQL_FMT_METHOD || col->fmt == JFRSQL_FMT_FRAMES)
        compact_method(compact, x->s);
    else if (col->fmt == JFRSQL_FMT_CLASS && (dot = strrchr(x->s, '.')))
        sb_puts(compact, dot + 1);
}

/* A fraction (share: of the column's total) in percent, two decimals. */
static void format_percent(strbuf *sb, double value)
{
    fmt_java_fixed(sb, value * 100.0, 2);
    sb_putc(sb, '%');
}

/* The text of one cell, and its compact form (NULL: none). */
static void format_cell(strbuf *sb, strbuf *compact, const jfrsql_view_col *col,
                        const cell *x, double total)
{
    /* the JDK's "no value": null, a NaN or negative infinite double */
    if (x->type == SQLITE_NULL ||
        (x->type == SQLITE_FLOAT && (isnan(x->d) || x->d == -INFINITY))) {
        sb_puts(sb, missing_text(col));
        return;
    }
    switch (col->fmt) {
    case JFRSQL_FMT_INT:
        format_int(sb, col, x);
        break;
    case JFRSQL_FMT_SPAN:
        format_span(sb, col, x);
        break;
    case JFRSQL_FMT_BYTES:
        fmt_pretty_bytes(sb, cell_int(x));
        break;
    case JFRSQL_FMT_RATE:
        fmt_pretty_bits_per_second(sb, cell_int(x));
        break;
    case JFRSQL_FMT_BYTE_RATE:
        fmt_pretty_bytes_per_second(sb, cell_int(x));
        break;
    case JFRSQL_FMT_BITS:
        fmt_pretty_bits(sb, cell_int(x));
        break;
    case JFRSQL_FMT_TIME:
        format_time(sb, col, x);
        break;
    case JFRSQL_FMT_PERCENT:
        format_percent(sb, cell_number(x));
        break;
    case JFRSQL_FMT_NORMALIZED:
        format_percent(sb, total != 0 ? cell_number(x) / total : 0.0);
        break;
    case JFRSQL_FMT_BOOL:
        sb_puts(sb, cell_int(x) ? "true" : "false");
        break;
    case JFRSQL_FMT_HEX: /* the JDK's String.format("0x%08X", long) */
        sb_printf(sb, "0x%08" PRIX64, (uint64_t)cell_int(x));
        break;
    case JFRSQL_FMT_HZ:
        format_hz(sb, col, x);
        break;
    case JFRSQL_FMT_FLAG:
        format_flag(sb, x);
        break;
    case JFRSQL_FMT_CHAR:
        if (x->type == SQLITE_INTEGER)
            put_code_unit(sb, x->i);
        else
            sb_puts(sb, x->type == SQLITE_TEXT ? x->s : "");
        break;
    case JFRSQL_FMT_DOUBLE:
        if (x->type == SQLITE_TEXT)
            sb_puts(sb, x->s);
        else
            fmt_java_number(sb, cell_number(x));
        break;
    default: /* text, methods, classes, frames */
        format_text(sb, compact, col, x);
        break;
    }
}

static bool right_aligned(jfrsql_view_fmt f)
{
    return f == JFRSQL_FMT_INT || f == JFRSQL_FMT_SPAN || f == JFRSQL_FMT_BYTES ||
           f == JFRSQL_FMT_PERCENT || f == JFRSQL_FMT_NORMALIZED ||
           f == JFRSQL_FMT_RATE || f == JFRSQL_FMT_DOUBLE || f == JFRSQL_FMT_BOOL ||
           f == JFRSQL_FMT_HZ || f == JFRSQL_FMT_BYTE_RATE || f == JFRSQL_FMT_BITS;
}

static void column_totals(const jfrsql_view *v, const result *r, double *totals)
{
    for (size_t c = 0; c < r->ncols && c < JFRSQL_VIEW_MAX_COLS; c++) {
        totals[c] = 0;
        if (v->cols[c].fmt == JFRSQL_FMT_NORMALIZED)
            for (size_t i = 0; i < r->nrows; i++)
                if (r->cells[i * r->ncols + c].type != SQLITE_NULL)
                    totals[c] += cell_number(&r->cells[i * r->ncols + c]);
    }
}

/* "Label: value", the value wrapped at the form's width under itself. */
static void print_form(FILE *out, const jfrsql_view *v, const result *r,
                       const double *totals)
{
    size_t tl = utf16_length(v->title, strlen(v->title));

    fprintf(out, "\n%s\n", v->title);
    for (size_t i = 0; i < tl; i++)
        putc('-', out);
    putc('\n', out);
    for (size_t c = 0; c < r->ncols && c < JFRSQL_VIEW_MAX_COLS; c++) {
        strbuf sb = {0}, compact = {0};
        const char *label = v->cols[c].label ? v->cols[c].label : "";
        size_t indent = utf16_length(label, strlen(label)) + 2;
        size_t room = FORM_WIDTH > indent ? FORM_WIDTH - indent : 1;
        const char *p;

        format_cell(&sb, &compact, &v->cols[c], &r->cells[c], totals[c]);
        for (char *q = sb.ptr; q && *q; q++)
            if (*q == '\n' || *q == '\r' || *q == '\t')
                *q = ' ';
        fprintf(out, "\n%s: ", label);
        p = sb_str(&sb);
        for (bool first = true; first || *p; first = false) {
            size_t off = 0, units = 0;
            while (p[off] && units < room) {
                unsigned char ch = (unsigned char)p[off];
                size_t bytes = ch < 0x80    ? 1
                               : ch >= 0xF0 ? 4
                               : ch >= 0xE0 ? 3
                               : ch >= 0xC0 ? 2
                                            : 1;
                units += bytes == 4 ? 2 : 1;
                for (size_t k = 0; k < bytes && p[off]; k++)
                    off++;
            }
            if (!first)
                fprintf(out, "%*s", (int)indent, "");
            fwrite(p, 1, off, out);
            putc('\n', out);
            p += off;
        }
        sb_free(&sb);
        sb_free(&compact);
    }
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

bool gview_first_input_jfr10(const view_ctx *ctx)
{
    jfr_chunk *chunk;
    jfr_recording *rec = ctx->nfiles > 0 ? first_chunk_of(ctx->files[0], &chunk) : NULL;
    bool jfr10 = rec && jfr_chunk_header(chunk)->major == 1;

    jfr_recording_free(rec);
    return jfr10;
}

static void print_table(FILE *out, const jfrsql_view *v, const result *r,
                        const double *totals, const view_ctx *ctx, const gview_opts *o)
{
    view_column cols[JFRSQL_VIEW_MAX_COLS];
    view_table t = {0};
    size_t n = r->ncols < JFRSQL_VIEW_MAX_COLS ? r->ncols : JFRSQL_VIEW_MAX_COLS;

    for (size_t c = 0; c < n; c++) {
        const jfrsql_view_col *g = &v->cols[c];
        cols[c] = (view_column){
            .label = g->label ? g->label : "",
            .right = right_aligned(g->fmt) && !g->left,
            .fixed = g->fmt == JFRSQL_FMT_TIME || g->fmt == JFRSQL_FMT_HEX || g->left ||
                     (ctx->first_jfr10 &&
                      (g->fmt == JFRSQL_FMT_METHOD || g->fmt == JFRSQL_FMT_FRAMES)),
            .flex = g->flex,
            .lines = g->fmt == JFRSQL_FMT_FRAMES,
            .cell_height = o->cell_height ? o->cell_height : g->cell_height,
            .truncate_begin = o->truncate ? o->truncate == 1 : g->truncate_begin};
    }
    t.title = v->title;
    /* the one experimental event type the views read (the JDK marks the
     * title of a table over an experimental type) */
    t.experimental = strncmp(v->types, "CPUTimeSample", 13) == 0;
    t.cols = cols;
    t.ncols = n;
    t.limit = v->limit;
    for (size_t i = 0; i < r->nrows; i++) {
        char *full[JFRSQL_VIEW_MAX_COLS], *compact[JFRSQL_VIEW_MAX_COLS];
        for (size_t c = 0; c < n; c++) {
            strbuf sb = {0}, cb = {0};
            format_cell(&sb, &cb, &v->cols[c], &r->cells[i * r->ncols + c], totals[c]);
            if (v->cols[c].fmt == JFRSQL_FMT_FRAMES && cols[c].cell_height <= 1 &&
                sb.ptr) {
                char *nl = strchr(sb.ptr, '\n'); /* one line: the top frame */
                if (nl)
                    *nl = '\0';
            }
            full[c] = xstrdup(sb_str(&sb));
            compact[c] = cb.len ? xstrdup(sb_str(&cb)) : NULL;
            sb_free(&sb);
            sb_free(&cb);
        }
        view_table_add(&t, (const char *const *)full, (const char *const *)compact);
        for (size_t c = 0; c < n; c++) {
            free(full[c]);
            free(compact[c]);
        }
    }
    view_table_print(out, &t, ctx->width, ctx->ascii_only);
    view_table_free(&t);
}

/* A value for JSON: numbers as numbers (in the column's unit), text as text. */
static json_t *json_cell(const jfrsql_view_col *col, const cell *x, double total)
{
    if (x->type == SQLITE_NULL)
        return json_null();
    if (col->fmt == JFRSQL_FMT_NORMALIZED) {
        double share = total != 0 ? (cell_number(x) / total) * 100.0 : 0.0;
        return json_real(share);
    }
    if (col->fmt == JFRSQL_FMT_PERCENT)
        return json_real(cell_number(x) * 100.0);
    if (col->fmt == JFRSQL_FMT_BOOL)
        return json_boolean(cell_int(x) != 0);
    if (col->fmt == JFRSQL_FMT_CHAR && x->type == SQLITE_INTEGER) {
        strbuf sb = {0};
        json_t *j;
        put_code_unit(&sb, x->i);
        j = json_string(sb_str(&sb));
        sb_free(&sb);
        return j;
    }
    if (x->type == SQLITE_INTEGER)
        return json_integer(x->i);
    if (x->type == SQLITE_FLOAT)
        return isfinite(x->d) ? json_real(x->d) : json_null();
    return json_string(x->s);
}

/* JSON and CSV name columns by the view's own labels (`keys`), whatever
 * labels the recording gives them. */
static void print_json(FILE *out, const jfrsql_view *v, const jfrsql_view_col *keys,
                       const result *r, const double *totals)
{
    json_t *j = json_object(), *cols = json_array(), *rows = json_array();
    size_t n = r->ncols < JFRSQL_VIEW_MAX_COLS ? r->ncols : JFRSQL_VIEW_MAX_COLS;
    size_t shown = v->limit && v->limit < r->nrows ? v->limit : r->nrows;

    json_object_set_new(j, "view", json_string(v->name));
    json_object_set_new(j, "title", v->title ? json_string(v->title) : json_null());
    json_object_set_new(j, "form", json_boolean(v->form));
    for (size_t c = 0; c < n; c++) {
        json_t *col = json_object();
        const char *unit = jfrsql_view_unit(v->cols[c].fmt);
        json_object_set_new(col, "label",
                            json_string(keys[c].label ? keys[c].label : ""));
        json_object_set_new(col, "unit", unit ? json_string(unit) : json_null());
        json_array_append_new(cols, col);
    }
    json_object_set_new(j, "columns", cols);
    for (size_t i = 0; i < shown; i++) {
        json_t *row = json_object();
        for (size_t c = 0; c < n; c++)
            json_object_set_new(
                row, keys[c].label ? keys[c].label : "",
                json_cell(&v->cols[c], &r->cells[i * r->ncols + c], totals[c]));
        json_array_append_new(rows, row);
    }
    json_object_set_new(j, "rows", rows);
    view_json_print(out, j);
    json_decref(j);
}

static void print_csv(FILE *out, const jfrsql_view *v, const jfrsql_view_col *keys,
                      const result *r, const double *totals)
{
    size_t n = r->ncols < JFRSQL_VIEW_MAX_COLS ? r->ncols : JFRSQL_VIEW_MAX_COLS;
    size_t shown = v->limit && v->limit < r->nrows ? v->limit : r->nrows;
    csv_row row;
    strbuf sb = {0};

    csv_row_begin(&row, out);
    for (size_t c = 0; c < n; c++) {
        const char *unit = jfrsql_view_unit(v->cols[c].fmt);
        sb_clear(&sb);
        sb_puts(&sb, keys[c].label ? keys[c].label : "");
        if (unit)
            sb_printf(&sb, " (%s)", unit);
        csv_field_str(&row, sb_str(&sb));
    }
    csv_row_end(&row);
    for (size_t i = 0; i < shown; i++) {
        for (size_t c = 0; c < n; c++) {
            json_t *j = json_cell(&v->cols[c], &r->cells[i * r->ncols + c], totals[c]);
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
static bool span_result(const jfrsql_view *v, const view_ctx *ctx, result *r)
{
    gv_span_row *rows;
    size_t n;

    if (gview_span_stats(v, ctx, &rows, &n) < 0)
        return false;
    r->ncols = 6;
    r->nrows = r->cap = n;
    r->cells = xcalloc(n ? n * 6 : 1, sizeof *r->cells);
    for (size_t i = 0; i < n; i++) {
        cell *c = &r->cells[i * 6];
        int64_t vals[5] = {rows[i].avg, rows[i].p95, rows[i].max, rows[i].count,
                           rows[i].sum};

        c[0] = (cell){.type = SQLITE_TEXT, .s = rows[i].name};
        for (int k = 0; k < 5; k++) {
            if (k != 3 && !rows[i].has_values)
                c[k + 1] = (cell){.type = SQLITE_NULL};
            else
                c[k + 1] =
                    (cell){.type = SQLITE_INTEGER, .i = vals[k], .d = (double)vals[k]};
        }
    }
    free(rows);
    return true;
}

/* The JDK resolves the query's fields before it looks for events. */
static bool lacks_column(sqlite3 *db, const char *sql)
{
    char col[128];

    return jfrsql_missing_column(db, sql, true, col, sizeof col);
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
 * JDK says so; nothing in CSV. */
static int missing_field(const jfrsql_view *v, const view_ctx *ctx, const gview_opts *o,
                         const char *col)
{
    const char *dot = strchr(col, '.');
    char first[128];
    char *full;

    if (ctx->json) {
        json_t *j = json_object();
        json_object_set_new(j, "view", json_string(v->name));
        json_object_set_new(j, "title", json_string(v->title));
        json_object_set_new(j, "missingField", json_string(col));
        json_object_set_new(j, "rows", json_array());
        view_json_print(ctx->out, j);
        json_decref(j);
        return EXIT_OK;
    }
    if (o->csv)
        return EXIT_OK;
    snprintf(first, sizeof first, "%s", v->types);
    first[strcspn(first, " ")] = '\0';
    full = recorded_type_name(ctx, short_type(first));
    fprintf(ctx->out,
            "Can't find field named '%s' in %s.\nUse 'SHOW FIELDS %s' to list "
            "available fields.\nMissing event found for %s\n",
            dot ? dot + 1 : col, full, short_type(first), v->name);
    free(full);
    return EXIT_OK;
}

static int gview_run_db(const jfrsql_view *v, sqlite3 *db, const view_ctx *ctx,
                        const gview_opts *o)
{
    char missing[512];
    bool any_rows = false;
    result r;
    double totals[JFRSQL_VIEW_MAX_COLS];
    jfrsql_view shown;
    char *labels[JFRSQL_VIEW_MAX_COLS];

    if (o->verbose && !ctx->json && !o->csv)
        fprintf(ctx->out, "\n%s\n", v->sql);
    if (jfrsql_view_missing_type(db, v, missing, sizeof missing, &any_rows)) {
        if (ctx->json)
            fprintf(ctx->out,
                    "{\"view\": \"%s\", \"title\": \"%s\", \"declared\": false, "
                    "\"rows\": []}\n",
                    v->name, v->title ? v->title : "");
        else if (!o->csv)
            fprintf(ctx->out,
                    "Can't find event type named '%s'. 'SHOW EVENTS' will list available "
                    "event types.\nMissing event found for %s\n",
                    missing, v->name);
        return EXIT_OK;
    }
    /* the JDK resolves the query's fields before it looks for events */
    if (!any_rows && !ctx->json && !o->csv && !lacks_column(db, v->sql)) {
        no_events(ctx->out, v->title);
        return EXIT_OK;
    }
    if (gview_is_span_stats(v) && !o->generic && span_result(v, ctx, &r)) {
        /* the same rows as the SQL's, in one pass */
    } else if (run_query(db, v->sql, &r) < 0) {
        const char *msg = sqlite3_errmsg(db);
        char col[128];

        if (strncmp(msg, "no such column: ", 16) != 0) {
            warnx_("%s", msg);
            return EXIT_USAGE;
        }
        /* the field the JDK names when several are missing (missing_column) */
        if (!jfrsql_missing_column(db, v->sql, true, col, sizeof col))
            jfrsql_missing_column(db, v->sql, false, col, sizeof col);
        return missing_field(v, ctx, o, col);
    }
    /* labels and formats as the recording's metadata gives them */
    shown = *v;
    gview_file_columns(v, ctx, shown.cols, labels);
    column_totals(v, &r, totals);
    if (ctx->json)
        print_json(ctx->out, &shown, v->cols, &r, totals);
    else if (o->csv)
        print_csv(ctx->out, &shown, v->cols, &r, totals);
    else if (r.nrows == 0 || (v->form && r.ncols == 0))
        no_events(ctx->out, v->title);
    else if (v->form)
        print_form(ctx->out, &shown, &r, totals);
    else
        print_table(ctx->out, &shown, &r, totals, ctx, o);
    for (size_t c = 0; c < JFRSQL_VIEW_MAX_COLS; c++)
        free(labels[c]);
    result_free(&r);
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
                                  ctx->jobs, &cat, &status);

    if (!db)
        return status;
    if (status != EXIT_OK && jfrsql_catalog_chunks(cat) == 0) {
        /* nothing could be read: the errors said so, a "missing event
         * type" message would blame the recording */
        sqlite3_close(db);
        jfrsql_catalog_unref(cat);
        return status;
    }
    /* the JDK's views read @Unsigned values as signed (2^64 - 2 is -2) */
    jfrsql_catalog_jdk_integers(cat, true);
    rc = gview_run_db(v, db, ctx, o);
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
    const jfr_type *t;
    int status;

    if (!(t = first_event_type(type, ctx, &rec, &status)))
        return status;
    if (jfrsql_type_view_new(&tv, t, type) != SQLITE_OK)
        diex(EXIT_INPUT, "out of memory");
    jfr_recording_free(rec);
    status = tv->ncols > 0 ? gview_run(&tv->view, ctx, o) : -1;
    jfrsql_type_view_free(tv);
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
        report_error(strcmp(path, "-") == 0 ? "(standard input)" : path,
                     jfr_recording_error(rec));
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

static int run_event_counts(const jfrsql_view *v, const view_ctx *ctx,
                            const gview_opts *o)
{
    type_count *tc = NULL;
    size_t n = 0;
    bool experimental = false;
    int status = count_types(ctx, false, &tc, &n, &experimental);
    result r = {0};
    double totals[JFRSQL_VIEW_MAX_COLS] = {0};
    jfrsql_view shown = *v;
    strbuf title = {0};

    if (n > 1)
        qsort(tc, n, sizeof *tc,
              strcmp(v->name, "events-by-name") == 0 ? by_label : by_count);
    r.ncols = 2;
    r.nrows = r.cap = n;
    r.cells = xcalloc(n ? 2 * n : 1, sizeof *r.cells);
    for (size_t i = 0; i < n; i++) {
        r.cells[2 * i] = (cell){.type = SQLITE_TEXT, .s = tc[i].label};
        r.cells[2 * i + 1] = (cell){
            .type = SQLITE_INTEGER, .i = (int64_t)tc[i].count, .d = (double)tc[i].count};
    }
    if (o->verbose && !ctx->json && !o->csv)
        fprintf(ctx->out, "\n%s\n", v->sql);
    sb_puts(&title, v->title);
    if (experimental)
        sb_puts(&title, " (Experimental)");
    shown.title = sb_str(&title);
    if (ctx->json)
        print_json(ctx->out, v, v->cols, &r, totals);
    else if (o->csv)
        print_csv(ctx->out, v, v->cols, &r, totals);
    else if (n == 0)
        no_events(ctx->out, v->title);
    else
        print_table(ctx->out, &shown, &r, totals, ctx, o);
    result_free(&r);
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
static int run_recording(const jfrsql_view *v, const view_ctx *ctx, const gview_opts *o)
{
    gv_recording_info info;
    int status = gview_recording_info(ctx, &info);
    int64_t count = (int64_t)info.count, span = info.last - info.first;
    result r = {0};
    double totals[JFRSQL_VIEW_MAX_COLS] = {0};

    if (o->verbose && !ctx->json && !o->csv)
        fprintf(ctx->out, "\n%s\n", v->sql);
    r.ncols = 5;
    r.nrows = r.cap = 1;
    r.cells = xcalloc(5, sizeof *r.cells);
    r.cells[0] = (cell){.type = SQLITE_INTEGER, .i = count, .d = (double)count};
    if (info.has_first)
        r.cells[1] =
            (cell){.type = SQLITE_INTEGER, .i = info.first, .d = (double)info.first};
    if (info.has_last)
        r.cells[2] =
            (cell){.type = SQLITE_INTEGER, .i = info.last, .d = (double)info.last};
    if (info.has_first && info.has_last)
        r.cells[3] = (cell){.type = SQLITE_INTEGER, .i = span, .d = (double)span};
    if (info.reason)
        r.cells[4] = (cell){.type = SQLITE_TEXT, .s = info.reason};
    if (ctx->json)
        print_json(ctx->out, v, v->cols, &r, totals);
    else if (o->csv)
        print_csv(ctx->out, v, v->cols, &r, totals);
    else if (count == 0)
        no_events(ctx->out, v->title);
    else
        print_form(ctx->out, v, &r, totals);
    result_free(&r);
    return status;
}
