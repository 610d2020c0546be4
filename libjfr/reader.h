/* reader.h - the cursor over chunk bytes: the only code that reads raw bytes.
 *
 * A reader is a window [p, end) over memory plus the absolute input offset
 * of `base`, for error messages. Errors are sticky: the first failed read
 * records its code and position and empties the window, so every later read
 * fails too and returns 0. Callers read a whole structure and test `err`
 * once (jfr-format.md §4 for the encodings).
 */
#ifndef JFRP_READER_H
#define JFRP_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "jfr/error.h"

typedef struct jfrp_reader {
    const uint8_t *p;
    const uint8_t *end;
    const uint8_t *base;  /* offset 0 of the input as far as errors go */
    uint64_t base_offset; /* absolute input offset of `base` */
    bool compressed;      /* integers are varints (chunk flag bit 0) */
    int err;              /* 0, or the first failure (JFR_ECORRUPT...) */
    uint64_t err_offset;  /* absolute offset of the first failure */
} jfrp_reader;

void jfrp_reader_init(jfrp_reader *r, const uint8_t *base, size_t len,
                      uint64_t base_offset, bool compressed);

/** A reader over `len` bytes at the current position (bounded sub-reader). */
jfrp_reader jfrp_reader_sub(const jfrp_reader *r, size_t len);

/** Absolute input offset of the current position. */
static inline uint64_t jfrp_reader_offset(const jfrp_reader *r)
{
    return r->base_offset + (uint64_t)(r->p - r->base);
}

static inline size_t jfrp_reader_left(const jfrp_reader *r)
{
    return (size_t)(r->end - r->p);
}

/** Record a failure at the current position (keeps the first one). */
void jfrp_reader_fail(jfrp_reader *r, int code);

/** Move the position to `pos` (absolute in the window), or fail. */
void jfrp_reader_seek(jfrp_reader *r, const uint8_t *pos);

/** Skip `n` bytes, or fail with JFR_ECORRUPT if fewer are left. */
static inline void jfrp_skip(jfrp_reader *r, uint64_t n)
{
    if (n > jfrp_reader_left(r)) {
        jfrp_reader_fail(r, JFR_ECORRUPT);
        return;
    }
    r->p += n;
}

uint64_t jfrp_varint_slow(jfrp_reader *r);

/**
 * A varint at *pp, which the caller has checked is at least 9 bytes from
 * the end of the input; *pp moves past it. For loops that keep their
 * cursor in a register.
 */
static inline uint64_t jfrp_varint_unchecked(const uint8_t **pp)
{
    const uint8_t *p = *pp;
    uint64_t v = p[0];

    if (v < 0x80) {
        *pp = p + 1;
        return v;
    }
    v &= 0x7f;
    for (int i = 1; i < 8; i++) {
        uint64_t b = p[i];
        v |= (b & 0x7f) << (7 * i);
        if (b < 0x80) {
            *pp = p + i + 1;
            return v;
        }
    }
    *pp = p + 9;
    return v | ((uint64_t)p[8] << 56);
}

/**
 * A JFR varint (jfr-format.md §4.1): 7 bits per byte for up to eight bytes,
 * a ninth byte carrying 8 bits. Padded encodings are accepted.
 */
static inline uint64_t jfrp_varint(jfrp_reader *r)
{
    if (r->end - r->p >= 9)
        return jfrp_varint_unchecked(&r->p);
    return jfrp_varint_slow(r);
}

/** Skip one varint without assembling its value. */
static inline void jfrp_skip_varint(jfrp_reader *r)
{
    const uint8_t *p = r->p;

    if (r->end - p >= 9) {
        for (int i = 0; i < 8; i++)
            if (p[i] < 0x80) {
                r->p = p + i + 1;
                return;
            }
        r->p = p + 9;
        return;
    }
    (void)jfrp_varint_slow(r);
}

/** Skip `count` consecutive varints (a run of flat structs), eight bytes
 * at a time where the input allows. */
void jfrp_skip_varints(jfrp_reader *r, uint64_t count);

static inline uint8_t jfrp_u8(jfrp_reader *r)
{
    if (r->p >= r->end) {
        jfrp_reader_fail(r, JFR_ECORRUPT);
        return 0;
    }
    return *r->p++;
}

/** Big-endian fixed-width integer of `n` bytes (1..8). */
static inline uint64_t jfrp_be(jfrp_reader *r, unsigned n)
{
    uint64_t v = 0;

    if (n > jfrp_reader_left(r)) {
        jfrp_reader_fail(r, JFR_ECORRUPT);
        return 0;
    }
    for (unsigned i = 0; i < n; i++)
        v = (v << 8) | r->p[i];
    r->p += n;
    return v;
}

/**
 * An integer field of `width` bytes (2 short/char, 4 int, 8 long): a varint
 * in compressed chunks, else big-endian. Returns the bits truncated to the
 * declared width (jfr-format.md §4.3, no zig-zag).
 */
static inline uint64_t jfrp_int(jfrp_reader *r, unsigned width)
{
    uint64_t v = r->compressed ? jfrp_varint(r) : jfrp_be(r, width);
    if (width < 8)
        v &= (((uint64_t)1) << (8 * width)) - 1;
    return v;
}

static inline float jfrp_float(jfrp_reader *r)
{
    uint32_t bits = (uint32_t)jfrp_be(r, 4);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline double jfrp_double(jfrp_reader *r)
{
    uint64_t bits = jfrp_be(r, 8);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* String encodings (jfr-format.md §5). */
enum {
    JFRP_STR_NULL = 0,
    JFRP_STR_EMPTY = 1,
    JFRP_STR_POOL = 2,
    JFRP_STR_UTF8 = 3,
    JFRP_STR_UTF16 = 4,
    JFRP_STR_LATIN1 = 5
};

/** A string as stored: its encoding tag and where its payload lies. */
typedef struct jfrp_raw_string {
    uint8_t tag;
    uint64_t count;       /* bytes (3, 5), UTF-16 units (4); pool key (2) */
    const uint8_t *bytes; /* payload start (3, 4, 5) */
    const uint8_t *bytes_end;
} jfrp_raw_string;

/** Read one string's framing and skip its payload. */
void jfrp_raw_string_read(jfrp_reader *r, jfrp_raw_string *out);

#endif
