/* test_profile_put.c - jfrp_profile_put_stacks (libjfr/profile.c): a batch
 * of stacks put together makes the profile that putting them one at a
 * time makes (the same ids, frames, weights and totals), whatever the
 * batch sizes and however often a stack repeats within a batch or across
 * batches; and jfr_profile_merge, which puts in batches, keeps first-seen
 * order. */
#include <stdio.h>
#include <stdlib.h>

#include <criterion/criterion.h>

#include "jfr_private.h"
#include "profile_struct.h"

#define NFRAMES  40
#define NSTACKS  3000
#define MAXDEPTH 24

typedef struct stacks {
    uint32_t frames[NSTACKS][MAXDEPTH];
    size_t depth[NSTACKS];
} stacks;

static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

/* NSTACKS stacks of ids below NFRAMES; about a third repeat an earlier one */
static void make_stacks(stacks *s, uint32_t seed)
{
    for (size_t i = 0; i < NSTACKS; i++) {
        if (i > 0 && next_random(&seed) % 3 == 0) {
            size_t from = next_random(&seed) % i;
            s->depth[i] = s->depth[from];
            memcpy(s->frames[i], s->frames[from], sizeof s->frames[i]);
            continue;
        }
        s->depth[i] = 1 + next_random(&seed) % MAXDEPTH;
        for (size_t d = 0; d < s->depth[i]; d++)
            s->frames[i][d] = next_random(&seed) % NFRAMES;
    }
}

static jfr_profile *new_profile(void)
{
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile *p = NULL;
    jfr_error err;

    o.kind = "exec";
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_OK);
    /* frame ids 0..NFRAMES-1 */
    for (uint32_t f = 0; f < NFRAMES; f++) {
        char name[32];
        uint32_t id;

        snprintf(name, sizeof name, "[frame %u]", f);
        cr_assert_eq(jfrp_profile_synthetic(p, name, &id), 0);
        cr_assert_eq(id, f);
    }
    return p;
}

static void assert_same_profiles(const jfr_profile *a, const jfr_profile *b)
{
    cr_assert_eq(jfr_profile_stack_count(a), jfr_profile_stack_count(b));
    cr_assert_eq(jfr_profile_total(a), jfr_profile_total(b));
    cr_assert_eq(jfr_profile_samples(a), jfr_profile_samples(b));
    for (size_t i = 0; i < jfr_profile_stack_count(a); i++) {
        const uint32_t *fa, *fb;
        size_t da, db;
        uint64_t wa, wb;

        cr_assert_eq(jfr_profile_stack(&wa, &fa, &da, a, i), JFR_OK);
        cr_assert_eq(jfr_profile_stack(&wb, &fb, &db, b, i), JFR_OK);
        cr_assert_eq(wa, wb, "stack %zu", i);
        cr_assert_eq(da, db, "stack %zu", i);
        cr_assert_arr_eq(fa, fb, da * sizeof *fa, "stack %zu", i);
    }
}

Test(put_stacks, batches_make_the_profile_of_single_puts)
{
    static stacks s;
    uint32_t seed = 7;

    make_stacks(&s, 42);
    for (int round = 0; round < 4; round++) {
        jfr_profile *one = new_profile(), *batched = new_profile();
        uint32_t ids[NSTACKS];

        for (size_t i = 0; i < NSTACKS; i++)
            cr_assert_eq(
                jfrp_profile_put_stack(one, &ids[i], s.frames[i], s.depth[i], i + 1, 1),
                0);
        for (size_t i = 0; i < NSTACKS;) {
            /* sizes 1 to JFRP_PUT_BATCH; round 0 always full batches */
            size_t n =
                round == 0 ? JFRP_PUT_BATCH : 1 + next_random(&seed) % JFRP_PUT_BATCH;
            jfrp_stack_put v[JFRP_PUT_BATCH];

            if (n > NSTACKS - i)
                n = NSTACKS - i;
            for (size_t j = 0; j < n; j++)
                v[j] = (jfrp_stack_put){s.frames[i + j], s.depth[i + j], i + j + 1, 1,
                                        UINT32_MAX};
            cr_assert_eq(jfrp_profile_put_stacks(batched, v, n), 0);
            for (size_t j = 0; j < n; j++)
                cr_assert_eq(v[j].id, ids[i + j], "stack %zu", i + j);
            i += n;
        }
        assert_same_profiles(one, batched);
        jfr_profile_free(one);
        jfr_profile_free(batched);
    }
}

Test(put_stacks, a_stack_twice_in_one_batch_has_one_id)
{
    jfr_profile *p = new_profile();
    uint32_t a[] = {1, 2, 3}, b[] = {1, 2};
    jfrp_stack_put v[] = {
        {a, 3, 10, 1, 0}, {b, 2, 5, 1, 0}, {a, 3, 7, 2, 0}, {a, 3, 1, 1, 0}};
    uint64_t w;
    const uint32_t *f;
    size_t d;

    cr_assert_eq(jfrp_profile_put_stacks(p, v, 4), 0);
    cr_assert_eq(v[0].id, 0);
    cr_assert_eq(v[1].id, 1);
    cr_assert_eq(v[2].id, 0);
    cr_assert_eq(v[3].id, 0);
    cr_assert_eq(jfr_profile_stack_count(p), 2);
    cr_assert_eq(jfr_profile_stack(&w, &f, &d, p, 0), JFR_OK);
    cr_assert_eq(w, 18);
    cr_assert_eq(jfr_profile_total(p), 23);
    cr_assert_eq(jfr_profile_samples(p), 5);
    jfr_profile_free(p);
}

Test(put_stacks, more_than_a_batch_is_refused)
{
    jfr_profile *p = new_profile();
    uint32_t a[] = {1};
    jfrp_stack_put v[JFRP_PUT_BATCH + 1];

    for (size_t j = 0; j <= JFRP_PUT_BATCH; j++)
        v[j] = (jfrp_stack_put){a, 1, 1, 1, 0};
    cr_assert_eq(jfrp_profile_put_stacks(p, v, JFRP_PUT_BATCH + 1), JFR_EINVAL);
    cr_assert_eq(jfr_profile_stack_count(p), 0);
    jfr_profile_free(p);
}

/* jfr_profile_merge maps src's stacks in batches: dst gets them, and the
 * frames new to it, in src's first-seen order, as single puts would. */
Test(put_stacks, merge_keeps_first_seen_order)
{
    static stacks s;
    jfr_profile *src = new_profile(), *dst = new_profile(), *expect = new_profile();
    uint32_t id;

    make_stacks(&s, 99);
    for (size_t i = 0; i < NSTACKS; i++) {
        cr_assert_eq(jfrp_profile_put_stack(src, &id, s.frames[i], s.depth[i], 3, 1), 0);
        /* dst and expect already hold every other stack, with other weights */
        if (i % 2 == 0) {
            cr_assert_eq(jfrp_profile_put_stack(dst, &id, s.frames[i], s.depth[i], 1, 1),
                         0);
            cr_assert_eq(
                jfrp_profile_put_stack(expect, &id, s.frames[i], s.depth[i], 1, 1), 0);
        }
    }
    for (size_t i = 0; i < NSTACKS; i++)
        cr_assert_eq(jfrp_profile_put_stack(expect, &id, s.frames[i], s.depth[i], 3, 1),
                     0);
    cr_assert_eq(jfr_profile_merge(dst, src), JFR_OK);
    assert_same_profiles(dst, expect);
    jfr_profile_free(src);
    jfr_profile_free(dst);
    jfr_profile_free(expect);
}
