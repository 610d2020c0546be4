/* reader.c - bounds-checked reads of JFR scalars (see reader.h). */
#include "reader.h"

void jfrp_reader_init(jfrp_reader *r, const uint8_t *base, size_t len,
                      uint64_t base_offset, bool compressed)
{
    r->p = base;
    r->end = base + len;
    r->base = base;
    r->base_offset = base_offset;
    r->compressed = compressed;
    r->err = 0;
    r->err_offset = 0;
}

jfrp_reader jfrp_reader_sub(const jfrp_reader *r, size_t len)
{
    jfrp_reader sub = *r;

    if (len > jfrp_reader_left(r))
        len = jfrp_reader_left(r);
    sub.end = sub.p + len;
    return sub;
}

void jfrp_reader_fail(jfrp_reader *r, int code)
{
    if (!r->err) {
        r->err = code;
        r->err_offset = jfrp_reader_offset(r);
    }
    r->p = r->end;
}

void jfrp_reader_seek(jfrp_reader *r, const uint8_t *pos)
{
    if (r->err)
        return;
    if (pos < r->base || pos > r->end) {
        jfrp_reader_fail(r, JFR_ECORRUPT);
        return;
    }
    r->p = pos;
}

uint64_t jfrp_varint_slow(jfrp_reader *r)
{
    const uint8_t *p = r->p;
    size_t left = jfrp_reader_left(r);
    uint64_t v = 0;

    for (size_t i = 0; i < 8; i++) {
        if (i >= left)
            goto truncated;
        v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (p[i] < 0x80) {
            r->p = p + i + 1;
            return v;
        }
    }
    if (left < 9)
        goto truncated;
    r->p = p + 9;
    return v | ((uint64_t)p[8] << 56);
truncated:
    jfrp_reader_fail(r, JFR_ECORRUPT);
    return 0;
}

/* A varint ends at its first byte below 0x80, or after nine bytes. Input
 * bytes are looked at eight or sixteen at once: their terminator bytes are
 * counted with a mask, and the cursor moves past the last whole varint
 * among them. The cursor is always at the start of a varint, so eight
 * bytes without a terminator are the first eight of a nine-byte varint.
 * Sixteen bytes are only taken whole when no eight in a row lack a
 * terminator: a nine-byte varint whose last byte has its top bit set
 * would be miscounted inside them. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) &&                                      \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SKIP_BY_WORDS 1
#if defined(__SSE2__)
#include <emmintrin.h>
#define SKIP_BY_16 1
#endif
#endif

#ifdef SKIP_BY_WORDS
/* Past the first `count` terminators flagged in `stops` (one bit set per
 * terminator at bit 8i+7 or i), `per_byte` bits per byte. */
static inline unsigned past_stops(uint64_t stops, uint64_t count, unsigned per_byte)
{
    for (uint64_t k = 1; k < count; k++)
        stops &= stops - 1;
    return (unsigned)__builtin_ctzll(stops) / per_byte + 1;
}
#endif

#if defined(SKIP_BY_16) && defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#include <stdatomic.h>
#define SKIP_BY_32 1

/* Thirty-two bytes at a time where the processor has AVX2 (asked once):
 * a stack-trace pool is most of a CPU-time recording, and indexing walks
 * every frame of it. The windows follow one another 32 bytes apart, so
 * that each load waits for no result of the one before (stepping to the
 * last varint's end made a chain of load, mask and bit scan a window).
 * Returns where it stopped, at a varint's end, with *count the varints
 * left: past the count-th, or before eight bytes in a row without a
 * terminator (within a window or across two), which the caller takes. */
__attribute__((target("avx2,popcnt"))) static const uint8_t *
skip_by_32(const uint8_t *p, const uint8_t *end, uint64_t *count)
{
    const uint8_t *window = p;
    uint64_t left = *count;
    unsigned carry = 0; /* bytes without a terminator that ended the window before */

    while (left && end - window >= 32) {
        uint32_t stops = ~(uint32_t)_mm256_movemask_epi8(
            _mm256_loadu_si256((const __m256i *)(const void *)window));
        uint32_t run = ~stops;
        unsigned n;

        run &= run >> 1;
        run &= run >> 2;
        run &= run >> 4;
        if (run || !stops || carry + (unsigned)__builtin_ctz(stops) >= 8)
            break;
        n = (unsigned)__builtin_popcount(stops);
        if (n >= left) {
            p = window + past_stops(stops, left, 1);
            left = 0;
            break;
        }
        left -= n;
        carry = (unsigned)__builtin_clz(stops);
        p = window + 32 - carry;
        window += 32;
    }
    *count = left;
    return p;
}

static bool has_avx2(void)
{
    /* 0: not asked yet, 1: no, 2: yes; threads may ask at once and store
     * the same answer */
    static atomic_int known;
    int k = atomic_load_explicit(&known, memory_order_relaxed);

    if (!k) {
        k = __builtin_cpu_supports("avx2") ? 2 : 1;
        atomic_store_explicit(&known, k, memory_order_relaxed);
    }
    return k == 2;
}
#endif

#ifdef SKIP_BY_16
/* No popcnt instruction is assumed (baseline x86-64). */
static inline unsigned bits_set16(uint32_t x)
{
    x = x - ((x >> 1) & 0x5555u);
    x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
    x = (x + (x >> 4)) & 0x0f0fu;
    return (x + (x >> 8)) & 0x1fu;
}
#endif

void jfrp_skip_varints(jfrp_reader *r, uint64_t count)
{
#ifdef SKIP_BY_WORDS
    const uint8_t *p = r->p;

    while (count && r->end - p >= 16) {
#ifdef SKIP_BY_32
        if (r->end - p >= 32 && has_avx2()) {
            const uint8_t *q = skip_by_32(p, r->end, &count);

            if (q != p) {
                p = q;
                continue;
            }
        }
#endif
#ifdef SKIP_BY_16
        uint32_t stops16 = ~(uint32_t)_mm_movemask_epi8(
                               _mm_loadu_si128((const __m128i *)(const void *)p)) &
                           0xffffu;
        uint32_t run = ~stops16 & 0xffffu;

        run &= run >> 1;
        run &= run >> 2;
        run &= run >> 4; /* bit i: bytes i..i+7 have no terminator */
        if (!run) {
            unsigned n = bits_set16(stops16);

            if (n >= count) {
                p += past_stops(stops16, count, 1);
                count = 0;
                break;
            }
            p += 32 - __builtin_clz(stops16);
            count -= n;
            continue;
        }
#endif
        uint64_t w, stops;
        unsigned n;

        memcpy(&w, p, 8);
        stops = ~w & 0x8080808080808080ULL;
        if (!stops) {
            p += 9;
            count--;
            continue;
        }
        /* one bit per terminator at the bottom of its byte, summed */
        n = (unsigned)(((stops >> 7) * 0x0101010101010101ULL) >> 56);
        if (n >= count) {
            p += past_stops(stops, count, 8);
            count = 0;
            break;
        }
        p += (63 - __builtin_clzll(stops)) / 8 + 1;
        count -= n;
    }
    r->p = p;
#endif
    for (; count && !r->err; count--)
        jfrp_skip_varint(r);
}

void jfrp_raw_string_read(jfrp_reader *r, jfrp_raw_string *out)
{
    uint64_t n;

    memset(out, 0, sizeof *out);
    out->tag = jfrp_u8(r);
    switch (out->tag) {
    case JFRP_STR_NULL:
    case JFRP_STR_EMPTY:
        return;
    case JFRP_STR_POOL:
        out->count = r->compressed ? jfrp_varint(r) : jfrp_be(r, 8);
        return;
    case JFRP_STR_UTF8:
    case JFRP_STR_LATIN1:
        n = jfrp_int(r, 4);
        out->count = n;
        out->bytes = r->p;
        jfrp_skip(r, n);
        out->bytes_end = r->p;
        return;
    case JFRP_STR_UTF16:
        n = jfrp_int(r, 4);
        out->count = n;
        out->bytes = r->p;
        if (n > jfrp_reader_left(r) && r->compressed) {
            /* every unit takes at least one byte */
            jfrp_reader_fail(r, JFR_ECORRUPT);
            return;
        }
        for (uint64_t i = 0; i < n && !r->err; i++)
            (void)jfrp_int(r, 2);
        out->bytes_end = r->p;
        return;
    default:
        r->p--; /* point the error at the tag */
        jfrp_reader_fail(r, JFR_ECORRUPT);
        return;
    }
}
