/* test_alloc_fail.c - allocation failures: a test allocator fails the Nth
 * allocation, for every N until a run needs fewer; each run opens a small
 * recording from memory (plain and gzip), walks every chunk and event,
 * resolves stacks and threads, decodes every value, and feeds the profile
 * (directly, and chunk by chunk through jfr_profile_merge) and the leak
 * analysis. Each injected failure must surface (a negative return
 * or a chunk warning), and every block must be freed again: the allocator
 * counts them, and the sanitizer build's LeakSanitizer checks the rest. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#include <stdlib.h>
#include <string.h>
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include <criterion/criterion.h>

#include "jfr.h"
#include "jfr/leaks.h"
#include "jfr/profile.h"
#include "samples.h"

typedef struct failing {
    long calls;    /* allocations so far */
    long fail_at;  /* 1-based allocation that fails; 0: none */
    bool injected; /* the failure happened */
    long live;     /* blocks allocated and not freed */
} failing;

static bool should_fail(failing *f)
{
    if (++f->calls == f->fail_at) {
        f->injected = true;
        return true;
    }
    return false;
}

static void *f_malloc(size_t size, void *ctx)
{
    failing *f = ctx;
    void *p;

    if (should_fail(f))
        return NULL;
    p = malloc(size ? size : 1);
    f->live += p != NULL;
    return p;
}

static void *f_realloc(void *ptr, size_t size, void *ctx)
{
    failing *f = ctx;
    void *p;

    if (should_fail(f))
        return NULL;
    p = realloc(ptr, size ? size : 1);
    f->live += p && !ptr;
    return p;
}

static void f_free(void *ptr, void *ctx)
{
    failing *f = ctx;

    f->live -= ptr != NULL;
    free(ptr);
}

/* Decode a value and everything under it; the first failure, or 0. */
static int walk_value(const jfr_value *v, int depth)
{
    jfr_cursor cur;
    jfr_value child;
    int rc;

    if ((v->kind != JFR_VALUE_OBJECT && v->kind != JFR_VALUE_ARRAY) || depth > 16)
        return 0;
    if ((rc = jfr_value_iter(&cur, v)) < 0)
        return rc;
    while ((rc = jfr_cursor_next(&child, &cur)) == JFR_OK)
        if ((rc = walk_value(&child, depth + 1)) < 0)
            return rc;
    return rc < 0 ? rc : 0;
}

static int walk_event(jfr_chunk *chunk, const jfr_event *ev)
{
    const jfr_stacktrace *st;
    jfr_thread th;
    jfr_frame fr;
    jfr_value v;
    int rc;

    rc = jfr_event_stacktrace(&st, ev);
    if (rc == JFR_OK) {
        for (size_t i = 0; i < jfr_stacktrace_depth(st); i++)
            if ((rc = jfr_stacktrace_frame(&fr, st, i)) < 0)
                return rc;
    } else if (rc != JFR_ENOTFOUND) {
        return rc;
    }
    rc = jfr_event_thread(&th, ev, NULL);
    if (rc < 0 && rc != JFR_ENOTFOUND)
        return rc;
    if ((rc = jfr_event_value(&v, ev)) < 0)
        return rc;
    (void)chunk;
    return walk_value(&v, 0);
}

/* Everything a reader does with a recording; the first failure, or 0 (a
 * chunk warning counts as a failure that surfaced). */
static int read_all(const jg_buf *b, const jfr_allocator *al, bool chains)
{
    jfr_options o = JFR_OPTIONS_INIT;
    jfr_profile_options po = JFR_PROFILE_OPTIONS_INIT, compact;
    jfr_leaks_options lo = JFR_LEAKS_OPTIONS_INIT;
    jfr_recording *rec = NULL;
    jfr_profile *prof = NULL, *merged = NULL;
    jfr_leaks *leaks = NULL;
    jfr_chunk *chunk;
    const jfr_leak_rank *rows;
    size_t nrows;
    jfr_error err;
    int rc, first = 0;

    o.allocator = al;
    po.allocator = al;
    po.event_type = "jdk.ExecutionSample";
    po.flags = JFR_PROFILE_THREADS | JFR_PROFILE_LINES;
    /* the merged profile keeps its stacks compact (profile_compact.c) */
    compact = po;
    compact.flags |= JFR_PROFILE_COMPACT_STACKS;
    lo.allocator = al;
    if ((rc = jfr_recording_open_memory(&rec, b->data, b->len, &o, &err)) < 0)
        return rc;
    if ((rc = jfr_profile_new(&prof, &po, &err)) < 0 ||
        (rc = jfr_profile_new(&merged, &compact, &err)) < 0 ||
        (rc = jfr_leaks_new(&leaks, &lo, &err)) < 0) {
        first = rc;
        goto out;
    }
    while ((rc = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE) {
        jfr_event_iter *it;
        const jfr_event *ev;

        if (rc < 0) {
            first = first ? first : rc;
            continue;
        }
        if ((rc = jfr_event_iter_new(&it, chunk, NULL, 0, 0)) < 0) {
            first = first ? first : rc;
            continue;
        }
        while ((rc = jfr_event_next(&ev, it)) == JFR_OK)
            if ((rc = walk_event(chunk, ev)) < 0 && !first)
                first = rc;
        if (rc < 0 && !first)
            first = rc;
        jfr_event_iter_free(it);
        if ((rc = jfr_profile_add_chunk(prof, chunk)) < 0 && !first)
            first = rc;
        {
            /* a chunk profile merged in, as jfrtool --jobs does */
            jfr_profile *one = NULL;
            if ((rc = jfr_profile_new(&one, &po, &err)) < 0 ||
                (rc = jfr_profile_add_chunk(one, chunk)) < 0 ||
                (rc = jfr_profile_merge(merged, one)) < 0)
                first = first ? first : rc;
            jfr_profile_free(one);
        }
        if ((rc = jfr_leaks_add_chunk(leaks, chunk)) < 0 && !first)
            first = rc;
        if (jfr_chunk_warning(chunk) && !first)
            first = jfr_chunk_warning(chunk)->code;
    }
    if ((rc = jfr_profile_build_tree(prof)) < 0 && !first)
        first = rc;
    if (jfr_profile_stack_count(merged)) {
        const uint32_t *frames;
        size_t depth;
        void *saved = NULL;
        size_t size;

        /* saved as stored, then rewritten in 4-byte ids */
        if ((rc = jfr_profile_save(&saved, &size, merged)) < 0 && !first)
            first = rc;
        jfr_profile_bytes_free(saved);
        if ((rc = jfr_profile_stack(NULL, &frames, &depth, merged, 0)) < 0 && !first)
            first = rc;
    }
    if ((rc = jfr_leaks_build_trees(leaks)) < 0 && !first)
        first = rc;
    if ((rc = jfr_leaks_rank(&rows, &nrows, leaks, JFR_LEAKS_BY_SITE, JFR_LEAK_NONE)) <
            0 &&
        !first)
        first = rc;
    (void)jfr_leaks_candidate_count(leaks);
    if (chains && !first && jfr_leaks_node_count(leaks) == 0)
        first = JFR_ENOMEM; /* the samples have chains: no nodes means a failure */
out:
    jfr_leaks_free(leaks);
    jfr_profile_free(prof);
    jfr_profile_free(merged);
    jfr_recording_free(rec);
    return first;
}

static void sweep(const jg_buf *b, const char *what, bool chains)
{
    long n;

    for (n = 1;; n++) {
        failing f = {0, n, false, 0};
        jfr_allocator al = {f_malloc, f_realloc, f_free, &f};
        int rc = read_all(b, &al, chains);

        cr_assert_eq(f.live, 0, "%s: failing allocation %ld: %ld blocks not freed", what,
                     n, f.live);
        if (!f.injected) {
            cr_assert_eq(rc, 0, "%s: no failure injected but the read failed: %s", what,
                         jfr_strerror(rc));
            break;
        }
        cr_assert_lt(rc, 0, "%s: allocation %ld of %ld failed unnoticed", what, n,
                     f.calls);
        cr_assert_neq(rc, JFR_ECORRUPT,
                      "%s: allocation %ld failed, reported as corrupt data", what, n);
    }
    cr_assert_gt(n, 50, "%s: only %ld allocations: the sweep tests little", what, n);
}

static void sample(const char *name, jg_buf *b)
{
    cr_assert(sample_build(name, b), "no sample %s", name);
}

Test(alloc_fail, mini_two_chunks)
{
    jg_buf b = {0};

    sample("mini-2chunks", &b);
    sweep(&b, "mini-2chunks", false);
    jg_buf_free(&b);
}

Test(alloc_fail, leak_chains)
{
    jg_buf b = {0};

    sample("leak", &b);
    sweep(&b, "leak", true);
    jg_buf_free(&b);
}

#ifdef HAVE_ZLIB
Test(alloc_fail, gzip_input)
{
    jg_buf b = {0}, gz = {0};
    z_stream z;

    sample("mini", &b);
    memset(&z, 0, sizeof z);
    cr_assert_eq(deflateInit2(&z, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
    gz.cap = deflateBound(&z, b.len) + 64;
    gz.data = malloc(gz.cap);
    z.next_in = b.data;
    z.avail_in = (uInt)b.len;
    z.next_out = gz.data;
    z.avail_out = (uInt)gz.cap;
    cr_assert_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    gz.len = z.total_out;
    deflateEnd(&z);
    sweep(&gz, "mini.gz", false);
    jg_buf_free(&gz);
    jg_buf_free(&b);
}
#endif
