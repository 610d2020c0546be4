/* flame_html.c - the HTML flame graph: jfrtool/flame.html (embedded at
 * build time as flame_template[], see Makefile.am) with its data line
 * replaced by "const FLAME = {...};" and "@@TITLE@@" by the escaped title
 * (the rules in flame.html's header comment and
 * tests/browser/make-sample-data.py). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decimal_text.h"
#include "flame_output.h"
#include "json_blocks.h"
#include "json_writer.h"
#include "two_parts.h"
#include "util.h"

extern const unsigned char flame_template[];
extern const size_t flame_template_size;

#define DATA_LINE "/*@@FLAME_DATA@@*/"

/* The node arrays are millions of numbers: they are written straight into
 * the JSON writer's buffer (jw_room), each weight's text kept for the next
 * node, as a chain of nodes one stack deep repeats its weight. */
typedef struct numbuf {
    jw *w;
    double last;
    size_t last_len;
    char last_text[64];
} numbuf;

/* The text of `v` in nb->last_text, nb->last_len bytes long. Whole numbers
 * print without a fraction; scaled diff values keep three decimals. */
static void number_text(numbuf *nb, double v)
{
    char *text = nb->last_text;
    int n;

    if (nb->last_len && v == nb->last)
        return;
    if (v >= 0 && v < 18446744073709551616.0 && v == (double)(uint64_t)v) {
        n = (int)jfr_text_u64(text, JFR_TEXT_U64_ROOM, (uint64_t)v);
    } else if (v == (double)(int64_t)v) {
        n = snprintf(text, sizeof nb->last_text, "%lld", (long long)v);
    } else {
        char fixed[DECIMAL_TEXT_ROOM];
        size_t len = fixed_text(fixed, v, 3);

        /* as snprintf into last_text would have cut it */
        n = (int)(len < sizeof nb->last_text ? len : sizeof nb->last_text - 1);
        memcpy(text, fixed, (size_t)n);
        text[n] = '\0';
    }
    nb->last = v;
    nb->last_len = n < (int)sizeof nb->last_text ? (size_t)n : sizeof nb->last_text - 1;
}

/* `v` at `p`, which has room for a whole nb->last_text. */
static char *put_number(numbuf *nb, char *p, double v)
{
    number_text(nb, v);
    /* a copy of fixed size is a few moves */
    memcpy(p, nb->last_text, sizeof nb->last_text);
    return p + nb->last_len;
}

/* What one array of the data holds. */
typedef enum field { F_NAME, F_KIND, F_DEPTH, F_VALUE, F_BASE } field;

/* What the arrays' writer keeps between arrays. */
typedef struct arrays {
    numbuf nb;
    const uint32_t *written; /* index + 1 among the names written, by name id */
    jw_numtab names;         /* ",I" by index among the names written */
    jw_numtab depths;        /* ",D" by depth */
} arrays;

/* Field `f` of the nodes of `b`, each after a comma. */
static char *put_field(arrays *a, char *p, const flame_batch *b, field f)
{
    size_t n = b->count;

    switch (f) {
    case F_NAME:
        for (size_t j = 0; j < n; j++)
            p = jw_put_comma_number(&a->names, p, a->written[b->name[j]] - 1);
        break;
    case F_KIND:
        for (size_t j = 0; j < n; j++) {
            *p++ = ',';
            *p++ = (char)('0' + b->kind[j]); /* below 8 */
        }
        break;
    case F_DEPTH:
        for (size_t j = 0; j < n; j++)
            p = jw_put_comma_number(&a->depths, p, b->depth[j]);
        break;
    case F_VALUE:
    case F_BASE:
        for (size_t j = 0; j < n; j++) {
            *p++ = ',';
            p = put_number(&a->nb, p, f == F_VALUE ? b->value[j] : b->base[j]);
        }
        break;
    }
    return p;
}

/* What each array needs of the nodes, by field. */
static const unsigned NEED[] = {FLAME_NEED_NAME, FLAME_NEED_KIND, 0, FLAME_NEED_VALUE,
                                FLAME_NEED_VALUE};

/* Field `f` of the nodes from `it` on and before node `stop` into w, each
 * after a comma but the root's. `stop` is a multiple of FLAME_BATCH (a
 * block's start): batches hold FLAME_BATCH nodes (the first: the root and
 * the rest) whatever a walk needs, so no batch of this walk runs past it. */
static void put_nodes(arrays *a, jw *w, flame_iter *it, size_t stop, field f,
                      flame_batch *b)
{
    it->need = NEED[f];
    while (it->index < stop && flame_iter_read(it, b) > 0) {
        /* a comma and a number of the longest text, per node */
        char *start = jw_room(w, FLAME_BATCH * (1 + sizeof a->nb.last_text));
        char *end = put_field(a, start, b, f);

        if (b->first == 0) { /* no comma before the root */
            memmove(start, start + 1, (size_t)(end - start - 1));
            end--;
        }
        jw_wrote(w, end);
    }
}

/* ---- the arrays in two threads ------------------------------------------------------ */

/* Nodes a block of an array made in two threads (json_blocks.h). */
#define BLOCK_NODES 16384

/* The blocks' places. */
typedef struct blocks {
    flame_iter *start; /* each block's first node */
    size_t nblocks, end;
} blocks;

/* What a thread making blocks of field `f` reads and keeps. */
typedef struct block_maker {
    const blocks *bl;
    arrays *a; /* the thread's number cache */
    flame_batch *b;
    field f;
} block_maker;

static void make_block(jw *w, size_t i, void *state)
{
    const block_maker *m = state;
    const blocks *bl = m->bl;
    flame_iter it = bl->start[i];

    put_nodes(m->a, w, &it, i + 1 < bl->nblocks ? bl->start[i + 1].index : bl->end, m->f,
              m->b);
}

/* Field `f` of every node into w by blocks, in two threads; false when no
 * second thread could be had (nothing written). */
static bool put_blocks(arrays *a, jw *w, const blocks *bl, field f, flame_batch *b)
{
    arrays helper_a = *a;
    flame_batch *helper_b = xmalloc(sizeof *helper_b);
    block_maker mine = {bl, a, b, f}, helpers = {bl, &helper_a, helper_b, f};
    bool done;

    memset(&helper_a.nb, 0, sizeof helper_a.nb);
    done = json_blocks_in_two(w, bl->nblocks, make_block, &mine, &helpers);
    free(helper_b);
    return done;
}

/* One array of the data: "NAME":[v,v,...], field `f` of every node; the
 * name is index + 1 in `written` by name id. `bl`: its blocks for two
 * threads, or NULL. */
static void write_array(arrays *a, const flame_tree *t, const char *name, field f,
                        flame_batch *b, const blocks *bl)
{
    jw *w = a->nb.w;
    flame_iter it;

    jw_key(w, name);
    jw_begin(w, '[');
    if (!bl || !put_blocks(a, w, bl, f, b)) {
        flame_iter_init(&it, t, NEED[f]);
        put_nodes(a, w, &it, SIZE_MAX, f, b);
    }
    jw_end(w, ']');
}

/* Nodes of several kinds: node, JIT, inlined, interpreted weights. */
static void write_mixes(numbuf *nb, const flame_tree *t)
{
    size_t n;
    const flame_mixed *m = flame_tree_mixed(t, &n);

    jw_key(nb->w, "x");
    jw_begin(nb->w, '[');
    for (size_t i = 0; i < n; i++) {
        char *p = jw_room(nb->w, 1 + 20 + 3 * (1 + sizeof nb->last_text));

        if (i)
            *p++ = ',';
        p += jfr_text_u64(p, JFR_TEXT_U64_ROOM, m[i].node);
        *p++ = ',';
        p = put_number(nb, p, m[i].mix.jit);
        *p++ = ',';
        p = put_number(nb, p, m[i].mix.inlined);
        *p++ = ',';
        p = put_number(nb, p, m[i].mix.interpreted);
        jw_wrote(nb->w, p);
    }
    jw_end(nb->w, ']');
}

/* The labels of nodes from..to-1, each once, in the order they are first
 * used: the names' walk over one part of the tree. */
typedef struct name_walk {
    const flame_tree *t;
    size_t from, to;
    uint8_t *seen; /* by label */
    uint32_t *ids; /* the labels first used, in order: room for every label */
    size_t count;
    flame_batch *b;
} name_walk;

static void *walk_names(void *arg)
{
    name_walk *nw = arg;
    flame_iter it;

    flame_iter_init(&it, nw->t, FLAME_NEED_NAME);
    flame_iter_seek(&it, nw->from);
    while (it.index < nw->to && flame_iter_read(&it, nw->b))
        for (size_t j = 0; j < nw->b->count; j++) {
            uint32_t id = nw->b->name[j];

            if (!nw->seen[id]) {
                nw->seen[id] = 1;
                nw->ids[nw->count++] = id;
            }
        }
    return NULL;
}

static void name_walk_init(name_walk *nw, const flame_tree *t, size_t from, size_t to,
                           flame_batch *b)
{
    size_t room = t->nnames ? t->nnames : 1;

    *nw =
        (name_walk){t, from, to, xcalloc(room, 1), xcalloc(room, sizeof *nw->ids), 0, b};
}

static void name_walk_free(name_walk *nw)
{
    free(nw->seen);
    free(nw->ids);
}

/* The labels of every node, each once, in the order nodes first use them,
 * into `halves` (the second's count 0 when one walk took them all): with
 * `two_threads`, the second half of the nodes walked by a helper. A label
 * first used in the second half is first used there in the whole walk
 * unless the first half uses it, so the first half's labels, then the
 * second's not among them, are the one walk's. */
static void walk_all_names(const flame_tree *t, bool two_threads, name_walk halves[2],
                           flame_batch *b)
{
    /* where a batch of a walk from the root starts, so both end as its do */
    size_t mid = two_threads ? t->count / 2 / FLAME_BATCH * FLAME_BATCH : 0;
    flame_batch *helper_b = mid ? xmalloc(sizeof *helper_b) : NULL;

    name_walk_init(&halves[0], t, 0, mid ? mid : t->count, b);
    name_walk_init(&halves[1], t, mid ? mid : t->count, t->count, helper_b);
    run_in_two(walk_names, &halves[0], mid ? &halves[1] : NULL, true);
    free(helper_b);
}

/* Each distinct label once, in the order nodes first use it; `written`
 * gets index + 1 by name id. */
static size_t write_names(jw *w, const flame_tree *t, uint32_t *written, flame_batch *b,
                          bool two_threads)
{
    strmap ix = {0};
    size_t nwritten = 0;
    name_walk halves[2];

    walk_all_names(t, two_threads, halves, b);
    jw_key(w, "names");
    jw_begin(w, '[');
    for (int h = 0; h < 2; h++)
        for (size_t j = 0; j < halves[h].count; j++) {
            uint32_t id = halves[h].ids[j];
            const char *name = t->names[id];
            long k;

            if (written[id])
                continue;
            k = strmap_get(&ix, name);
            if (k < 0) {
                strmap_put(&ix, name, nwritten);
                jw_str(w, name);
                k = (long)nwritten++;
            }
            written[id] = (uint32_t)k + 1;
        }
    jw_end(w, ']');
    name_walk_free(&halves[0]);
    name_walk_free(&halves[1]);
    strmap_free(&ix);
    return nwritten;
}

/* Blocks for two threads when the tree may take a second one and is large
 * enough to share; NULL otherwise. Each starts at a multiple of
 * BLOCK_NODES, a multiple of FLAME_BATCH: its batches end where a walk
 * from the root has them end. */
static blocks *blocks_new(const flame_tree *t)
{
    blocks *bl;

    if (!t->two_threads || t->count < FLAME_TWO_THREADS_FROM)
        return NULL;
    bl = xcalloc(1, sizeof *bl);
    bl->nblocks = (t->count + BLOCK_NODES - 1) / BLOCK_NODES;
    bl->start = xcalloc(bl->nblocks, sizeof *bl->start);
    for (size_t i = 0; i < bl->nblocks; i++) {
        flame_iter_init(&bl->start[i], t, 0);
        flame_iter_seek(&bl->start[i], i * BLOCK_NODES);
    }
    bl->end = t->count;
    return bl;
}

static void blocks_free(blocks *bl)
{
    if (bl)
        free(bl->start);
    free(bl);
}

static void write_data(FILE *out, const flame_tree *t, const char *title)
{
    /* label -> index + 1 among the names written; equal texts share one */
    uint32_t *written = xcalloc(t->nnames ? t->nnames : 1, sizeof *written);
    arrays *a = xcalloc(1, sizeof *a);
    flame_batch *b = xmalloc(sizeof *b);
    blocks *bl = blocks_new(t);
    jw w;

    jw_init(&w, out);
    jw_raw(&w, "const FLAME = ");
    jw_begin(&w, '{');
    jw_key(&w, "title");
    jw_str(&w, title);
    if (t->hint && *t->hint) {
        jw_key(&w, "hint");
        jw_str(&w, t->hint);
    }
    jw_key(&w, "unit");
    jw_str(&w, t->unit);
    jw_key(&w, "mode");
    jw_str(&w, t->diff ? "diff" : "normal");
    jw_numtab_init(&a->names, write_names(&w, t, written, b, bl != NULL));
    jw_numtab_init(&a->depths, (size_t)t->max_depth + 1);
    a->nb.w = &w;
    a->written = written;
    write_array(a, t, "n", F_NAME, b, bl);
    write_array(a, t, "k", F_KIND, b, bl);
    write_array(a, t, "d", F_DEPTH, b, bl);
    write_array(a, t, "v", F_VALUE, b, bl);
    if (t->diff)
        write_array(a, t, "b", F_BASE, b, bl);
    write_mixes(&a->nb, t);
    jw_end(&w, '}');
    jw_raw(&w, ";\n");
    jw_flush(&w);
    blocks_free(bl);
    jw_numtab_free(&a->names);
    jw_numtab_free(&a->depths);
    free(b);
    free(a);
    free(written);
}

typedef struct page {
    const flame_tree *t;
    const char *title;
} page;

static void page_data(FILE *out, void *user)
{
    const page *pg = user;

    write_data(out, pg->t, pg->title);
}

void flame_write_html(FILE *out, const flame_tree *t, const char *title)
{
    page pg = {t, title};

    fill_template(out, flame_template, flame_template_size, DATA_LINE, title, page_data,
                  &pg);
}
