/* jfrmake.c - writes the synthetic recordings of samples.h to files, for
 * the robustness tests and the fuzzers' seed corpora.
 *
 *     jfrmake NAME OUT.jfr     write recording NAME
 *     jfrmake --list           the names, one a line
 */
#include <stdio.h>
#include <string.h>

#include "samples.h"

int main(int argc, char **argv)
{
    jg_buf out = {0};
    FILE *f;

    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < sample_count(); i++)
            puts(sample_name(i));
        return 0;
    }
    if (argc != 3) {
        fputs("usage: jfrmake NAME OUT.jfr | jfrmake --list\n", stderr);
        return 2;
    }
    if (!sample_build(argv[1], &out)) {
        fprintf(stderr, "jfrmake: no recording called %s\n", argv[1]);
        return 2;
    }
    f = fopen(argv[2], "wb");
    if (!f || fwrite(out.data, 1, out.len, f) != out.len || fclose(f) != 0) {
        perror(argv[2]);
        return 1;
    }
    jg_buf_free(&out);
    return 0;
}
