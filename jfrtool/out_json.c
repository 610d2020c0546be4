/* out_json.c - events as JSON, the way `jfr print --json` shows them. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "out_json.h"
#include "out_text.h"
#include "util.h"

/* Pool entries being expanded, to cut reference cycles in damaged files
 * (the JDK shows a re-entered entry as null), and a cap on the values one
 * event may expand to, against exponential sharing. */
#define MAX_NESTING 4096
#define MAX_VALUES  4000000

typedef struct jctx {
    jfr_chunk *chunk;
    const json_opts *opts;
    const jfr_type *vis_type[MAX_NESTING];
    uint64_t vis_key[MAX_NESTING];
    size_t depth;
    size_t values;
    bool failed;
    const char *loss; /* why the last event was not converted, if known */
} jctx;

static jctx *last; /* large; reused from event to event */

static json_t *value_json(jctx *c, const jfr_value *v);

static json_t *string_json(const char *s)
{
    json_t *j = json_string(s);
    return j ? j : json_null();
}

static json_t *timestamp_json(jctx *c, const jfr_value *v, const char *unit)
{
    strbuf sb = {0};
    int64_t ns, secs;
    int32_t nanos, offset = (int32_t)(jfr_chunk_gmt_offset_ms(c->chunk) / 1000);
    json_t *j;

    if (v->as.i == INT64_MIN)
        return string_json("-999999999-01-01T00:00+18:00");
    if (strcmp(unit, "MILLISECONDS_SINCE_EPOCH") == 0) {
        secs = v->as.i / 1000;
        nanos = (int32_t)(v->as.i % 1000) * 1000000;
        if (nanos < 0)
            nanos += 1000000000, secs--;
    } else {
        ns = jfr_chunk_ticks_to_epoch_nanos(c->chunk, v->as.i);
        split_nanos(ns, &secs, &nanos);
    }
    fmt_iso_instant(&sb, secs, nanos, offset);
    j = string_json(sb_str(&sb));
    sb_free(&sb);
    return j;
}

/* Java's getDuration rules: 0, MIN and MAX are special; units by name. */
static json_t *timespan_json(jctx *c, const jfr_value *v, const char *unit,
                             bool is_unsigned)
{
    strbuf sb = {0};
    int64_t t = v->as.i;
    json_t *j;

    if (is_unsigned && jfr_type_kind(v->type) != JFR_KIND_LONG)
        t = (int64_t)v->bits;
    if (t == 0)
        sb_puts(&sb, "PT0S");
    else if (t == INT64_MIN)
        fmt_java_duration(&sb, INT64_MIN, 0);
    else if (t == INT64_MAX)
        fmt_java_duration(&sb, INT64_MAX, 999999999);
    else if (strcmp(unit, "TICKS") == 0)
        fmt_java_duration_ns(&sb, jfr_chunk_ticks_to_nanos(c->chunk, t));
    else if (strcmp(unit, "NANOSECONDS") == 0)
        fmt_java_duration_ns(&sb, t);
    else if (strcmp(unit, "MICROSECONDS") == 0)
        fmt_java_duration_ns(&sb, (int64_t)((uint64_t)t * 1000u));
    else if (strcmp(unit, "MILLISECONDS") == 0) {
        int64_t s = t / 1000, ms = t % 1000;
        if (ms < 0)
            ms += 1000, s--;
        fmt_java_duration(&sb, s, (int32_t)ms * 1000000);
    } else if (strcmp(unit, "SECONDS") == 0)
        fmt_java_duration(&sb, t, 0);
    else
        sb_printf(&sb, "%lld", (long long)t);
    j = string_json(sb_str(&sb));
    sb_free(&sb);
    return j;
}

static json_t *int_json(jctx *c, const jfr_value *v)
{
    const char *unit;
    bool is_unsigned =
        v->field && jfr_field_annotation_value(v->field, "jdk.jfr.Unsigned");
    jfr_kind kind = jfr_type_kind(v->type);

    if (v->field && (unit = jfr_field_annotation_value(v->field, "jdk.jfr.Timespan")))
        return timespan_json(c, v, unit, is_unsigned);
    if (v->field && (unit = jfr_field_annotation_value(v->field, "jdk.jfr.Timestamp")))
        return timestamp_json(c, v, unit);
    if (kind == JFR_KIND_CHAR) {
        char buf[8];
        uint32_t u = (uint32_t)v->bits;
        /* one UTF-16 unit; lone surrogates cannot be UTF-8 */
        if (u >= 0xd800 && u <= 0xdfff)
            u = 0xfffd;
        if (u < 0x80) {
            buf[0] = (char)u, buf[1] = 0;
        } else if (u < 0x800) {
            buf[0] = (char)(0xc0 | (u >> 6)), buf[1] = (char)(0x80 | (u & 0x3f)),
            buf[2] = 0;
        } else {
            buf[0] = (char)(0xe0 | (u >> 12)), buf[1] = (char)(0x80 | ((u >> 6) & 0x3f));
            buf[2] = (char)(0x80 | (u & 0x3f)), buf[3] = 0;
        }
        return json_stringn(buf, strlen(buf) + (u == 0));
    }
    if (is_unsigned && kind != JFR_KIND_BOOLEAN) {
        if (v->bits > (uint64_t)INT64_MAX)
            return json_unsigned(v->bits);
        return json_integer((json_int_t)v->bits);
    }
    return json_integer((json_int_t)v->as.i);
}

static bool visiting(jctx *c, const jfr_value *v)
{
    for (size_t i = 0; i < c->depth; i++)
        if (c->vis_type[i] == v->type && c->vis_key[i] == v->key)
            return true;
    return false;
}

static bool is_frame_type(const jfr_type *t)
{
    const char *n = jfr_type_name(t);
    return n && (strcmp(n, "jdk.types.StackFrame") == 0 ||
                 strcmp(n, "com.oracle.jfr.types.StackFrame") == 0);
}

static json_t *children_json(jctx *c, const jfr_value *v)
{
    json_t *j = v->kind == JFR_VALUE_ARRAY ? json_array() : json_object();
    size_t limit = is_frame_type(v->type) ? c->opts->stack_depth : SIZE_MAX, n = 0;
    jfr_cursor cur;
    jfr_value child;
    int rc;

    if (jfr_value_iter(&cur, v) < 0) {
        c->failed = true;
        return j;
    }
    while ((rc = jfr_cursor_next(&child, &cur)) == JFR_OK) {
        json_t *cj;

        if (v->kind == JFR_VALUE_ARRAY && n++ >= limit)
            continue;
        cj = value_json(c, &child);
        if (v->kind == JFR_VALUE_ARRAY)
            json_array_append_new(j, cj);
        else
            json_object_set_new(j, jfr_field_name(child.field), cj);
        if (c->failed)
            break;
    }
    if (rc < 0)
        c->failed = true;
    return j;
}

static json_t *value_json(jctx *c, const jfr_value *v)
{
    jfr_value inner;
    json_t *j;

    if (++c->values > MAX_VALUES) {
        c->failed = true;
        c->loss =
            "it expands to more than 4,000,000 JSON values (a smaller --stack-depth "
            "shows it)";
        return json_null();
    }
    switch (v->kind) {
    case JFR_VALUE_NULL:
        return json_null();
    case JFR_VALUE_BOOLEAN:
        return json_boolean(v->as.boolean);
    case JFR_VALUE_INT:
        return int_json(c, v);
    case JFR_VALUE_FLOAT:
        if (isnan(v->as.f) || isinf(v->as.f))
            return json_null();
        if (jfr_type_kind(v->type) == JFR_KIND_FLOAT)
            return json_real(float_as_decimal((float)v->as.f));
        return json_real(v->as.f);
    case JFR_VALUE_STRING:
        j = json_stringn(v->as.str.ptr, v->as.str.len);
        return j ? j : json_null();
    case JFR_VALUE_ARRAY:
        return children_json(c, v);
    case JFR_VALUE_OBJECT:
        if (jfr_type_is_simple(v->type)) {
            if (jfr_value_unwrap(&inner, v) < 0) {
                c->failed = true;
                return json_null();
            }
            return value_json(c, &inner);
        }
        if (v->pooled) {
            if (visiting(c, v) || c->depth >= MAX_NESTING)
                return json_null();
            c->vis_type[c->depth] = v->type;
            c->vis_key[c->depth] = v->key;
            c->depth++;
        }
        j = children_json(c, v);
        if (v->pooled)
            c->depth--;
        return j;
    }
    return json_null();
}

const char *event_json_loss(void)
{
    return last ? last->loss : NULL;
}

json_t *event_to_json(const jfr_event *ev, const json_opts *opts)
{
    jctx *c = last;
    jfr_value v;
    json_t *j = NULL;

    if (!c)
        c = last = xcalloc(1, sizeof *c);
    c->depth = 0;
    c->values = 0;
    c->failed = false;
    c->loss = NULL;
    c->chunk = jfr_event_chunk(ev);
    c->opts = opts;
    if (jfr_event_value(&v, ev) == JFR_OK) {
        json_t *values = children_json(c, &v);
        if (!c->failed) {
            j = json_object();
            json_object_set_new(j, "type",
                                string_json(jfr_type_name(jfr_event_type(ev))));
            json_object_set_new(j, "values", values);
        } else {
            json_decref(values);
        }
    }
    return j;
}

/* jansson's integers are signed 64-bit; an unsigned value above 2^63 is
 * kept as a string with a NUL-led marker that json_write prints as a bare
 * number (a real string cannot pass for it: it must be all digits). */
#define UNSIGNED_MARK     "\0u64:"
#define UNSIGNED_MARK_LEN 5

json_t *json_unsigned(uint64_t v)
{
    char buf[32];
    int n;

    memcpy(buf, UNSIGNED_MARK, UNSIGNED_MARK_LEN);
    n = snprintf(buf + UNSIGNED_MARK_LEN, sizeof buf - UNSIGNED_MARK_LEN, "%llu",
                 (unsigned long long)v);
    return json_stringn(buf, UNSIGNED_MARK_LEN + (size_t)n);
}

static bool unsigned_digits(const char *s, size_t len)
{
    if (len <= UNSIGNED_MARK_LEN || memcmp(s, UNSIGNED_MARK, UNSIGNED_MARK_LEN) != 0)
        return false;
    for (size_t i = UNSIGNED_MARK_LEN; i < len; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* Escape as the JDK tool does: '/' and every non-ASCII UTF-16 unit too. */
static void write_string(FILE *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;

    fputc('"', out);
    while (p < end) {
        const unsigned char *run = p;
        uint32_t c;

        /* plain printable ASCII goes out in one write */
        while (p < end && *p >= 32 && *p < 0x80 && *p != '"' && *p != '\\' && *p != '/')
            p++;
        if (p > run)
            fwrite(run, 1, (size_t)(p - run), out);
        if (p == end)
            break;
        c = *p++;

        if (c >= 0x80) {
            int extra = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
            c &= extra == 3 ? 0x07 : extra == 2 ? 0x0f : 0x1f;
            for (int i = 0; i < extra && p < end; i++)
                c = (c << 6) | (*p++ & 0x3f);
            if (c >= 0x10000) {
                c -= 0x10000;
                fprintf(out, "\\u%04x\\u%04x", 0xd800 + (c >> 10), 0xdc00 + (c & 0x3ff));
            } else {
                fprintf(out, "\\u%04x", c);
            }
            continue;
        }
        switch (c) {
        case '\b':
            fputs("\\b", out);
            break;
        case '\n':
            fputs("\\n", out);
            break;
        case '\t':
            fputs("\\t", out);
            break;
        case '\f':
            fputs("\\f", out);
            break;
        case '\r':
            fputs("\\r", out);
            break;
        case '"':
            fputs("\\\"", out);
            break;
        case '\\':
            fputs("\\\\", out);
            break;
        case '/':
            fputs("\\/", out);
            break;
        default:
            if (c < 32)
                fprintf(out, "\\u%04x", c);
            else
                fputc((int)c, out);
        }
    }
    fputc('"', out);
}

static void newline(FILE *out, int indent)
{
    static const char spaces[] =
        "\n                                                                ";

    if (indent < (int)sizeof spaces - 1) {
        fwrite(spaces, 1, (size_t)indent + 1, out);
        return;
    }
    fputc('\n', out);
    for (int i = 0; i < indent; i++)
        fputc(' ', out);
}

/* The layout of `jfr print --json`: two-space indent, ", " separators. */
int json_write(FILE *out, json_t *j, int indent)
{
    strbuf sb = {0};
    const char *key;
    json_t *val;
    size_t i;
    bool first = true;

    switch (json_typeof(j)) {
    case JSON_OBJECT:
        fputc('{', out);
        json_object_foreach(j, key, val)
        {
            if (!first)
                fputs(", ", out);
            newline(out, indent + 2);
            write_string(out, key, strlen(key));
            fputs(": ", out);
            json_write(out, val, indent + 2);
            first = false;
        }
        newline(out, indent);
        fputc('}', out);
        break;
    case JSON_ARRAY:
        fputc('[', out);
        json_array_foreach(j, i, val)
        {
            if (i)
                fputs(", ", out);
            json_write(out, val, indent);
        }
        fputc(']', out);
        break;
    case JSON_STRING:
        if (unsigned_digits(json_string_value(j), json_string_length(j)))
            fputs(json_string_value(j) + UNSIGNED_MARK_LEN, out);
        else
            write_string(out, json_string_value(j), json_string_length(j));
        break;
    case JSON_INTEGER:
        fprintf(out, "%lld", (long long)json_integer_value(j));
        break;
    case JSON_REAL:
        fmt_java_double(&sb, json_real_value(j));
        fputs(sb_str(&sb), out);
        sb_free(&sb);
        break;
    case JSON_TRUE:
        fputs("true", out);
        break;
    case JSON_FALSE:
        fputs("false", out);
        break;
    case JSON_NULL:
        fputs("null", out);
        break;
    }
    return 0;
}
