/* inflate_guard.c - the sink a container filter writes to: its output
 * buffer, bounded by max_input_size, and the check on the output while it
 * grows, so that a compression bomb is refused early: the output must go on
 * being chunk headers and the records they frame, or reach a plausible
 * chunk header within JFRP_GUARD_SLACK bytes of where it stopped
 * (jfr-format.md §3.5). Memory then follows what the chunks declare and
 * their records fill. */
#include <stdarg.h>
#include <stdio.h>

#include "source.h"

int jfrp_input_too_large(jfr_recording *rec, size_t len)
{
    return jfrp_fail(&rec->err, JFR_ELIMIT, -1, len,
                     "input larger than the limit of %llu bytes",
                     (unsigned long long)rec->opts.max_input_size);
}

/* Room for up to `extra` more bytes, but never past one byte over the
 * limit: an input of exactly the limit fits, and a byte more shows that it
 * is too large (callers check the final length against the limit). */
int jfrp_outbuf_reserve(jfr_recording *rec, jfrp_outbuf *b, size_t extra)
{
    size_t limit = rec->opts.max_input_size >= SIZE_MAX
                       ? SIZE_MAX
                       : (size_t)rec->opts.max_input_size + 1;
    size_t need, cap;
    uint8_t *p;

    if (b->len >= limit)
        return jfrp_input_too_large(rec, b->len);
    if (extra > limit - b->len)
        extra = limit - b->len;
    need = b->len + extra;
    if (need <= b->cap)
        return 0;
    cap = b->cap ? b->cap : 65536;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    if (cap > limit)
        cap = limit;
    p = jfrp_realloc(&rec->al, b->data, cap);
    if (!p)
        return jfrp_fail(&rec->err, JFR_ENOMEM, -1, b->len,
                         "out of memory for %zu bytes of input", cap);
    b->data = p;
    b->cap = cap;
    return 0;
}

static void go_bad(jfrp_guard *g, uint64_t at)
{
    if (g->since == UINT64_MAX)
        g->since = at;
    g->searching = true;
    g->scan = at + 1;
}

/* The header at g->chunk, with `left` bytes of it present. */
static void enter_chunk(jfrp_guard *g, const uint8_t *p, size_t left, uint64_t max)
{
    jfr_header h;
    int rc = jfrp_header_parse(&h, p, left);

    if ((rc != JFR_OK && rc != JFR_ECORRUPT) || h.chunk_size > max) {
        go_bad(g, g->chunk);
        return;
    }
    /* a placeholder size (async-profiler) leaves the records to tell */
    g->end = h.chunk_size >= JFRP_HEADER_SIZE ? g->chunk + h.chunk_size : UINT64_MAX;
    g->walk = g->chunk + JFRP_HEADER_SIZE;
    g->compressed = (h.flags & JFR_CHUNK_FLAG_COMPRESSED_INTS) != 0;
}

/* Step over the records present; false when waiting for more output. */
static bool walk_records(jfrp_guard *g, const uint8_t *data, size_t len)
{
    while (g->walk < g->end && g->walk < len) {
        jfrp_reader r;
        uint64_t size;

        jfrp_reader_init(&r, data + g->walk, len - g->walk, g->walk, g->compressed);
        size = jfrp_int(&r, 4);
        if (r.err && len - g->walk < 9)
            return false; /* the size itself is still being decompressed */
        if (r.err || size == 0 || size > g->end - g->walk) {
            go_bad(g, g->walk);
            return true;
        }
        g->walk += size;
    }
    if (g->walk < g->end)
        return false;
    g->since = UINT64_MAX; /* a whole chunk: the output makes sense again */
    g->chunk = g->end;
    g->walk = 0;
    return true;
}

/* True while decompression should go on. */
static bool guard_check(jfrp_guard *g, const uint8_t *data, size_t len, uint64_t max)
{
    for (;;) {
        if (g->searching) {
            /* any header will do here: its records must then make sense */
            uint64_t q = jfrp_find_header(data, len, g->scan, max, false);

            if (q == len) {
                /* a header may straddle the end of the output so far */
                if (len > JFRP_HEADER_SIZE && len - JFRP_HEADER_SIZE > g->scan)
                    g->scan = len - JFRP_HEADER_SIZE;
                return len - g->since <= JFRP_GUARD_SLACK;
            }
            g->searching = false;
            g->chunk = q;
            g->walk = 0;
        }
        if (g->walk == 0) {
            if (len <= g->chunk || len - g->chunk < JFRP_HEADER_SIZE)
                return true;
            enter_chunk(g, data + g->chunk, len - g->chunk, max);
            continue;
        }
        if (!walk_records(g, data, len))
            return true;
    }
}

bool jfrp_sink_check(jfr_recording *rec, jfrp_sink *s)
{
    if (guard_check(&s->guard, s->out.data, s->out.len, rec->opts.max_chunk_size))
        return true;
    jfrp_sink_note(s, JFR_ECORRUPT,
                   "decompression stopped after %zu bytes: no JFR chunk follows"
                   " offset %llu",
                   s->out.len, (unsigned long long)s->guard.since);
    return false;
}

void jfrp_sink_note(jfrp_sink *s, int code, const char *fmt, ...)
{
    va_list ap;

    if (s->has_note)
        return;
    s->has_note = true;
    s->note.code = code;
    s->note.chunk = -1;
    s->note.offset = s->out.len;
    va_start(ap, fmt);
    vsnprintf(s->note.message, sizeof s->note.message, fmt, ap);
    va_end(ap);
}
