/* out_speedscope.c - a profile as speedscope's JSON file format (its
 * published schema, https://www.speedscope.app/file-format-schema.json):
 * one "sampled" profile per thread, its samples in time order so that
 * speedscope's "Time Order" view is the thread's timeline, weights in the
 * kind's unit. The profile comes from select_build with thread roots and
 * time buckets of SPEEDSCOPE_BUCKET_NS (out_speedscope.h). */
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "out_speedscope.h"
#include "json_writer.h"
#include "util.h"

#define SCHEMA "https://www.speedscope.app/file-format-schema.json"

/* One distinct (thread, time bucket, stack) of the profile. */
typedef struct sample {
    int64_t bucket;  /* INT64_MIN: the sample has no start time */
    uint32_t thread; /* index into threads */
    uint32_t stack;  /* profile stack index (first seen first) */
    size_t skip;     /* synthetic roots before the first real frame */
} sample;

typedef struct thread_profile {
    uint32_t root; /* frame id of "[thread NAME tid=N]" */
    uint64_t total;
} thread_profile;

typedef struct speedscope {
    const jfr_profile *p;
    sample *samples;
    size_t nsamples;
    thread_profile *threads;
    size_t nthreads;
    uint32_t *order;       /* threads, heaviest first */
    int64_t *frame_index;  /* profile frame id -> shared frame index, -1 */
    int64_t *thread_index; /* frame id of a thread root -> thread, -1 */
    uint32_t *frames;      /* shared frames, as profile frame ids */
    size_t nframes;
} speedscope;

static uint32_t thread_of(speedscope *sp, uint32_t root)
{
    if (sp->thread_index[root] < 0) {
        sp->threads = xrealloc(sp->threads, sp->nthreads + 1, sizeof *sp->threads);
        sp->threads[sp->nthreads] = (thread_profile){root, 0};
        sp->thread_index[root] = (int64_t)sp->nthreads++;
    }
    return (uint32_t)sp->thread_index[root];
}

/* Each stack's time root and thread root, read off its first frames. */
static void collect(speedscope *sp)
{
    size_t n = jfr_profile_stack_count(sp->p);

    sp->samples = xcalloc(n ? n : 1, sizeof *sp->samples);
    for (size_t i = 0; i < n; i++) {
        const uint32_t *frames;
        size_t depth, d = 0;
        uint64_t w;
        sample *s = &sp->samples[sp->nsamples];
        const jfr_profile_frame *f;

        if (jfr_profile_stack(&w, &frames, &depth, sp->p, i) < 0 || w == 0 || depth == 0)
            continue;
        s->bucket = INT64_MIN;
        f = jfr_profile_frame_at(sp->p, frames[0]);
        if (f->time_bucket != INT64_MIN) {
            s->bucket = f->time_bucket;
            d++;
        }
        /* every stack has a thread root: the profile was made with them */
        if (d >= depth)
            continue;
        s->thread = thread_of(sp, frames[d]);
        s->stack = (uint32_t)i;
        s->skip = d + 1;
        sp->threads[s->thread].total += w;
        sp->nsamples++;
    }
}

static int cmp_sample(const void *a, const void *b)
{
    const sample *x = a, *y = b;

    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    if (x->bucket != y->bucket)
        return x->bucket < y->bucket ? -1 : 1;
    return x->stack < y->stack ? -1 : x->stack > y->stack;
}

/* A thread in the order of the profiles: the heaviest first, then by name. */
typedef struct thread_rank {
    uint64_t total;
    const char *name;
    uint32_t index;
} thread_rank;

static int cmp_thread(const void *a, const void *b)
{
    const thread_rank *x = a, *y = b;

    if (x->total != y->total)
        return x->total > y->total ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void order_threads(speedscope *sp)
{
    thread_rank *rank = xcalloc(sp->nthreads ? sp->nthreads : 1, sizeof *rank);

    for (size_t i = 0; i < sp->nthreads; i++)
        rank[i] = (thread_rank){sp->threads[i].total,
                                jfr_profile_frame_at(sp->p, sp->threads[i].root)->name,
                                (uint32_t)i};
    qsort(rank, sp->nthreads, sizeof *rank, cmp_thread);
    sp->order = xcalloc(sp->nthreads ? sp->nthreads : 1, sizeof *sp->order);
    for (size_t i = 0; i < sp->nthreads; i++)
        sp->order[i] = rank[i].index;
    free(rank);
}

/* The shared index of a frame, added when new. */
static int64_t frame_index(speedscope *sp, uint32_t id)
{
    if (sp->frame_index[id] < 0) {
        sp->frame_index[id] = (int64_t)sp->nframes;
        sp->frames[sp->nframes++] = id;
    }
    return sp->frame_index[id];
}

/* "[thread main tid=1]" -> "main tid=1" */
static void thread_name(jw *w, const jfr_profile *p, uint32_t root)
{
    const char *name = jfr_profile_frame_at(p, root)->name;
    size_t len = strlen(name);

    if (len > 9 && strncmp(name, "[thread ", 8) == 0)
        jw_strn(w, name + 8, len - 9);
    else
        jw_str(w, name);
}

static const char *unit_name(jfr_unit unit)
{
    return unit == JFR_UNIT_NANOS   ? "nanoseconds"
           : unit == JFR_UNIT_BYTES ? "bytes"
                                    : "none";
}

/* The samples [from, to) of one thread, in time order. */
static void write_profile(jw *w, speedscope *sp, size_t from, size_t to)
{
    thread_profile *t = &sp->threads[sp->samples[from].thread];

    jw_begin(w, '{');
    jw_key(w, "type");
    jw_str(w, "sampled");
    jw_key(w, "name");
    thread_name(w, sp->p, t->root);
    jw_key(w, "unit");
    jw_str(w, unit_name(jfr_profile_unit(sp->p)));
    jw_key(w, "startValue");
    jw_int(w, 0);
    jw_key(w, "endValue");
    jw_int(w, (int64_t)t->total);
    jw_key(w, "samples");
    jw_begin(w, '[');
    for (size_t i = from; i < to; i++) {
        const uint32_t *frames;
        size_t depth;
        uint64_t wt;
        jfr_profile_stack(&wt, &frames, &depth, sp->p, sp->samples[i].stack);
        jw_begin(w, '[');
        for (size_t d = sp->samples[i].skip; d < depth; d++)
            jw_int(w, frame_index(sp, frames[d]));
        jw_end(w, ']');
    }
    jw_end(w, ']');
    jw_key(w, "weights");
    jw_begin(w, '[');
    for (size_t i = from; i < to; i++) {
        uint64_t wt;
        jfr_profile_stack(&wt, NULL, NULL, sp->p, sp->samples[i].stack);
        jw_int(w, (int64_t)wt);
    }
    jw_end(w, ']');
    jw_end(w, '}');
}

static void write_frames(jw *w, const speedscope *sp, const select_opts *s)
{
    strbuf sb = {0};

    jw_begin(w, '[');
    for (size_t i = 0; i < sp->nframes; i++) {
        sb_clear(&sb);
        select_frame_text(&sb, jfr_profile_frame_at(sp->p, sp->frames[i]), s, false);
        jw_begin(w, '{');
        jw_key(w, "name");
        jw_strn(w, sb.ptr ? sb.ptr : "", sb.len);
        jw_end(w, '}');
    }
    jw_end(w, ']');
    sb_free(&sb);
}

/* The profiles' samples in the order written, each thread's run of
 * samples as [from, to) in `runs` (by sp->order). */
static void runs_of(const speedscope *sp, size_t *runs)
{
    for (size_t i = 0; i < sp->nsamples; i++)
        runs[2 * sp->samples[i].thread + 1] = i + 1;
    for (size_t i = sp->nsamples; i-- > 0;)
        runs[2 * sp->samples[i].thread] = i;
}

static void write_document(FILE *out, speedscope *sp, const select_opts *s,
                           const char *name)
{
    jw *w = xmalloc(sizeof *w);
    size_t *runs = xcalloc(2 * (sp->nthreads ? sp->nthreads : 1), sizeof *runs);

    runs_of(sp, runs);
    /* frames are numbered as the samples meet them, before any is written */
    for (size_t k = 0; k < sp->nthreads; k++)
        for (size_t i = runs[2 * sp->order[k]]; i < runs[2 * sp->order[k] + 1]; i++) {
            const uint32_t *frames;
            size_t depth;
            uint64_t wt;
            jfr_profile_stack(&wt, &frames, &depth, sp->p, sp->samples[i].stack);
            for (size_t d = sp->samples[i].skip; d < depth; d++)
                frame_index(sp, frames[d]);
        }
    jw_init(w, out);
    jw_begin(w, '{');
    jw_key(w, "$schema");
    jw_str(w, SCHEMA);
    jw_key(w, "name");
    jw_str(w, name);
    jw_key(w, "exporter");
    jw_str(w, "jfrtool " JFR_VERSION_STRING);
    if (sp->nthreads) { /* the first profile, the heaviest thread */
        jw_key(w, "activeProfileIndex");
        jw_int(w, 0);
    }
    jw_key(w, "shared");
    jw_begin(w, '{');
    jw_key(w, "frames");
    write_frames(w, sp, s);
    jw_end(w, '}');
    jw_key(w, "profiles");
    jw_begin(w, '[');
    for (size_t k = 0; k < sp->nthreads; k++)
        write_profile(w, sp, runs[2 * sp->order[k]], runs[2 * sp->order[k] + 1]);
    jw_end(w, ']');
    jw_end(w, '}');
    jw_raw(w, "\n");
    jw_flush(w);
    free(runs);
    free(w);
}

void speedscope_write(FILE *out, const select_result *r, const select_opts *s,
                      const char *name)
{
    speedscope sp;
    size_t nframes = jfr_profile_frame_count(r->profile);

    memset(&sp, 0, sizeof sp);
    sp.p = r->profile;
    sp.thread_index = xcalloc(nframes ? nframes : 1, sizeof *sp.thread_index);
    memset(sp.thread_index, 0xff, (nframes ? nframes : 1) * sizeof *sp.thread_index);
    collect(&sp);
    qsort(sp.samples, sp.nsamples, sizeof *sp.samples, cmp_sample);
    order_threads(&sp);
    sp.frame_index = xcalloc(nframes ? nframes : 1, sizeof *sp.frame_index);
    memset(sp.frame_index, 0xff, (nframes ? nframes : 1) * sizeof *sp.frame_index);
    sp.frames = xcalloc(nframes ? nframes : 1, sizeof *sp.frames);
    write_document(out, &sp, s, name);
    free(sp.samples);
    free(sp.threads);
    free(sp.order);
    free(sp.frame_index);
    free(sp.thread_index);
    free(sp.frames);
}

int speedscope_write_profile(FILE *out, const profile_output *po)
{
    strbuf name = {0};

    sb_puts(&name, po->r->label);
    sb_putc(&name, ':');
    for (int i = 0; i < po->nfiles; i++) {
        const char *slash = strrchr(po->files[i], '/');
        sb_putc(&name, ' ');
        sb_puts(&name, slash ? slash + 1 : po->files[i]);
    }
    speedscope_write(out, po->r, po->s, sb_str(&name));
    sb_free(&name);
    return 0;
}
