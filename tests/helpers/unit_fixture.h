/* unit_fixture.h - the state a Criterion suite's tests open, and its
 * .fini: `TestSuite(NAME, .fini = unit_close);`. A test keeps its
 * recording in `rec`, the bytes it was read from (jfrgen's) in `bytes`
 * and an event iterator in `iter`; unit_close frees all three after each
 * test, so that a failed assertion leaks nothing into the next;
 * unit_open_chunk opens a built chunk in their place. One test file
 * includes it once. */
#ifndef UNIT_FIXTURE_H
#define UNIT_FIXTURE_H

#include "jfr.h"
#include "jfrgen.h"
#include "unit_util.h"

static jfr_recording *rec;
static jg_buf bytes;
static jfr_event_iter *iter;

static inline void unit_close(void)
{
    jfr_event_iter_free(iter);
    iter = NULL;
    jfr_recording_free(rec);
    rec = NULL;
    jg_buf_free(&bytes);
}

/* The first chunk of the recording `c` builds (`c` is freed), after
 * closing what the test had open. */
static inline jfr_chunk *unit_open_chunk(jg_chunk *c)
{
    unit_close();
    jg_chunk_build(c, &bytes);
    jg_chunk_free(c);
    rec = unit_open(&bytes);
    return unit_next_chunk(rec);
}

#endif
