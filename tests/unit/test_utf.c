/* test_utf.c - string framing (tags 0-5) and conversion to UTF-8
 * (libjfr/reader.c jfrp_raw_string_read, libjfr/utf.c, jfr-format.md §5). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "jfr_private.h"
#include "jfrgen.h"

#define FFFD "\xef\xbf\xbd"

/* One encoded string and the UTF-8 it must become. For tag 4 the input is
 * `units`, otherwise `bytes`. */
typedef struct str_case {
    uint8_t tag;
    bool fixed; /* fixed-width integers (uncompressed chunk) */
    uint8_t bytes[40];
    uint16_t units[8];
    size_t n;
    char want[48];
    size_t want_len;
} str_case;

/* braced initialisers, which clang-format would lay out as blocks */
/* clang-format off */
#define UTF8(in, out) {3, false, in, {0}, sizeof(in) - 1, out, sizeof(out) - 1}
#define LATIN1(in, out) {5, false, in, {0}, sizeof(in) - 1, out, sizeof(out) - 1}
#define UTF16(fixed, out, ...) \
    {4, fixed, {0}, {__VA_ARGS__}, sizeof((uint16_t[]){__VA_ARGS__}) / 2, out, \
     sizeof(out) - 1}
/* clang-format on */

static str_case str_cases[] = {
    UTF8("", ""),
    UTF8("abc", "abc"),
    UTF8("\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9"),
    UTF8("\xe2\x82\xac", "\xe2\x82\xac"),
    UTF8("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"),
    /* modified UTF-8: NUL as C0 80, supplementary characters as CESU-8 */
    UTF8("a\xc0\x80z", "a\0z"),
    UTF8("\xed\xa0\xbd\xed\xb8\x80", "\xf0\x9f\x98\x80"),
    UTF8("x\xed\xa0\xbd\xed\xb8\x80y", "x\xf0\x9f\x98\x80y"),
    /* malformed input becomes U+FFFD, one per bad byte */
    UTF8("\xed\xa0\xbd"
         "a",
         FFFD "a"),                              /* lone high surrogate */
    UTF8("\xed\xb8\x80", FFFD),                  /* lone low surrogate */
    UTF8("\xed\xa0\xbd", FFFD),                  /* high surrogate at the end */
    UTF8("\xed\xa0\xbd\xed\xa0\xbd", FFFD FFFD), /* two high surrogates */
    UTF8("\xff", FFFD),
    UTF8("a\x80"
         "b",
         "a" FFFD "b"),                            /* stray continuation byte */
    UTF8("\xe2\x82", FFFD FFFD),                   /* truncated sequence */
    UTF8("\xc3(", FFFD "("),                       /* bad continuation */
    UTF8("\xc1\x81", FFFD FFFD),                   /* overlong 'A' */
    UTF8("\xe0\x80\x80", FFFD FFFD FFFD),          /* overlong NUL, 3 bytes */
    UTF8("\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD), /* above U+10FFFF */
    UTF8("\xf5\x80", FFFD FFFD),
    /* ASCII runs are copied eight bytes at a time: runs longer than eight
     * around other characters, and one ending exactly at the end */
    UTF8("java.lang.Thread\xc3\xa9run.0123456789",
         "java.lang.Thread\xc3\xa9run.0123456789"),
    UTF8("abcdefgh\x80ijklmnopq", "abcdefgh" FFFD "ijklmnopq"),
    UTF8("abcdefghijklmnop", "abcdefghijklmnop"),
    UTF8("abcdefg\xe2\x82\xac", "abcdefg\xe2\x82\xac"),
    LATIN1("abcdefghij\xe9klmnopqrstuvw\xff", "abcdefghij\xc3\xa9klmnopqrstuvw\xc3\xbf"),
    /* Latin-1: every byte is its code point */
    LATIN1("caf\xe9", "caf\xc3\xa9"),
    LATIN1("\xff\x80\xa0", "\xc3\xbf\xc2\x80\xc2\xa0"),
    LATIN1("a\0b", "a\0b"),
    /* UTF-16 code units, varints or fixed 2-byte */
    UTF16(false, "A\xc3\xa9", 0x41, 0xe9),
    UTF16(true, "A\xc3\xa9", 0x41, 0xe9),
    UTF16(false, "\xe2\x82\xac\xef\xbf\xbf", 0x20ac, 0xffff),
    UTF16(false, "\xf0\x9f\x98\x80", 0xd83d, 0xde00),
    UTF16(true, "\xf0\x9f\x98\x80!", 0xd83d, 0xde00, 0x21),
    UTF16(false, FFFD "A", 0xd83d, 0x41), /* lone high surrogate */
    UTF16(false, "A" FFFD, 0x41, 0xde00), /* lone low surrogate */
    UTF16(false, "A" FFFD, 0x41, 0xd83d), /* high surrogate at the end */
    UTF16(false, FFFD "\xf0\x9f\x98\x80", 0xd83d, 0xd83d, 0xde00),
    UTF16(false, "\0", 0x0),
};

ParameterizedTestParameters(utf, converts_to_utf8)
{
    return cr_make_param_array(str_case, str_cases,
                               sizeof str_cases / sizeof str_cases[0]);
}

ParameterizedTest(str_case *tc, utf, converts_to_utf8)
{
    jg_buf b = {0};
    jfrp_raw_string s;
    jfrp_reader r;
    char *out;
    size_t len;

    b.fixed = tc->fixed;
    if (tc->tag == 3)
        jg_str_utf8(&b, tc->bytes, tc->n);
    else if (tc->tag == 5)
        jg_str_latin1(&b, tc->bytes, tc->n);
    else
        jg_str_utf16(&b, tc->units, tc->n);
    jg_u8(&b, 0x99); /* whatever follows the string stays unread */

    jfrp_reader_init(&r, b.data, b.len, 0, !tc->fixed);
    jfrp_raw_string_read(&r, &s);
    cr_assert_eq(r.err, 0);
    cr_assert_eq(s.tag, tc->tag);
    cr_assert_eq(s.count, tc->n);
    cr_assert_eq(jfrp_reader_left(&r), 1, "the payload is skipped exactly");

    out = malloc(jfrp_utf8_bound(&s));
    len = jfrp_utf8_convert(out, &s, !tc->fixed);
    cr_assert_lt(len, jfrp_utf8_bound(&s));
    cr_assert_eq(len, tc->want_len, "length %zu, want %zu", len, tc->want_len);
    cr_assert_arr_eq(out, tc->want, len);
    cr_assert_eq(out[len], '\0', "NUL-terminated");
    free(out);
    jg_buf_free(&b);
}

Test(utf, null_empty_and_pool_tags_have_no_payload)
{
    jg_buf b = {0};
    jfrp_raw_string s;
    jfrp_reader r;

    jg_str_null(&b);
    jg_str_empty(&b);
    jg_str_pool(&b, 300);
    jg_u8(&b, 0x42);
    jfrp_reader_init(&r, b.data, b.len, 0, true);
    jfrp_raw_string_read(&r, &s);
    cr_assert_eq(s.tag, 0);
    jfrp_raw_string_read(&r, &s);
    cr_assert_eq(s.tag, 1);
    jfrp_raw_string_read(&r, &s);
    cr_assert_eq(s.tag, 2);
    cr_assert_eq(s.count, 300, "a pool string carries its key");
    cr_assert_eq(jfrp_u8(&r), 0x42);
    cr_assert_eq(r.err, 0);
    jg_buf_free(&b);
}

Test(utf, pool_key_is_fixed_long_in_uncompressed_mode)
{
    jg_buf b = {0};
    jfrp_raw_string s;
    jfrp_reader r;

    b.fixed = true;
    jg_str_pool(&b, 0x0102030405060708);
    cr_assert_eq(b.len, 9);
    jfrp_reader_init(&r, b.data, b.len, 0, false);
    jfrp_raw_string_read(&r, &s);
    cr_assert_eq(s.count, 0x0102030405060708);
    cr_assert_eq(jfrp_reader_left(&r), 0);
    jg_buf_free(&b);
}

Test(utf, unknown_tag_is_corrupt_at_the_tag)
{
    static const uint8_t bytes[] = {0x01, 0x06, 0x00};
    jfrp_raw_string s;
    jfrp_reader r;

    jfrp_reader_init(&r, bytes, sizeof bytes, 40, true);
    jfrp_raw_string_read(&r, &s);
    cr_assert_eq(r.err, 0);
    jfrp_raw_string_read(&r, &s);
    cr_assert_eq(r.err, JFR_ECORRUPT);
    cr_assert_eq(r.err_offset, 41);
}

Test(utf, lengths_past_the_end_are_corrupt)
{
    static const uint8_t utf8[] = {0x03, 0x05, 'a', 'b'};
    static const uint8_t latin1[] = {0x05, 0x80, 0x01, 'a'};
    static const uint8_t utf16[] = {0x04, 0x03, 0x41, 0x42};
    static const uint8_t utf16_huge[] = {0x04, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x41};
    const struct {
        const uint8_t *p;
        size_t n;
    } cases[] = {{utf8, sizeof utf8},
                 {latin1, sizeof latin1},
                 {utf16, sizeof utf16},
                 {utf16_huge, sizeof utf16_huge}};

    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        jfrp_raw_string s;
        jfrp_reader r;

        jfrp_reader_init(&r, cases[i].p, cases[i].n, 0, true);
        jfrp_raw_string_read(&r, &s);
        cr_assert_eq(r.err, JFR_ECORRUPT, "case %zu", i);
    }
}

Test(utf, writer_utf16_helper_makes_surrogate_pairs)
{
    jg_buf b = {0};
    jfrp_raw_string s;
    jfrp_reader r;
    char out[32];

    jg_string_utf16(&b, "a\xf0\x9f\x98\x80");
    jfrp_reader_init(&r, b.data, b.len, 0, true);
    jfrp_raw_string_read(&r, &s);
    cr_assert_eq(s.tag, 4);
    cr_assert_eq(s.count, 3);
    cr_assert_lt(jfrp_utf8_bound(&s), sizeof out);
    cr_assert_eq(jfrp_utf8_convert(out, &s, true), 5);
    cr_assert_str_eq(out, "a\xf0\x9f\x98\x80");
    jg_buf_free(&b);
}
