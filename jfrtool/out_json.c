/* out_json.c - events as JSON or XML, the way `jfr print --json` and
 * `--xml` show them, written as they are decoded (out_json.h). The two
 * share the walk over an event's values and their text; JSON writes each
 * value as a member or an item, XML as an element whose tag (value,
 * struct, array) and attributes (name or index, size, xsi:nil) come
 * first. Strings that are not valid UTF-8 print as null (xsi:nil) and
 * fields whose names are not valid UTF-8 are left out, as the
 * JDK-compatible output always did. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"
#include "out_json.h"
#include "out_text.h"

/* Pool entries being expanded, to cut reference cycles in damaged files
 * (the JDK shows a re-entered entry as null), and a cap on the values one
 * event may expand to, against exponential sharing. */
#define MAX_NESTING 4096
#define MAX_VALUES  4000000

/* What a field's metadata says about its values, worked out once per field
 * (every event repeats the same few hundred fields). */
typedef struct field_info {
    const jfr_field *field;
    jfr_content content; /* a timespan or timestamp is written as the JDK's */
    jfr_time_unit unit;  /* a timespan's or a timestamp's */
    bool is_unsigned;
    bool named; /* the name is valid UTF-8: the member is printed */
    strbuf key; /* "\n" + indent spaces are not in it: '"name": ' */
} field_info;

#define FIELD_CACHE 1024

typedef struct jctx {
    field_info fields[FIELD_CACHE];          /* by a hash of the field's address */
    const jfr_type *frame_type, *other_type; /* is_frame_type's last answers */
    struct rendered *rendered; /* pool entries' JSON, by (type, key, indent) */
    size_t rendered_cap, rendered_count;
    strbuf texts; /* their text */
    size_t cuts;  /* cycles cut so far (pool entries shown as null) */
    jfr_chunk *chunk;
    const json_opts *opts;
    strbuf *out;
    strbuf scratch; /* a date or duration being formatted */
    const jfr_type *vis_type[MAX_NESTING];
    uint64_t vis_key[MAX_NESTING];
    size_t depth;
    size_t values;
    bool failed;
    const char *loss; /* why the last event was not converted, if known */
    bool xml;         /* the event as XML, not JSON */
} jctx;

static jctx *last; /* large; reused from event to event */

static void value_json(jctx *c, const jfr_value *v, int indent);
static void children_xml(jctx *c, const jfr_value *v, int indent);
static void xml_put_text(strbuf *out, const char *s, size_t len);

/* ---- writing ------------------------------------------------------------------- */

/* Escaped as the JDK tool does: '/' and every non-ASCII UTF-16 unit too. */
static void put_string(strbuf *out, const char *s, size_t len)
{
    json_put_string(out, s, len, JSON_ESC_JAVA);
}

/* A value given as text: a JSON string, or XML character data. */
static void put_text(jctx *c, const char *s, size_t len)
{
    if (c->xml)
        xml_put_text(c->out, s, len);
    else
        put_string(c->out, s, len);
}

static void put_newline(strbuf *out, int indent)
{
    char *p = sb_extend(out, (size_t)indent + 1);

    p[0] = '\n';
    memset(p + 1, ' ', (size_t)indent);
}

/* ---- values -------------------------------------------------------------------- */

static void timestamp_json(jctx *c, const jfr_value *v, jfr_time_unit unit)
{
    int64_t secs;
    int32_t nanos, offset = (int32_t)(jfr_chunk_gmt_offset_ms(c->chunk) / 1000);

    sb_clear(&c->scratch);
    if (v->as.i == INT64_MIN) {
        sb_puts(&c->scratch, "-999999999-01-01T00:00+18:00");
    } else {
        /* a unit it does not know counts ticks, as the JDK writes */
        jfr_chunk_time_split(&secs, &nanos, c->chunk, unit ? unit : JFR_TIME_EPOCH_TICKS,
                             v->as.i);
        fmt_iso_instant(&c->scratch, secs, nanos, offset);
    }
    put_text(c, c->scratch.ptr, c->scratch.len);
}

/* Java's getDuration rules: 0, MIN and MAX are special; units by name. */
static void timespan_json(jctx *c, const jfr_value *v, jfr_time_unit unit,
                          bool is_unsigned)
{
    strbuf *sb = &c->scratch;
    int64_t t = v->as.i, secs;
    int32_t nanos;

    sb_clear(sb);
    if (is_unsigned && jfr_type_kind(v->type) != JFR_KIND_LONG)
        t = (int64_t)v->bits;
    if (t == 0)
        sb_puts(sb, "PT0S");
    else if (t == INT64_MIN)
        fmt_java_duration(sb, INT64_MIN, 0);
    else if (t == INT64_MAX)
        fmt_java_duration(sb, INT64_MAX, 999999999);
    else if (jfr_chunk_time_split(&secs, &nanos, c->chunk, unit, t) == JFR_OK)
        fmt_java_duration(sb, secs, nanos);
    else
        sb_printf(sb, "%lld", (long long)t);
    put_text(c, sb->ptr, sb->len);
}

/* A char is one UTF-16 unit; lone surrogates cannot be UTF-8. */
static void char_json(jctx *c, uint32_t u)
{
    char buf[3];
    size_t n;

    if (u >= 0xd800 && u <= 0xdfff) {
        /* not UTF-8, but an escape holds it, as the JDK writes it */
        if (c->xml)
            sb_printf(c->out, "&#%u;", (unsigned)u);
        else
            sb_printf(c->out, "\"\\u%04x\"", (unsigned)u);
        return;
    }
    if (u < 0x80) {
        buf[0] = (char)u, n = 1;
    } else if (u < 0x800) {
        buf[0] = (char)(0xc0 | (u >> 6)), buf[1] = (char)(0x80 | (u & 0x3f)), n = 2;
    } else {
        buf[0] = (char)(0xe0 | (u >> 12)), buf[1] = (char)(0x80 | ((u >> 6) & 0x3f));
        buf[2] = (char)(0x80 | (u & 0x3f)), n = 3;
    }
    put_text(c, buf, n);
}

static const field_info *info_of(jctx *c, const jfr_field *f)
{
    field_info *fi = &c->fields[((uintptr_t)f >> 4) % FIELD_CACHE];
    const char *name;

    if (fi->field == f)
        return fi;
    name = jfr_field_name(f);
    fi->field = f;
    fi->content = jfr_field_content(f);
    fi->unit = jfr_field_time_unit(f);
    fi->is_unsigned = jfr_field_is_unsigned(f);
    fi->named = json_is_utf8(name, strlen(name));
    sb_clear(&fi->key);
    if (c->xml) {
        sb_puts(&fi->key, " name=\"");
        xml_put_text(&fi->key, name, strlen(name));
        sb_putc(&fi->key, '"');
    } else {
        put_string(&fi->key, name, strlen(name));
        sb_putn(&fi->key, ": ", 2);
    }
    return fi;
}

static void int_json(jctx *c, const jfr_value *v)
{
    const field_info *fi = v->field ? info_of(c, v->field) : NULL;
    bool is_unsigned = fi && fi->is_unsigned;
    jfr_kind kind = jfr_type_kind(v->type);

    if (fi && fi->content == JFR_CONTENT_TIMESPAN)
        timespan_json(c, v, fi->unit, is_unsigned);
    else if (fi && fi->content == JFR_CONTENT_TIMESTAMP)
        timestamp_json(c, v, fi->unit);
    else if (kind == JFR_KIND_CHAR)
        char_json(c, (uint32_t)v->bits & 0xffff);
    else if (is_unsigned && kind != JFR_KIND_BOOLEAN)
        sb_put_u64(c->out, v->bits);
    else
        sb_put_i64(c->out, v->as.i);
}

static bool visiting(jctx *c, const jfr_value *v)
{
    for (size_t i = 0; i < c->depth; i++)
        if (c->vis_type[i] == v->type && c->vis_key[i] == v->key)
            return true;
    return false;
}

static bool is_frame_type(jctx *c, const jfr_type *t)
{
    const char *n;
    bool frame;

    if (t == c->frame_type || t == c->other_type)
        return t == c->frame_type;
    n = jfr_type_name(t);
    frame = n && (strcmp(n, "jdk.types.StackFrame") == 0 ||
                  strcmp(n, "com.oracle.jfr.types.StackFrame") == 0);
    *(frame ? &c->frame_type : &c->other_type) = t;
    return frame;
}

/* An array's items at `indent`, or an object's members one line each at
 * `indent` + 2. */
static void children_json(jctx *c, const jfr_value *v, int indent)
{
    bool array = v->kind == JFR_VALUE_ARRAY, first = true;
    size_t limit = array && is_frame_type(c, v->type) ? c->opts->stack_depth : SIZE_MAX;
    size_t n = 0;
    jfr_cursor cur;
    jfr_value child;
    int rc;

    sb_putc(c->out, array ? '[' : '{');
    if (jfr_value_iter(&cur, v) < 0) {
        c->failed = true;
        return;
    }
    while ((rc = jfr_cursor_next(&child, &cur)) == JFR_OK) {
        size_t mark = c->out->len;
        const field_info *fi = NULL;

        if (array && n++ >= limit)
            break; /* the frames past --stack-depth are not decoded */
        if (!first)
            sb_putn(c->out, ", ", 2);
        if (!array) {
            fi = info_of(c, child.field);
            put_newline(c->out, indent + 2);
            sb_putn(c->out, fi->key.ptr, fi->key.len);
        }
        value_json(c, &child, array ? indent : indent + 2);
        if (c->failed)
            return;
        if (fi && !fi->named)
            c->out->len = mark; /* a member needs a name */
        else
            first = false;
    }
    if (rc < 0) {
        c->failed = true;
        return;
    }
    if (!array)
        put_newline(c->out, indent);
    sb_putc(c->out, array ? ']' : '}');
}

/* ---- pool entries, rendered once ---------------------------------------------- */

/* A stack frame's method, its class and package come from the constant
 * pools, and each is rendered again in every frame of every event that
 * names it: the text of an entry at an indent is kept for the chunk and
 * copied. An entry is kept only when no cycle was cut inside it: pool
 * references of a sound recording form no cycle, so its text then does not
 * depend on where it appears. */
typedef struct rendered {
    const jfr_type *type;
    uint64_t key;
    int indent;
    size_t at, len; /* in jctx.texts */
    size_t values;  /* JSON values it counts for the cap */
} rendered;

#define RENDERED_MAX_TEXT ((size_t)16 << 20) /* keep no more per chunk */

static rendered *rendered_slot(jctx *c, const jfr_type *type, uint64_t key, int indent)
{
    size_t h = ((uintptr_t)type >> 4) * 0x9E3779B97F4A7C15u ^ key * 0xC2B2AE3D27D4EB4Fu ^
               (size_t)indent;

    for (size_t i = h & (c->rendered_cap - 1);; i = (i + 1) & (c->rendered_cap - 1)) {
        rendered *r = &c->rendered[i];

        if (!r->type || (r->type == type && r->key == key && r->indent == indent))
            return r;
    }
}

static void rendered_grow(jctx *c)
{
    rendered *old = c->rendered;
    size_t old_cap = c->rendered_cap;

    c->rendered_cap = old_cap ? old_cap * 2 : 1024;
    c->rendered = xcalloc(c->rendered_cap, sizeof *c->rendered);
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].type)
            *rendered_slot(c, old[i].type, old[i].key, old[i].indent) = old[i];
    free(old);
}

/* Whether one more value passes the cap, against exponential sharing. */
static bool count_value(jctx *c, size_t n)
{
    if ((c->values += n) <= MAX_VALUES)
        return true;
    c->failed = true;
    c->loss = c->xml ? "it expands to more than 4,000,000 XML values (a smaller "
                       "--stack-depth shows it)"
                     : "it expands to more than 4,000,000 JSON values (a smaller "
                       "--stack-depth shows it)";
    return false;
}

/* The text kept of pooled entry `v` at `indent`, or NULL. */
static const rendered *kept(jctx *c, const jfr_value *v, int indent)
{
    const rendered *r =
        c->rendered_cap ? rendered_slot(c, v->type, v->key, indent) : NULL;

    return r && r->type ? r : NULL;
}

/* That text again, its values counted against the cap. */
static void put_kept(jctx *c, const rendered *r)
{
    if (count_value(c, r->values))
        sb_putn(c->out, c->texts.ptr + r->at, r->len);
}

/* Whether `v` is an entry being expanded (a cycle, in a damaged file) or
 * one too deep: it shows as null, and no entry that holds it is kept. */
static bool cut_here(jctx *c, const jfr_value *v)
{
    if (!visiting(c, v) && c->depth < MAX_NESTING)
        return false;
    c->cuts++;
    return true;
}

/* Pooled entry `v`'s fields at `indent`, their text kept for the chunk. */
static void expand_pooled(jctx *c, const jfr_value *v, int indent)
{
    rendered *r;
    size_t start = c->out->len, values = c->values, cuts = c->cuts;

    c->vis_type[c->depth] = v->type;
    c->vis_key[c->depth] = v->key;
    c->depth++;
    (c->xml ? children_xml : children_json)(c, v, indent);
    c->depth--;
    if (c->failed || c->cuts != cuts || c->texts.len > RENDERED_MAX_TEXT)
        return;
    if (2 * (c->rendered_count + 1) > c->rendered_cap)
        rendered_grow(c);
    r = rendered_slot(c, v->type, v->key, indent);
    *r = (rendered){v->type,           v->key, indent, c->texts.len, c->out->len - start,
                    c->values - values};
    c->rendered_count++;
    sb_putn(&c->texts, c->out->ptr + start, c->out->len - start);
}

static void pooled_json(jctx *c, const jfr_value *v, int indent)
{
    const rendered *r = kept(c, v, indent);

    if (r)
        put_kept(c, r);
    else if (cut_here(c, v))
        sb_putn(c->out, "null", 4);
    else
        expand_pooled(c, v, indent);
}

/* A boolean, an integer or a finite float as Java writes it, the same in
 * JSON and XML; false for any other value. */
static bool put_plain(jctx *c, const jfr_value *v)
{
    switch (v->kind) {
    case JFR_VALUE_BOOLEAN:
        sb_puts(c->out, v->as.boolean ? "true" : "false");
        return true;
    case JFR_VALUE_INT:
        int_json(c, v);
        return true;
    case JFR_VALUE_FLOAT:
        if (!isfinite(v->as.f))
            return false;
        fmt_java_double(c->out, jfr_type_kind(v->type) == JFR_KIND_FLOAT
                                    ? float_as_decimal((float)v->as.f)
                                    : v->as.f);
        return true;
    default:
        return false;
    }
}

static void value_json(jctx *c, const jfr_value *v, int indent)
{
    jfr_value inner;

    if (!count_value(c, 1) || put_plain(c, v))
        return;
    switch (v->kind) {
    case JFR_VALUE_STRING:
        put_string(c->out, v->as.str.ptr, v->as.str.len);
        return;
    case JFR_VALUE_ARRAY:
        children_json(c, v, indent);
        return;
    case JFR_VALUE_OBJECT:
        if (jfr_type_is_simple(v->type)) {
            if (jfr_value_unwrap(&inner, v) < 0) {
                c->failed = true;
                return;
            }
            value_json(c, &inner, indent);
            return;
        }
        if (v->pooled) {
            pooled_json(c, v, indent);
            return;
        }
        children_json(c, v, indent);
        return;
    default: /* null, and NaN and infinities, which JSON cannot hold */
        break;
    }
    sb_putn(c->out, "null", 4);
}

/* ---- XML ------------------------------------------------------------------------- */

/* The markup characters the JDK's XMLWriter escapes by name. */
static const char *xml_entity(unsigned char c)
{
    switch (c) {
    case '"':
        return "&quot;";
    case '&':
        return "&amp;";
    case '\'':
        return "&apos;";
    case '<':
        return "&lt;";
    case '>':
        return "&gt;";
    default:
        return NULL;
    }
}

/* Text as the JDK's XMLWriter escapes it: the five markup characters by
 * name, every UTF-16 unit above 0x7F as a decimal reference (a character
 * beyond the BMP is its two surrogates); in text that is not UTF-8, each
 * byte above 0x7F as U+FFFD. */
static void xml_put_text(strbuf *out, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    bool utf8 = json_is_utf8(s, len); /* values are; a type's name may not be */

    while (p < end) {
        const unsigned char *run = p;
        uint32_t units[2];

        while (p < end && *p < 0x80 && !xml_entity(*p))
            p++;
        sb_putn(out, (const char *)run, (size_t)(p - run));
        if (p == end)
            return;
        if (*p < 0x80) {
            sb_puts(out, xml_entity(*p++));
            continue;
        }
        if (!utf8) {
            sb_puts(out, "&#65533;");
            p++;
            continue;
        }
        for (int i = 0, count = utf16_units(&p, units); i < count; i++)
            sb_printf(out, "&#%u;", (unsigned)units[i]);
    }
}

/* The element that holds `v` (a simple type's value already taken out of
 * it): an array, a struct, or a value, null or not, of its declared type. */
static const char *xml_tag(const jfr_value *v)
{
    if (v->kind == JFR_VALUE_ARRAY)
        return "array";
    if (v->kind == JFR_VALUE_OBJECT ||
        (v->kind == JFR_VALUE_NULL && v->type && jfr_type_field_count(v->type) > 0 &&
         !jfr_type_is_simple(v->type)))
        return "struct";
    return "value";
}

/* A value's text between its tags, as Java's String.valueOf gives it. */
static void scalar_xml(jctx *c, const jfr_value *v)
{
    if (put_plain(c, v))
        return;
    if (v->kind == JFR_VALUE_FLOAT && isnan(v->as.f))
        sb_puts(c->out, "NaN");
    else if (v->kind == JFR_VALUE_FLOAT)
        sb_puts(c->out, v->as.f > 0 ? "Infinity" : "-Infinity");
    else if (v->kind == JFR_VALUE_STRING)
        xml_put_text(c->out, v->as.str.ptr, v->as.str.len);
}

static void put_indent(strbuf *out, int indent)
{
    memset(sb_extend(out, (size_t)indent), ' ', (size_t)indent);
}

/* A struct's fields, one element a line at indent + 2: a pooled struct's
 * text `r` when it was written before. */
static void struct_xml(jctx *c, const jfr_value *v, const rendered *r, int indent)
{
    sb_puts(c->out, ">\n");
    if (r)
        put_kept(c, r);
    else if (v->pooled)
        expand_pooled(c, v, indent + 2);
    else
        children_xml(c, v, indent + 2);
    put_indent(c->out, indent);
    sb_puts(c->out, "</struct>\n");
}

/* Child `v` of an object (field `fi`) or an array (item `index`), as an
 * element of its own at `indent`. */
static void element_xml(jctx *c, const jfr_value *v, const field_info *fi, size_t index,
                        int indent)
{
    jfr_value inner;
    const rendered *r = NULL;
    const char *tag;
    bool nil;

    if (!count_value(c, 1))
        return;
    if (v->kind == JFR_VALUE_OBJECT && jfr_type_is_simple(v->type)) {
        if (jfr_value_unwrap(&inner, v) < 0) {
            c->failed = true;
            return;
        }
        v = &inner;
    }
    tag = xml_tag(v);
    if (v->kind == JFR_VALUE_OBJECT && v->pooled && !(r = kept(c, v, indent + 2)))
        nil = cut_here(c, v);
    else
        nil = v->kind == JFR_VALUE_NULL || (v->kind == JFR_VALUE_STRING &&
                                            !json_is_utf8(v->as.str.ptr, v->as.str.len));
    put_indent(c->out, indent);
    sb_putc(c->out, '<');
    sb_puts(c->out, tag);
    if (fi)
        sb_putn(c->out, fi->key.ptr, fi->key.len);
    else
        sb_printf(c->out, " index=\"%zu\"", index);
    if (nil) {
        sb_puts(c->out, " xsi:nil=\"true\"/>\n");
    } else if (v->kind == JFR_VALUE_ARRAY) {
        sb_printf(c->out, " size=\"%llu\">\n", (unsigned long long)v->as.length);
        children_xml(c, v, indent + 2);
        put_indent(c->out, indent);
        sb_puts(c->out, "</array>\n");
    } else if (v->kind == JFR_VALUE_OBJECT) {
        struct_xml(c, v, r, indent);
    } else {
        sb_putc(c->out, '>');
        scalar_xml(c, v);
        sb_puts(c->out, "</value>\n");
    }
}

/* The children of `v`, one element a line at `indent`: an object's fields
 * by name, an array's items by index (the frames past --stack-depth left
 * out, as the JDK's XMLWriter leaves them, though its size counts them). */
static void children_xml(jctx *c, const jfr_value *v, int indent)
{
    bool array = v->kind == JFR_VALUE_ARRAY;
    size_t limit = array && is_frame_type(c, v->type) ? c->opts->stack_depth : SIZE_MAX;
    jfr_cursor cur;
    jfr_value child;
    int rc = JFR_OK;

    if (jfr_value_iter(&cur, v) < 0) {
        c->failed = true;
        return;
    }
    for (size_t n = 0; !c->failed && (rc = jfr_cursor_next(&child, &cur)) == JFR_OK;
         n++) {
        const field_info *fi = array ? NULL : info_of(c, child.field);

        if (array && n >= limit)
            return;             /* the frames past --stack-depth are not decoded */
        if (array || fi->named) /* an element needs a name */
            element_xml(c, &child, fi, n, indent);
    }
    if (!c->failed && rc < 0)
        c->failed = true;
}

void event_json_new_chunk(void)
{
    if (!last)
        return;
    for (size_t i = 0; i < FIELD_CACHE; i++)
        last->fields[i].field = NULL;
    last->frame_type = last->other_type = NULL;
    /* the pools are the chunk's: their entries' text goes with them */
    if (last->rendered_count)
        memset(last->rendered, 0, last->rendered_cap * sizeof *last->rendered);
    last->rendered_count = 0;
    sb_clear(&last->texts);
}

const char *event_json_loss(void)
{
    return last ? last->loss : NULL;
}

/* The walk's state for event `ev`, to write into `out`, and the event's
 * value in *v; NULL when it cannot be read. */
static jctx *begin_event(jfr_value *v, strbuf *out, const jfr_event *ev,
                         const json_opts *opts, bool xml)
{
    jctx *c = last;

    if (!c)
        c = last = xcalloc(1, sizeof *c);
    c->depth = 0;
    c->values = 0;
    c->failed = false;
    c->loss = NULL;
    c->chunk = jfr_event_chunk(ev);
    c->opts = opts;
    c->out = out;
    c->xml = xml;
    return jfr_event_value(v, ev) == JFR_OK ? c : NULL;
}

int event_json(strbuf *out, const jfr_event *ev, const json_opts *opts, int indent)
{
    jfr_value v;
    jctx *c = begin_event(&v, out, ev, opts, false);
    size_t start = out->len;
    const char *type = jfr_type_name(jfr_event_type(ev));

    if (!c)
        return -1;
    sb_putc(out, '{');
    put_newline(out, indent + 2);
    sb_putn(out, "\"type\": ", 8);
    put_string(out, type, strlen(type));
    sb_putn(out, ", ", 2);
    put_newline(out, indent + 2);
    sb_putn(out, "\"values\": ", 10);
    children_json(c, &v, indent + 2);
    if (c->failed) {
        out->len = start;
        return -1;
    }
    put_newline(out, indent);
    sb_putc(out, '}');
    return 0;
}

int event_xml(strbuf *out, const jfr_event *ev, const json_opts *opts, int indent)
{
    jfr_value v;
    jctx *c = begin_event(&v, out, ev, opts, true);
    size_t start = out->len;
    const char *type = jfr_type_name(jfr_event_type(ev));

    if (!c)
        return -1;
    put_indent(out, indent);
    sb_puts(out, "<event type=\"");
    xml_put_text(out, type, strlen(type));
    sb_puts(out, "\">\n");
    children_xml(c, &v, indent + 2);
    if (c->failed) {
        out->len = start;
        return -1;
    }
    put_indent(out, indent);
    sb_puts(out, "</event>\n\n");
    return 0;
}
