/* test_stack_sort.c - libjfr/stack_sort.c: stacks sorted by the keys of
 * their frames' texts must come out in the byte order of their folded
 * lines (strcmp of the texts joined by ';'), equal lines side by side.
 * Texts are drawn from bytes on both sides of ';' so that one text often
 * starts another ("a:1" and "a:1$"), the case a frame-by-frame text order
 * gets wrong. Equal lines must keep their ids in order, and stacks read
 * from the leaves (reverse) must sort as their reversed lines, and
 * neighbours must share as many leading frames as their texts do; sorting
 * in two threads must obey all of it (the order is then the same). Built
 * three times: test_stack_sort_heap forces the heap-sort fallback for
 * uneven splits, test_stack_sort_group groups ranges of three stacks or
 * more by the depth where they leave one of them (on the largest inputs
 * only, otherwise). Exits 1 on any failure. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stack_sort.h"

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);

    if (!p) {
        fputs("test_stack_sort: out of memory\n", stderr);
        exit(99);
    }
    return p;
}

static int failures;
static uint64_t seed = 0x2545F4914F6CDD1DULL;

static uint32_t next_random(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return (uint32_t)(seed >> 16);
}

/* Texts of 1 to 4 bytes; some repeat (frames of equal text). */
static frame_text *make_texts(size_t n)
{
    static const char bytes[] = "ab$:0(z_.9A~";
    frame_text *t = xcalloc(n, sizeof *t);

    for (size_t i = 0; i < n; i++) {
        size_t len = 1 + next_random() % 4;

        t[i].text = xcalloc(len + 1, 1);
        for (size_t j = 0; j < len; j++)
            t[i].text[j] = bytes[next_random() % (sizeof bytes - 1)];
        t[i].len = len;
    }
    return t;
}

static void free_texts(frame_text *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(t[i].text);
    free(t);
}

/* Frames after the first `fixed` last first when `reverse`. */
static bool reverse;
static uint32_t fixed;
/* threads the sort may use: two above JFRP_STACK_SORT_THREADED_FROM
 * stacks must give the same order as one */
static unsigned threads = 1;

static char *line_of(const stack_ref *s, const frame_text *texts)
{
    size_t len = 1;
    char *line, *p;

    for (uint32_t d = 0; d < s->depth; d++)
        len += texts[s->frames[d]].len + 1;
    p = line = xcalloc(len, 1);
    for (uint32_t d = 0; d < s->depth; d++) {
        uint32_t at = reverse && d >= fixed ? fixed + (s->depth - 1 - d) : d;

        if (d)
            *p++ = ';';
        memcpy(p, texts[s->frames[at]].text, texts[s->frames[at]].len);
        p += texts[s->frames[at]].len;
    }
    return line;
}

/* The leading frames of a and b of equal text, each followed by more
 * frames in both or in neither: what stack_keys_shared must count. */
static size_t shared_by_text(const stack_ref *a, const stack_ref *b,
                             const frame_text *texts)
{
    size_t d = 0;

    for (; d < a->depth && d < b->depth; d++) {
        uint32_t at_a =
            reverse && d >= fixed ? fixed + (a->depth - 1 - (uint32_t)d) : (uint32_t)d;
        uint32_t at_b =
            reverse && d >= fixed ? fixed + (b->depth - 1 - (uint32_t)d) : (uint32_t)d;

        if (strcmp(texts[a->frames[at_a]].text, texts[b->frames[at_b]].text) != 0 ||
            (d + 1 < a->depth) != (d + 1 < b->depth))
            break;
    }
    return d;
}

/* v sorted: lines in strcmp order, and equal lines exactly where the keys
 * say the stacks are equal. */
static void check(const char *what, stack_ref *v, size_t n, const frame_text *texts,
                  size_t ntexts)
{
    stack_keys k;
    char *prev = NULL;
    int bad = 0;

    if (jfrp_stack_keys_by_text(&k, texts, ntexts) != 0) {
        fputs("test_stack_sort: out of memory\n", stderr);
        exit(99);
    }
    k.reverse = reverse;
    k.fixed = fixed;
    jfrp_stack_sort(v, n, &k, threads);
    for (size_t i = 0; i < n && !bad; i++) {
        char *line = line_of(&v[i], texts);

        if (prev) {
            int c = strcmp(prev, line);
            bool same_keys = v[i - 1].depth == v[i].depth &&
                             jfrp_stack_keys_shared(&v[i - 1], &v[i], &k) == v[i].depth;

            size_t shared = jfrp_stack_keys_shared(&v[i - 1], &v[i], &k);

            if (shared != shared_by_text(&v[i - 1], &v[i], texts)) {
                printf("FAIL: %s: \"%s\" and \"%s\": %zu frames shared, not %zu\n", what,
                       prev, line, shared, shared_by_text(&v[i - 1], &v[i], texts));
                bad = 1;
            } else if (c > 0) {
                printf("FAIL: %s: \"%s\" before \"%s\"\n", what, prev, line);
                bad = 1;
            } else if ((c == 0) != same_keys) {
                printf("FAIL: %s: \"%s\" and \"%s\": keys %s\n", what, prev, line,
                       same_keys ? "equal" : "differ");
                bad = 1;
            } else if (c == 0 && v[i - 1].id > v[i].id) {
                printf("FAIL: %s: equal \"%s\": id %u before %u\n", what, line,
                       v[i - 1].id, v[i].id);
                bad = 1;
            }
        }
        free(prev);
        prev = line;
    }
    free(prev);
    jfrp_stack_keys_free(&k);
    failures += bad;
    if (!bad)
        printf("ok: %s (%zu stacks)\n", what, n);
}

/* n stacks of up to max_depth frames out of nframes, after a shared prefix
 * of `shared` frames; frame ids are stored in `store`. */
static stack_ref *make_stacks(size_t n, uint32_t shared, uint32_t max_depth,
                              uint32_t nframes, uint32_t **store)
{
    stack_ref *v = xcalloc(n ? n : 1, sizeof *v);
    uint32_t *ids = xcalloc(n * (shared + max_depth) + 1, sizeof *ids);

    for (size_t i = 0; i < n; i++) {
        uint32_t *f = ids + i * (shared + max_depth);
        uint32_t depth = shared + 1 + next_random() % max_depth;

        for (uint32_t d = 0; d < depth; d++)
            f[d] = d < shared ? d % nframes : next_random() % nframes;
        v[i] = (stack_ref){f, depth, (uint32_t)i};
    }
    *store = ids;
    return v;
}

/* As make_stacks, but `leaving` stacks in a thousand leave the shared
 * prefix early, at a depth of their own, for a frame below or above it:
 * the shape of real recordings, where a few stacks leave the threads'
 * entry frames that all the others share. */
static void make_some_leave(uint32_t *store, size_t n, uint32_t stride, uint32_t shared,
                            uint32_t nframes, uint32_t leaving)
{
    for (size_t i = 0; i < n && shared && leaving; i++) {
        uint32_t *f = store + i * stride, d = next_random() % shared;

        if (next_random() % 1000 < leaving)
            f[d] = (f[d] + 1 + next_random() % (nframes - 1)) % nframes;
    }
}

static void run_leaving(const char *what, size_t n, uint32_t shared, uint32_t max_depth,
                        uint32_t nframes, uint32_t leaving)
{
    frame_text *texts = make_texts(nframes);
    uint32_t *store;
    stack_ref *v = make_stacks(n, shared, max_depth, nframes, &store);

    make_some_leave(store, n, shared + max_depth, shared, nframes, leaving);
    check(what, v, n, texts, nframes);
    free_texts(texts, nframes);
    free(store);
    free(v);
}

static void run(const char *what, size_t n, uint32_t shared, uint32_t max_depth,
                uint32_t nframes)
{
    run_leaving(what, n, shared, max_depth, nframes, 0);
}

/* Prefixes of one stack 70,000 frames deep, some of equal depth: stacks
 * part deeper than a sort step counts depths for. */
static void run_prefixes(void)
{
    enum { DEEP = 70000, N = 300 };
    frame_text *texts = make_texts(50);
    uint32_t *ids = xcalloc(DEEP + N, sizeof *ids);
    stack_ref *v = xcalloc(N, sizeof *v);

    for (size_t i = 0; i < DEEP + N; i++)
        ids[i] = next_random() % 50;
    for (size_t i = 0; i < N; i++)
        v[i] =
            (stack_ref){ids, DEEP - N + (uint32_t)(next_random() % (2 * N)), (uint32_t)i};
    check("prefixes of one stack 70,000 frames deep", v, N, texts, 50);
    free_texts(texts, 50);
    free(ids);
    free(v);
}

/* The same stack many times, and in reverse line order. */
static void run_ordered(void)
{
    enum { N = 3000 };
    frame_text *texts = make_texts(64);
    uint32_t *ids = xcalloc(N * 3, sizeof *ids);
    stack_ref *v = xcalloc(N, sizeof *v);

    for (size_t i = 0; i < N; i++) {
        ids[3 * i] = ids[3 * i + 1] = ids[3 * i + 2] = 7;
        v[i] = (stack_ref){ids + 3 * i, 3, (uint32_t)i};
    }
    check("one stack 3000 times", v, N, texts, 64);
    for (size_t i = 0; i < N; i++) {
        ids[3 * i] = (uint32_t)(i % 64);
        ids[3 * i + 1] = (uint32_t)((i / 64) % 64);
        v[i] = (stack_ref){ids + 3 * i, 2, (uint32_t)i};
    }
    check("all pairs", v, N, texts, 64);
    check("all pairs, sorted again", v, N, texts, 64);
    for (size_t i = 0; i < N / 2; i++) {
        stack_ref s = v[i];
        v[i] = v[N - 1 - i];
        v[N - 1 - i] = s;
    }
    check("all pairs, reversed", v, N, texts, 64);
    free_texts(texts, 64);
    free(ids);
    free(v);
}

int main(void)
{
    run("no stacks", 0, 0, 1, 4);
    run("one stack", 1, 0, 5, 4);
    run("few frames, short stacks", 5000, 0, 6, 12);
    run("many frames", 20000, 0, 10, 400);
    run("long shared prefix", 2000, 600, 8, 50);
    run("deep random stacks", 500, 0, 1500, 30);
    run_leaving("a few leave a long shared prefix", 20000, 40, 8, 50, 30);
    run_leaving("many leave a long shared prefix", 20000, 40, 8, 50, 300);
    run_leaving("a few leave a prefix 150 frames deep", 9000, 150, 4, 20, 20);
    run_ordered();
    run_prefixes();
    reverse = true;
    run("reversed, few frames", 5000, 0, 6, 12);
    run("reversed, long shared prefix", 2000, 300, 8, 50);
    run_leaving("reversed, a few leave a long shared prefix", 20000, 40, 8, 50, 30);
    fixed = 2;
    run("reversed after two fixed frames", 5000, 0, 6, 12);
    run_ordered();
    threads = 2;
    reverse = false;
    fixed = 0;
    run("two threads, many frames", 100000, 0, 10, 400);
    run("two threads, long shared prefix", 70000, 40, 8, 50);
    run_leaving("two threads, a few leave a long shared prefix", 70000, 40, 8, 50, 30);
    run("two threads, few frames (many equal stacks)", 90000, 0, 3, 6);
    reverse = true;
    run("two threads, reversed", 80000, 0, 6, 12);
    return failures ? 1 : 0;
}
