/* test_limits.c - every jfr_options limit, set just below what a recording
 * needs, makes the read fail with JFR_ELIMIT (not JFR_ENOMEM, not a crash);
 * set just high enough, the same read succeeds. Also regressions of
 * robustness fixes that the fuzzers found (doc/robustness.md). */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>

#include "jfr_private.h"
#include "jfrgen.h"
#include "testdata.h"
#include "samples.h"

/* An event type "test.Limits" with an int array, a string and a value
 * nested `levels` deep inline. */
static void limits_chunk(jg_buf *out, unsigned nints, size_t text_len, int levels)
{
    jg_chunk *c = jg_chunk_new();
    jg_elem *e;
    jg_buf *b;
    char *text = malloc(text_len + 1);

    memset(text, 'x', text_len);
    text[text_len] = '\0';
    jg_primitives(c);
    e = jg_class(c, 20, "test.Limits", "jdk.jfr.Event");
    jg_field(e, "startTime", JG_LONG, 0);
    jg_field(e, "ints", JG_INT, JG_ARRAY);
    jg_field(e, "text", JG_STRING, 0);
    if (levels)
        jg_field(e, "nest", 100, 0);
    for (int i = 0; i < levels; i++) {
        e = jg_class(c, 100 + (uint64_t)i, i ? "test.Inner" : "test.Outer", NULL);
        jg_field(e, "v", JG_INT, 0);
        if (i + 1 < levels)
            jg_field(e, "inner", 101 + (uint64_t)i, 0);
    }
    b = jg_event(c, 20);
    jg_i64(b, 7);
    jg_count(b, nints);
    for (unsigned i = 0; i < nints; i++)
        jg_i32(b, (int32_t)i);
    jg_string(b, text);
    for (int i = 0; i < levels; i++)
        jg_i32(b, i);
    jg_checkpoint(c);
    jg_chunk_build(c, out);
    jg_chunk_free(c);
    free(text);
}

static jfr_recording *open_with(const jg_buf *b, const jfr_options *o)
{
    jfr_recording *rec = NULL;
    jfr_error err;
    int rc = jfr_recording_open_memory(&rec, b->data, b->len, o, &err);

    cr_assert_eq(rc, JFR_OK, "open: %s", err.message);
    return rec;
}

/* Decode every field of the first event; the first failure or 0. */
static int decode_first_event(const jg_buf *b, const jfr_options *o)
{
    jfr_recording *rec = open_with(b, o);
    jfr_chunk *chunk;
    jfr_event_iter *it;
    const jfr_event *ev;
    jfr_value v, child;
    jfr_cursor cur;
    int rc;

    cr_assert_eq(jfr_recording_next_chunk(&chunk, rec), JFR_OK);
    cr_assert_eq(jfr_event_iter_new(&it, chunk, NULL, 0, 0), JFR_OK);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_OK);
    rc = jfr_event_value(&v, ev);
    if (rc == JFR_OK && (rc = jfr_value_iter(&cur, &v)) == JFR_OK) {
        while ((rc = jfr_cursor_next(&child, &cur)) == JFR_OK)
            ;
        if (rc == JFR_DONE)
            rc = 0;
    }
    if (rc < 0)
        cr_assert_eq(jfr_recording_error(rec)->code, rc);
    jfr_event_iter_free(it);
    jfr_recording_free(rec);
    return rc;
}

Test(limits, array_length)
{
    jfr_options o = JFR_OPTIONS_INIT;
    jg_buf b = {0};

    limits_chunk(&b, 10, 3, 0);
    o.max_array_length = 9;
    cr_assert_eq(decode_first_event(&b, &o), JFR_ELIMIT);
    o.max_array_length = 10;
    cr_assert_eq(decode_first_event(&b, &o), 0);
    jg_buf_free(&b);
}

Test(limits, string_length)
{
    jfr_options o = JFR_OPTIONS_INIT;
    jg_buf b = {0};

    limits_chunk(&b, 1, 100, 0);
    o.max_string_length = 99;
    cr_assert_eq(decode_first_event(&b, &o), JFR_ELIMIT);
    o.max_string_length = 100;
    cr_assert_eq(decode_first_event(&b, &o), 0);
    jg_buf_free(&b);
}

Test(limits, depth)
{
    jfr_options o = JFR_OPTIONS_INIT;
    jg_buf b = {0};

    limits_chunk(&b, 1, 3, 10); /* the event, then 10 nested levels */
    o.max_depth = 9;
    cr_assert_eq(decode_first_event(&b, &o), JFR_ELIMIT);
    o.max_depth = 10;
    cr_assert_eq(decode_first_event(&b, &o), 0);
    jg_buf_free(&b);
}

Test(limits, depth_inline_cycle_is_a_limit)
{
    jg_buf b = {0};

    cr_assert(sample_build("nest-inline-cycle", &b));
    cr_assert_eq(decode_first_event(&b, NULL), JFR_ELIMIT);
    jg_buf_free(&b);
}

Test(limits, default_array_length)
{
    jg_buf b = {0};

    cr_assert(sample_build("array-2e31", &b)); /* 2^31 > the default 16 Mi */
    cr_assert_eq(decode_first_event(&b, NULL), JFR_ELIMIT);
    jg_buf_free(&b);
}

/* Pool damage, a limit included, becomes the chunk's warning. */
static int pool_warning(const jg_buf *b, uint64_t max_entries)
{
    jfr_options o = JFR_OPTIONS_INIT;
    jfr_recording *rec;
    jfr_chunk *chunk;
    const jfr_stacktrace *st;
    int rc, code;

    o.max_pool_entries = max_entries;
    rec = open_with(b, &o);
    cr_assert_eq(jfr_recording_next_chunk(&chunk, rec), JFR_OK);
    rc = jfr_chunk_stacktrace(&st, chunk, 1);
    code = jfr_chunk_warning(chunk) ? jfr_chunk_warning(chunk)->code : 0;
    if (code)
        cr_assert_eq(rc, JFR_ENOTFOUND, "entries of unindexed pools read as absent");
    else
        cr_assert_eq(rc, JFR_OK);
    jfr_recording_free(rec);
    return code;
}

Test(limits, pool_entries)
{
    jg_buf b = {0};
    uint64_t need = 0;

    cr_assert(sample_build("mini", &b));
    /* find the smallest limit that is enough: it is the entry count */
    for (uint64_t n = 1; n < 1000 && !need; n++)
        if (pool_warning(&b, n) == 0)
            need = n;
    cr_assert_gt(need, 10, "mini has more than 10 pool entries");
    cr_assert_eq(pool_warning(&b, need - 1), JFR_ELIMIT);
    jg_buf_free(&b);
}

Test(limits, types)
{
    jfr_options o = JFR_OPTIONS_INIT;
    jg_buf b = {0};
    jfr_recording *rec;
    jfr_chunk *chunk;
    size_t ntypes;

    cr_assert(sample_build("mini", &b));
    rec = open_with(&b, NULL);
    cr_assert_eq(jfr_recording_next_chunk(&chunk, rec), JFR_OK);
    ntypes = jfr_chunk_type_count(chunk);
    jfr_recording_free(rec);
    o.max_types = (uint32_t)ntypes - 1;
    rec = open_with(&b, &o);
    cr_assert_eq(jfr_recording_next_chunk(&chunk, rec), JFR_ELIMIT);
    cr_assert_eq(jfr_recording_error(rec)->code, JFR_ELIMIT);
    jfr_recording_free(rec);
    o.max_types = (uint32_t)ntypes;
    rec = open_with(&b, &o);
    cr_assert_eq(jfr_recording_next_chunk(&chunk, rec), JFR_OK);
    jfr_recording_free(rec);
    jg_buf_free(&b);
}

Test(limits, chunk_size)
{
    jfr_options o = JFR_OPTIONS_INIT;
    jg_buf b = {0};
    jfr_recording *rec;
    jfr_chunk *chunk;

    cr_assert(sample_build("mini", &b));
    o.max_chunk_size = b.len - 1;
    rec = open_with(&b, &o);
    cr_assert_eq(jfr_recording_next_chunk(&chunk, rec), JFR_ELIMIT);
    cr_assert_eq(jfr_recording_next_chunk(&chunk, rec), JFR_DONE);
    jfr_recording_free(rec);
    o.max_chunk_size = b.len;
    rec = open_with(&b, &o);
    cr_assert_eq(jfr_recording_next_chunk(&chunk, rec), JFR_OK);
    jfr_recording_free(rec);
    jg_buf_free(&b);
}

Test(limits, input_size_memory)
{
    jfr_options o = JFR_OPTIONS_INIT;
    jg_buf b = {0};
    jfr_recording *rec;
    jfr_error err;

    cr_assert(sample_build("mini", &b));
    o.max_input_size = b.len - 1;
    cr_assert_eq(jfr_recording_open_memory(&rec, b.data, b.len, &o, &err), JFR_ELIMIT);
    cr_assert_eq(err.code, JFR_ELIMIT);
    cr_assert_null(rec);
    o.max_input_size = b.len;
    cr_assert_eq(jfr_recording_open_memory(&rec, b.data, b.len, &o, &err), JFR_OK);
    jfr_recording_free(rec);
    jg_buf_free(&b);
}

/* Files, plain and compressed: the limit applies to the decompressed size. */
static void input_size_file(const char *name, uint64_t size)
{
    jfr_options o = JFR_OPTIONS_INIT;
    char path[4096], rel[256];
    jfr_recording *rec;
    jfr_error err;

    snprintf(rel, sizeof rel, "recordings/%s", name);
    testdata_path(path, sizeof path, rel);
    o.max_input_size = size - 1;
    cr_assert_eq(jfr_recording_open_file(&rec, path, &o, &err), JFR_ELIMIT, "%s: %s",
                 name, err.message);
    o.max_input_size = size;
    cr_assert_eq(jfr_recording_open_file(&rec, path, &o, &err), JFR_OK, "%s: %s", name,
                 err.message);
    cr_assert_eq(jfr_recording_size(rec), size);
    jfr_recording_free(rec);
}

Test(limits, input_size_files)
{
    input_size_file("cpu-jdk25.jfr", 393767);
#ifdef HAVE_ZLIB
    input_size_file("cpu-jdk25.jfr.gz", 393767);
#endif
#ifdef HAVE_LZ4
    input_size_file("cpu-jdk25.jfr.lz4", 393767);
#endif
}

Test(limits, zero_means_default)
{
    jfr_options o;
    jg_buf b = {0};

    memset(&o, 0, sizeof o);
    o.version = JFR_OPTIONS_VERSION;
    limits_chunk(&b, 100, 1000, 20);
    cr_assert_eq(decode_first_event(&b, &o), 0);
    jg_buf_free(&b);
}

/* ---- regressions ------------------------------------------------------------- */

/* fuzz_leaks found it: start + span overflowed (undefined) for damaged
 * times; now it saturates. */
Test(regressions, epoch_nanos_saturate)
{
    jg_buf b = {0};
    jg_chunk *c = jg_chunk_new();
    jfr_recording *rec;
    jfr_chunk *chunk;

    c->h.start_nanos = INT64_C(1795000000000000000);
    c->h.start_ticks = 0;
    c->h.ticks_per_second = 1000000000;
    jg_checkpoint(c);
    jg_chunk_build(c, &b);
    jg_chunk_free(c);
    rec = open_with(&b, NULL);
    cr_assert_eq(jfr_recording_next_chunk(&chunk, rec), JFR_OK);
    cr_assert_eq(jfr_chunk_ticks_to_epoch_nanos(chunk, INT64_MAX - 1000), INT64_MAX);
    cr_assert_eq(jfr_chunk_ticks_to_epoch_nanos(chunk, 5), INT64_C(1795000000000000005));
    jfr_recording_free(rec);
    jg_buf_free(&b);
}

Test(regressions, ticks_to_nanos_saturate)
{
    jg_buf b = {0};
    jg_chunk *c = jg_chunk_new();
    jfr_recording *rec;
    jfr_chunk *chunk;

    c->h.ticks_per_second = 1; /* one tick is a second: large tick counts overflow */
    jg_checkpoint(c);
    jg_chunk_build(c, &b);
    jg_chunk_free(c);
    rec = open_with(&b, NULL);
    cr_assert_eq(jfr_recording_next_chunk(&chunk, rec), JFR_OK);
    cr_assert_eq(jfr_chunk_ticks_to_nanos(chunk, INT64_MAX), INT64_MAX);
    cr_assert_eq(jfr_chunk_ticks_to_nanos(chunk, INT64_MIN), INT64_MIN);
    cr_assert_eq(jfr_chunk_ticks_to_nanos(chunk, 3), INT64_C(3000000000));
    jfr_recording_free(rec);
    jg_buf_free(&b);
}

/* fuzz_leaks found it: a failed field lookup left its output unset, and
 * the leak analysis read it; failed lookups now leave a null value. */
Test(regressions, failed_lookup_leaves_null)
{
    jg_buf b = {0};
    jfr_recording *rec;
    jfr_chunk *chunk;
    jfr_event_iter *it;
    const jfr_event *ev;
    jfr_value v, out;

    limits_chunk(&b, 2, 3, 0);
    rec = open_with(&b, NULL);
    cr_assert_eq(jfr_recording_next_chunk(&chunk, rec), JFR_OK);
    cr_assert_eq(jfr_event_iter_new(&it, chunk, NULL, 0, 0), JFR_OK);
    cr_assert_eq(jfr_event_next(&ev, it), JFR_OK);
    cr_assert_eq(jfr_event_value(&v, ev), JFR_OK);
    memset(&out, 0x5a, sizeof out);
    cr_assert_eq(jfr_value_field(&out, &v, "nope"), JFR_ENOTFOUND);
    cr_assert(out.kind == JFR_VALUE_NULL && !out.pooled && out.key == 0);
    memset(&out, 0x5a, sizeof out);
    cr_assert_eq(jfr_value_field_at(&out, &v, 99), JFR_ENOTFOUND);
    cr_assert(out.kind == JFR_VALUE_NULL && !out.pooled);
    cr_assert_eq(jfr_value_field(&out, &v, "ints"), JFR_OK);
    cr_assert_eq(out.kind, JFR_VALUE_ARRAY);
    cr_assert_eq(jfr_value_element(&out, &out, 1), JFR_OK); /* in place */
    cr_assert(out.kind == JFR_VALUE_INT && out.as.i == 1);
    memset(&out, 0x5a, sizeof out);
    cr_assert_eq(jfr_value_element(&out, &v, 0), JFR_EINVAL);
    cr_assert(out.kind == JFR_VALUE_NULL);
    jfr_event_iter_free(it);
    jfr_recording_free(rec);
    jg_buf_free(&b);
}
