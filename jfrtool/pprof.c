/* pprof.c - the pprof writer (pprof.h). The message is small and flat, so
 * a few lines of protocol-buffer encoding serve better than a generated
 * library: varints, length-delimited fields and packed repeated integers
 * are all it needs (tests/profile/check-pprof.py reads the output back with
 * `go tool pprof -raw`). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

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

static void put_varint(strbuf *b, uint64_t v)
{
    while (v >= 0x80) {
        sb_putc(b, (char)(v | 0x80));
        v >>= 7;
    }
    sb_putc(b, (char)v);
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
            fn = (long)functions.count + 1;
            strmap_put_n(&functions, name.ptr ? name.ptr : "", name.len, (size_t)fn);
            put_uint(&msg, FUNCTION_ID, (uint64_t)fn);
            put_uint(&msg, FUNCTION_NAME, string_id(st, sb_str(&name)));
            put_uint(&msg, FUNCTION_SYSTEM_NAME, string_id(st, sb_str(&name)));
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

/* One sample per stack with a weight: locations from the leaf, as pprof
 * orders them. */
static void put_samples(strbuf *b, const jfr_profile *p, bool weighted)
{
    size_t nstacks = jfr_profile_stack_count(p);
    strbuf msg = {0}, packed = {0};

    for (size_t i = 0; i < nstacks; i++) {
        const uint32_t *frames;
        size_t depth;
        uint64_t w;

        if (jfr_profile_stack(&w, &frames, &depth, p, i) != JFR_OK || !w)
            continue;
        for (size_t d = depth; d-- > 0;)
            put_varint(&packed, (uint64_t)frames[d] + 1);
        put_message(&msg, SAMPLE_LOCATION_ID, &packed);
        put_varint(&packed, jfr_profile_stack_samples(p, i));
        if (weighted)
            put_varint(&packed, w);
        put_message(&msg, SAMPLE_VALUE, &packed);
        put_message(b, PROFILE_SAMPLE, &msg);
    }
    sb_free(&msg);
    sb_free(&packed);
}

#ifdef HAVE_ZLIB
/* gzip, as pprof expects its files (it also reads them plain). The fastest
 * level: on a profile of 162 k stacks (6.0 MB of protobuf) the default
 * level took 0.33 s for 1.11 MB, more than building the profile, and level
 * 1 takes 0.04 s for 1.43 MB. */
static int write_gzip(FILE *out, const strbuf *b)
{
    z_stream z;
    unsigned char buf[1 << 16];
    int rc;

    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
        Z_OK)
        return -1;
    z.next_in = (unsigned char *)b->ptr;
    z.avail_in = (uInt)b->len; /* profiles stay far below 4 GB */
    do {
        z.next_out = buf;
        z.avail_out = sizeof buf;
        rc = deflate(&z, Z_FINISH);
        fwrite(buf, 1, sizeof buf - z.avail_out, out);
    } while (rc == Z_OK);
    deflateEnd(&z);
    return rc == Z_STREAM_END ? 0 : -1;
}
#endif

int pprof_write(FILE *out, const select_result *r, const select_opts *s)
{
    const jfr_profile *p = r->profile;
    jfr_unit unit = jfr_profile_unit(p);
    bool weighted = unit == JFR_UNIT_NANOS || unit == JFR_UNIT_BYTES;
    strings st = {0};
    strbuf body = {0}, all = {0};
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
    sb_putn(&all, body.ptr ? body.ptr : "", body.len);
    sb_putn(&all, st.table.ptr ? st.table.ptr : "", st.table.len);
#ifdef HAVE_ZLIB
    rc = write_gzip(out, &all);
#else
    fwrite(all.ptr ? all.ptr : "", 1, all.len, out);
#endif
    strmap_free(&st.index);
    sb_free(&st.table);
    sb_free(&body);
    sb_free(&all);
    return rc;
}

int pprof_write_profile(FILE *out, const profile_output *po)
{
    if (pprof_write(out, po->r, po->s) == 0)
        return 0;
    warnx_("out of memory compressing the profile");
    return -1;
}
