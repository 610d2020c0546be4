/* out_print.c - events as text in the layout of JDK 25's `jfr print`
 * (its PrettyWriter): one block per event, one line per field, nested
 * objects and arrays indented by two, values shown by their annotations
 * (doc/print-format.md lists the rules). Each event is built in a buffer and
 * written only when it decoded completely. */
#include <math.h>
#include <string.h>
#include <time.h>

#include "fmt_pretty.h"
#include "out_print.h"
#include "out_text.h"
#include "util.h"

/* Pool entries being expanded, to cut reference cycles in damaged files
 * (shown as N/A), and a cap on the values one event may expand to. */
#define MAX_NESTING 4096
#define MAX_VALUES  4000000

typedef struct pctx {
    strbuf sb;
    jfr_chunk *chunk;
    const jfr_event *ev;
    const text_opts *opts;
    int indent;
    const jfr_type *vis_type[MAX_NESTING];
    uint64_t vis_key[MAX_NESTING];
    size_t depth;
    size_t values;
    bool failed;
} pctx;

static void print_value(pctx *c, const jfr_value *v, const jfr_field *f,
                        const char *postfix);

static void put_indent(pctx *c)
{
    for (int i = 0; i < c->indent; i++)
        sb_putc(&c->sb, ' ');
}

static void put_line(pctx *c, const char *s)
{
    sb_puts(&c->sb, s);
    sb_putc(&c->sb, '\n');
}

static bool type_is(const jfr_type *t, const char *simple)
{
    const char *n = t ? jfr_type_name(t) : NULL;

    if (!n)
        return false;
    if (strncmp(n, "jdk.types.", 10) == 0)
        return strcmp(n + 10, simple) == 0;
    if (strncmp(n, "com.oracle.jfr.types.", 21) == 0)
        return strcmp(n + 21, simple) == 0;
    return false;
}

static bool type_named(const jfr_type *t, const char *name)
{
    return t && jfr_type_name(t) && strcmp(jfr_type_name(t), name) == 0;
}

/* The field `name` of object `obj`, simple types unwrapped (Symbol ->
 * string). False when there is no such field; a null value has kind NULL. */
static bool get_field(pctx *c, jfr_value *out, const jfr_value *obj, const char *name)
{
    int rc;

    if (obj->kind != JFR_VALUE_OBJECT)
        return false;
    rc = jfr_value_field(out, obj, name);
    if (rc == JFR_ENOTFOUND)
        return false;
    while (rc == JFR_OK && out->kind == JFR_VALUE_OBJECT &&
           jfr_type_is_simple(out->type)) {
        jfr_value inner;

        rc = jfr_value_unwrap(&inner, out);
        if (rc == JFR_OK)
            *out = inner;
    }
    if (rc < 0) {
        c->failed = true;
        return false;
    }
    return true;
}

/* A string field as Java would stringify it: "null" when absent or null. */
static void put_string_field(pctx *c, strbuf *sb, const jfr_value *obj, const char *name)
{
    jfr_value v;

    if (get_field(c, &v, obj, name) && v.kind == JFR_VALUE_STRING)
        sb_putn(sb, v.as.str.ptr, v.as.str.len);
    else
        sb_puts(sb, "null");
}

static int64_t int_field(pctx *c, const jfr_value *obj, const char *name, int64_t absent)
{
    jfr_value v;

    if (get_field(c, &v, obj, name) && v.kind == JFR_VALUE_INT)
        return v.as.i;
    return absent;
}

static bool bool_field(pctx *c, const jfr_value *obj, const char *name, bool absent)
{
    jfr_value v;

    if (get_field(c, &v, obj, name) && v.kind == JFR_VALUE_BOOLEAN)
        return v.as.boolean;
    return absent;
}

/* RecordedClass.getName(): the name with '/' as '.'. */
static void put_class_name(pctx *c, strbuf *sb, const jfr_value *cls)
{
    jfr_value v;

    if (!get_field(c, &v, cls, "name") || v.kind != JFR_VALUE_STRING) {
        sb_puts(sb, "null");
        return;
    }
    for (size_t i = 0; i < v.as.str.len; i++)
        sb_putc(sb, v.as.str.ptr[i] == '/' ? '.' : v.as.str.ptr[i]);
}

/* The class name in Java form ("java.lang.Object[]"); an array's first
 * dimension shows `array_size` when given ("byte[16]"). */
static void put_java_class_name(pctx *c, strbuf *sb, const jfr_value *cls,
                                const char *array_size)
{
    strbuf name = {0};
    jfr_value v;
    const char *dims;
    size_t n;

    if (!get_field(c, &v, cls, "name") || v.kind != JFR_VALUE_STRING) {
        sb_puts(sb, "null");
        return;
    }
    n = jfr_name_of_class(NULL, 0, v.as.str.ptr, v.as.str.len, 0);
    jfr_name_of_class(sb_extend(&name, n), n, v.as.str.ptr, v.as.str.len, 0);
    dims = array_size ? strstr(sb_str(&name), "[]") : NULL;
    if (dims) {
        sb_putn(sb, name.ptr, (size_t)(dims - name.ptr) + 1);
        sb_puts(sb, array_size);
        sb_puts(sb, dims + 1);
    } else {
        sb_putn(sb, sb_str(&name), name.len);
    }
    sb_free(&name);
}

static void print_thread(pctx *c, const jfr_value *t, const char *postfix)
{
    int64_t java_id = int_field(c, t, "javaThreadId", -1);
    bool is_virtual = bool_field(c, t, "virtual", false);

    sb_putc(&c->sb, '"');
    if (java_id > 0) {
        put_string_field(c, &c->sb, t, "javaName");
        sb_printf(&c->sb, "\" (javaThreadId = %lld%s)", (long long)java_id,
                  is_virtual ? ", virtual" : "");
    } else {
        put_string_field(c, &c->sb, t, "osName");
        sb_printf(&c->sb, "\" (osThreadId = %lld)",
                  (long long)(is_virtual ? -1 : int_field(c, t, "osThreadId", -1)));
    }
    put_line(c, postfix);
}

static void print_class(pctx *c, const jfr_value *cls, const char *postfix)
{
    jfr_value loader, type;

    put_java_class_name(c, &c->sb, cls, NULL);
    sb_puts(&c->sb, " (classLoader = ");
    if (!get_field(c, &loader, cls, "classLoader") || loader.kind != JFR_VALUE_OBJECT) {
        sb_puts(&c->sb, "null");
    } else {
        jfr_value name;

        if (get_field(c, &name, &loader, "name") && name.kind == JFR_VALUE_STRING)
            sb_putn(&c->sb, name.as.str.ptr, name.as.str.len);
        else if (get_field(c, &type, &loader, "type") && type.kind == JFR_VALUE_OBJECT)
            put_class_name(c, &c->sb, &type);
        else
            sb_puts(&c->sb, "null");
    }
    sb_puts(&c->sb, ")");
    put_line(c, postfix);
}

static void print_class_loader(pctx *c, const jfr_value *cl, const char *postfix)
{
    jfr_value type;

    if (get_field(c, &type, cl, "type") && type.kind == JFR_VALUE_OBJECT) {
        put_class_name(c, &c->sb, &type);
        sb_printf(&c->sb, " (id = %lld)", (long long)cl->key);
    } else {
        sb_puts(&c->sb, "null");
    }
    put_line(c, postfix);
}

/* Class.method(simple parameter types), as the JDK's formatMethod. */
static void put_method(pctx *c, const jfr_value *m)
{
    jfr_value type, desc;

    if (m->kind != JFR_VALUE_OBJECT) {
        sb_puts(&c->sb, "null");
        return;
    }
    if (get_field(c, &type, m, "type") && type.kind == JFR_VALUE_OBJECT)
        put_class_name(c, &c->sb, &type);
    else
        sb_puts(&c->sb, "null");
    sb_putc(&c->sb, '.');
    put_string_field(c, &c->sb, m, "name");
    if (get_field(c, &desc, m, "descriptor") && desc.kind == JFR_VALUE_STRING) {
        size_t n = jfr_name_of_params(NULL, 0, desc.as.str.ptr, desc.as.str.len,
                                      JFR_NAME_SIMPLE);
        jfr_name_of_params(sb_extend(&c->sb, n), n, desc.as.str.ptr, desc.as.str.len,
                           JFR_NAME_SIMPLE);
    } else {
        sb_puts(&c->sb, "()");
    }
}

static bool is_java_frame(pctx *c, const jfr_value *frame)
{
    return bool_field(c, frame, "javaFrame", true);
}

/* A frame has no line break of its own: the caller ends the line. */
static void print_frame(pctx *c, const jfr_value *frame, const char *postfix)
{
    jfr_value m;
    int64_t line;

    if (get_field(c, &m, frame, "method"))
        put_method(c, &m);
    else
        sb_puts(&c->sb, "null");
    line = int_field(c, frame, "lineNumber", -1);
    if (line >= 0)
        sb_printf(&c->sb, " line: %lld", (long long)line);
    sb_puts(&c->sb, postfix);
}

static void print_stack_trace(pctx *c, const jfr_value *st)
{
    jfr_value frames, frame, m;
    jfr_cursor cur;
    size_t i = 0, shown = 0, limit = c->opts->stack_depth;
    int rc = JFR_DONE;

    put_line(c, "[");
    c->indent += 2;
    if (get_field(c, &frames, st, "frames") && frames.kind == JFR_VALUE_ARRAY &&
        jfr_value_iter(&cur, &frames) == JFR_OK) {
        while (shown < limit && (rc = jfr_cursor_next(&frame, &cur)) == JFR_OK) {
            i++;
            if (frame.kind != JFR_VALUE_OBJECT || !is_java_frame(c, &frame))
                continue;
            if (get_field(c, &m, &frame, "method") && bool_field(c, &m, "hidden", false))
                continue;
            put_indent(c);
            print_frame(c, &frame, "");
            sb_putc(&c->sb, '\n');
            shown++;
        }
        if (rc < 0)
            c->failed = true;
    }
    /* the JDK compares the frames walked, not those shown, with the depth */
    if (bool_field(c, st, "truncated", false) || i == limit) {
        put_indent(c);
        put_line(c, "...");
    }
    c->indent -= 2;
    put_indent(c);
    put_line(c, "]");
}

/* "Class description" of one object of a reference chain. */
static void print_chain_object(pctx *c, const jfr_value *obj, int64_t array_size)
{
    jfr_value cls, desc;

    if (get_field(c, &cls, obj, "type") && cls.kind == JFR_VALUE_OBJECT) {
        char size[32] = "";

        if (array_size > 0)
            snprintf(size, sizeof size, "%lld", (long long)array_size);
        put_java_class_name(c, &c->sb, &cls, size);
        if (get_field(c, &desc, obj, "description") && desc.kind == JFR_VALUE_STRING) {
            sb_putc(&c->sb, ' ');
            sb_putn(&c->sb, desc.as.str.ptr, desc.as.str.len);
        }
    }
    sb_putc(&c->sb, '\n');
}

/* Old object samples show their reference chain, one holder per line. */
static void print_old_object(pctx *c, const jfr_value *obj)
{
    jfr_value event, elements, cur = *obj, ref, part, next;
    /* a damaged file can make the chain loop: stop at a repeated object */
    uint64_t seen[1024];
    size_t nseen = 0;

    if (obj->pooled)
        seen[nseen++] = obj->key;
    put_line(c, " [");
    c->indent += 2;
    put_indent(c);
    if (jfr_event_value(&event, c->ev) == JFR_OK &&
        get_field(c, &elements, &event, "arrayElements") &&
        elements.kind == JFR_VALUE_INT) {
        print_chain_object(c, &cur, elements.as.i);
        /* a damaged file may link the chain into a cycle: bound its length */
        for (size_t links = 0; links < MAX_NESTING && cur.kind == JFR_VALUE_OBJECT &&
                               get_field(c, &ref, &cur, "referrer") &&
                               ref.kind == JFR_VALUE_OBJECT && !c->failed;
             links++) {
            int64_t size = INT64_MIN;
            strbuf holder = {0};

            if (int_field(c, &ref, "skip", 0) > 0) {
                put_indent(c);
                put_line(c, "...");
            }
            if (get_field(c, &part, &ref, "array") && part.kind == JFR_VALUE_OBJECT) {
                size = int_field(c, &part, "size", 0);
                sb_printf(&holder, "[%lld]", (long long)int_field(c, &part, "index", 0));
            }
            if (get_field(c, &part, &ref, "field") && part.kind == JFR_VALUE_OBJECT) {
                sb_clear(&holder);
                put_string_field(c, &holder, &part, "name");
            }
            put_indent(c);
            sb_puts(&c->sb, sb_str(&holder));
            sb_puts(&c->sb, " : ");
            sb_free(&holder);
            if (!get_field(c, &next, &ref, "object") || next.kind != JFR_VALUE_OBJECT)
                break; /* the JDK fails here; nothing more can be shown */
            if (next.pooled) {
                size_t i = 0;

                while (i < nseen && seen[i] != next.key)
                    i++;
                if (i < nseen || nseen == sizeof seen / sizeof seen[0]) {
                    put_line(c, "...");
                    break;
                }
                seen[nseen++] = next.key;
            }
            print_chain_object(c, &next, size);
            cur = next;
        }
    }
    c->indent -= 2;
    put_indent(c);
    put_line(c, "]");
}

static bool visiting(pctx *c, const jfr_value *v)
{
    for (size_t i = 0; i < c->depth; i++)
        if (c->vis_type[i] == v->type && c->vis_key[i] == v->key)
            return true;
    return false;
}

static bool is_zero_duration(const jfr_value *v)
{
    return strcmp(jfr_field_name(v->field), "duration") == 0 &&
           v->kind == JFR_VALUE_INT && jfr_type_kind(v->type) == JFR_KIND_LONG &&
           v->as.i == 0;
}

/* An event's zero duration, its thread and its stack trace are printed
 * last or not at all (print_event_fields). */
static bool left_for_later(const jfr_value *child)
{
    const char *name = jfr_field_name(child->field);

    return is_zero_duration(child) || strcmp(name, "eventThread") == 0 ||
           strcmp(name, "stackTrace") == 0;
}

/* "name = value" for each field; for an event, not those left for later. */
static void print_fields(pctx *c, const jfr_value *obj, bool event)
{
    jfr_cursor cur;
    jfr_value child;
    int rc = JFR_DONE;

    if (jfr_value_iter(&cur, obj) < 0) {
        c->failed = true;
        return;
    }
    while (!c->failed && (rc = jfr_cursor_next(&child, &cur)) == JFR_OK) {
        if (event && left_for_later(&child))
            continue;
        put_indent(c);
        sb_puts(&c->sb, jfr_field_name(child.field));
        sb_puts(&c->sb, " = ");
        print_value(c, &child, child.field, "");
    }
    if (rc < 0)
        c->failed = true;
}

static void print_struct(pctx *c, const jfr_value *v, const char *postfix)
{
    put_line(c, "{");
    c->indent += 2;
    print_fields(c, v, false);
    c->indent -= 2;
    put_indent(c);
    sb_puts(&c->sb, "}");
    put_line(c, postfix);
}

static void print_array(pctx *c, const jfr_value *v)
{
    jfr_cursor cur;
    jfr_value child;
    uint64_t n = v->as.length, i = 0;
    int rc = JFR_DONE;

    if (jfr_value_iter(&cur, v) < 0) {
        c->failed = true;
        return;
    }
    put_line(c, "[");
    c->indent += 2;
    while (!c->failed && (rc = jfr_cursor_next(&child, &cur)) == JFR_OK) {
        put_indent(c);
        print_value(c, &child, NULL, ++i < n ? ", " : "");
    }
    if (rc < 0)
        c->failed = true;
    c->indent -= 2;
    put_indent(c);
    put_line(c, "]");
}

static void print_object(pctx *c, const jfr_value *v, const jfr_field *f,
                         const char *postfix)
{
    if (type_named(v->type, "java.lang.Thread")) {
        print_thread(c, v, postfix);
    } else if (type_named(v->type, "java.lang.Class")) {
        print_class(c, v, postfix);
    } else if (type_is(v->type, "ClassLoader")) {
        print_class_loader(c, v, postfix);
    } else if (type_is(v->type, "StackFrame") && is_java_frame(c, v)) {
        print_frame(c, v, postfix);
    } else if (type_is(v->type, "Method")) {
        put_method(c, v); /* the JDK drops the postfix here */
        sb_putc(&c->sb, '\n');
    } else if (f && type_named(jfr_field_type(f), "jdk.types.OldObject")) {
        print_old_object(c, v);
    } else {
        print_struct(c, v, postfix);
    }
}

/* Timestamps as local time of the recording: "03:02:58.498 (2026-11-22)";
 * without a content type, as OffsetDateTime.toString. */
static void print_timestamp(pctx *c, int64_t raw, jfr_time_unit unit, bool content)
{
    int32_t offset = (int32_t)(jfr_chunk_gmt_offset_ms(c->chunk) / 1000);
    int64_t secs;
    int32_t nanos;
    time_t t;
    struct tm tm;

    if (raw == INT64_MIN) { /* Instant.MIN, shown as OffsetDateTime.MIN */
        put_line(c, content ? "N/A" : "-999999999-01-01T00:00+18:00");
        return;
    }
    /* past 2262 too, as Instant.ofEpochMilli holds it */
    if (jfr_chunk_time_split(&secs, &nanos, c->chunk, unit, raw) != JFR_OK) {
        sb_printf(&c->sb, "%lld\n", (long long)raw);
        return;
    }
    if (!content) {
        fmt_iso_instant(&c->sb, secs, nanos, offset);
        sb_putc(&c->sb, '\n');
        return;
    }
    t = (time_t)(secs + offset);
    if (!gmtime_r(&t, &tm)) {
        put_line(c, "N/A");
        return;
    }
    sb_printf(&c->sb, "%02d:%02d:%02d.", tm.tm_hour, tm.tm_min, tm.tm_sec);
    if (c->opts->exact)
        sb_printf(&c->sb, "%09d", nanos);
    else
        sb_printf(&c->sb, "%03d", nanos / 1000000);
    sb_puts(&c->sb, " (");
    fmt_iso_year(&c->sb, tm.tm_year + 1900L);
    sb_printf(&c->sb, "-%02d-%02d)\n", tm.tm_mon + 1, tm.tm_mday);
}

/* Timespans as RecordedObject.getDuration makes them, then rounded ("N/A"
 * for Long.MIN_VALUE, "Forever" for Long.MAX_VALUE); without a content
 * type, as Duration.toString. */
static void print_timespan(pctx *c, int64_t t, jfr_time_unit unit, bool content)
{
    jduration d;

    if (t == INT64_MIN) {
        if (content)
            put_line(c, "N/A");
        else {
            fmt_java_duration(&c->sb, INT64_MIN, 0);
            sb_putc(&c->sb, '\n');
        }
        return;
    }
    if (t == INT64_MAX) {
        if (content)
            put_line(c, "Forever");
        else {
            fmt_java_duration(&c->sb, INT64_MAX, 999999999);
            sb_putc(&c->sb, '\n');
        }
        return;
    }
    /* past 292 years too, as Duration.of holds it */
    if (t == 0) {
        d = jduration_of_nanos(0);
    } else if (jfr_chunk_time_split(&d.seconds, &d.nanos, c->chunk, unit, t) != JFR_OK) {
        sb_printf(&c->sb, "%lld\n", (long long)t);
        return;
    }
    if (!content)
        fmt_java_duration(&c->sb, d.seconds, d.nanos);
    else if (c->opts->exact)
        fmt_exact_duration(&c->sb, d);
    else
        fmt_pretty_duration(&c->sb, d);
    sb_putc(&c->sb, '\n');
}

static void print_memory(pctx *c, int64_t v, bool bytes, bool per_second)
{
    if (c->opts->exact) {
        sb_printf(&c->sb, "%lld %s%s%s\n", (long long)v, bytes ? "byte" : "bit",
                  v > 1 ? "s" : "", per_second ? "/s" : "");
        return;
    }
    if (bytes && per_second)
        fmt_pretty_bytes_per_second(&c->sb, v);
    else if (per_second)
        fmt_pretty_bits_per_second(&c->sb, v);
    else if (bytes)
        fmt_pretty_bytes(&c->sb, v);
    else
        fmt_pretty_bits(&c->sb, v);
    sb_putc(&c->sb, '\n');
}

/* Java's (long) of a double: saturating, NaN is 0. */
static int64_t java_long_of(double d)
{
    if (isnan(d))
        return 0;
    if (d >= 9223372036854775807.0)
        return INT64_MAX;
    if (d <= -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)d;
}

/* A number as String.valueOf shows it. */
typedef struct number {
    bool is_float;        /* double or float */
    bool is_single;       /* float */
    bool is_unsigned_big; /* unsigned above Long.MAX_VALUE */
    int64_t i;
    uint64_t u;
    double f;
} number;

static void put_number(strbuf *sb, const number *n)
{
    if (n->is_float && n->is_single)
        fmt_java_float(sb, (float)n->f);
    else if (n->is_float)
        fmt_java_double(sb, n->f);
    else if (n->is_unsigned_big)
        sb_put_u64(sb, n->u);
    else
        sb_put_i64(sb, n->i);
}

static void put_address(pctx *c, int64_t as_long)
{
    sb_printf(&c->sb, "0x%08llX\n", (unsigned long long)as_long);
}

static void put_hertz(pctx *c, const number *n)
{
    put_number(&c->sb, n);
    put_line(c, " Hz");
}

/* Percentages, data amounts, addresses, frequencies, by the field's
 * content (jfr_field_content). False when none applies. Unlike `jfr view`,
 * PrettyWriter formats only when an annotation is a declared content
 * type: async-profiler's are not, and its values print bare. */
static bool print_formatted(pctx *c, const jfr_field *f, jfr_content content,
                            const number *n)
{
    double d = n->is_float ? n->f : n->is_unsigned_big ? (double)n->u : (double)n->i;
    int64_t as_long = n->is_float          ? java_long_of(n->f)
                      : n->is_unsigned_big ? (int64_t)n->u
                                           : n->i;

    if (content == JFR_CONTENT_NONE || !jfr_field_has_content_type(f))
        return false;
    switch (content) {
    case JFR_CONTENT_PERCENTAGE:
        fmt_java_fixed(&c->sb, 100 * d, c->opts->exact ? 9 : 2);
        put_line(c, "%");
        return true;
    case JFR_CONTENT_BYTES:
    case JFR_CONTENT_BITS:
    case JFR_CONTENT_BYTES_PER_SECOND:
    case JFR_CONTENT_BITS_PER_SECOND:
        print_memory(c, as_long,
                     content == JFR_CONTENT_BYTES ||
                         content == JFR_CONTENT_BYTES_PER_SECOND,
                     content == JFR_CONTENT_BYTES_PER_SECOND ||
                         content == JFR_CONTENT_BITS_PER_SECOND);
        return true;
    case JFR_CONTENT_MEMORY_ADDRESS:
        put_address(c, as_long);
        return true;
    case JFR_CONTENT_FREQUENCY:
        put_hertz(c, n);
        return true;
    default:
        return false;
    }
}

static void put_char(strbuf *sb, uint32_t u)
{
    if (u >= 0xd800 && u <= 0xdfff) /* a lone surrogate encodes as '?' */
        u = '?';
    if (u < 0x80) {
        sb_putc(sb, (char)u);
    } else if (u < 0x800) {
        sb_putc(sb, (char)(0xc0 | (u >> 6)));
        sb_putc(sb, (char)(0x80 | (u & 0x3f)));
    } else {
        sb_putc(sb, (char)(0xe0 | (u >> 12)));
        sb_putc(sb, (char)(0x80 | ((u >> 6) & 0x3f)));
        sb_putc(sb, (char)(0x80 | (u & 0x3f)));
    }
}

static void print_int(pctx *c, const jfr_value *v, const jfr_field *f)
{
    jfr_kind kind = jfr_type_kind(v->type);
    bool small = kind == JFR_KIND_BYTE || kind == JFR_KIND_SHORT || kind == JFR_KIND_INT;
    bool is_unsigned = jfr_field_is_unsigned(f);
    int64_t raw = is_unsigned && kind != JFR_KIND_LONG ? (int64_t)v->bits : v->as.i;
    jfr_content content = jfr_field_content(f);
    number n = {0};

    if (content == JFR_CONTENT_TIMESPAN) {
        print_timespan(c, raw, jfr_field_time_unit(f), jfr_field_has_content_type(f));
        return;
    }
    if (content == JFR_CONTENT_TIMESTAMP) {
        print_timestamp(c, raw, jfr_field_time_unit(f), jfr_field_has_content_type(f));
        return;
    }
    if (kind == JFR_KIND_CHAR) {
        put_char(&c->sb, (uint32_t)v->bits & 0xffff);
        sb_putc(&c->sb, '\n');
        return;
    }
    if (is_unsigned && (small || kind == JFR_KIND_LONG)) {
        n.u = v->bits;
        n.i = (int64_t)v->bits;
        n.is_unsigned_big = v->bits > (uint64_t)INT64_MAX;
    } else {
        n.i = v->as.i;
        if ((kind == JFR_KIND_LONG && n.i == INT64_MIN) ||
            (kind == JFR_KIND_INT && n.i == INT32_MIN)) {
            put_line(c, "N/A");
            return;
        }
    }
    if (print_formatted(c, f, content, &n))
        return;
    put_number(&c->sb, &n);
    sb_putc(&c->sb, '\n');
}

static void print_float(pctx *c, const jfr_value *v, const jfr_field *f)
{
    number n = {true, jfr_type_kind(v->type) == JFR_KIND_FLOAT, false, 0, 0, v->as.f};

    if (isnan(n.f) || (isinf(n.f) && n.f < 0)) {
        put_line(c, "N/A");
        return;
    }
    if (print_formatted(c, f, jfr_field_content(f), &n))
        return;
    put_number(&c->sb, &n);
    sb_putc(&c->sb, '\n');
}

/* `f` is the field the value came from: it carries the annotations that
 * choose the form; NULL for array elements, which the JDK shows plainly. */
static void print_value(pctx *c, const jfr_value *v, const jfr_field *f,
                        const char *postfix)
{
    jfr_value inner;

    if (++c->values > MAX_VALUES) {
        c->failed = true;
        return;
    }
    switch (v->kind) {
    case JFR_VALUE_NULL:
        sb_puts(&c->sb, "N/A");
        put_line(c, postfix);
        return;
    case JFR_VALUE_BOOLEAN:
        put_line(c, v->as.boolean ? "true" : "false");
        return;
    case JFR_VALUE_INT:
        print_int(c, v, f);
        return;
    case JFR_VALUE_FLOAT:
        print_float(c, v, f);
        return;
    case JFR_VALUE_STRING:
        sb_putc(&c->sb, '"');
        sb_putn(&c->sb, v->as.str.ptr, v->as.str.len);
        put_line(c, "\"");
        return;
    case JFR_VALUE_ARRAY:
        print_array(c, v);
        return;
    case JFR_VALUE_OBJECT:
        if (jfr_type_is_simple(v->type)) {
            if (jfr_value_unwrap(&inner, v) < 0) {
                c->failed = true;
                return;
            }
            print_value(c, &inner, f, postfix);
            return;
        }
        if (v->pooled) {
            if (visiting(c, v) || c->depth >= MAX_NESTING) {
                sb_puts(&c->sb, "N/A");
                put_line(c, postfix);
                return;
            }
            c->vis_type[c->depth] = v->type;
            c->vis_key[c->depth] = v->key;
            c->depth++;
        }
        print_object(c, v, f, postfix);
        if (v->pooled)
            c->depth--;
        return;
    }
}

/* The event's own fields; eventThread and stackTrace come last. */
static void print_event_fields(pctx *c, const jfr_value *event)
{
    jfr_value child;

    print_fields(c, event, true);
    if (!c->failed && get_field(c, &child, event, "eventThread") &&
        child.kind == JFR_VALUE_OBJECT && type_named(child.type, "java.lang.Thread")) {
        put_indent(c);
        sb_puts(&c->sb, "eventThread = ");
        print_thread(c, &child, "");
    }
    if (!c->failed && get_field(c, &child, event, "stackTrace") &&
        child.kind == JFR_VALUE_OBJECT && type_is(child.type, "StackTrace")) {
        put_indent(c);
        sb_puts(&c->sb, "stackTrace = ");
        print_stack_trace(c, &child);
    }
}

/* A context of its own for each use: the event being printed may be given
 * the context lines of another, made while it is printed. */
static pctx *begin(pctx **c, const jfr_event *ev, const text_opts *opts)
{
    if (!*c)
        *c = xcalloc(1, sizeof **c);
    sb_clear(&(*c)->sb);
    (*c)->chunk = jfr_event_chunk(ev);
    (*c)->ev = ev;
    (*c)->opts = opts;
    (*c)->indent = 0;
    (*c)->depth = 0;
    (*c)->values = 0;
    (*c)->failed = false;
    return *c;
}

int print_event_text(FILE *out, const jfr_event *ev, const text_opts *opts,
                     const char *context)
{
    static pctx *shared; /* large; reused from event to event */
    pctx *c = begin(&shared, ev, opts);
    jfr_value v;

    if (jfr_event_value(&v, ev) != JFR_OK)
        return -1;
    sb_puts(&c->sb, jfr_type_name(jfr_event_type(ev)));
    put_line(c, " {");
    if (context)
        sb_puts(&c->sb, context);
    c->indent = 2;
    print_event_fields(c, &v);
    if (c->failed)
        return -1;
    put_line(c, "}");
    sb_putc(&c->sb, '\n');
    fwrite(c->sb.ptr, 1, c->sb.len, out);
    return 0;
}

bool print_type_contextual(const jfr_type *t)
{
    for (size_t i = 0; t && i < jfr_type_field_count(t); i++)
        if (jfr_field_has_annotation(jfr_type_field_at(t, i), "jdk.jfr.Contextual"))
            return true;
    return false;
}

int print_context_lines(strbuf *out, const jfr_event *ev, const text_opts *opts)
{
    static pctx *shared;
    pctx *c = begin(&shared, ev, opts);
    const jfr_type *t = jfr_event_type(ev);
    const char *name = jfr_type_name(t), *dot = strrchr(name, '.');
    jfr_value v, field;

    if (jfr_event_value(&v, ev) != JFR_OK)
        return -1;
    c->indent = 2;
    for (size_t i = 0; i < jfr_type_field_count(t) && !c->failed; i++) {
        const jfr_field *f = jfr_type_field_at(t, i);
        if (!jfr_field_has_annotation(f, "jdk.jfr.Contextual"))
            continue;
        if (jfr_value_field_at(&field, &v, i) != JFR_OK)
            return -1;
        put_indent(c);
        sb_printf(&c->sb, "Context: %s.%s = ", dot ? dot + 1 : name, jfr_field_name(f));
        print_value(c, &field, f, "");
    }
    if (c->failed)
        return -1;
    sb_putn(out, c->sb.ptr, c->sb.len);
    return 0;
}
