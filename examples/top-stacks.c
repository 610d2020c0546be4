/* top-stacks.c - the most frequent stack traces of one event type.
 *
 *     top-stacks [-n N] [-d DEPTH] EVENT-TYPE FILE...
 *
 * An example of libjfr's aggregation API (jfr/profile.h): feed every chunk
 * of every file to one profile, which counts samples by stack and merges
 * equal stacks across chunks and files, then print the N heaviest stacks
 * (default 5), innermost frame first as in a Java stack trace, at most
 * DEPTH frames each (default 10). EVENT-TYPE is a full name such as
 * jdk.ExecutionSample; events that carry a weight are still counted once
 * each here. Build against an installed libjfr with
 *
 *     cc top-stacks.c -o top-stacks $(pkg-config --cflags --libs libjfr)
 */
#define _POSIX_C_SOURCE 200809L /* getopt */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jfr.h>

typedef struct stack {
    size_t index; /* jfr_profile_stack index */
    uint64_t weight;
} stack;

/* Returns 0, or 1 when some of the file could not be read. */
static int add_file(jfr_profile *p, const char *path)
{
    jfr_recording *rec;
    jfr_chunk *chunk;
    jfr_error err;
    int rc, damaged = 0;

    if (jfr_recording_open_file(&rec, path, NULL, &err) < 0) {
        fprintf(stderr, "top-stacks: %s: %s\n", path, err.message);
        return 1;
    }
    while ((rc = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE) {
        if (rc == JFR_OK)
            rc = jfr_profile_add_chunk(p, chunk);
        if (rc < 0) {
            fprintf(stderr, "top-stacks: %s: %s\n", path,
                    jfr_recording_error(rec)->message);
            damaged = 1;
        }
    }
    jfr_recording_free(rec);
    return damaged;
}

/* Heaviest first; equal weights keep the order stacks were first seen. */
static int by_weight(const void *a, const void *b)
{
    const stack *x = a, *y = b;

    if (x->weight != y->weight)
        return x->weight > y->weight ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static void print_stack(const jfr_profile *p, const stack *s, size_t max_depth)
{
    const uint32_t *frames;
    size_t depth;
    uint64_t weight;
    uint64_t total = jfr_profile_total(p);

    jfr_profile_stack(&weight, &frames, &depth, p, s->index);
    printf("%llu samples (%.2f%%)\n", (unsigned long long)weight,
           total ? 100.0 * (double)weight / (double)total : 0.0);
    /* frames[0] is the root; print from the leaf. */
    for (size_t i = 0; i < depth && i < max_depth; i++)
        printf("    at %s\n", jfr_profile_frame_at(p, frames[depth - 1 - i])->name);
    if (depth > max_depth)
        printf("    ... %zu more\n", depth - max_depth);
}

int main(int argc, char **argv)
{
    jfr_profile_options opts = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile *p;
    jfr_error err;
    stack *stacks;
    size_t top = 5, max_depth = 10, n;
    int c, status = 0;

    while ((c = getopt(argc, argv, "n:d:")) != -1) {
        if (c == 'n')
            top = strtoul(optarg, NULL, 10);
        else if (c == 'd')
            max_depth = strtoul(optarg, NULL, 10);
        else
            return 1;
    }
    if (argc - optind < 2) {
        fputs("usage: top-stacks [-n N] [-d DEPTH] EVENT-TYPE FILE...\n", stderr);
        return 1;
    }
    opts.event_type = argv[optind];
    if (jfr_profile_new(&p, &opts, &err) < 0) {
        fprintf(stderr, "top-stacks: %s\n", err.message);
        return 1;
    }
    for (int i = optind + 1; i < argc; i++)
        status |= add_file(p, argv[i]);

    n = jfr_profile_stack_count(p);
    stacks = malloc((n ? n : 1) * sizeof *stacks);
    if (!stacks) {
        jfr_profile_free(p);
        return 2;
    }
    for (size_t i = 0; i < n; i++) {
        const uint32_t *frames;
        size_t depth;

        stacks[i].index = i;
        jfr_profile_stack(&stacks[i].weight, &frames, &depth, p, i);
    }
    qsort(stacks, n, sizeof *stacks, by_weight);

    printf("%llu samples of %s in %zu distinct stacks\n",
           (unsigned long long)jfr_profile_samples(p), opts.event_type, n);
    for (size_t i = 0; i < n && i < top; i++) {
        putchar('\n');
        print_stack(p, &stacks[i], max_depth);
    }
    free(stacks);
    jfr_profile_free(p);
    return status ? 2 : 0;
}
