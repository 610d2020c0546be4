/* out_folded.c - folded (collapsed) stacks, the input of flamegraph.pl
 * and other flame-graph tools: one line per distinct stack, frames from
 * the root joined by ';', a space and the count or weight, lines sorted
 * by bytes (design.md §3 "Folded stacks"). */
#include <stdlib.h>
#include <string.h>

#include "out_folded.h"
#include "stack_sort.h"
#include "util.h"

/* The stacks to print and their frames' text: lines are sorted and
 * written from these, never held as text. */
typedef struct folded {
    const jfr_profile *p;
    frame_text *texts; /* by frame id */
    stack_keys keys;   /* the byte order of the texts in a line */
    stack_ref *lines;  /* stacks with a weight, in line order */
    uint64_t *weights; /* by stack id, read in id order */
    size_t n;
} folded;

static void folded_build(folded *f, const jfr_profile *p, const select_opts *s)
{
    size_t nstacks = jfr_profile_stack_count(p);
    size_t nframes = jfr_profile_frame_count(p);
    strbuf scratch = {0};

    f->p = p;
    f->texts = xcalloc(nframes ? nframes : 1, sizeof *f->texts);
    for (uint32_t id = 0; id < nframes; id++) {
        sb_clear(&scratch);
        select_frame_text(&scratch, jfr_profile_frame_at(p, id), s, true);
        f->texts[id].text = xstrdup(sb_str(&scratch));
        f->texts[id].len = scratch.len;
    }
    sb_free(&scratch);
    stack_keys_by_text(&f->keys, f->texts, nframes);
    f->lines = xcalloc(nstacks ? nstacks : 1, sizeof *f->lines);
    f->weights = xcalloc(nstacks ? nstacks : 1, sizeof *f->weights);
    f->n = 0;
    for (size_t i = 0; i < nstacks; i++) {
        const uint32_t *frames;
        size_t depth;
        uint64_t w = 0;

        if (jfr_profile_stack(&w, &frames, &depth, p, i) == JFR_OK && w)
            f->lines[f->n++] = (stack_ref){frames, (uint32_t)depth, (uint32_t)i};
        f->weights[i] = w;
    }
    stack_sort(f->lines, f->n, &f->keys);
}

static void folded_free(folded *f)
{
    for (size_t i = 0; i < jfr_profile_frame_count(f->p); i++)
        free(f->texts[i].text);
    free(f->texts);
    stack_keys_free(&f->keys);
    free(f->lines);
    free(f->weights);
}

/* The text of the line being written, kept from the line before for the
 * leading frames the two share: sorted lines share long prefixes. */
typedef struct line_text {
    strbuf sb;
    size_t *ends; /* by depth: where frame d's text ends */
    size_t room;
} line_text;

static void line_text_set(line_text *lt, const folded *f, const stack_ref *line,
                          size_t shared)
{
    if (line->depth > lt->room) {
        lt->room = line->depth;
        lt->ends = xrealloc(lt->ends, lt->room, sizeof *lt->ends);
    }
    lt->sb.len = shared ? lt->ends[shared - 1] : 0;
    for (size_t d = shared; d < line->depth; d++) {
        const frame_text *t = &f->texts[line->frames[d]];

        if (d)
            sb_putc(&lt->sb, ';');
        sb_putn(&lt->sb, t->text, t->len);
        lt->ends[d] = lt->sb.len;
    }
}

/* How many lines ahead folded_write starts loading a line's weight and
 * frames: the lines are in text order, their stacks anywhere in memory. */
#define PREFETCH_AHEAD 8

/* Lines that come out equal (frames that differ only in characters made
 * '_') are merged; output goes through one buffer, not a call per line. */
static void folded_write(const folded *f, FILE *out)
{
    strbuf sb = {0};
    line_text lt = {0};
    size_t shared = 0;

    for (size_t i = 0, j; i < f->n; i = j) {
        const stack_ref *line = &f->lines[i];
        uint64_t sum = f->weights[line->id];
        size_t next_shared = 0;

        if (i + PREFETCH_AHEAD < f->n) {
            __builtin_prefetch(&f->weights[f->lines[i + PREFETCH_AHEAD].id]);
            __builtin_prefetch(f->lines[i + PREFETCH_AHEAD].frames);
        }
        for (j = i + 1; j < f->n; j++) {
            next_shared = stack_keys_shared(line, &f->lines[j], &f->keys);
            if (next_shared != line->depth || f->lines[j].depth != line->depth)
                break;
            sum += f->weights[f->lines[j].id];
        }
        line_text_set(&lt, f, line, shared);
        sb_putn(&sb, lt.sb.ptr ? lt.sb.ptr : "", lt.sb.len);
        sb_putc(&sb, ' ');
        sb_put_u64(&sb, sum);
        sb_putc(&sb, '\n');
        if (sb.len >= 1 << 16) {
            fwrite(sb.ptr, 1, sb.len, out);
            sb_clear(&sb);
        }
        shared = next_shared;
    }
    fwrite(sb.ptr ? sb.ptr : "", 1, sb.len, out);
    sb_free(&sb);
    sb_free(&lt.sb);
    free(lt.ends);
}

void folded_print(const jfr_profile *p, const select_opts *s, FILE *out)
{
    folded f;

    folded_build(&f, p, s);
    folded_write(&f, out);
    folded_free(&f);
}

int folded_write_profile(FILE *out, const profile_output *po)
{
    folded_print(po->r->profile, po->s, out);
    return 0;
}
