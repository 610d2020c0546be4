/* report_profiles.c - the report's profiles: one jfr_profile per profile
 * kind, with thread roots and time buckets (jfr_profile_options version
 * 3), built in threads chunk by chunk and merged in chunk order. For the
 * page, each stack loses its two roots: what remains is interned once,
 * and a cell (stack, thread, bucket, weight) says how much of it fell in
 * that bucket on that thread, so the page can add up any range of whole
 * buckets and any thread. A page stack is the tail of the profile stack
 * where it was first met: its frames are read there when the page is
 * written, never kept twice. The profiles keep their stacks compact (1 or
 * 2 bytes a frame while the ids fit), so every read is a copy-out into a
 * buffer of this file's (frame_buf). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "json_blocks.h"
#include "report.h"

struct report_profile {
    const jfr_profile_kind *kind;
    jfr_profile *p;
    /* for the page */
    uint32_t *frame_of;    /* profile frame id -> page frame + 1 (0: not yet) */
    uint32_t *page_frames; /* page frame -> profile frame id */
    size_t nframes;
    /* page stack -> the profile stack whose last frames it is */
    uint32_t *stack_src;
    size_t *stack_off; /* nstacks + 1 offsets into the page's frame list */
    size_t nstacks, stack_cap;
    char **threads; /* thread names ("[thread NAME tid=N]" without brackets) */
    size_t nthreads;
    uint64_t *thread_total;
    /* cells */
    uint32_t *c_stack;
    int32_t *c_thread; /* -1: no thread root */
    int64_t *c_bucket; /* -1: no time */
    uint64_t *c_weight;
    size_t ncells, cell_cap;
};

/* Room for one stack's frames, grown as stacks need. */
typedef struct frame_buf {
    uint32_t *f;
    size_t room;
} frame_buf;

/* Profile stack `i`'s frames in `b`; its depth in *depth, its weight in
 * *weight (may be NULL). */
static const uint32_t *copy_stack(frame_buf *b, const jfr_profile *p, size_t i,
                                  size_t *depth, uint64_t *weight)
{
    if (!b->f) {
        b->room = 64;
        b->f = xmalloc(b->room * sizeof *b->f);
    }
    if (jfr_profile_stack_copy(weight, b->f, b->room, depth, p, i) == JFR_ELIMIT) {
        b->room = 2 * *depth;
        b->f = xrealloc(b->f, b->room, sizeof *b->f);
        (void)jfr_profile_stack_copy(weight, b->f, b->room, depth, p, i);
    }
    return b->f;
}

/* The inputs, opened one at a time as the profiles' walk comes to them
 * and freed when it is done with them. */
typedef struct inputs {
    const report *r;
    jfr_recording **recs;
} inputs;

static jfr_recording *open_input(size_t i, void *user)
{
    inputs *in = user;
    jfr_error err;

    /* what cannot be opened was told by the first pass */
    if (report_open(in->r, in->r->files[i], &in->recs[i], &err) < 0)
        in->recs[i] = NULL;
    return in->recs[i];
}

static void input_done(const jfr_profile_build_report *rep, void *user)
{
    inputs *in = user;

    if (rep->chunk)
        return;
    jfr_recording_free(in->recs[rep->input]);
    in->recs[rep->input] = NULL;
}

/* flame.html's colour classes ("k" codes; jfrtool/flame_tree.h's FK_*) */
static int kind_code(const jfr_profile_frame *f)
{
    if (f->synthetic)
        return 5;
    switch (f->kind) {
    case JFR_FRAME_JIT:
    case JFR_FRAME_C1:
        return 0;
    case JFR_FRAME_INLINED:
        return 1;
    case JFR_FRAME_INTERPRETED:
        return 2;
    case JFR_FRAME_NATIVE:
        return 3;
    case JFR_FRAME_CPP:
        return 4;
    case JFR_FRAME_KERNEL:
        return 8;
    default:
        return 7;
    }
}

static uint32_t page_frame(report_profile *rp, uint32_t id)
{
    if (!rp->frame_of[id]) {
        rp->page_frames =
            xrealloc(rp->page_frames, rp->nframes + 1, sizeof *rp->page_frames);
        rp->page_frames[rp->nframes++] = id;
        rp->frame_of[id] = (uint32_t)rp->nframes;
    }
    return rp->frame_of[id] - 1;
}

static int32_t thread_index(report_profile *rp, strmap *threads, const char *label)
{
    long i = strmap_get(threads, label);
    size_t len = strlen(label);

    if (i >= 0)
        return (int32_t)i;
    rp->threads = xrealloc(rp->threads, rp->nthreads + 1, sizeof *rp->threads);
    rp->thread_total =
        xrealloc(rp->thread_total, rp->nthreads + 1, sizeof *rp->thread_total);
    /* "[thread main tid=1]" -> "main tid=1" */
    rp->threads[rp->nthreads] = xstrndup(label + 8, len > 9 ? len - 9 : 0);
    rp->thread_total[rp->nthreads] = 0;
    strmap_put(threads, label, rp->nthreads);
    return (int32_t)rp->nthreads++;
}

static void add_cell(report_profile *rp, uint32_t stack, int32_t thread, int64_t bucket,
                     uint64_t weight)
{
    if (rp->ncells == rp->cell_cap) {
        rp->cell_cap = rp->cell_cap ? 2 * rp->cell_cap : 1024;
        rp->c_stack = xrealloc(rp->c_stack, rp->cell_cap, sizeof *rp->c_stack);
        rp->c_thread = xrealloc(rp->c_thread, rp->cell_cap, sizeof *rp->c_thread);
        rp->c_bucket = xrealloc(rp->c_bucket, rp->cell_cap, sizeof *rp->c_bucket);
        rp->c_weight = xrealloc(rp->c_weight, rp->cell_cap, sizeof *rp->c_weight);
    }
    rp->c_stack[rp->ncells] = stack;
    rp->c_thread[rp->ncells] = thread;
    rp->c_bucket[rp->ncells] = bucket;
    rp->c_weight[rp->ncells] = weight;
    rp->ncells++;
}

/* The page stacks met so far, found by their frames: slots hold a stack's
 * index + 1 and compare against the profile's own frames, so that no
 * frames are copied (a copy of every stack's frames was a third of the
 * report's peak memory). Profile frames map one to one to page frames,
 * so comparing the one compares the other. Each page stack's hash is
 * kept: growing the set and most misses then read no frames. */
typedef struct stack_set {
    uint32_t *slots;
    size_t cap, count;
    uint32_t *hash_of; /* by page stack */
    size_t hash_cap;
} stack_set;

/* Four lanes, each a chain of multiplies over every fourth frame: one
 * chain over all frames waited on each multiply in turn. */
static uint32_t frames_hash(const uint32_t *f, size_t n)
{
    const uint64_t m = 0xff51afd7ed558ccdu;
    uint64_t a = 0x9e3779b97f4a7c15u ^ n, b = 0xc2b2ae3d27d4eb4fu,
             c = 0x165667b19e3779f9u, d = 0x27d4eb2f165667c5u, h;
    size_t i = 0;

    for (; i + 4 <= n; i += 4) {
        a = (a ^ f[i]) * m;
        b = (b ^ f[i + 1]) * m;
        c = (c ^ f[i + 2]) * m;
        d = (d ^ f[i + 3]) * m;
    }
    for (; i < n; i++)
        a = (a ^ f[i]) * m;
    h = (a ^ (b << 16 | b >> 48) ^ (c << 32 | c >> 32) ^ (d << 48 | d >> 16)) * m;
    return (uint32_t)(h >> 32);
}

/* The profile frames of page stack `s`, in `b`: the last frames of its
 * source. */
static const uint32_t *stack_frames(const report_profile *rp, size_t s, size_t *n,
                                    frame_buf *b)
{
    size_t depth;
    const uint32_t *frames = copy_stack(b, rp->p, rp->stack_src[s], &depth, NULL);

    *n = rp->stack_off[s + 1] - rp->stack_off[s];
    return frames + (depth - *n);
}

/* `b` holds a candidate's frames while they are compared. */
static size_t set_slot(const stack_set *set, const report_profile *rp, const uint32_t *f,
                       size_t n, uint32_t h, frame_buf *b)
{
    size_t i = (size_t)h & (set->cap - 1);

    for (; set->slots[i]; i = (i + 1) & (set->cap - 1)) {
        size_t len, s = set->slots[i] - 1;
        const uint32_t *have;

        if (set->hash_of[s] != h)
            continue;
        have = stack_frames(rp, s, &len, b);
        if (len == n && memcmp(have, f, n * sizeof *f) == 0)
            break;
    }
    return i;
}

static void set_grow(stack_set *set)
{
    stack_set old = *set;

    set->cap = old.cap ? old.cap * 2 : 1024;
    set->slots = xcalloc(set->cap, sizeof *set->slots);
    for (size_t i = 0; i < old.cap; i++) {
        if (old.slots[i]) {
            size_t k = set->hash_of[old.slots[i] - 1] & (set->cap - 1);

            while (set->slots[k])
                k = (k + 1) & (set->cap - 1);
            set->slots[k] = old.slots[i];
        }
    }
    free(old.slots);
}

/* The page stack of profile frames `f` (n of them, the last of profile
 * stack `src`, frames_hash `h`), added, with its frames, when new. The
 * set has room (set_room). */
static uint32_t page_stack(stack_set *set, report_profile *rp, const uint32_t *f,
                           size_t n, size_t src, uint32_t h, frame_buf *b)
{
    size_t i = set_slot(set, rp, f, n, h, b);

    if (set->slots[i])
        return set->slots[i] - 1;
    /* a frame is first met in a stack that is new to the page */
    for (size_t j = 0; j < n; j++)
        (void)page_frame(rp, f[j]);
    if (rp->nstacks + 2 > rp->stack_cap) {
        rp->stack_cap = 2 * (rp->nstacks + 2);
        rp->stack_off = xrealloc(rp->stack_off, rp->stack_cap, sizeof *rp->stack_off);
        rp->stack_src = xrealloc(rp->stack_src, rp->stack_cap, sizeof *rp->stack_src);
    }
    if (rp->nstacks == set->hash_cap) {
        set->hash_cap = set->hash_cap ? 2 * set->hash_cap : 1024;
        set->hash_of = xrealloc(set->hash_of, set->hash_cap, sizeof *set->hash_of);
    }
    set->hash_of[rp->nstacks] = h;
    rp->stack_src[rp->nstacks] = (uint32_t)src;
    rp->stack_off[rp->nstacks + 1] = rp->stack_off[rp->nstacks] + n;
    rp->nstacks++;
    set->slots[i] = (uint32_t)rp->nstacks;
    set->count++;
    return (uint32_t)(rp->nstacks - 1);
}

/* Room in the set for `more` page stacks without growing. */
static void set_room(stack_set *set, size_t more)
{
    while ((set->count + more) * 2 > set->cap)
        set_grow(set);
}

/* A profile stack on its way to the page: flatten reads a batch of them,
 * starts loading the set's slots they are looked up in, and then the
 * page stacks those hold, before looking the first up: in a set of 200 k
 * page stacks each is a cache miss. */
#define FLATTEN_BATCH 16

typedef struct flat {
    const uint32_t *frames; /* the page stack's: after the roots */
    size_t depth;
    uint64_t weight; /* 0: no page stack */
    int64_t bucket;
    int32_t thread;
    uint32_t hash;
} flat;

/* Profile stack `i` without its time and thread roots, its frames in `b`. */
static flat flat_stack(report_profile *rp, strmap *threads, int32_t *thread_of, size_t i,
                       frame_buf *b)
{
    const jfr_profile *p = rp->p;
    flat fl = {NULL, 0, 0, -1, -1, 0};
    size_t depth, k = 0;
    const uint32_t *frames = copy_stack(b, p, i, &depth, &fl.weight);
    const jfr_profile_frame *f;

    if (fl.weight == 0)
        return fl;
    if (k < depth && (f = jfr_profile_frame_at(p, frames[k]))->time_bucket != INT64_MIN) {
        fl.bucket = f->time_bucket;
        k++;
    }
    if (k < depth && !thread_of[frames[k]]) {
        f = jfr_profile_frame_at(p, frames[k]);
        thread_of[frames[k]] = f->synthetic && strncmp(f->name, "[thread ", 8) == 0
                                   ? thread_index(rp, threads, f->name) + 1
                                   : -1;
    }
    if (k < depth && thread_of[frames[k]] > 0) {
        fl.thread = thread_of[frames[k]] - 1;
        rp->thread_total[fl.thread] += fl.weight;
        k++;
    }
    fl.frames = frames + k;
    fl.depth = depth - k;
    fl.hash = frames_hash(fl.frames, fl.depth);
    return fl;
}

/* The stacks of the merged profile as page stacks and cells. */
static void flatten(report_profile *rp)
{
    const jfr_profile *p = rp->p;
    size_t n = jfr_profile_stack_count(p);
    stack_set stacks = {0};
    strmap threads = {0};
    frame_buf bufs[FLATTEN_BATCH + 1] = {{0}}; /* the batch's, and a candidate's */
    /* by frame id: its thread's index + 1 when a thread root, 0 when not
     * looked at yet, -1 when not a thread root */
    int32_t *thread_of = xcalloc(jfr_profile_frame_count(p) + 1, sizeof *thread_of);

    rp->frame_of = xcalloc(jfr_profile_frame_count(p) + 1, sizeof *rp->frame_of);
    rp->stack_cap = 1024;
    rp->stack_off = xmalloc(rp->stack_cap * sizeof *rp->stack_off);
    rp->stack_src = xmalloc(rp->stack_cap * sizeof *rp->stack_src);
    rp->stack_off[0] = 0;
    for (size_t first = 0; first < n; first += FLATTEN_BATCH) {
        size_t m = n - first < FLATTEN_BATCH ? n - first : FLATTEN_BATCH;
        flat fl[FLATTEN_BATCH];

        for (size_t j = 0; j < m; j++)
            fl[j] = flat_stack(rp, &threads, thread_of, first + j, &bufs[j]);
        set_room(&stacks, m);
        for (size_t j = 0; j < m; j++)
            __builtin_prefetch(&stacks.slots[fl[j].hash & (stacks.cap - 1)]);
        for (size_t j = 0; j < m; j++) {
            uint32_t at = stacks.slots[fl[j].hash & (stacks.cap - 1)];

            if (at)
                __builtin_prefetch(&stacks.hash_of[at - 1]);
        }
        for (size_t j = 0; j < m; j++)
            if (fl[j].weight)
                add_cell(rp,
                         page_stack(&stacks, rp, fl[j].frames, fl[j].depth, first + j,
                                    fl[j].hash, &bufs[FLATTEN_BATCH]),
                         fl[j].thread, fl[j].bucket, fl[j].weight);
    }
    for (size_t j = 0; j <= FLATTEN_BATCH; j++)
        free(bufs[j].f);
    free(stacks.slots);
    free(stacks.hash_of);
    free(thread_of);
    strmap_free(&threads);
}

/* The profiles flattened by two threads, each taking the one with the
 * most stacks left: every profile has its own page stacks and reads only
 * its own profile. */
typedef struct flattening {
    report *r;
    bool *taken; /* by profile */
    pthread_mutex_t lock;
} flattening;

static void *flatten_some(void *arg)
{
    flattening *fl = arg;
    const report *r = fl->r;

    for (;;) {
        size_t k = SIZE_MAX, most = 0;

        pthread_mutex_lock(&fl->lock);
        for (size_t j = 0; j < r->nprofiles; j++) {
            size_t n = jfr_profile_stack_count(r->profiles[j].p);

            if (!fl->taken[j] && (k == SIZE_MAX || n > most)) {
                k = j;
                most = n;
            }
        }
        if (k != SIZE_MAX)
            fl->taken[k] = true;
        pthread_mutex_unlock(&fl->lock);
        if (k == SIZE_MAX)
            return NULL;
        flatten(&fl->r->profiles[k]);
    }
}

/* flatten() every profile, in a second thread too when --jobs (or the
 * idle CPUs, by default) allow one: the flattening runs after the
 * decoding, when the page waits for it alone. */
static void flatten_all(report *r)
{
    flattening fl = {r, xcalloc(r->nprofiles + 1, sizeof *fl.taken),
                     PTHREAD_MUTEX_INITIALIZER};
    pthread_t helper;
    bool threaded = r->jobs > 1 && r->nprofiles > 1 &&
                    pthread_create(&helper, NULL, flatten_some, &fl) == 0;

    flatten_some(&fl);
    if (threaded)
        pthread_join(helper, NULL);
    pthread_mutex_destroy(&fl.lock);
    free(fl.taken);
}

/* One profile per kind, with thread roots and time buckets. */
static jfr_profile_options *kind_options(report *r, size_t *n)
{
    size_t nkinds_all;
    const jfr_profile_kind *kinds = jfr_profile_kinds(&nkinds_all);
    jfr_profile_options *po = xcalloc(nkinds_all, sizeof *po);

    r->profiles = xcalloc(nkinds_all, sizeof *r->profiles);
    *n = 0;
    for (size_t i = 0; i < nkinds_all; i++) {
        jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;

        /* wall is exec and native together: both are shown already */
        if (strcmp(kinds[i].name, "wall") == 0)
            continue;
        o.kind = kinds[i].name;
        o.flags =
            JFR_PROFILE_FRAME_KIND | JFR_PROFILE_THREADS | JFR_PROFILE_COMPACT_STACKS;
        o.bucket_nanos = r->bucket_ns;
        o.bucket_origin_nanos = r->origin;
        r->profiles[*n].kind = &kinds[i];
        po[(*n)++] = o;
    }
    return po;
}

void report_read_profiles(report *r)
{
    jfr_profile_many_options mo;
    inputs in = {r, xcalloc((size_t)r->nfiles, sizeof *in.recs)};
    jfr_profile_options *po;
    jfr_profile **ps;
    jfr_error err;

    jfr_profile_many_options_init(&mo, JFR_PROFILE_MANY_OPTIONS_VERSION);
    mo.profiles = po = kind_options(r, &mo.nprofiles);
    mo.threads = (unsigned)r->jobs;
    mo.open = open_input;
    mo.report = input_done;
    mo.user = &in;
    ps = xcalloc(mo.nprofiles, sizeof *ps);
    if (jfr_profile_build_many(ps, in.recs, (size_t)r->nfiles, &mo, &err) < 0)
        diex(EXIT_INPUT, "report: %s", err.message);
    r->nprofiles = mo.nprofiles;
    for (size_t k = 0; k < r->nprofiles; k++)
        r->profiles[k].p = ps[k];
    flatten_all(r);
    free(ps);
    free(in.recs);
    free(po);
}

static const char *unit_of(const report_profile *rp)
{
    jfr_unit u = jfr_profile_unit(rp->p);

    return u == JFR_UNIT_NANOS ? "ns" : u == JFR_UNIT_BYTES ? "bytes" : jfr_unit_name(u);
}

void report_profiles_to_findings(report *r)
{
    for (size_t k = 0; k < r->nprofiles; k++)
        if (jfr_findings_add_profile(r->findings, r->profiles[k].kind->name,
                                     r->profiles[k].p) == JFR_ENOMEM)
            diex(EXIT_INPUT, "out of memory");
}

bool report_has_profile(const report *r, const char *kind)
{
    for (size_t k = 0; k < r->nprofiles; k++)
        if (strcmp(r->profiles[k].kind->name, kind) == 0)
            return jfr_profile_samples(r->profiles[k].p) > 0;
    return false;
}

int64_t report_max_bucket(const report *r)
{
    int64_t max = -1;

    for (size_t k = 0; k < r->nprofiles; k++)
        for (size_t i = 0; i < r->profiles[k].ncells; i++)
            if (r->profiles[k].c_bucket[i] > max)
                max = r->profiles[k].c_bucket[i];
    return max;
}

/* Page stacks a block of "sf" when two threads make it (json_blocks.h). */
#define SF_BLOCK_STACKS 4096

/* What one thread keeps while it writes page stacks' frames. */
typedef struct frames_writer {
    const report_profile *rp;
    uint32_t *page; /* a stack's page frames */
    size_t room;
    frame_buf b;
} frames_writer;

/* The page frames of page stacks from..to-1 into w. */
static void put_page_frames(jw *w, frames_writer *fw, size_t from, size_t to)
{
    const report_profile *rp = fw->rp;

    for (size_t s = from; s < to; s++) {
        size_t n;
        const uint32_t *f = stack_frames(rp, s, &n, &fw->b);

        if (n > fw->room) {
            fw->room = 2 * n;
            fw->page = xrealloc(fw->page, fw->room, sizeof *fw->page);
        }
        for (size_t j = 0; j < n; j++)
            fw->page[j] = rp->frame_of[f[j]] - 1;
        jw_uint32s(w, fw->page, n);
    }
}

static void make_frames_block(jw *w, size_t block, void *state)
{
    frames_writer *fw = state;
    size_t from = block * SF_BLOCK_STACKS, to = from + SF_BLOCK_STACKS;

    put_page_frames(w, fw, from, to < fw->rp->nstacks ? to : fw->rp->nstacks);
}

static void frames_writer_free(frames_writer *fw)
{
    free(fw->page);
    free(fw->b.f);
}

/* The page stacks' page frames, one list: "sf" of the page; made in two
 * threads (millions of numbers) when `two_threads` and there are enough. */
static void page_frames_json(jw *w, const report_profile *rp, bool two_threads)
{
    frames_writer mine = {rp, NULL, 0, {NULL, 0}}, helpers = mine;
    size_t nblocks = (rp->nstacks + SF_BLOCK_STACKS - 1) / SF_BLOCK_STACKS;

    jw_key(w, "sf");
    jw_begin(w, '[');
    if (!two_threads || nblocks < 4 ||
        !json_blocks_in_two(w, nblocks, make_frames_block, &mine, &helpers))
        put_page_frames(w, &mine, 0, rp->nstacks);
    jw_end(w, ']');
    frames_writer_free(&mine);
    frames_writer_free(&helpers);
}

/* The CPU-time sampler's accounting: samples taken, failed, biased, lost. */
static void cpu_json(jw *w, const jfr_cpu_accounting *cpu)
{
    jw_begin(w, '{');
    jw_key(w, "samples");
    jw_int(w, (int64_t)cpu->samples);
    jw_key(w, "failed");
    jw_int(w, (int64_t)cpu->failed);
    jw_key(w, "biased");
    jw_int(w, (int64_t)cpu->biased);
    jw_key(w, "lost");
    jw_int(w, (int64_t)cpu->lost);
    jw_end(w, '}');
}

void report_profiles_json(jw *w, const report *r)
{
    jw_begin(w, '[');
    for (size_t k = 0; k < r->nprofiles; k++) {
        const report_profile *rp = &r->profiles[k];

        if (jfr_profile_samples(rp->p) == 0)
            continue;
        jw_begin(w, '{');
        jw_key(w, "kind");
        jw_str(w, rp->kind->name);
        jw_key(w, "description");
        jw_str(w, rp->kind->description);
        jw_key(w, "unit");
        jw_str(w, unit_of(rp));
        jw_key(w, "total");
        jw_int(w, (int64_t)jfr_profile_total(rp->p));
        jw_key(w, "samples");
        jw_int(w, (int64_t)jfr_profile_samples(rp->p));
        if (strcmp(rp->kind->name, "cpu") == 0) {
            jw_key(w, "cpu");
            cpu_json(w, jfr_profile_cpu(rp->p));
        }
        jw_key(w, "names");
        jw_begin(w, '[');
        for (size_t i = 0; i < rp->nframes; i++)
            jw_str(w, jfr_profile_frame_at(rp->p, rp->page_frames[i])->name);
        jw_end(w, ']');
        jw_key(w, "fk");
        jw_begin(w, '[');
        for (size_t i = 0; i < rp->nframes; i++)
            jw_int(w, kind_code(jfr_profile_frame_at(rp->p, rp->page_frames[i])));
        jw_end(w, ']');
        jw_str_array(w, "threads", rp->threads, rp->nthreads);
        JW_INT_ARRAY(w, "so", rp->stack_off, rp->nstacks + 1);
        page_frames_json(w, rp, r->jobs > 1);
        jw_key(w, "cs");
        jw_begin(w, '[');
        jw_uint32s(w, rp->c_stack, rp->ncells);
        jw_end(w, ']');
        JW_INT_ARRAY(w, "ct", rp->c_thread, rp->ncells);
        JW_INT_ARRAY(w, "cb", rp->c_bucket, rp->ncells);
        JW_INT_ARRAY(w, "cw", rp->c_weight, rp->ncells);
        jw_end(w, '}');
    }
    jw_end(w, ']');
}

void report_profiles_free(report *r)
{
    for (size_t k = 0; k < r->nprofiles; k++) {
        report_profile *rp = &r->profiles[k];
        jfr_profile_free(rp->p);
        free(rp->frame_of);
        free(rp->page_frames);
        free(rp->stack_src);
        free(rp->stack_off);
        for (size_t t = 0; t < rp->nthreads; t++)
            free(rp->threads[t]);
        free(rp->threads);
        free(rp->thread_total);
        free(rp->c_stack);
        free(rp->c_thread);
        free(rp->c_bucket);
        free(rp->c_weight);
    }
    free(r->profiles);
    r->profiles = NULL;
    r->nprofiles = 0;
}
