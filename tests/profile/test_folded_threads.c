/* test_folded_threads.c - jfr_profile_write_folded in two threads (lines
 * sorted and their text made in blocks by a helper) gives the bytes one
 * thread gives, the sink's pieces in order, whatever the profile: many
 * distinct stacks, lines whose texts are equal (merged into one, so no
 * block may start between them), a sink that fails part way, a slow sink
 * (the calling thread then makes blocks ahead too); and
 * jfr_stack_order in two threads. Plain C, not Criterion, so that CI can
 * run it under ThreadSanitizer (Criterion's runner does not start there).
 * Exits 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jfr.h"
#include "profile_struct.h"

static int failures;

/* A failed check is reported and counted; the test goes on. */
#define check(cond, ...)                                                                 \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            printf("FAIL: %s:%d: ", __FILE__, __LINE__);                                 \
            printf(__VA_ARGS__);                                                         \
            putchar('\n');                                                               \
            failures++;                                                                  \
        }                                                                                \
    } while (0)

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
    if (jfr_profile_new(&p, &o, &err) != JFR_OK) {
        printf("FAIL: jfr_profile_new: %s\n", err.message);
        exit(1);
    }
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
            check(jfr_profile_add_stack(p, f, depth + 1, 1 + i % 7, 1) == JFR_OK,
                  "jfr_profile_add_stack");
        }
    }
    return p;
}

static char *folded_in(jfr_profile *p, unsigned threads, size_t *len)
{
    char *text;

    p->threads = threads;
    if (jfr_profile_folded(&text, len, p, 0) != JFR_OK) {
        printf("FAIL: jfr_profile_folded in %u threads\n", threads);
        exit(1);
    }
    return text;
}

static void two_threads_write_the_bytes_of_one(void)
{
    jfr_profile *p = many_stacks();
    size_t n1, n2, lines = 0;
    char *one = folded_in(p, 1, &n1), *two = folded_in(p, 2, &n2);

    check(n1 == n2 && memcmp(one, two, n1) == 0, "the texts differ (%zu, %zu bytes)", n1,
          n2);
    for (size_t i = 0; i < n1; i++)
        lines += one[i] == '\n';
    /* twins are one line: STACKS / 2 distinct texts */
    check(lines == STACKS / 2, "%zu lines, not %d", lines, STACKS / 2);
    check(strstr(one, ";leaf_1 ") != NULL && strstr(one, "leaf 1") == NULL,
          "twins are not one line");
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

static void a_failing_sink_stops_both_threads(void)
{
    jfr_profile *p = many_stacks();
    failing f = {5, 0};

    p->threads = 2;
    check(jfr_profile_write_folded(p, 0, take_some, &f) == JFR_EIO,
          "not the sink's error");
    check(f.got > 0, "nothing written before the sink failed");
    jfr_profile_free(p);
}

/* A sink that keeps every piece, slowly every few pieces: the calling
 * thread, busy writing, leaves the helper most blocks, and makes later
 * ones itself while it waits for the one due. */
typedef struct slow_sink {
    char *text;
    size_t len, room, pieces;
} slow_sink;

static int keep_slowly(void *user, const char *text, size_t len)
{
    slow_sink *k = user;

    if (++k->pieces % 4 == 0) {
        struct timespec pause = {0, 2000000};
        nanosleep(&pause, NULL);
    }
    if (k->len + len > k->room) {
        k->room = 2 * (k->len + len);
        if (!(k->text = realloc(k->text, k->room)))
            return JFR_ENOMEM;
    }
    memcpy(k->text + k->len, text, len);
    k->len += len;
    return JFR_OK;
}

static void a_slow_sink_gets_the_bytes_of_one_thread(void)
{
    jfr_profile *p = many_stacks();
    slow_sink k = {NULL, 0, 0, 0};
    size_t n1;
    char *one = folded_in(p, 1, &n1);

    p->threads = 2;
    check(jfr_profile_write_folded(p, 0, keep_slowly, &k) == JFR_OK,
          "jfr_profile_write_folded with a slow sink");
    check(k.len == n1 && memcmp(k.text, one, n1) == 0,
          "a slow sink's text differs (%zu, %zu bytes)", k.len, n1);
    free(k.text);
    free(one);
    jfr_profile_free(p);
}

/* jfr_stack_order with JFR_STACK_ORDER_TWO_THREADS: the order of one
 * thread, forwards and from the leaves, with many equal paths. */
static void stack_order_in_two_threads(void)
{
    enum { N = 80000, MAX_DEPTH = 12, NKEYS = 40 };
    uint32_t *ids = calloc((size_t)N * MAX_DEPTH, sizeof *ids);
    const uint32_t **paths = calloc(N, sizeof *paths);
    uint32_t *depths = calloc(N, sizeof *depths), keys[NKEYS];
    uint32_t *one = calloc(N, sizeof *one), *two = calloc(N, sizeof *two);

    if (!ids || !paths || !depths || !one || !two) {
        puts("FAIL: out of memory");
        exit(1);
    }
    for (uint32_t k = 0; k < NKEYS; k++)
        keys[k] = next_random() % 25; /* some ids share a key */
    for (size_t i = 0; i < N; i++) {
        depths[i] = 1 + next_random() % MAX_DEPTH;
        paths[i] = ids + i * MAX_DEPTH;
        for (uint32_t d = 0; d < depths[i]; d++)
            ids[i * MAX_DEPTH + d] = d < 2 ? d : next_random() % 6 + (i % 3) * 6;
    }
    for (unsigned reverse = 0; reverse <= JFR_STACK_ORDER_REVERSE; reverse++) {
        check(jfr_stack_order(one, paths, depths, N, keys, NKEYS, 1, reverse) == JFR_OK,
              "jfr_stack_order");
        check(jfr_stack_order(two, paths, depths, N, keys, NKEYS, 1,
                              reverse | JFR_STACK_ORDER_TWO_THREADS) == JFR_OK,
              "jfr_stack_order, two threads");
        check(memcmp(one, two, N * sizeof *one) == 0, "orders differ (reverse %u)",
              reverse);
    }
    /* an id without a key is refused in either thread's half of the paths */
    for (size_t at = 0; at < N; at += N - 1) {
        uint32_t kept = ids[at * MAX_DEPTH + depths[at] - 1];

        ids[at * MAX_DEPTH + depths[at] - 1] = NKEYS;
        check(jfr_stack_order(two, paths, depths, N, keys, NKEYS, 1,
                              JFR_STACK_ORDER_TWO_THREADS) == JFR_EINVAL,
              "an id past the keys in path %zu taken", at);
        ids[at * MAX_DEPTH + depths[at] - 1] = kept;
    }
    free(ids);
    free(paths);
    free(depths);
    free(one);
    free(two);
}

int main(void)
{
    two_threads_write_the_bytes_of_one();
    a_failing_sink_stops_both_threads();
    a_slow_sink_gets_the_bytes_of_one_thread();
    stack_order_in_two_threads();
    printf("test_folded_threads: %d failures\n", failures);
    return failures ? 1 : 0;
}
