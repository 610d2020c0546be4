/* testdata.h - where the C tests find their recordings: the project's
 * testdata/ ($JFR_TESTDATA, which make check sets; "testdata" when a test
 * runs by hand from the top of the tree) and the shared corpus
 * ($JFR_SHARED, ../shared; a test that needs it is skipped, saying so,
 * when it is absent). For Criterion tests. */
#ifndef TESTDATA_H
#define TESTDATA_H

#include <stdio.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "jfr.h"

/** `rel` under testdata/ ("recordings/cpu-jdk25.jfr") into `dst`. */
static inline char *testdata_path(char *dst, size_t room, const char *rel)
{
    const char *dir = getenv("JFR_TESTDATA");

    snprintf(dst, room, "%s/%s", dir ? dir : "testdata", rel);
    return dst;
}

/** Open testdata/`rel` with `opts` (NULL: defaults); the test fails unless
 * it opens. */
static inline jfr_recording *testdata_open(const char *rel, const jfr_options *opts)
{
    char path[4096];
    jfr_recording *rec = NULL;
    jfr_error err;

    testdata_path(path, sizeof path, rel);
    cr_assert_eq(jfr_recording_open_file(&rec, path, opts, &err), JFR_OK, "%s: %s", path,
                 err.message);
    return rec;
}

/** Open `rel` of the shared corpus ("corpus/public/jmc-9u0.jfr"); the test
 * is skipped, saying what is missing, when ../shared is not there. */
static inline jfr_recording *testdata_open_shared(const char *rel)
{
    const char *shared = getenv("JFR_SHARED");
    char path[4096];
    jfr_recording *rec = NULL;
    jfr_error err;

    snprintf(path, sizeof path, "%s/%s", shared ? shared : "", rel);
    if (!shared || jfr_recording_open_file(&rec, path, NULL, &err) != JFR_OK)
        cr_skip_test("the shared corpus (../shared) is not here: no %s", rel);
    return rec;
}

#endif
