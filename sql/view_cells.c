/* view_cells.c - a view's values as the JDK's views write them
 * (view_cells.h): each column's format (the JDK's ValueFormatter, through
 * libjfr's jfr/text.h), the "no value" texts, the compact forms of
 * methods and classes, and the values JSON and CSV give. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "view_cells.h"

/* Append a jfr/text.h text: most fit JFR_TEXT_ROOM; a longer one is
 * written again into room made for it. */
#define STR_TEXT(str, fn, ...)                                                           \
    do {                                                                                 \
        char text_[JFR_TEXT_ROOM];                                                       \
        size_t n_ = fn(text_, sizeof text_, __VA_ARGS__);                                \
        if (n_ <= sizeof text_) {                                                        \
            sqlite3_str_append((str), text_, (int)n_);                                   \
        } else {                                                                         \
            char *long_ = sqlite3_malloc64(n_);                                          \
            if (long_) {                                                                 \
                fn(long_, n_, __VA_ARGS__);                                              \
                sqlite3_str_append((str), long_, (int)n_);                               \
            }                                                                            \
            sqlite3_free(long_);                                                         \
        }                                                                                \
    } while (0)

double jfrsql_value_number(const jfrsql_value *x)
{
    if (x->type == SQLITE_TEXT)
        return strtod(x->s, NULL);
    return x->type == SQLITE_INTEGER ? (double)x->i : x->d;
}

static int64_t value_int(const jfrsql_value *x)
{
    if (x->type == SQLITE_TEXT)
        return strtoll(x->s, NULL, 10);
    return x->i; /* a real's, set when it was read */
}

static void time_of_day(sqlite3_str *s, int64_t ns)
{
    time_t t = (time_t)(ns / 1000000000 - (ns % 1000000000 < 0 ? 1 : 0));
    struct tm tm;

    if (!localtime_r(&t, &tm)) {
        sqlite3_str_appendall(s, "N/A");
        return;
    }
    sqlite3_str_appendf(s, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/* A double with at most three decimals, ties to even, no trailing zeros
 * (Java's DecimalFormat as the JDK's views print doubles). */
static void decimal3(sqlite3_str *s, double d)
{
    char buf[400];
    size_t n;

    snprintf(buf, sizeof buf, "%.3f", d);
    n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0')
        buf[--n] = '\0';
    if (n > 0 && buf[n - 1] == '.')
        buf[--n] = '\0';
    sqlite3_str_appendall(s, buf);
}

/* A char's UTF-16 code unit as UTF-8 (a lone surrogate as U+FFFD, as Java
 * writes it). */
static void code_unit(sqlite3_str *s, int64_t c)
{
    if (c < 0 || c > 0xFFFF || (c >= 0xD800 && c <= 0xDFFF))
        c = 0xFFFD;
    if (c < 0x80) {
        sqlite3_str_appendchar(s, 1, (char)c);
    } else if (c < 0x800) {
        sqlite3_str_appendchar(s, 1, (char)(0xC0 | c >> 6));
        sqlite3_str_appendchar(s, 1, (char)(0x80 | (c & 0x3F)));
    } else {
        sqlite3_str_appendchar(s, 1, (char)(0xE0 | c >> 12));
        sqlite3_str_appendchar(s, 1, (char)(0x80 | (c >> 6 & 0x3F)));
        sqlite3_str_appendchar(s, 1, (char)(0x80 | (c & 0x3F)));
    }
}

/* The column's text for "no value" (default "N/A"). */
static const char *missing_text(const jfrsql_view_col *col)
{
    return col->missing ? col->missing : "N/A";
}

static void format_int(sqlite3_str *s, const jfrsql_view_col *col, const jfrsql_value *x)
{
    if (x->type == SQLITE_TEXT)
        sqlite3_str_appendall(s, x->s);
    else if (x->type == SQLITE_INTEGER &&
             (x->i == INT64_MIN || (col->int_value && x->i == INT32_MIN)))
        sqlite3_str_appendall(s, missing_text(col)); /* the JDK's "no value" */
    else
        STR_TEXT(s, jfr_text_grouped, value_int(x));
}

static void format_span(sqlite3_str *s, const jfrsql_view_col *col, const jfrsql_value *x)
{
    int64_t v = value_int(x);
    int64_t secs = v / 1000000000;
    int32_t nanos = (int32_t)(v % 1000000000);

    if (nanos < 0) { /* Duration.ofNanos: the nanoseconds are not negative */
        nanos += 1000000000;
        secs--;
    }
    if (v == INT64_MAX)
        sqlite3_str_appendall(s, "Indefinite");
    else if (v == INT64_MIN)
        sqlite3_str_appendall(s, "N/A");
    else
        STR_TEXT(s, jfr_text_duration, secs, nanos, col->ms_precision - 1);
}

static void format_time(sqlite3_str *s, const jfrsql_view_col *col, const jfrsql_value *x)
{
    /* Long.MIN_VALUE is the JDK's "no time" (jdk.ThreadPark's until) */
    if (x->type == SQLITE_INTEGER && x->i == INT64_MIN)
        sqlite3_str_appendall(s, missing_text(col));
    else
        time_of_day(s, value_int(x));
}

/* The JDK: the number's toString, then " Hz" (2916.276 Hz). */
static void format_hz(sqlite3_str *s, const jfrsql_view_col *col, const jfrsql_value *x)
{
    if (x->type == SQLITE_INTEGER && x->i == INT64_MIN) {
        sqlite3_str_appendall(s, missing_text(col)); /* the JDK's "no value" */
        return;
    }
    if (x->type == SQLITE_FLOAT && col->float_value)
        STR_TEXT(s, jfr_text_float, (float)x->d);
    else if (x->type == SQLITE_FLOAT)
        STR_TEXT(s, jfr_text_double, x->d);
    else
        sqlite3_str_appendf(s, "%lld", (long long)value_int(x));
    sqlite3_str_appendall(s, " Hz");
}

/* A string as the JDK's views print one: tabs, CRs and LFs as spaces
 * (FieldFormatter strips them from strings only; threads, classes and
 * methods keep them). */
static void append_string(sqlite3_str *s, const char *text)
{
    for (const char *run = text;;) {
        size_t n = strcspn(run, "\t\r\n");

        sqlite3_str_append(s, run, (int)n);
        if (!run[n])
            return;
        sqlite3_str_appendchar(s, 1, ' ');
        run += n + 1;
    }
}

/* A flag's value: unsigned flags above 2^63 read as REAL, and the JDK
 * prints the long. */
static void format_flag(sqlite3_str *s, const jfrsql_value *x)
{
    if (x->type == SQLITE_FLOAT && x->d >= 18446744073709551615.0)
        sqlite3_str_appendall(s, "-1");
    else if (x->type == SQLITE_FLOAT && x->d >= 9223372036854775808.0)
        STR_TEXT(s, jfr_text_grouped, (int64_t)(uint64_t)x->d);
    else if (x->type == SQLITE_INTEGER)
        STR_TEXT(s, jfr_text_grouped, x->i);
    else if (x->type == SQLITE_FLOAT && x->d == floor(x->d) && fabs(x->d) < 9e18)
        STR_TEXT(s, jfr_text_grouped, (int64_t)x->d);
    else if (x->type == SQLITE_FLOAT)
        decimal3(s, x->d);
    else
        append_string(s, x->s);
}

/* The compact form of one line of `len` bytes: a method's parameters
 * elided (they start at the line's last '(': a class name may have one,
 * async-profiler's "libc.so (deleted)"), a class's package dropped; the
 * line itself where it has none when `always`. */
static void compact_line(sqlite3_str *compact, jfrsql_view_fmt fmt, const char *s,
                         size_t len, bool always)
{
    const char *cut = NULL;

    for (size_t i = 0; i < len; i++)
        if (s[i] == (fmt == JFRSQL_FMT_CLASS ? '.' : '('))
            cut = s + i;
    if (cut && fmt == JFRSQL_FMT_CLASS) {
        sqlite3_str_append(compact, cut + 1, (int)(s + len - cut - 1));
    } else if (cut) {
        sqlite3_str_append(compact, s, (int)(cut - s));
        sqlite3_str_appendall(compact, cut[1] == ')' ? "()" : "(...)");
    } else if (always) {
        sqlite3_str_append(compact, s, (int)len);
    }
}

/* The compact form of a method, a class, or of values one a line (a
 * stack's frames, a set of classes): each line's, so that the renderer
 * can cut each value as the JDK does. */
static void compact_text(sqlite3_str *compact, jfrsql_view_fmt fmt, const char *s)
{
    const char *nl = strchr(s, '\n');

    if (!nl) {
        compact_line(compact, fmt, s, strlen(s), false);
        return;
    }
    for (;;) {
        compact_line(compact, fmt, s, (size_t)(nl - s), true);
        if (!*nl)
            return;
        sqlite3_str_appendchar(compact, 1, '\n');
        s = nl + 1;
        if (!(nl = strchr(s, '\n')))
            nl = s + strlen(s);
    }
}

/* Strings, threads, methods, classes and frames, with their compact forms. */
static void format_text(sqlite3_str *s, sqlite3_str *compact, const jfrsql_view_col *col,
                        const jfrsql_value *x)
{
    /* a set's values are one a line */
    if (x->type == SQLITE_TEXT && col->fmt == JFRSQL_FMT_TEXT && !col->set)
        append_string(s, x->s);
    else if (x->type == SQLITE_TEXT)
        sqlite3_str_appendall(s, x->s);
    else if (x->type == SQLITE_INTEGER)
        sqlite3_str_appendf(s, "%lld", (long long)x->i);
    else
        STR_TEXT(s, jfr_text_double, x->d);
    if (x->type == SQLITE_TEXT &&
        (col->fmt == JFRSQL_FMT_METHOD || col->fmt == JFRSQL_FMT_FRAMES ||
         col->fmt == JFRSQL_FMT_CLASS))
        compact_text(compact, col->fmt, x->s);
}

/* A fraction (share: of the column's total) in percent, two decimals. */
static void format_percent(sqlite3_str *s, double value)
{
    STR_TEXT(s, jfr_text_fixed, value * 100.0, 2);
    sqlite3_str_appendchar(s, 1, '%');
}

/* Java's (long) of a double: NaN 0, saturated past the range, as the
 * JDK's views take a float or double field's data amount. */
static int64_t java_long(double d)
{
    if (isnan(d))
        return 0;
    if (d >= 9223372036854775808.0)
        return INT64_MAX;
    if (d <= -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)d;
}

/* The numbers of a unit: data amounts, rates, addresses, booleans. */
static bool format_unit(sqlite3_str *s, const jfrsql_view_col *col, const jfrsql_value *x)
{
    jfrsql_view_fmt fmt = col->fmt;
    int64_t v;

    switch (fmt) {
    case JFRSQL_FMT_BYTES:
    case JFRSQL_FMT_RATE:
    case JFRSQL_FMT_BYTE_RATE:
    case JFRSQL_FMT_BITS:
    case JFRSQL_FMT_BOOL:
    case JFRSQL_FMT_HEX:
        v = col->real_value && x->type == SQLITE_FLOAT ? java_long(x->d) : value_int(x);
        break;
    default:
        return false;
    }
    switch (fmt) {
    case JFRSQL_FMT_BYTES:
        STR_TEXT(s, jfr_text_amount, v, JFR_TEXT_BYTES);
        return true;
    case JFRSQL_FMT_RATE:
        STR_TEXT(s, jfr_text_amount, v, JFR_TEXT_BITS_PER_SECOND);
        return true;
    case JFRSQL_FMT_BYTE_RATE:
        STR_TEXT(s, jfr_text_amount, v, JFR_TEXT_BYTES_PER_SECOND);
        return true;
    case JFRSQL_FMT_BITS:
        STR_TEXT(s, jfr_text_amount, v, JFR_TEXT_BITS);
        return true;
    case JFRSQL_FMT_BOOL:
        sqlite3_str_appendall(s, v ? "true" : "false");
        return true;
    case JFRSQL_FMT_HEX: /* the JDK's String.format("0x%08X", long) */
        if (x->type == SQLITE_INTEGER && v == INT64_MIN)
            sqlite3_str_appendall(s, missing_text(col));
        else
            sqlite3_str_appendf(s, "0x%08llX", (unsigned long long)(uint64_t)v);
        return true;
    default:
        return false;
    }
}

void jfrsql_cell_text(sqlite3_str *s, sqlite3_str *compact, const jfrsql_view_col *col,
                      const jfrsql_value *x, double total)
{
    /* the JDK's "no value": null, a NaN or negative infinite double */
    if (x->type == SQLITE_NULL ||
        (x->type == SQLITE_FLOAT && (isnan(x->d) || x->d == -INFINITY))) {
        sqlite3_str_appendall(s, missing_text(col));
        return;
    }
    if (format_unit(s, col, x))
        return;
    switch (col->fmt) {
    case JFRSQL_FMT_INT:
        format_int(s, col, x);
        break;
    case JFRSQL_FMT_SPAN:
        format_span(s, col, x);
        break;
    case JFRSQL_FMT_TIME:
        format_time(s, col, x);
        break;
    case JFRSQL_FMT_PERCENT:
        format_percent(s, jfrsql_value_number(x));
        break;
    case JFRSQL_FMT_NORMALIZED:
        format_percent(s, total != 0 ? jfrsql_value_number(x) / total : 0.0);
        break;
    case JFRSQL_FMT_HZ:
        format_hz(s, col, x);
        break;
    case JFRSQL_FMT_FLAG:
        format_flag(s, x);
        break;
    case JFRSQL_FMT_CHAR:
        if (x->type == SQLITE_INTEGER)
            code_unit(s, x->i);
        else
            sqlite3_str_appendall(s, x->type == SQLITE_TEXT ? x->s : "");
        break;
    case JFRSQL_FMT_DOUBLE:
        if (x->type == SQLITE_TEXT)
            sqlite3_str_appendall(s, x->s);
        else
            STR_TEXT(s, jfr_text_number, jfrsql_value_number(x));
        break;
    default: /* text, methods, classes, frames */
        format_text(s, compact, col, x);
        break;
    }
}

jfrsql_json_value jfrsql_cell_json(const jfrsql_view_col *col, const jfrsql_value *x,
                                   double total, sqlite3_str *text)
{
    jfrsql_json_value j = {JFRSQL_JSON_NULL, 0, 0, NULL};

    if (x->type == SQLITE_NULL)
        return j;
    if (col->fmt == JFRSQL_FMT_NORMALIZED) {
        j.kind = JFRSQL_JSON_REAL;
        j.d = total != 0 ? (jfrsql_value_number(x) / total) * 100.0 : 0.0;
    } else if (col->fmt == JFRSQL_FMT_PERCENT) {
        j.kind = JFRSQL_JSON_REAL;
        j.d = jfrsql_value_number(x) * 100.0;
    } else if (col->fmt == JFRSQL_FMT_BOOL) {
        j.kind = JFRSQL_JSON_BOOL;
        j.i = value_int(x) != 0;
    } else if (col->fmt == JFRSQL_FMT_CHAR && x->type == SQLITE_INTEGER) {
        j.kind = JFRSQL_JSON_STRING;
        code_unit(text, x->i);
    } else if (x->type == SQLITE_INTEGER) {
        j.kind = JFRSQL_JSON_INTEGER;
        j.i = x->i;
    } else if (x->type == SQLITE_FLOAT && isfinite(x->d)) {
        j.kind = JFRSQL_JSON_REAL;
        j.d = x->d;
    } else if (x->type == SQLITE_TEXT) {
        j.kind = JFRSQL_JSON_STRING;
        j.s = x->s;
    }
    return j;
}

bool jfrsql_fmt_right_aligned(jfrsql_view_fmt f)
{
    return f == JFRSQL_FMT_INT || f == JFRSQL_FMT_SPAN || f == JFRSQL_FMT_BYTES ||
           f == JFRSQL_FMT_PERCENT || f == JFRSQL_FMT_NORMALIZED ||
           f == JFRSQL_FMT_RATE || f == JFRSQL_FMT_DOUBLE || f == JFRSQL_FMT_BOOL ||
           f == JFRSQL_FMT_HZ || f == JFRSQL_FMT_BYTE_RATE || f == JFRSQL_FMT_BITS;
}
