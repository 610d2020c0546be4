/* test_profile_compact.c - JFR_PROFILE_COMPACT_STACKS: stacks kept in 1,
 * 2 or 4 bytes a frame (libjfr/profile_compact.c) must read back, merge,
 * save, fold and make trees exactly as in a profile of 4-byte ids, also
 * across the widths' limits (256 and 65,536 frames). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfr.h"
#include "jfr_private.h"
#include "profile_struct.h"
#include "profile_fixture.h"
#include "testdata.h"

/* `nframes` synthetic frames (ids 0..nframes-1, each a stack of its own),
 * then stacks of `depth` frames spread over all of them. */
static void fill(jfr_profile *p, size_t nframes, size_t nstacks, size_t depth)
{
    char name[32];
    uint32_t *frames = calloc(depth, sizeof *frames);

    cr_assert_not_null(frames);
    for (size_t i = 0; i < nframes; i++) {
        snprintf(name, sizeof name, "[f%zu]", i);
        cr_assert_eq(jfr_profile_add_synthetic(p, name, i + 1, 1), JFR_OK);
    }
    cr_assert_eq(jfr_profile_frame_count(p), nframes);
    for (size_t s = 0; s < nstacks; s++) {
        for (size_t k = 0; k < depth; k++)
            frames[k] = (uint32_t)((s * 7919 + k * 104729) % nframes);
        cr_assert_eq(jfrp_profile_add_stack(p, frames, depth, s % 5 + 1, 1), JFR_OK);
    }
    free(frames);
}

/* Every stack of `a` and `b` the same, read by jfr_profile_stack_copy. */
static void assert_same_stacks(const jfr_profile *a, const jfr_profile *b)
{
    size_t n = jfr_profile_stack_count(a), room = 4;
    uint32_t *fa = malloc(room * sizeof *fa), *fb = malloc(room * sizeof *fb);

    cr_assert_eq(jfr_profile_stack_count(b), n);
    cr_assert_eq(jfr_profile_total(a), jfr_profile_total(b));
    for (size_t i = 0; i < n; i++) {
        size_t da, db;
        uint64_t wa, wb;
        int rc = jfr_profile_stack_copy(&wa, fa, room, &da, a, i);

        if (rc == JFR_ELIMIT) {
            cr_assert_gt(da, room);
            room = da;
            fa = realloc(fa, room * sizeof *fa);
            fb = realloc(fb, room * sizeof *fb);
            rc = jfr_profile_stack_copy(&wa, fa, room, &da, a, i);
        }
        cr_assert_eq(rc, JFR_OK);
        cr_assert_eq(jfr_profile_stack_copy(&wb, fb, room, &db, b, i), JFR_OK);
        cr_assert_eq(da, db, "stack %zu", i);
        cr_assert_eq(wa, wb, "stack %zu", i);
        cr_assert_eq(memcmp(fa, fb, da * sizeof *fa), 0, "stack %zu", i);
    }
    free(fa);
    free(fb);
}

static char *folded_of(const jfr_profile *p)
{
    char *text;
    size_t len;

    cr_assert_eq(jfr_profile_folded(&text, &len, p, 0), JFR_OK);
    return text;
}

/* One case per width: below 256 frames, below 65,536, above. */
static void compact_matches_plain(size_t nframes, unsigned width)
{
    jfr_profile *compact = new_exec_profile(JFR_PROFILE_COMPACT_STACKS);
    jfr_profile *plain = new_exec_profile(0);
    const uint32_t *frames;
    size_t depth;
    char *a, *b;

    fill(compact, nframes, 3000, 40);
    fill(plain, nframes, 3000, 40);
    cr_assert_eq(compact->frame_bytes, width);
    assert_same_stacks(compact, plain);
    /* merges both ways, with or without the flag */
    {
        jfr_profile *into_plain = new_exec_profile(0),
                    *into_compact = new_exec_profile(JFR_PROFILE_COMPACT_STACKS);
        cr_assert_eq(jfr_profile_merge(into_plain, compact), JFR_OK);
        cr_assert_eq(jfr_profile_merge(into_compact, plain), JFR_OK);
        cr_assert_eq(into_compact->frame_bytes, width);
        assert_same_stacks(into_plain, plain);
        assert_same_stacks(into_compact, plain);
        jfr_profile_free(into_plain);
        jfr_profile_free(into_compact);
    }
    /* saved and loaded, and saved bytes merged into a plain profile */
    {
        void *bytes;
        size_t size;
        jfr_profile *loaded, *into = new_exec_profile(0);
        jfr_error err;

        cr_assert_eq(jfr_profile_save(&bytes, &size, compact), JFR_OK);
        cr_assert_eq(jfr_profile_load(&loaded, bytes, size, NULL, &err), JFR_OK, "%s",
                     err.message);
        assert_same_stacks(loaded, plain);
        cr_assert_eq(jfr_profile_merge_saved(into, bytes, size, &err), JFR_OK, "%s",
                     err.message);
        assert_same_stacks(into, plain);
        jfr_profile_bytes_free(bytes);
        jfr_profile_free(loaded);
        jfr_profile_free(into);
    }
    /* the folded text, then jfr_profile_stack: both make it 4 bytes a frame */
    a = folded_of(compact);
    b = folded_of(plain);
    cr_assert_str_eq(a, b);
    jfr_profile_bytes_free(a);
    jfr_profile_bytes_free(b);
    cr_assert_eq(compact->frame_bytes, 4);
    cr_assert_eq(jfr_profile_stack(NULL, &frames, &depth, compact, 0), JFR_OK);
    cr_assert_eq(depth, 1);
    assert_same_stacks(compact, plain);
    jfr_profile_free(compact);
    jfr_profile_free(plain);
}

Test(profile_compact, one_byte_a_frame)
{
    compact_matches_plain(200, 1);
}

Test(profile_compact, two_bytes_a_frame)
{
    compact_matches_plain(3000, 2);
}

Test(profile_compact, four_bytes_past_65536_frames)
{
    compact_matches_plain(70000, 4);
}

Test(profile_compact, copy_reports_depth_and_room)
{
    jfr_profile *p = new_exec_profile(JFR_PROFILE_COMPACT_STACKS);
    uint32_t frames[40];
    size_t depth = 0;
    uint64_t weight = 0;

    fill(p, 10, 1, 40);
    /* stack 10 is the first deep one; ids 0..9 are the frames' own */
    cr_assert_eq(jfr_profile_stack_copy(&weight, NULL, 0, &depth, p, 10), JFR_OK);
    cr_assert_eq(depth, 40);
    cr_assert_eq(weight, 1);
    cr_assert_eq(jfr_profile_stack_copy(&weight, frames, 39, &depth, p, 10), JFR_ELIMIT);
    cr_assert_eq(depth, 40);
    cr_assert_eq(jfr_profile_stack_copy(&weight, frames, 40, &depth, p, 10), JFR_OK);
    cr_assert_eq(frames[1], 104729 % 10);
    cr_assert_eq(jfr_profile_stack_copy(&weight, frames, 40, &depth, p, 11), JFR_EINVAL);
    cr_assert_eq(p->frame_bytes, 1, "copies read without rewriting");
    jfr_profile_free(p);
}

/* A real recording with thread roots: the call tree and folded text of a
 * compact profile are those of a plain one. */
Test(profile_compact, recording_tree_and_folded)
{
    char path[4096];
    jfr_profile *compact =
        new_exec_profile(JFR_PROFILE_COMPACT_STACKS | JFR_PROFILE_THREADS);
    jfr_profile *plain = new_exec_profile(JFR_PROFILE_THREADS);
    jfr_recording *rec;
    jfr_chunk *c;
    jfr_error err;
    char *a, *b;

    testdata_path(path, sizeof path, "recordings/cpu-jdk25.jfr");
    cr_assert_eq(jfr_recording_open_file(&rec, path, NULL, &err), JFR_OK, "%s",
                 err.message);
    while (jfr_recording_next_chunk(&c, rec) == JFR_OK) {
        cr_assert_eq(jfr_profile_add_chunk(compact, c), JFR_OK);
        cr_assert_eq(jfr_profile_add_chunk(plain, c), JFR_OK);
    }
    jfr_recording_free(rec);
    cr_assert_gt(jfr_profile_stack_count(plain), 10);
    cr_assert_lt(compact->frame_bytes, 4);
    assert_same_stacks(compact, plain);
    cr_assert_eq(jfr_profile_build_tree(compact), JFR_OK);
    cr_assert_eq(jfr_profile_build_tree(plain), JFR_OK);
    cr_assert_eq(jfr_profile_node_count(compact), jfr_profile_node_count(plain));
    a = folded_of(compact);
    b = folded_of(plain);
    cr_assert_str_eq(a, b);
    jfr_profile_bytes_free(a);
    jfr_profile_bytes_free(b);
    jfr_profile_free(compact);
    jfr_profile_free(plain);
}
