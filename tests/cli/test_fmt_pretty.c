/* test_fmt_pretty.c - jfrtool's human value forms (jfrtool/fmt_pretty.c,
 * fmt_java_fixed) against what JDK 25 prints for the same inputs, listed in
 * tests/cli/fmt-cases.tsv by tests/cli/FmtCases.java:
 *   D <nanoseconds> <ValueFormatter.formatDuration>
 *   B <value> <formatBytes> <formatBits> <formatBytesPerSecond> <formatBitsPerSecond>
 *   F <double> <precision> <String.format("%.<precision>f")>
 * Run by make check with JFR_TESTDATA set; exits 1 on any difference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_pretty.h"
#include "out_text.h"

static int failures, cases;

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
    } else {
        printf("FAIL: bad case line\n");
        failures++;
    }
    sb_free(&sb);
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
    printf("%d of %d cases as the JDK prints them\n", cases - failures, cases);
    return failures || cases < 100 ? 1 : 0;
}
