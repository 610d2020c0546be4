/* livegen.c - chunks laid out flush by flush, as a JVM writes them (see
 * livegen.h). Test code: failures abort. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "livegen.h"

#define HEADER_SIZE 68

static void die(const char *what)
{
    fprintf(stderr, "livegen: %s\n", what);
    abort();
}

static uint64_t varint(const uint8_t *p, const uint8_t *end, const uint8_t **next)
{
    uint64_t v = 0;

    for (int i = 0; i < 8; i++) {
        if (p + i >= end)
            die("cut varint");
        v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (!(p[i] & 0x80)) {
            *next = p + i + 1;
            return v;
        }
    }
    if (p + 8 >= end)
        die("cut varint");
    *next = p + 9;
    return v | (uint64_t)p[8] << 56;
}

static void push(uint64_t **arr, size_t n, uint64_t v)
{
    *arr = realloc(*arr, (n + 1) * sizeof **arr);
    if (!*arr)
        die("out of memory");
    (*arr)[n] = v;
}

/* A checkpoint's type flags: after start time, duration and delta. */
static unsigned checkpoint_flags(const uint8_t *payload, const uint8_t *end)
{
    const uint8_t *p = payload;

    for (int i = 0; i < 3; i++)
        (void)varint(p, end, &p);
    return (unsigned)varint(p, end, &p);
}

static uint64_t be(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;

    while (n--)
        v = v << 8 | *p++;
    return v;
}

static void header(const lg_chunk *lc, uint64_t size, uint64_t cp, uint64_t meta,
                   int64_t duration, uint8_t state, uint16_t flags, uint8_t out[68])
{
    memcpy(out, "FLR", 4);
    jg_put_be(out + 4, lc->h.major, 2);
    jg_put_be(out + 6, lc->h.minor, 2);
    jg_put_be(out + 8, size, 8);
    jg_put_be(out + 16, cp, 8);
    jg_put_be(out + 24, meta, 8);
    jg_put_be(out + 32, (uint64_t)lc->h.start_nanos, 8);
    jg_put_be(out + 40, (uint64_t)duration, 8);
    jg_put_be(out + 48, (uint64_t)lc->h.start_ticks, 8);
    jg_put_be(out + 56, (uint64_t)lc->h.ticks_per_second, 8);
    out[64] = state;
    out[65] = 0;
    jg_put_be(out + 66, flags, 2);
}

/* Find the flushes of out->image; headers of flushes that copy theirs
 * into the flush checkpoint (the JVM's jdk.types.ChunkHeader) come from
 * there, the placeholders of lg_header_copy are filled first. */
static void find_flushes(lg_chunk *out, bool fill_copies)
{
    const uint8_t *p = out->image.data + HEADER_SIZE;
    const uint8_t *end = out->image.data + out->image.len;
    uint64_t meta = 0, last_cp = 0;

    while (p < end) {
        const uint8_t *start = p, *payload;
        uint64_t size = varint(p, end, &payload), type = varint(payload, end, &payload);
        uint64_t at = (uint64_t)(start - out->image.data);

        if (type == 0)
            meta = at;
        if (type == 1) {
            last_cp = at;
            if (meta && (checkpoint_flags(payload, start + size) & 1)) {
                push(&out->end, out->nflush, at + size);
                push(&out->cp, out->nflush, at);
                push(&out->meta, out->nflush++, meta);
            }
        }
        p = start + size;
    }
    if (!out->nflush)
        die("no flush in the chunk");
    out->final_cp = last_cp;
    out->final_meta = meta;
    for (size_t k = 0; fill_copies && k < out->nflush; k++) {
        uint8_t *copy = out->image.data + out->end[k] - HEADER_SIZE;

        if (memcmp(copy, "FLR\0\0\0\0\0", 8) == 0) {
            /* a placeholder: what a JVM would have written there */
            copy[0] = 0;
            lg_header_at(out, k, copy);
        }
    }
}

void lg_layout(lg_chunk *out, jg_chunk *c)
{
    memset(out, 0, sizeof *out);
    out->h = c->h;
    jg_chunk_build(c, &out->image);
    jg_chunk_free(c);
    find_flushes(out, true);
    header(out, out->image.len, out->final_cp, out->final_meta,
           (int64_t)(out->nflush + 1) * 1000000000, 0, out->h.flags, out->closed);
}

void lg_layout_bytes(lg_chunk *out, const uint8_t *chunk, size_t len)
{
    memset(out, 0, sizeof *out);
    jg_bytes(&out->image, chunk, len);
    out->h.major = (uint16_t)be(chunk + 4, 2);
    out->h.minor = (uint16_t)be(chunk + 6, 2);
    out->h.start_nanos = (int64_t)be(chunk + 32, 8);
    out->h.start_ticks = (int64_t)be(chunk + 48, 8);
    out->h.ticks_per_second = (int64_t)be(chunk + 56, 8);
    out->h.flags = (uint16_t)be(chunk + 66, 2);
    memcpy(out->closed, chunk, HEADER_SIZE);
    find_flushes(out, false);
}

void lg_free(lg_chunk *lc)
{
    jg_buf_free(&lc->image);
    free(lc->end);
    free(lc->cp);
    free(lc->meta);
    memset(lc, 0, sizeof *lc);
}

void lg_header_at(const lg_chunk *lc, size_t k, uint8_t out[68])
{
    const uint8_t *copy = lc->image.data + lc->end[k] - HEADER_SIZE;

    /* the JVM's own copy, when the flush checkpoint has one */
    if (memcmp(copy, "FLR\0", 4) == 0 && be(copy + 8, 8) == lc->end[k]) {
        memcpy(out, copy, HEADER_SIZE);
        return;
    }
    /* each flush a second later; generations 1..254 */
    header(lc, lc->end[k], lc->cp[k], lc->meta[k], (int64_t)(k + 1) * 1000000000,
           (uint8_t)(k % 254 + 1), lc->h.flags & 1u, out);
}

void lg_header_closed(const lg_chunk *lc, bool final, uint8_t out[68])
{
    memcpy(out, lc->closed, HEADER_SIZE);
    out[67] = (uint8_t)((out[67] & ~2u) | (final ? 2u : 0u));
}

void lg_file_at(const lg_chunk *lc, size_t k, size_t tail, jg_buf *out)
{
    size_t n = lc->end[k] + tail;

    if (n > lc->image.len)
        n = lc->image.len;
    out->len = 0;
    jg_bytes(out, lc->image.data, n);
    lg_header_at(lc, k, out->data);
}

void lg_file_closed(const lg_chunk *lc, bool final, jg_buf *out)
{
    out->len = 0;
    jg_bytes(out, lc->image.data, lc->image.len);
    lg_header_closed(lc, final, out->data);
}

void lg_write_file(const char *path, const jg_buf *b)
{
    int fd = open(path, O_WRONLY | O_CREAT, 0644);

    if (fd < 0 || pwrite(fd, b->data, b->len, 0) != (ssize_t)b->len ||
        ftruncate(fd, (off_t)b->len) < 0 || close(fd) < 0)
        die("cannot write the chunk file");
}

void lg_write_header_part(const char *path, const uint8_t hdr[68], size_t from, size_t to)
{
    int fd = open(path, O_WRONLY);

    if (fd < 0 ||
        pwrite(fd, hdr + from, to - from, (off_t)from) != (ssize_t)(to - from) ||
        close(fd) < 0)
        die("cannot write the header");
}

void lg_declare_header_type(jg_chunk *c, uint64_t id, uint64_t byte_id)
{
    jg_field(jg_class(c, id, "jdk.types.ChunkHeader", NULL), "payload", byte_id,
             JG_ARRAY);
}

void lg_header_copy(jg_cp *cp, uint64_t id)
{
    jg_buf *b = jg_entry(jg_pool_new(cp, id), 1);
    uint8_t placeholder[HEADER_SIZE] = "FLR";

    jg_count(b, HEADER_SIZE);
    jg_bytes(b, placeholder, sizeof placeholder);
}

void lg_metadata_record(jg_chunk *types, jg_buf *out)
{
    jg_buf b = {0};
    const uint8_t *p, *payload;
    uint64_t size;

    jg_chunk_build(types, &b); /* its metadata record goes first */
    p = b.data + HEADER_SIZE;
    size = varint(p, b.data + b.len, &payload);
    jg_bytes(out, p, size);
    jg_buf_free(&b);
}
