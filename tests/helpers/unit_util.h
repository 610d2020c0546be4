/* unit_util.h - small helpers shared by the Criterion unit tests: open
 * synthetic bytes as a recording and step to a chunk. */
#ifndef UNIT_UTIL_H
#define UNIT_UTIL_H

#include <criterion/criterion.h>

#include "jfr.h"
#include "jfrgen.h"

/** Open `b` from memory; the test fails if that does not succeed. */
static inline jfr_recording *unit_open(const jg_buf *b)
{
    jfr_recording *rec = NULL;
    jfr_error err;
    int rc = jfr_recording_open_memory(&rec, b->data, b->len, NULL, &err);

    cr_assert_eq(rc, JFR_OK, "open: %s (%s)", jfr_strerror(rc), err.message);
    return rec;
}

/** The next chunk of `rec`; the test fails unless it opens. */
static inline jfr_chunk *unit_next_chunk(jfr_recording *rec)
{
    jfr_chunk *c = NULL;
    int rc = jfr_recording_next_chunk(&c, rec);

    cr_assert_eq(rc, JFR_OK, "next_chunk: %s (%s)", jfr_strerror(rc),
                 jfr_recording_error(rec)->message);
    return c;
}

/** Build chunk `c` alone into `out` (freeing `c`), open it, return chunk 0. */
static inline jfr_chunk *unit_build_open(jg_chunk *c, jg_buf *out, jfr_recording **rec)
{
    jg_chunk_build(c, out);
    jg_chunk_free(c);
    *rec = unit_open(out);
    return unit_next_chunk(*rec);
}

/** The first event of the chunk with every record type (asserts one exists). */
static inline const jfr_event *unit_first_event(jfr_chunk *c, jfr_event_iter **it)
{
    const jfr_event *ev = NULL;
    int rc;

    cr_assert_eq(jfr_event_iter_new(it, c, NULL, 0, 0), JFR_OK);
    rc = jfr_event_next(&ev, *it);
    cr_assert_eq(rc, JFR_OK, "event_next: %s", jfr_strerror(rc));
    return ev;
}

/** Compare a jfr_str with a NUL-terminated expectation. */
static inline bool unit_str_eq(jfr_str s, const char *want)
{
    return s.ptr && s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

#endif
