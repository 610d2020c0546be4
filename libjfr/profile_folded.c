/* profile_folded.c - a profile's folded stacks as text (jfr/profile.h,
 * jfr_profile_write_folded): one line per distinct stack text, frames
 * from the root joined by ';', a space and the weight, lines in byte
 * order. The lines are sorted by keys of their frames' texts
 * (stack_sort.c) and written from those, never built to be sorted. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jfr/text.h"
#include "profile_struct.h"
#include "stack_sort.h"

/* Pieces given to the sink are about this long. */
#define PIECE (1u << 16)

/* The stacks to write and their frames' text. */
typedef struct folded {
    frame_text *texts; /* by frame id, into `arena` */
    char *arena;
    size_t nframes;
    stack_keys keys;   /* the byte order of the texts in a line */
    stack_ref *lines;  /* stacks with a weight, in line order */
    uint64_t *weights; /* by stack id, read in id order */
    size_t n;
    unsigned threads; /* that sort and write the lines */
} folded;

static void folded_free(folded *f)
{
    free(f->texts);
    free(f->arena);
    jfrp_stack_keys_free(&f->keys);
    free(f->lines);
    free(f->weights);
}

/* Every frame's text, one after the other in one block. */
static int make_texts(folded *f, const jfr_profile *p, unsigned flags)
{
    size_t used = 0, room = 1 << 16;
    size_t *ends = calloc(f->nframes ? f->nframes : 1, sizeof *ends);

    f->texts = calloc(f->nframes ? f->nframes : 1, sizeof *f->texts);
    f->arena = malloc(room);
    for (uint32_t id = 0; ends && f->texts && f->arena && id < f->nframes; id++) {
        const jfr_profile_frame *fr = jfr_profile_frame_at(p, id);
        size_t n = jfr_profile_frame_text(f->arena + used, room - used, fr, flags);

        if (n >= room - used) {
            char *bigger = NULL;

            while (n >= room - used && room <= SIZE_MAX / 2)
                room *= 2;
            if (n < room - used && (bigger = realloc(f->arena, room)))
                jfr_profile_frame_text(bigger + used, room - used, fr, flags);
            if (!bigger)
                break;
            f->arena = bigger;
        }
        used += n + 1;
        ends[id] = used;
    }
    if (!ends || !f->texts || !f->arena || (f->nframes && !ends[f->nframes - 1])) {
        free(ends);
        return JFR_ENOMEM;
    }
    for (size_t id = 0, start = 0; id < f->nframes; start = ends[id++])
        f->texts[id] = (frame_text){f->arena + start, ends[id] - start - 1};
    free(ends);
    return JFR_OK;
}

static int folded_build(folded *f, const jfr_profile *p, unsigned flags)
{
    size_t nstacks = jfr_profile_stack_count(p);
    unsigned threads = p->threads;
    int rc;

    memset(f, 0, sizeof *f);
    f->nframes = jfr_profile_frame_count(p);
    if ((rc = make_texts(f, p, flags | JFR_FRAME_TEXT_FOLDED)) != JFR_OK)
        return rc;
    if ((rc = jfrp_stack_keys_by_text(&f->keys, f->texts, f->nframes)) != JFR_OK)
        return rc;
    f->lines = calloc(nstacks ? nstacks : 1, sizeof *f->lines);
    f->weights = calloc(nstacks ? nstacks : 1, sizeof *f->weights);
    if (!f->lines || !f->weights)
        return JFR_ENOMEM;
    for (size_t i = 0; i < nstacks; i++) {
        const uint32_t *frames;
        size_t depth;
        uint64_t w = 0;

        if (jfr_profile_stack(&w, &frames, &depth, p, i) == JFR_OK && w)
            f->lines[f->n++] = (stack_ref){frames, (uint32_t)depth, (uint32_t)i};
        f->weights[i] = w;
    }
    if (!threads && f->n >= JFRP_STACK_SORT_THREADED_FROM)
        threads = jfr_idle_cpus(); /* looked at only when it matters */
    f->threads = f->n >= JFRP_STACK_SORT_THREADED_FROM ? threads : 1;
    jfrp_stack_sort(f->lines, f->n, &f->keys, f->threads);
    return JFR_OK;
}

/* The bytes waiting for the sink, and the text of the line being
 * written, kept from the line before for the leading frames the two
 * share: sorted lines share long prefixes. */
typedef struct writer {
    jfr_text_sink sink;
    void *user;
    char *buf;
    size_t len, room;
    size_t *ends; /* by depth: where frame d's text ends in the line */
    size_t depth_room;
    size_t line_start; /* where the line before starts in buf */
    int rc;
} writer;

static bool reserve(writer *w, size_t n)
{
    size_t room = w->room ? w->room : PIECE;
    char *bigger;

    if (w->room - w->len >= n)
        return true;
    while (room - w->len < n && room <= SIZE_MAX / 2)
        room *= 2;
    if (room - w->len < n || !(bigger = realloc(w->buf, room)))
        return false;
    w->buf = bigger;
    w->room = room;
    return true;
}

static void put(writer *w, const char *s, size_t n)
{
    memcpy(w->buf + w->len, s, n);
    w->len += n;
}

/* Give the sink the lines before the last one, whose frames the next
 * line may share: that one moves to the start of the buffer. */
static void flush_before_line(writer *w)
{
    size_t keep = w->len - w->line_start;

    if (w->rc == JFR_OK && w->line_start)
        w->rc = w->sink(w->user, w->buf, w->line_start);
    memmove(w->buf, w->buf + w->line_start, keep);
    w->len = keep;
    w->line_start = 0;
}

/* Line `line` into the buffer: the frames it shares with the line before
 * are copied from that line, the others from their texts. */
static bool write_line(writer *w, const folded *f, const stack_ref *line, size_t shared,
                       uint64_t weight)
{
    size_t start = w->len, copied = shared ? w->ends[shared - 1] : 0;
    char number[JFR_TEXT_U64_ROOM + 2] = " ";
    size_t nlen = 1 + jfr_text_u64(number + 1, JFR_TEXT_U64_ROOM, weight);
    size_t need = copied + nlen + 1;

    for (size_t d = shared; d < line->depth; d++)
        need += f->texts[line->frames[d]].len + 1;
    if (line->depth > w->depth_room) {
        size_t *ends = realloc(w->ends, line->depth * sizeof *ends);

        if (!ends)
            return false;
        w->ends = ends;
        w->depth_room = line->depth;
    }
    if (!reserve(w, need))
        return false;
    put(w, w->buf + w->line_start, copied);
    for (size_t d = shared; d < line->depth; d++) {
        const frame_text *t = &f->texts[line->frames[d]];

        if (d)
            put(w, ";", 1);
        put(w, t->text, t->len);
        w->ends[d] = w->len - start;
    }
    number[nlen++] = '\n';
    put(w, number, nlen);
    w->line_start = start;
    return true;
}

/* How many lines ahead folded_write starts loading a line's weight and
 * frames: the lines are in text order, their stacks anywhere in memory. */
#define PREFETCH_AHEAD 8

/* Whether line i is the first of lines that come out equal (frames that
 * differ only in characters made '_'): those are merged into one. */
static bool starts_line(const folded *f, size_t i)
{
    const stack_ref *a, *b;

    if (i == 0)
        return true;
    a = &f->lines[i - 1];
    b = &f->lines[i];
    return a->depth != b->depth || jfrp_stack_keys_shared(a, b, &f->keys) != a->depth;
}

/* Lines lo..hi into w, the equal ones merged, their weights summed; lo and
 * hi start lines. With a sink, the text goes to it as it grows; without,
 * w keeps it all. */
static int write_lines(const folded *f, writer *w, size_t lo, size_t hi)
{
    size_t shared = 0;

    for (size_t i = lo, j; i < hi && w->rc == JFR_OK; i = j) {
        const stack_ref *line = &f->lines[i];
        uint64_t sum = f->weights[line->id];
        size_t next_shared = 0;

        if (i + PREFETCH_AHEAD < hi) {
            __builtin_prefetch(&f->weights[f->lines[i + PREFETCH_AHEAD].id]);
            __builtin_prefetch(f->lines[i + PREFETCH_AHEAD].frames);
        }
        for (j = i + 1; j < hi; j++) {
            next_shared = jfrp_stack_keys_shared(line, &f->lines[j], &f->keys);
            if (next_shared != line->depth || f->lines[j].depth != line->depth)
                break;
            sum += f->weights[f->lines[j].id];
        }
        if (!write_line(w, f, line, shared, sum))
            return JFR_ENOMEM;
        if (w->sink && w->len >= PIECE)
            flush_before_line(w);
        shared = next_shared;
    }
    if (w->sink && w->rc == JFR_OK && w->len) {
        w->rc = w->sink(w->user, w->buf, w->len);
        w->len = w->line_start = 0;
    }
    return w->rc;
}

/* With two threads the lines are cut into blocks of about BLOCK_LINES,
 * taken in order by whichever thread is free. The calling thread gives
 * every block to the sink in order: the block due, when nobody has taken
 * it, it makes straight into the sink's pieces; while a helper makes it,
 * it makes the next free block into a buffer of SLOTS, or waits. A helper
 * takes block after block into those buffers, at most SLOTS ahead of the
 * sink. So a slow sink (a file: the kernel copies 300 MB of text) leaves
 * the helper more of the blocks, where every other block left it waiting.
 * Each block starts without the line before, so its text is one
 * thread's. The buffers are written again and again: at 256 lines a
 * block (about 300 KB of deep stacks' text) they mostly stay in the
 * cache. */
#define BLOCK_LINES 256
#define SLOTS       4

typedef struct block_run {
    const folded *f;
    size_t *starts; /* block b is lines starts[b]..starts[b + 1] */
    size_t nblocks;
    writer slot[SLOTS]; /* a block made ahead, b in slot b % SLOTS */
    size_t made[SLOTS]; /* the block made in each slot, + 1; 0: none */
    size_t next;        /* the next block nobody has taken */
    size_t taken;       /* blocks the sink has had */
    bool stop;
    pthread_mutex_t lock;
    pthread_cond_t changed;
} block_run;

/* Under the lock: the next block, when its slot is free. */
static bool take_block(block_run *r, size_t *b)
{
    if (r->next >= r->nblocks || r->next >= r->taken + SLOTS || r->stop)
        return false;
    *b = r->next++;
    return true;
}

/* Make block b in its slot; takes and leaves the lock. */
static void make_block(block_run *r, size_t b)
{
    writer *w = &r->slot[b % SLOTS];
    int rc;

    pthread_mutex_unlock(&r->lock);
    w->len = w->line_start = 0;
    rc = write_lines(r->f, w, r->starts[b], r->starts[b + 1]);
    pthread_mutex_lock(&r->lock);
    w->rc = rc;
    r->made[b % SLOTS] = b + 1;
    pthread_cond_broadcast(&r->changed);
}

static void *make_blocks(void *arg)
{
    block_run *r = arg;
    size_t b;

    pthread_mutex_lock(&r->lock);
    while (r->next < r->nblocks && !r->stop) {
        if (take_block(r, &b))
            make_block(r, b);
        else
            pthread_cond_wait(&r->changed, &r->lock);
    }
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

/* Where each block starts: every BLOCK_LINES lines, moved on to the
 * start of a line. */
static size_t *block_starts(const folded *f, size_t *nblocks)
{
    size_t *starts = malloc((f->n / BLOCK_LINES + 2) * sizeof *starts), n = 0;

    if (!starts)
        return NULL;
    for (size_t i = 0; i < f->n; i += BLOCK_LINES) {
        while (i < f->n && !starts_line(f, i))
            i++;
        if (i < f->n)
            starts[n++] = i;
    }
    starts[n] = f->n;
    *nblocks = n;
    return starts;
}

/* Under the lock: whether block b is made in its slot (else the caller
 * makes it straight into the sink's writer), once it is made or taken
 * here; the calling thread makes other blocks while it waits. */
static bool wait_for_block(block_run *r, size_t b)
{
    size_t other;

    for (;;) {
        if (r->made[b % SLOTS] == b + 1)
            return true;
        if (r->next == b) {
            r->next++;
            return false;
        }
        if (take_block(r, &other))
            make_block(r, other);
        else
            pthread_cond_wait(&r->changed, &r->lock);
    }
}

/* The calling thread's side: every block to the sink in order. */
static int write_blocks(block_run *r, writer *w)
{
    int rc = JFR_OK;

    for (size_t b = 0; b < r->nblocks && rc == JFR_OK; b++) {
        const writer *made = &r->slot[b % SLOTS];
        bool in_slot;

        pthread_mutex_lock(&r->lock);
        in_slot = wait_for_block(r, b);
        pthread_mutex_unlock(&r->lock);
        if (!in_slot)
            rc = write_lines(r->f, w, r->starts[b], r->starts[b + 1]);
        else if ((rc = made->rc) == JFR_OK && made->len)
            rc = w->rc = w->sink(w->user, made->buf, made->len);
        pthread_mutex_lock(&r->lock);
        r->taken = b + 1;
        pthread_cond_broadcast(&r->changed);
        pthread_mutex_unlock(&r->lock);
    }
    return rc;
}

/* folded_write in two threads; -1 when they cannot be had (nothing
 * written yet). */
static int write_in_threads(const folded *f, writer *w)
{
    block_run r;
    pthread_t helper;
    int rc;

    memset(&r, 0, sizeof r);
    r.f = f;
    if (!(r.starts = block_starts(f, &r.nblocks)))
        return -1;
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.changed, NULL);
    if (pthread_create(&helper, NULL, make_blocks, &r) != 0) {
        rc = -1;
    } else {
        rc = write_blocks(&r, w);
        pthread_mutex_lock(&r.lock);
        r.stop = true;
        pthread_cond_broadcast(&r.changed);
        pthread_mutex_unlock(&r.lock);
        pthread_join(helper, NULL);
    }
    for (size_t i = 0; i < SLOTS; i++) {
        free(r.slot[i].buf);
        free(r.slot[i].ends);
    }
    pthread_cond_destroy(&r.changed);
    pthread_mutex_destroy(&r.lock);
    free(r.starts);
    return rc;
}

static int folded_write(const folded *f, writer *w)
{
    int rc;

    if (f->threads > 1 && (rc = write_in_threads(f, w)) != -1)
        return rc;
    return write_lines(f, w, 0, f->n);
}

int jfr_profile_write_folded(const jfr_profile *p, unsigned flags, jfr_text_sink sink,
                             void *user)
{
    folded f;
    writer w = {sink, user, NULL, 0, 0, NULL, 0, 0, JFR_OK};
    int rc;

    if (!p || !sink)
        return JFR_EINVAL;
    if ((rc = folded_build(&f, p, flags)) == JFR_OK)
        rc = folded_write(&f, &w);
    folded_free(&f);
    free(w.buf);
    free(w.ends);
    return rc;
}

/* jfr_profile_folded's sink: the pieces one after the other. */
typedef struct text_buf {
    char *data;
    size_t len, room;
} text_buf;

static int append_piece(void *user, const char *text, size_t len)
{
    text_buf *b = user;

    if (b->room - b->len <= len) {
        size_t room = b->room ? b->room : PIECE;
        char *bigger;

        while (room - b->len <= len && room <= SIZE_MAX / 2)
            room *= 2;
        if (room - b->len <= len || !(bigger = realloc(b->data, room)))
            return JFR_ENOMEM;
        b->data = bigger;
        b->room = room;
    }
    memcpy(b->data + b->len, text, len);
    b->len += len;
    return JFR_OK;
}

int jfr_profile_folded(char **out, size_t *len, const jfr_profile *p, unsigned flags)
{
    text_buf b = {NULL, 0, 0};
    int rc;

    if (out)
        *out = NULL;
    if (len)
        *len = 0;
    if (!out || !p)
        return JFR_EINVAL;
    rc = jfr_profile_write_folded(p, flags, append_piece, &b);
    if (rc == JFR_OK && !b.data && !(b.data = malloc(1)))
        rc = JFR_ENOMEM;
    if (rc != JFR_OK) {
        free(b.data);
        return rc;
    }
    b.data[b.len] = '\0';
    *out = b.data;
    if (len)
        *len = b.len;
    return JFR_OK;
}
