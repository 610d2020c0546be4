/* test_folded_threads.c - jfr_profile_write_folded in two threads (lines
 * sorted and their text made in blocks by a helper) gives the bytes one
 * thread gives, the sink's pieces in order, whatever the profile: many
 * distinct stacks, lines whose texts are equal (merged into one, so no
 * block may start between them), a sink that fails part way. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfr.h"
#include "profile_private.h"

/* Above JFRP_STACK_SORT_THREADED_FROM lines, so two threads are used. */
#define STACKS 90000

static uint64_t seed = 0x9E3779B97F4A7C15ULL;

static uint32_t next_random(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return (uint32_t)(seed >> 16);
}

/* Stacks of 3 to 40 frames over 300 names; every other stack has a twin
 * whose leaf differs only by ' ' against '_', the same text. */
static jfr_profile *many_stacks(void)
{
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    static char names[300][16];
    jfr_profile_frame f[41];
    jfr_profile *p;
    jfr_error err;

    o.event_type = "jdk.ExecutionSample";
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_OK, "%s", err.message);
    for (int i = 0; i < 300; i++)
        snprintf(names[i], sizeof names[i], "pkg.C%d.m", i);
    memset(f, 0, sizeof f);
    for (int i = 0; i < STACKS / 2; i++) {
        size_t depth = 3 + next_random() % 38;
        char leaf[2][32];

        for (size_t d = 0; d < depth; d++) {
            /* shared roots, as real stacks have */
            f[d].name = names[d < 3 ? d : next_random() % 300];
            f[d].time_bucket = INT64_MIN;
        }
        snprintf(leaf[0], sizeof leaf[0], "leaf %d", i);
        snprintf(leaf[1], sizeof leaf[1], "leaf_%d", i);
        for (int twin = 0; twin < 1 + (i % 2); twin++) {
            f[depth].name = leaf[twin];
            f[depth].time_bucket = INT64_MIN;
            cr_assert_eq(jfr_profile_add_stack(p, f, depth + 1, 1 + i % 7, 1), JFR_OK);
        }
    }
    return p;
}

static char *folded_in(jfr_profile *p, unsigned threads, size_t *len)
{
    char *text;

    p->threads = threads;
    cr_assert_eq(jfr_profile_folded(&text, len, p, 0), JFR_OK);
    return text;
}

Test(folded_threads, two_threads_write_the_bytes_of_one)
{
    jfr_profile *p = many_stacks();
    size_t n1, n2, lines = 0;
    char *one = folded_in(p, 1, &n1), *two = folded_in(p, 2, &n2);

    cr_assert_eq(n1, n2);
    cr_assert(memcmp(one, two, n1) == 0, "the texts differ");
    for (size_t i = 0; i < n1; i++)
        lines += one[i] == '\n';
    /* twins are one line: STACKS / 2 distinct texts */
    cr_assert_eq(lines, STACKS / 2);
    cr_assert(strstr(one, ";leaf_1 ") != NULL && strstr(one, "leaf 1") == NULL);
    free(one);
    free(two);
    jfr_profile_free(p);
}

/* A sink that takes `left` pieces, then fails. */
typedef struct failing {
    int left;
    size_t got;
} failing;

static int take_some(void *user, const char *text, size_t len)
{
    failing *f = user;

    (void)text;
    if (f->left-- <= 0)
        return JFR_EIO;
    f->got += len;
    return JFR_OK;
}

Test(folded_threads, a_failing_sink_stops_both_threads)
{
    jfr_profile *p = many_stacks();
    failing f = {5, 0};

    p->threads = 2;
    cr_assert_eq(jfr_profile_write_folded(p, 0, take_some, &f), JFR_EIO);
    cr_assert_gt(f.got, 0);
    jfr_profile_free(p);
}

/* jfr_stack_order with JFR_STACK_ORDER_TWO_THREADS: the order of one
 * thread, forwards and from the leaves, with many equal paths. */
Test(folded_threads, stack_order_in_two_threads)
{
    enum { N = 80000, MAX_DEPTH = 12, NKEYS = 40 };
    uint32_t *ids = calloc((size_t)N * MAX_DEPTH, sizeof *ids);
    const uint32_t **paths = calloc(N, sizeof *paths);
    uint32_t *depths = calloc(N, sizeof *depths), keys[NKEYS];
    uint32_t *one = calloc(N, sizeof *one), *two = calloc(N, sizeof *two);

    cr_assert(ids && paths && depths && one && two);
    for (uint32_t k = 0; k < NKEYS; k++)
        keys[k] = next_random() % 25; /* some ids share a key */
    for (size_t i = 0; i < N; i++) {
        depths[i] = 1 + next_random() % MAX_DEPTH;
        paths[i] = ids + i * MAX_DEPTH;
        for (uint32_t d = 0; d < depths[i]; d++)
            ids[i * MAX_DEPTH + d] = d < 2 ? d : next_random() % 6 + (i % 3) * 6;
    }
    for (unsigned reverse = 0; reverse <= JFR_STACK_ORDER_REVERSE; reverse++) {
        cr_assert_eq(jfr_stack_order(one, paths, depths, N, keys, NKEYS, 1, reverse),
                     JFR_OK);
        cr_assert_eq(jfr_stack_order(two, paths, depths, N, keys, NKEYS, 1,
                                     reverse | JFR_STACK_ORDER_TWO_THREADS),
                     JFR_OK);
        cr_assert(memcmp(one, two, N * sizeof *one) == 0, "orders differ (reverse %u)",
                  reverse);
    }
    free(ids);
    free(paths);
    free(depths);
    free(one);
    free(two);
}
