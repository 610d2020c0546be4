/* test_profile_folded.c - jfr_profile_folded and jfr_profile_write_folded
 * on stacks added by hand, against texts written out by hand: frames'
 * folded text, equal texts merged, weight 0 left out, lines in byte
 * order; the sink's pieces; and jfr_stack_order. (The same text as
 * `jfrtool folded` on recordings: tests/python/check-agree.py, and the
 * folded goldens of tests/profile/test_folded.py.) */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfr.h"
#include "profile_fixture.h"

static jfr_profile_frame frame(const char *name, int32_t line, jfr_frame_kind kind)
{
    jfr_profile_frame f = {0};

    f.name = name;
    f.line = line;
    f.kind = kind;
    f.time_bucket = INT64_MIN;
    return f;
}

static void add(jfr_profile *p, const jfr_profile_frame *f, size_t depth, uint64_t w)
{
    cr_assert_eq(jfr_profile_add_stack(p, f, depth, w, w ? w : 1), JFR_OK);
}

/* Stacks whose texts meet every rule: ' ' and ';' made '_' (so "a b" and
 * "a_b" are one text), a weight 0 stack, a line number, a JIT frame. */
static jfr_profile *sample_profile(void)
{
    jfr_profile *p = new_exec_profile(JFR_PROFILE_LINES | JFR_PROFILE_FRAME_KIND);
    jfr_profile_frame a[] = {frame("a b", -1, 0), frame("x;y", -1, 0)};
    jfr_profile_frame b[] = {frame("a_b", -1, 0), frame("x_y", -1, 0)};
    jfr_profile_frame zero[] = {frame("a_b", -1, 0), frame("z", -1, 0)};
    jfr_profile_frame jit = frame("Z", -1, JFR_FRAME_JIT);
    jfr_profile_frame line = frame("a_b", 12, 0);

    add(p, a, 2, 3);
    add(p, b, 2, 4);
    add(p, a, 1, 2);
    add(p, zero, 2, 0);
    add(p, &jit, 1, 1);
    add(p, &line, 1, 5);
    return p;
}

static void check_text(const jfr_profile *p, unsigned flags, const char *want)
{
    char *text;
    size_t len;

    cr_assert_eq(jfr_profile_folded(&text, &len, p, flags), JFR_OK);
    cr_assert_str_eq(text, want, "flags %u", flags);
    cr_assert_eq(len, strlen(want));
    jfr_profile_bytes_free(text);
}

Test(folded, texts_merged_and_in_byte_order)
{
    jfr_profile *p = sample_profile();

    check_text(p, 0, "Z 1\na_b 7\na_b;x_y 7\n");
    check_text(p, JFR_FRAME_TEXT_LINES, "Z 1\na_b 2\na_b:12 5\na_b;x_y 7\n");
    check_text(p, JFR_FRAME_TEXT_ANNOTATE, "Z_[j] 1\na_b 7\na_b;x_y 7\n");
    /* folded is always on: the frames' ' ' and ';' are made '_' */
    check_text(p, JFR_FRAME_TEXT_FOLDED, "Z 1\na_b 7\na_b;x_y 7\n");
    jfr_profile_free(p);
}

Test(folded, empty_profile_and_bad_arguments)
{
    jfr_profile *p = new_exec_profile(0);
    char x[] = "x", *text = x;
    size_t len = 9;

    check_text(p, 0, "");
    cr_assert_eq(jfr_profile_folded(&text, &len, NULL, 0), JFR_EINVAL);
    cr_assert_null(text);
    cr_assert_eq(len, 0);
    cr_assert_eq(jfr_profile_folded(NULL, &len, p, 0), JFR_EINVAL);
    cr_assert_eq(jfr_profile_write_folded(p, 0, NULL, NULL), JFR_EINVAL);
    jfr_profile_bytes_free(NULL);
    jfr_profile_free(p);
}

typedef struct pieces {
    char *text;
    size_t len, calls;
    int stop_with;
} pieces;

static int take_piece(void *user, const char *text, size_t len)
{
    pieces *ps = user;

    cr_assert(len > 0 && text[len - 1] == '\n', "a piece of whole lines");
    ps->text = realloc(ps->text, ps->len + len + 1);
    memcpy(ps->text + ps->len, text, len);
    ps->len += len;
    ps->text[ps->len] = '\0';
    ps->calls++;
    return ps->stop_with;
}

/* Lines enough for several pieces, whose frames the lines share. */
static jfr_profile *many_lines(void)
{
    jfr_profile *p = new_exec_profile(0);
    char names[3][32];

    for (int i = 0; i < 6000; i++) {
        jfr_profile_frame f[3];

        snprintf(names[0], sizeof names[0], "root.Thread.run");
        snprintf(names[1], sizeof names[1], "app.Worker.step%d", i / 100);
        snprintf(names[2], sizeof names[2], "app.Leaf.method%04d", i);
        for (int d = 0; d < 3; d++)
            f[d] = frame(names[d], -1, 0);
        add(p, f, 3, (uint64_t)i + 1);
    }
    return p;
}

Test(folded, the_sink_gets_whole_lines_and_can_stop)
{
    jfr_profile *p = many_lines();
    pieces all = {0}, first = {NULL, 0, 0, 42};
    char *text;
    size_t len;

    cr_assert_eq(jfr_profile_write_folded(p, 0, take_piece, &all), JFR_OK);
    cr_assert_gt(all.calls, 2, "%zu pieces", all.calls);
    cr_assert_eq(jfr_profile_folded(&text, &len, p, 0), JFR_OK);
    cr_assert_eq(all.len, len);
    cr_assert_str_eq(all.text, text);
    cr_assert(strstr(text, "root.Thread.run;app.Worker.step0;app.Leaf.method0000 1\n") ==
              text);
    cr_assert_eq(jfr_profile_write_folded(p, 0, take_piece, &first), 42);
    cr_assert_eq(first.calls, 1);
    cr_assert(first.len < len && strncmp(first.text, text, first.len) == 0);
    jfr_profile_bytes_free(text);
    free(all.text);
    free(first.text);
    jfr_profile_free(p);
}

Test(stack_order, by_keys_then_index_and_reversed)
{
    static const uint32_t p0[] = {2, 1}, p1[] = {2}, p2[] = {0, 1}, p3[] = {1},
                          p4[] = {1};
    const uint32_t *paths[] = {p0, p1, p2, p3, p4};
    const uint32_t depths[] = {2, 1, 2, 1, 1}, keys[] = {5, 3, 9};
    const uint32_t forward[] = {3, 4, 2, 1, 0}, reversed[] = {3, 4, 2, 0, 1};
    static const uint32_t bad[] = {3};
    const uint32_t *bad_paths[] = {bad};
    uint32_t order[5];

    /* keys by path: [9 3] [9] [5 3] [3] [3] */
    cr_assert_eq(jfr_stack_order(order, paths, depths, 5, keys, 3, 0, 0), JFR_OK);
    cr_assert_arr_eq(order, forward, sizeof order);
    /* from the leaves: [3 9] [9] [3 5] [3] [3] */
    cr_assert_eq(
        jfr_stack_order(order, paths, depths, 5, keys, 3, 0, JFR_STACK_ORDER_REVERSE),
        JFR_OK);
    cr_assert_arr_eq(order, reversed, sizeof order);
    /* a first id kept: [9 3] [9] [5 3] [3] [3] as forward */
    cr_assert_eq(
        jfr_stack_order(order, paths, depths, 5, keys, 3, 1, JFR_STACK_ORDER_REVERSE),
        JFR_OK);
    cr_assert_arr_eq(order, forward, sizeof order);
    cr_assert_eq(jfr_stack_order(order, bad_paths, depths, 1, keys, 3, 0, 0), JFR_EINVAL);
    cr_assert_eq(jfr_stack_order(NULL, paths, depths, 5, keys, 3, 0, 0), JFR_EINVAL);
}
