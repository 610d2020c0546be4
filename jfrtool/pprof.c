/* pprof.c - the pprof writer (pprof.h). The message is small and flat, so
 * a few lines of protocol-buffer encoding serve better than a generated
 * library: varints, length-delimited fields and packed repeated integers
 * are all it needs (tests/profile/check-pprof.py reads the output back with
 * `go tool pprof -raw`). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gzip_out.h"
#include "jfrtool.h"
#include "pprof.h"
#include "util.h"

/* Field numbers of perftools.profiles.Profile and its messages. */
enum {
    PROFILE_SAMPLE_TYPE = 1,
    PROFILE_SAMPLE = 2,
    PROFILE_LOCATION = 4,
    PROFILE_FUNCTION = 5,
    PROFILE_STRING_TABLE = 6,
    PROFILE_PERIOD_TYPE = 11,
    VALUE_TYPE_TYPE = 1,
    VALUE_TYPE_UNIT = 2,
    SAMPLE_LOCATION_ID = 1,
    SAMPLE_VALUE = 2,
    LOCATION_ID = 1,
    LOCATION_LINE = 4,
    LINE_FUNCTION_ID = 1,
    LINE_LINE = 2,
    FUNCTION_ID = 1,
    FUNCTION_NAME = 2,
    FUNCTION_SYSTEM_NAME = 3
};

enum { WIRE_VARINT = 0, WIRE_BYTES = 2 };

/* The bytes of `v` as a varint at `p` (room for 10); returns the end. */
static inline char *varint_at(char *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (char)(v | 0x80);
        v >>= 7;
    }
    *p++ = (char)v;
    return p;
}

static inline size_t varint_len(uint64_t v)
{
    size_t n = 1;

    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

/* Room for `n` more bytes at the end of `b`; returns where they go. */
static char *room(strbuf *b, size_t n)
{
    if (b->len + n + 1 > b->cap)
        sb_grow_to(b, b->len + n + 1);
    return b->ptr + b->len;
}

/* The bytes up to `end`, written at room()'s place, are b's now. */
static void wrote(strbuf *b, char *end)
{
    b->len = (size_t)(end - b->ptr);
    b->ptr[b->len] = '\0';
}

static void put_varint(strbuf *b, uint64_t v)
{
    wrote(b, varint_at(room(b, 10), v));
}

static void put_uint(strbuf *b, unsigned field, uint64_t v)
{
    if (!v)
        return; /* proto3: zero is the default, left out */
    put_varint(b, field << 3 | WIRE_VARINT);
    put_varint(b, v);
}

static void put_bytes(strbuf *b, unsigned field, const char *p, size_t n)
{
    put_varint(b, field << 3 | WIRE_BYTES);
    put_varint(b, n);
    sb_putn(b, p, n);
}

/* A nested message `msg` as field `field` of `b`; `msg` is cleared. */
static void put_message(strbuf *b, unsigned field, strbuf *msg)
{
    put_bytes(b, field, msg->ptr ? msg->ptr : "", msg->len);
    sb_clear(msg);
}

/* The string table: index 0 is "" as the format requires. */
typedef struct strings {
    strmap index;
    strbuf table; /* the encoded string_table fields, in index order */
    size_t count;
} strings;

static uint64_t string_id(strings *st, const char *s)
{
    size_t len = strlen(s);
    long id = strmap_get_n(&st->index, s, len);

    if (id >= 0)
        return (uint64_t)id;
    strmap_put_n(&st->index, s, len, st->count);
    put_bytes(&st->table, PROFILE_STRING_TABLE, s, len);
    return st->count++;
}

static void put_value_type(strbuf *b, unsigned field, strings *st, const char *type,
                           const char *unit)
{
    strbuf vt = {0};

    put_uint(&vt, VALUE_TYPE_TYPE, string_id(st, type));
    put_uint(&vt, VALUE_TYPE_UNIT, string_id(st, unit));
    put_message(b, field, &vt);
    sb_free(&vt);
}

/* pprof's unit names for ours. */
static const char *pprof_unit(jfr_unit unit)
{
    switch (unit) {
    case JFR_UNIT_NANOS:
        return "nanoseconds";
    case JFR_UNIT_BYTES:
        return "bytes";
    default:
        return "count";
    }
}

/* Locations and functions: one location per profile frame id, one function
 * per distinct name (a method on several lines has one function). */
static void put_frames(strbuf *b, const jfr_profile *p, const select_opts *s, strings *st)
{
    size_t nframes = jfr_profile_frame_count(p);
    strmap functions = {0};
    strbuf name = {0}, msg = {0}, line = {0};

    for (size_t id = 0; id < nframes; id++) {
        const jfr_profile_frame *f = jfr_profile_frame_at(p, (uint32_t)id);
        long fn;

        sb_clear(&name);
        append_frame_text(&name, f, s->annotate ? JFR_FRAME_TEXT_ANNOTATE : 0);
        fn = strmap_get_n(&functions, name.ptr ? name.ptr : "", name.len);
        if (fn < 0) {
            uint64_t text = string_id(st, sb_str(&name));

            fn = (long)functions.count + 1;
            strmap_put_n(&functions, name.ptr, name.len, (size_t)fn);
            put_uint(&msg, FUNCTION_ID, (uint64_t)fn);
            put_uint(&msg, FUNCTION_NAME, text);
            put_uint(&msg, FUNCTION_SYSTEM_NAME, text);
            put_message(b, PROFILE_FUNCTION, &msg);
        }
        put_uint(&msg, LOCATION_ID, id + 1); /* ids start at 1 */
        put_uint(&line, LINE_FUNCTION_ID, (uint64_t)fn);
        if (s->lines && f->line > 0)
            put_uint(&line, LINE_LINE, (uint64_t)f->line);
        put_message(&msg, LOCATION_LINE, &line);
        put_message(b, PROFILE_LOCATION, &msg);
    }
    strmap_free(&functions);
    sb_free(&name);
    sb_free(&msg);
    sb_free(&line);
}

/* A tag of a length-delimited field below 16: one byte. */
#define BYTES_TAG(field) ((char)((field) << 3 | WIRE_BYTES))

/* Sample message of one stack, its packed location ids (from the leaf)
 * and values written straight into `b`: the lengths are worked out
 * first, so nothing is copied from a nested buffer. */
static void put_sample(strbuf *b, const uint32_t *frames, size_t depth, uint64_t samples,
                       uint64_t weight, bool weighted)
{
    size_t ids = 0, values = varint_len(samples) + (weighted ? varint_len(weight) : 0);
    size_t msg;
    char *p;

    for (size_t d = 0; d < depth; d++)
        ids += varint_len((uint64_t)frames[d] + 1);
    msg = 1 + varint_len(ids) + ids + 1 + varint_len(values) + values;
    p = room(b, 1 + 10 + msg);
    *p++ = BYTES_TAG(PROFILE_SAMPLE);
    p = varint_at(p, msg);
    *p++ = BYTES_TAG(SAMPLE_LOCATION_ID);
    p = varint_at(p, ids);
    for (size_t d = depth; d-- > 0;)
        p = varint_at(p, (uint64_t)frames[d] + 1);
    *p++ = BYTES_TAG(SAMPLE_VALUE);
    p = varint_at(p, values);
    p = varint_at(p, samples);
    if (weighted)
        p = varint_at(p, weight);
    wrote(b, p);
}

/* One sample per stack with a weight: locations from the leaf, as pprof
 * orders them. */
static void put_samples(strbuf *b, const jfr_profile *p, bool weighted)
{
    size_t nstacks = jfr_profile_stack_count(p);

    for (size_t i = 0; i < nstacks; i++) {
        const uint32_t *frames;
        size_t depth;
        uint64_t w;

        if (jfr_profile_stack(&w, &frames, &depth, p, i) != JFR_OK || !w)
            continue;
        put_sample(b, frames, depth, jfr_profile_stack_samples(p, i), w, weighted);
    }
}

int pprof_write(FILE *out, const select_result *r, const select_opts *s)
{
    const jfr_profile *p = r->profile;
    jfr_unit unit = jfr_profile_unit(p);
    bool weighted = unit == JFR_UNIT_NANOS || unit == JFR_UNIT_BYTES;
    strings st = {0};
    strbuf body = {0};
    int rc = 0;

    string_id(&st, "");
    put_value_type(&body, PROFILE_SAMPLE_TYPE, &st, "samples", "count");
    if (weighted)
        put_value_type(&body, PROFILE_SAMPLE_TYPE, &st, r->selection, pprof_unit(unit));
    put_samples(&body, p, weighted);
    put_frames(&body, p, s, &st);
    put_value_type(&body, PROFILE_PERIOD_TYPE, &st, weighted ? r->selection : "samples",
                   weighted ? pprof_unit(unit) : "count");
    /* the string table goes last: it is complete only now */
    sb_putn(&body, sb_str(&st.table), st.table.len);
    /* gzip, as pprof expects its files (it reads them plain too), at the
     * fastest level: on a profile of 162 k stacks (6.0 MB of protobuf)
     * zlib's default level took 0.33 s for 1.11 MB, more than building the
     * profile, and its level 1 0.04 s for 1.43 MB */
    if (gzip_out_available())
        rc = gzip_out_write(out, sb_str(&body), body.len);
    else
        fwrite(sb_str(&body), 1, body.len, out);
    strmap_free(&st.index);
    sb_free(&st.table);
    sb_free(&body);
    return rc;
}

int pprof_write_profile(FILE *out, const profile_output *po)
{
    if (pprof_write(out, po->r, po->s) == 0)
        return 0;
    warnx_("out of memory compressing the profile");
    return -1;
}
