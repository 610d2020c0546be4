/* cmd_metadata.c - jfrtool metadata: the types of the recording and their
 * fields, as Java-like declarations (the style of `jfr metadata`). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "util.h"

const char usage_metadata[] =
    "Usage: jfrtool metadata FILE\n"
    "\n"
    "Print every type the recording's metadata declares, with its fields,\n"
    "their types and annotations. Types of all chunks are listed once.\n";

static void print_annotations(size_t n, const jfr_annotation *(*at)(const void *, size_t),
                              const void *owner, const char *indent)
{
    for (size_t i = 0; i < n; i++) {
        const jfr_annotation *a = at(owner, i);

        if (!a || !a->type)
            continue;
        printf("%s@%s", indent, jfr_type_name(a->type));
        if (a->count == 1 && strcmp(a->names[0], "value") == 0) {
            printf("(\"%s\")", a->values[0]);
        } else if (a->count > 0) {
            putchar('(');
            for (size_t k = 0; k < a->count; k++)
                printf("%s%s = \"%s\"", k ? ", " : "", a->names[k], a->values[k]);
            putchar(')');
        }
        putchar('\n');
    }
}

static const jfr_annotation *type_ann(const void *t, size_t i)
{
    return jfr_type_annotation_at(t, i);
}

static const jfr_annotation *field_ann(const void *f, size_t i)
{
    return jfr_field_annotation_at(f, i);
}

static void print_type(const jfr_type *t)
{
    print_annotations(jfr_type_annotation_count(t), type_ann, t, "");
    printf("class %s", jfr_type_name(t));
    if (jfr_type_super(t))
        printf(" extends %s", jfr_type_super(t));
    printf(" {\n");
    for (size_t i = 0; i < jfr_type_field_count(t); i++) {
        const jfr_field *f = jfr_type_field_at(t, i);
        const jfr_type *ft = jfr_field_type(f);

        print_annotations(jfr_field_annotation_count(f), field_ann, f, "  ");
        printf("  %s%s %s;\n", ft ? jfr_type_name(ft) : "?", jfr_field_is_array(f) ? "[]" : "",
               jfr_field_name(f));
    }
    printf("}\n\n");
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int cmd_metadata(int argc, char **argv)
{
    static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {0}};
    int status = EXIT_OK, c;
    char **seen = NULL;
    size_t nseen = 0;
    bool damaged = false;

    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (c == 'h') {
            fputs(usage_metadata, stdout);
            return EXIT_OK;
        }
        fputs(usage_metadata, stderr);
        return EXIT_USAGE;
    }
    if (optind >= argc) {
        fputs(usage_metadata, stderr);
        return EXIT_USAGE;
    }
    for (int i = optind; i < argc; i++) {
        jfr_recording *rec = open_recording(argv[i], &status);
        jfr_chunk *chunk;

        if (!rec)
            continue;
        while (next_chunk(&chunk, rec, argv[i], &damaged) == JFR_OK) {
            size_t n = jfr_chunk_type_count(chunk);
            const jfr_type **order = xcalloc(n ? n : 1, sizeof *order);

            for (size_t k = 0; k < n; k++)
                order[k] = jfr_chunk_type_at(chunk, k);
            /* sorted by name, each name once over all chunks */
            for (size_t k = 0; k < n; k++) {
                const char *name = jfr_type_name(order[k]);
                bool dup = false;

                for (size_t s = 0; s < nseen && !dup; s++)
                    dup = strcmp(seen[s], name) == 0;
                if (dup)
                    continue;
                seen = xrealloc(seen, nseen + 1, sizeof *seen);
                seen[nseen++] = xstrdup(name);
            }
            free(order);
        }
        jfr_recording_free(rec);
    }
    /* second pass prints in name order from the chunk that declared it first */
    qsort(seen, nseen, sizeof *seen, compare_names);
    for (int i = optind; i < argc && nseen; i++) {
        jfr_recording *rec = open_recording(argv[i], &status);
        jfr_chunk *chunk;

        if (!rec)
            continue;
        while (next_chunk(&chunk, rec, argv[i], &damaged) == JFR_OK) {
            for (size_t s = 0; s < nseen; s++) {
                const jfr_type *t = seen[s] ? jfr_chunk_type_by_name(chunk, seen[s]) : NULL;
                if (!t)
                    continue;
                print_type(t);
                free(seen[s]);
                seen[s] = NULL;
            }
        }
        jfr_recording_free(rec);
    }
    for (size_t s = 0; s < nseen; s++)
        free(seen[s]);
    free(seen);
    return status;
}
