/* test_header_write.c - jfrp_header_encode writes what jfrp_header_parse
 * reads, field by field (libjfr/header_write.c, jfr-format.md §3.1). */
#include <criterion/criterion.h>

#include "header_write.h"
#include "jfr_private.h"

Test(header_write, encode_then_parse_gives_every_field)
{
    jfr_header in = {0}, out;
    uint8_t b[JFRP_HEADER_BYTES + 100] = {0};

    in.major = 2;
    in.minor = 1;
    in.chunk_size = sizeof b;
    in.constant_pool_offset = 150;
    in.metadata_offset = 68;
    in.start_nanos = INT64_C(1795311805464883767);
    in.duration_nanos = INT64_C(6160837949);
    in.start_ticks = -5;
    in.ticks_per_second = 1000000000;
    in.state = 0;
    in.flags = 3;
    in.file_offset = 12345; /* not part of the bytes */
    jfrp_header_encode(b, &in);
    cr_assert_eq(memcmp(b, "FLR\0", 4), 0);
    cr_assert_eq(jfrp_header_parse(&out, b, sizeof b), JFR_OK);
    cr_assert_eq(out.major, 2);
    cr_assert_eq(out.minor, 1);
    cr_assert_eq(out.chunk_size, sizeof b);
    cr_assert_eq(out.constant_pool_offset, 150);
    cr_assert_eq(out.metadata_offset, 68);
    cr_assert_eq(out.start_nanos, in.start_nanos);
    cr_assert_eq(out.duration_nanos, in.duration_nanos);
    cr_assert_eq(out.start_ticks, -5);
    cr_assert_eq(out.ticks_per_second, 1000000000);
    cr_assert_eq(out.state, 0);
    cr_assert_eq(out.flags, 3);
    cr_assert_eq(out.file_offset, 0);
}

Test(header_write, bytes_match_the_worked_example)
{
    /* jfr-format.md §15.1 */
    static const uint8_t want[JFRP_HEADER_BYTES] = {
        0x46, 0x4c, 0x52, 0x00, 0x00, 0x02, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x06, 0xfd, 0xf3, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0xfd, 0x94,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x25, 0x36, 0x18, 0xea, 0x3a, 0x93,
        0x39, 0xcc, 0xb2, 0x37, 0x00, 0x00, 0x00, 0x01, 0x6f, 0x36, 0xed, 0x3d,
        0x00, 0x00, 0x00, 0x00, 0x46, 0x5e, 0x09, 0x21, 0x00, 0x00, 0x00, 0x00,
        0x3b, 0x9a, 0xca, 0x00, 0x00, 0x00, 0x00, 0x03};
    jfr_header h = {0};
    uint8_t b[JFRP_HEADER_BYTES];

    h.major = 2;
    h.minor = 1;
    h.chunk_size = 458227;
    h.constant_pool_offset = 458132;
    h.metadata_offset = 9526;
    h.start_nanos = INT64_C(1795311805464883767);
    h.duration_nanos = INT64_C(6160837949);
    h.start_ticks = INT64_C(1180567841);
    h.ticks_per_second = 1000000000;
    h.flags = 3;
    jfrp_header_encode(b, &h);
    cr_assert_eq(memcmp(b, want, sizeof want), 0);
}
