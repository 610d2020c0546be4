/* test_reader.c - the byte cursor: varints, fixed-width integers, sticky
 * errors (libjfr/reader.h, jfr-format.md §4). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "jfr_private.h"
#include "jfrgen.h"

/* One varint encoding and the value it stands for. */
typedef struct varint_case {
    uint8_t bytes[9];
    size_t len;
    uint64_t value;
} varint_case;

static varint_case varint_cases[] = {
    {{0x00}, 1, 0},
    {{0x01}, 1, 1},
    {{0x7f}, 1, 127},
    {{0x80, 0x01}, 2, 128},
    {{0xff, 0x7f}, 2, 16383},
    {{0x80, 0x80, 0x01}, 3, 16384},
    /* padded encodings (jfr-format.md §4.1) */
    {{0x8a, 0x00}, 2, 10},
    {{0x8a, 0x80, 0x80, 0x00}, 4, 10},
    {{0x8a, 0x80, 0x80, 0x80, 0x00}, 5, 10},
    {{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 8, 0},
    {{0x8a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 9, 10},
    /* int -1 and Integer.MIN_VALUE as zero-extended 32-bit patterns (§4.3) */
    {{0xff, 0xff, 0xff, 0xff, 0x0f}, 5, 0xffffffffu},
    {{0x80, 0x80, 0x80, 0x80, 0x08}, 5, 0x80000000u},
    /* the largest 8-byte value: 56 bits */
    {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, 8, (UINT64_C(1) << 56) - 1},
    /* the ninth byte carries all 8 bits */
    {{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 9, UINT64_C(1) << 56},
    {{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80}, 9, UINT64_C(1) << 63},
    {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 9, UINT64_MAX},
    /* a checkpoint delta of -8740 */
    {{0xdc, 0xbb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 9, (uint64_t)-8740},
};

ParameterizedTestParameters(reader, varint_decodes)
{
    return cr_make_param_array(varint_case, varint_cases,
                               sizeof varint_cases / sizeof varint_cases[0]);
}

/* Exactly the encoding (the bounds-checked slow path) and the encoding
 * followed by slack (the fast path) must agree. */
ParameterizedTest(varint_case *tc, reader, varint_decodes)
{
    uint8_t buf[32];
    jfrp_reader r;

    memset(buf, 0xee, sizeof buf);
    memcpy(buf, tc->bytes, tc->len);

    jfrp_reader_init(&r, buf, tc->len, 0, true);
    cr_assert_eq(jfrp_varint(&r), tc->value);
    cr_assert_eq(r.err, 0);
    cr_assert_eq(jfrp_reader_left(&r), 0, "slow path consumed %zu of %zu",
                 tc->len - jfrp_reader_left(&r), tc->len);

    jfrp_reader_init(&r, buf, sizeof buf, 0, true);
    cr_assert_eq(jfrp_varint(&r), tc->value);
    cr_assert_eq(r.err, 0);
    cr_assert_eq((size_t)(r.p - buf), tc->len, "fast path consumed %zu of %zu",
                 (size_t)(r.p - buf), tc->len);
}

ParameterizedTestParameters(reader, varint_truncated_fails)
{
    return cr_make_param_array(varint_case, varint_cases,
                               sizeof varint_cases / sizeof varint_cases[0]);
}

ParameterizedTest(varint_case *tc, reader, varint_truncated_fails)
{
    for (size_t cut = 0; cut < tc->len; cut++) {
        jfrp_reader r;

        jfrp_reader_init(&r, tc->bytes, cut, 1000, true);
        cr_assert_eq(jfrp_varint(&r), 0, "prefix of %zu bytes", cut);
        cr_assert_eq(r.err, JFR_ECORRUPT, "prefix of %zu bytes", cut);
        cr_assert_eq(r.err_offset, 1000);
        cr_assert_eq(jfrp_reader_left(&r), 0);
    }
}

/* Every value written by the test writer at every width it fits reads back. */
Test(reader, varint_roundtrip_all_widths)
{
    uint64_t values[3 * 64 + 2];
    size_t nv = 0;

    values[nv++] = 0;
    values[nv++] = UINT64_MAX;
    for (unsigned b = 0; b < 64; b++) {
        values[nv++] = UINT64_C(1) << b;
        values[nv++] = (UINT64_C(1) << b) - 1;
        values[nv++] = (UINT64_C(1) << b) + 1;
    }
    for (size_t i = 0; i < nv; i++) {
        uint64_t v = values[i];

        for (unsigned w = jg_varint_len(v); w <= 9; w++) {
            jg_buf b = {0};
            jfrp_reader r;

            if (w < 9 && w * 7 < 64 && v >> (7 * w))
                continue; /* does not fit a padded 7-bit-per-byte form */
            jg_varint_padded(&b, v, w);
            cr_assert_eq(b.len, w);
            jfrp_reader_init(&r, b.data, b.len, 0, true);
            cr_assert_eq(jfrp_varint(&r), v, "value %llu width %u", (unsigned long long)v,
                         w);
            cr_assert_eq(jfrp_reader_left(&r), 0);
            cr_assert_eq(r.err, 0);
            jg_buf_free(&b);
        }
    }
}

Test(reader, varint_minimal_lengths)
{
    cr_assert_eq(jg_varint_len(0), 1);
    cr_assert_eq(jg_varint_len(127), 1);
    cr_assert_eq(jg_varint_len(128), 2);
    cr_assert_eq(jg_varint_len((UINT64_C(1) << 56) - 1), 8);
    cr_assert_eq(jg_varint_len(UINT64_C(1) << 56), 9);
    cr_assert_eq(jg_varint_len(UINT64_MAX), 9);
}

Test(reader, varint_never_reads_a_tenth_byte)
{
    /* nine continuation bytes then 0x05: the value ends after byte nine */
    static const uint8_t bytes[] = {0xff, 0xff, 0xff, 0xff, 0xff,
                                    0xff, 0xff, 0xff, 0xff, 0x05};
    jfrp_reader r;

    jfrp_reader_init(&r, bytes, sizeof bytes, 0, true);
    cr_assert_eq(jfrp_varint(&r), UINT64_MAX);
    cr_assert_eq(jfrp_u8(&r), 0x05);
}

Test(reader, fixed_width_big_endian)
{
    static const uint8_t bytes[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
                                    0x07, 0x08, 0xff, 0xfe, 0x80};
    jfrp_reader r;

    for (unsigned n = 1; n <= 8; n++) {
        uint64_t want = 0;

        for (unsigned i = 0; i < n; i++)
            want = want << 8 | bytes[i];
        jfrp_reader_init(&r, bytes, sizeof bytes, 0, false);
        cr_assert_eq(jfrp_be(&r, n), want, "width %u", n);
        cr_assert_eq((size_t)(r.p - bytes), n);
    }
    jfrp_reader_init(&r, bytes + 8, 3, 0, false);
    cr_assert_eq(jfrp_be(&r, 2), 0xfffe);
    cr_assert_eq(jfrp_be(&r, 2), 0, "only one byte left");
    cr_assert_eq(r.err, JFR_ECORRUPT);
    cr_assert_eq(r.err_offset, 2);
}

Test(reader, int_fields_fixed_mode)
{
    static const uint8_t bytes[] = {0xff, 0xfe, 0x00, 0x00, 0x01, 0x00, 0x80,
                                    0,    0,    0,    0,    0,    0,    0x01};
    jfrp_reader r;

    jfrp_reader_init(&r, bytes, sizeof bytes, 0, false);
    cr_assert_eq(jfrp_int(&r, 2), 0xfffe);
    cr_assert_eq(jfrp_int(&r, 4), 0x100);
    cr_assert_eq(jfrp_int(&r, 8), UINT64_C(0x8000000000000001));
    cr_assert_eq(r.err, 0);
    cr_assert_eq(jfrp_reader_left(&r), 0);
}

Test(reader, int_fields_truncate_to_declared_width)
{
    jg_buf b = {0};
    jfrp_reader r;

    jg_varint(&b, UINT64_MAX); /* a writer sign-extended: keep the low bits */
    jg_varint(&b, 0x1ffff);
    jg_varint(&b, 0x123456789);
    jfrp_reader_init(&r, b.data, b.len, 0, true);
    cr_assert_eq(jfrp_int(&r, 4), 0xffffffffu);
    cr_assert_eq(jfrp_int(&r, 2), 0xffff);
    cr_assert_eq(jfrp_int(&r, 8), 0x123456789);
    jg_buf_free(&b);
}

Test(reader, float_and_double_are_big_endian)
{
    jg_buf b = {0};
    jfrp_reader r;
    float f;
    double d;

    jg_f32(&b, 1.5f);
    jg_f64(&b, -2.25);
    cr_assert_eq(b.data[0], 0x3f); /* 1.5f = 3fc00000 */
    cr_assert_eq(b.data[1], 0xc0);
    jfrp_reader_init(&r, b.data, b.len, 0, true);
    f = jfrp_float(&r);
    d = jfrp_double(&r);
    cr_assert(f == 1.5f);
    cr_assert(d == -2.25);
    cr_assert_eq(jfrp_reader_left(&r), 0);
    jg_buf_free(&b);
}

Test(reader, errors_are_sticky)
{
    static const uint8_t bytes[] = {0x05, 0x80, 0x06, 0x07};
    jfrp_reader r;

    jfrp_reader_init(&r, bytes, 2, 500, true);
    cr_assert_eq(jfrp_varint(&r), 5);
    cr_assert_eq(jfrp_varint(&r), 0); /* 0x80 then the window ends */
    cr_assert_eq(r.err, JFR_ECORRUPT);
    cr_assert_eq(r.err_offset, 501);
    /* later reads fail too and keep the first failure */
    jfrp_reader_fail(&r, JFR_ELIMIT);
    cr_assert_eq(jfrp_u8(&r), 0);
    cr_assert_eq(jfrp_be(&r, 1), 0);
    cr_assert_eq(jfrp_varint(&r), 0);
    cr_assert_eq(r.err, JFR_ECORRUPT);
    cr_assert_eq(r.err_offset, 501);
    jfrp_reader_seek(&r, bytes);
    cr_assert_eq(jfrp_reader_left(&r), 0, "seek does not clear an error");
}

Test(reader, skip_and_seek_check_bounds)
{
    static const uint8_t bytes[8] = {0};
    jfrp_reader r;

    jfrp_reader_init(&r, bytes, sizeof bytes, 0, true);
    jfrp_skip(&r, 8);
    cr_assert_eq(r.err, 0);
    jfrp_reader_seek(&r, bytes + 3);
    cr_assert_eq(jfrp_reader_offset(&r), 3);
    jfrp_skip(&r, 6);
    cr_assert_eq(r.err, JFR_ECORRUPT);
    cr_assert_eq(r.err_offset, 3);

    jfrp_reader_init(&r, bytes, 4, 0, true);
    jfrp_reader_seek(&r, bytes + 5);
    cr_assert_eq(r.err, JFR_ECORRUPT);
}

Test(reader, sub_reader_is_clamped)
{
    static const uint8_t bytes[6] = {1, 2, 3, 4, 5, 6};
    jfrp_reader r, sub;

    jfrp_reader_init(&r, bytes, sizeof bytes, 100, true);
    (void)jfrp_u8(&r);
    sub = jfrp_reader_sub(&r, 2);
    cr_assert_eq(jfrp_reader_left(&sub), 2);
    cr_assert_eq(jfrp_reader_offset(&sub), 101);
    sub = jfrp_reader_sub(&r, 1000);
    cr_assert_eq(jfrp_reader_left(&sub), 5);
    cr_assert_eq(jfrp_be(&sub, 5), 0x0203040506);
}

/* Mostly short varints, so that the bulk skipper takes sixteen or
 * thirty-two bytes at once, with a nine-byte varint whose last byte has
 * its top bit set every few, or every few dozen, varints: inside a window
 * it would pass for part of the next varint. Skips start at every varint. */
static void check_nine_among_short(unsigned one_in)
{
    enum { NVARINTS = 400 };
    static const uint8_t nine[9] = {0xdc, 0xbb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    uint8_t stream[NVARINTS * 9];
    size_t starts[NVARINTS], len = 0;
    uint32_t seed = 777 + one_in;

    for (size_t i = 0; i < NVARINTS; i++) {
        seed = seed * 1103515245u + 12345u;
        starts[i] = len;
        if ((seed >> 16) % one_in == 0) {
            memcpy(stream + len, nine, sizeof nine);
            len += sizeof nine;
        } else {
            const varint_case *vc = &varint_cases[(seed >> 20) % 6]; /* 1 to 3 bytes */
            memcpy(stream + len, vc->bytes, vc->len);
            len += vc->len;
        }
    }
    for (size_t from = 0; from < NVARINTS; from++) {
        for (uint64_t count = 0; count <= NVARINTS - from; count++) {
            jfrp_reader bulk, one;

            jfrp_reader_init(&bulk, stream, len, 0, true);
            jfrp_reader_init(&one, stream, len, 0, true);
            bulk.p = one.p = stream + starts[from];
            jfrp_skip_varints(&bulk, count);
            for (uint64_t k = 0; k < count; k++)
                jfrp_skip_varint(&one);
            cr_assert_eq(bulk.p, one.p, "one in %u: from varint %zu count %llu", one_in,
                         from, (unsigned long long)count);
        }
    }
}

Test(reader, skip_varints_finds_nine_byte_varints_among_short_ones)
{
    check_nine_among_short(7);
    check_nine_among_short(29);
    check_nine_among_short(97);
}

/* A stream of every varint case back to back, in a fixed pseudo-random
 * order; the bulk skipper must stop exactly where skipping one varint at a
 * time stops, for every count and every cut of the stream. */
Test(reader, skip_varints_matches_one_at_a_time)
{
    enum { NVARINTS = 300 };
    const size_t ncases = sizeof varint_cases / sizeof varint_cases[0];
    uint8_t stream[NVARINTS * 9];
    size_t len = 0;
    uint32_t seed = 12345;

    for (size_t i = 0; i < NVARINTS; i++) {
        const varint_case *vc;
        seed = seed * 1103515245u + 12345u;
        vc = &varint_cases[(seed >> 16) % ncases];
        memcpy(stream + len, vc->bytes, vc->len);
        len += vc->len;
    }
    for (size_t cut = len - 40; cut <= len; cut++) {
        for (uint64_t count = 0; count <= NVARINTS + 2; count++) {
            jfrp_reader bulk, one;

            jfrp_reader_init(&bulk, stream, cut, 0, true);
            jfrp_reader_init(&one, stream, cut, 0, true);
            jfrp_skip_varints(&bulk, count);
            for (uint64_t k = 0; k < count && !one.err; k++)
                jfrp_skip_varint(&one);
            cr_assert_eq(bulk.err, one.err, "cut %zu count %llu", cut,
                         (unsigned long long)count);
            if (!one.err)
                cr_assert_eq(bulk.p, one.p, "cut %zu count %llu", cut,
                             (unsigned long long)count);
        }
    }
}
