/* writer_bytes.h - the writer's byte buffers and encodings
 * (writer_bytes.c; jfr-format.md §4, §5). Never installed. */
#ifndef JFRP_WRITER_BYTES_H
#define JFRP_WRITER_BYTES_H

#include "jfr_private.h"

/* ---- bytes and encodings (jfr-format.md §4, §5) ---------------------------------- */

/** A growable byte buffer; `err` is sticky like a reader's. */
typedef struct jfrw_buf {
    const jfrp_alloc *al;
    uint8_t *data;
    size_t len, cap;
    int err; /* 0 or JFR_ENOMEM */
} jfrw_buf;

void jfrw_buf_init(jfrw_buf *b, const jfrp_alloc *al);
void jfrw_buf_free(jfrw_buf *b);
/** Make room for `n` more bytes; false (and b->err) when out of memory. */
bool jfrw_buf_grow(jfrw_buf *b, size_t n);

static inline bool jfrw_room(jfrw_buf *b, size_t n)
{
    return n <= b->cap - b->len || jfrw_buf_grow(b, n);
}

static inline void jfrw_bytes(jfrw_buf *b, const void *p, size_t n)
{
    if (n && jfrw_room(b, n)) {
        memcpy(b->data + b->len, p, n);
        b->len += n;
    }
}

static inline void jfrw_u8(jfrw_buf *b, uint8_t v)
{
    if (jfrw_room(b, 1))
        b->data[b->len++] = v;
}

/** Bytes of the minimal varint of `v` (1..9). */
static inline unsigned jfrw_varint_len(uint64_t v)
{
    unsigned n = 1;

    while (v >= 0x80 && n < 9) {
        v >>= 7;
        n++;
    }
    return n;
}

/** `v` as a varint of exactly `width` bytes (1..9; padded with
 * continuation bytes; width 9 carries 8 bits in its last byte). The value
 * must fit: 7 bits a byte below 9. */
void jfrw_varint_padded(jfrw_buf *b, uint64_t v, unsigned width);

static inline void jfrw_varint(jfrw_buf *b, uint64_t v)
{
    if (v < 0x80)
        jfrw_u8(b, (uint8_t)v);
    else
        jfrw_varint_padded(b, v, jfrw_varint_len(v));
}

void jfrw_be(jfrw_buf *b, uint64_t v, unsigned width);

/** An integer of declared `width` (2, 4, 8): a varint when `compressed`,
 * else big-endian (jfr-format.md §4.3-4.4). */
static inline void jfrw_int(jfrw_buf *b, bool compressed, uint64_t bits, unsigned width)
{
    if (width < 8)
        bits &= (((uint64_t)1) << (8 * width)) - 1;
    if (compressed)
        jfrw_varint(b, bits);
    else
        jfrw_be(b, bits, width);
}

/** A string as UTF-8 (tag 3), or null (tag 0) when `s` is NULL. */
void jfrw_string(jfrw_buf *b, bool compressed, const char *s, size_t len);

/**
 * Make the bytes of `b` from `start` on (a record's type id and payload)
 * a record: its size goes in front of them, a minimal varint counting
 * itself when `compressed`, else a 4-byte integer.
 */
void jfrw_record(jfrw_buf *b, bool compressed, size_t start);

#endif
