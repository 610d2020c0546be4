/* test_fmt_pretty.c - jfrtool's human value forms (jfrtool/fmt_pretty.c,
 * fmt_java_fixed) against what JDK 25 prints for the same inputs, listed in
 * tests/cli/fmt-cases.tsv by tests/cli/FmtCases.java:
 *   D <nanoseconds> <ValueFormatter.formatDuration>
 *   B <value> <formatBytes> <formatBits> <formatBytesPerSecond> <formatBitsPerSecond>
 *   F <double> <precision> <String.format("%.<precision>f")>
 *   T <a double's bits, hex> <Double.toString>
 *   G <a float's bits, hex> <Float.toString>
 * and fmt_shortest_digits, which starts at 15 digits, against trying every
 * precision from 1 on random, short-decimal and power-of-two doubles.
 * Run by make check with JFR_TESTDATA set; exits 1 on any difference. */
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfr/text.h"
#include "fmt_pretty.h"
#include "out_text.h"

static int failures, cases, digit_failures;

static void expect(const char *what, const char *input, strbuf *got, const char *want)
{
    cases++;
    if (strcmp(sb_str(got), want) != 0) {
        printf("FAIL: %s(%s): got \"%s\", JDK prints \"%s\"\n", what, input, sb_str(got),
               want);
        failures++;
    }
    sb_clear(got);
}

/* Double.toString or Float.toString of the value whose bits are `hex`. */
static void expect_to_string(bool is_float, const char *hex, strbuf *sb, const char *want)
{
    uint64_t bits = strtoull(hex, NULL, 16);
    char text[JFR_TEXT_ROOM];
    size_t n;

    if (is_float) {
        uint32_t fbits = (uint32_t)bits;
        float x;

        memcpy(&x, &fbits, sizeof x);
        n = jfr_text_float(text, sizeof text, x);
    } else {
        double d;

        memcpy(&d, &bits, sizeof d);
        n = jfr_text_double(text, sizeof text, d);
    }
    sb_putn(sb, text, n < sizeof text ? n : sizeof text);
    expect(is_float ? "Float.toString" : "Double.toString", hex, sb, want);
}

static void check_line(char *line)
{
    char *f[6] = {0};
    size_t n = 0;
    strbuf sb = {0};

    line[strcspn(line, "\n")] = '\0';
    for (char *p = strtok(line, "\t"); p && n < 6; p = strtok(NULL, "\t"))
        f[n++] = p;
    if (n == 3 && strcmp(f[0], "D") == 0) {
        fmt_pretty_duration(&sb, jduration_of_nanos(strtoll(f[1], NULL, 10)));
        expect("duration", f[1], &sb, f[2]);
    } else if (n == 6 && strcmp(f[0], "B") == 0) {
        int64_t v = strtoll(f[1], NULL, 10);

        fmt_pretty_bytes(&sb, v);
        expect("bytes", f[1], &sb, f[2]);
        fmt_pretty_bits(&sb, v);
        expect("bits", f[1], &sb, f[3]);
        fmt_pretty_bytes_per_second(&sb, v);
        expect("bytes/s", f[1], &sb, f[4]);
        fmt_pretty_bits_per_second(&sb, v);
        expect("bits/s", f[1], &sb, f[5]);
    } else if (n == 4 && strcmp(f[0], "F") == 0) {
        fmt_java_fixed(&sb, strtod(f[1], NULL), atoi(f[2]));
        expect("%.Nf", f[1], &sb, f[3]);
    } else if (n == 3 && (strcmp(f[0], "T") == 0 || strcmp(f[0], "G") == 0)) {
        expect_to_string(f[0][0] == 'G', f[1], &sb, f[2]);
    } else {
        printf("FAIL: bad case line\n");
        failures++;
    }
    sb_free(&sb);
}

/* the shortest digits that read back, trying every precision in turn */
static int shortest_by_every_precision(char *digits, int *exp10, double d)
{
    char buf[64];

    for (int prec = 1; prec <= 17; prec++) {
        int n = 0;

        snprintf(buf, sizeof buf, "%.*e", prec - 1, d);
        if (strtod(buf, NULL) != d)
            continue;
        for (const char *p = buf; *p != 'e'; p++)
            if (*p >= '0' && *p <= '9')
                digits[n++] = *p;
        while (n > 1 && digits[n - 1] == '0')
            n--;
        digits[n] = '\0';
        *exp10 = atoi(strchr(buf, 'e') + 1);
        return n;
    }
    return -1;
}

static double sample_double(uint64_t r, int shape)
{
    double d;
    char b[48];

    switch (shape) {
    case 0:
        memcpy(&d, &r, sizeof d);
        return isfinite(d) ? fabs(d) : 1.5;
    case 1:
        return (double)(r % 1000000) / 1000.0;
    case 2:
        return ldexp(1.0, (int)(r % 2000) - 1000);
    case 3:
        return (double)(r % (1ULL << 40)) / 1048576.0;
    default:
        snprintf(b, sizeof b, "%llue%d", (unsigned long long)(r % 1000000000000000ULL),
                 (int)((r >> 50) % 600) - 300);
        return strtod(b, NULL);
    }
}

static void check_shortest_digits(void)
{
    uint64_t r = 88172645463325252ULL;
    int compared = 0;

    for (int i = 0; i < 200000; i++) {
        char got[40], want[40];
        int got_exp = 0, want_exp = 0, got_n, want_n;
        double d;

        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        d = sample_double(r, i % 5);
        if (!(d >= DBL_MIN) || isinf(d))
            continue;
        compared++;
        got_n = fmt_shortest_digits(got, &got_exp, d, 17, 0);
        want_n = shortest_by_every_precision(want, &want_exp, d);
        if (got_n != want_n || got_exp != want_exp || strcmp(got, want) != 0) {
            printf("FAIL: shortest digits of %.17g: got %se%d, every precision gives "
                   "%se%d\n",
                   d, got, got_exp, want, want_exp);
            digit_failures++;
        }
    }
    printf("%d doubles: shortest digits as trying every precision gives\n", compared);
}

/* jfr_text_u64 and jfr_text_grouped against printf: each power of ten
 * and its neighbours, the extremes and random values, at full room and
 * cut short (the bytes that fit, the whole length returned). */
static int check_integers(void)
{
    uint64_t values[200], r = 0x9e3779b97f4a7c15ULL, p = 1;
    size_t n = 0;
    int bad = 0;

    for (int i = 0; i < 20; i++, p *= 10) {
        values[n++] = p - 1;
        values[n++] = p;
        values[n++] = p + 1;
    }
    values[n++] = UINT64_MAX;
    values[n++] = (uint64_t)INT64_MAX;
    values[n++] = (uint64_t)INT64_MIN;
    while (n < sizeof values / sizeof *values) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        values[n++] = r >> (r % 64);
    }
    for (size_t i = 0; i < n; i++) {
        char want[64], got[64], grouped[64];
        int len = snprintf(want, sizeof want, "%llu", (unsigned long long)values[i]);
        int64_t s = (int64_t)values[i];
        size_t glen;

        for (size_t room = 0; room <= JFR_TEXT_U64_ROOM; room++) {
            memset(got, '#', sizeof got);
            if (jfr_text_u64(got, room, values[i]) != (size_t)len ||
                memcmp(got, want, room < (size_t)len ? room : (size_t)len) != 0 ||
                got[room < (size_t)len ? room : (size_t)len] != '#') {
                printf("FAIL: jfr_text_u64(%s) with room %zu\n", want, room);
                bad++;
            }
        }
        /* grouped: printf's "%lld" with a ',' before every third digit
         * from the right */
        len = snprintf(want, sizeof want, "%lld", (long long)s);
        {
            char expect[64];
            size_t e = 0, sign = want[0] == '-', digits = (size_t)len - sign;

            for (size_t k = 0; k < (size_t)len; k++) {
                if (k > sign && (digits - (k - sign)) % 3 == 0)
                    expect[e++] = ',';
                expect[e++] = want[k];
            }
            glen = jfr_text_grouped(grouped, sizeof grouped, s);
            if (glen != e || memcmp(grouped, expect, e) != 0) {
                printf("FAIL: jfr_text_grouped(%s) gave %.*s\n", want, (int)glen,
                       grouped);
                bad++;
            }
        }
    }
    printf("%zu integers written as printf writes them\n", n);
    return bad;
}

int main(void)
{
    const char *dir = getenv("JFR_TESTDATA");
    char path[4096], line[1024];
    FILE *in;

    if (!dir) {
        fprintf(stderr, "set JFR_TESTDATA to the testdata directory\n");
        return 99;
    }
    snprintf(path, sizeof path, "%s/../tests/cli/fmt-cases.tsv", dir);
    in = fopen(path, "r");
    if (!in) {
        perror(path);
        return 99;
    }
    while (fgets(line, sizeof line, in))
        check_line(line);
    fclose(in);
    check_shortest_digits();
    digit_failures += check_integers();
    printf("%d of %d cases as the JDK prints them\n", cases - failures, cases);
    return failures || digit_failures || cases < 100 ? 1 : 0;
}
