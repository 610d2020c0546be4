/* leaks-json-check.c - validate the output of `jfrtool leaks --json`.
 *
 * Usage: leaks-json-check [--min-candidates N] [--expect NAME]... FILE
 *
 * Checks that FILE parses, that every field the format promises is there
 * with its type, that the numbers are consistent (shares in (0, 1], a
 * candidate's types and sites never hold more samples than it, the path
 * starts at a root and ends at the candidate's object, shares are of the
 * samples of the candidate's own recording), and with --expect
 * that candidate i (in order) grows through a field whose text contains
 * NAME i. Prints what is wrong and exits 1; exit 0 when all holds. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void fail(const char *what, const char *detail)
{
    fprintf(stderr, "leaks-json-check: %s%s%s\n", what, detail ? ": " : "",
            detail ? detail : "");
    failures++;
}

static json_t *need(json_t *obj, const char *key, json_type type, const char *where)
{
    json_t *v = json_object_get(obj, key);
    char msg[256];

    if (!v || (json_typeof(v) != type &&
               !(type == JSON_REAL && json_typeof(v) == JSON_INTEGER))) {
        snprintf(msg, sizeof msg, "%s.%s missing or of the wrong type", where, key);
        fail(msg, NULL);
        return NULL;
    }
    return v;
}

static json_int_t sum_samples(json_t *rows, const char *where)
{
    json_int_t sum = 0;
    size_t i;
    json_t *row;

    json_array_foreach(rows, i, row)
    {
        json_t *n = need(row, "samples", JSON_INTEGER, where);
        if (n)
            sum += json_integer_value(n);
    }
    return sum;
}

/* Samples used of the recording `file` came from (warmup[].used). */
static json_int_t used_of(json_t *warmup, json_t *file)
{
    size_t i;
    json_t *w;

    json_array_foreach(
        warmup, i,
        w) if (json_equal(json_object_get(w, "file"),
                          file)) return json_integer_value(json_object_get(w, "used"));
    return 0;
}

static void check_candidate(json_t *c, size_t rank, json_t *warmup, const char *expect)
{
    json_t *grows = need(c, "growsThrough", JSON_STRING, "candidate");
    json_t *samples = need(c, "samples", JSON_INTEGER, "candidate");
    json_t *share = need(c, "shareOfAll", JSON_REAL, "candidate");
    json_t *root_share = need(c, "shareOfRoot", JSON_REAL, "candidate");
    json_t *rel = need(c, "relevance", JSON_REAL, "candidate");
    json_t *path = need(c, "path", JSON_ARRAY, "candidate");
    json_t *types = need(c, "sampledTypes", JSON_ARRAY, "candidate");
    json_t *sites = need(c, "allocationSites", JSON_ARRAY, "candidate");
    json_t *root = need(c, "root", JSON_OBJECT, "candidate");
    json_t *file = need(c, "file", JSON_STRING, "candidate");
    json_int_t n, used = file ? used_of(warmup, file) : 0;
    char where[64];

    snprintf(where, sizeof where, "candidate %zu", rank + 1);
    need(c, "objectType", JSON_STRING, where);
    need(c, "distance", JSON_INTEGER, where);
    if (root) {
        if (!json_object_get(root, "system") || !json_object_get(root, "type"))
            fail(where, "root lacks system or type");
    }
    if (!grows || !samples || !share || !root_share || !rel || !path || !types || !sites)
        return;
    n = json_integer_value(samples);
    if (n <= 0 || n > used)
        fail(where, "samples out of range");
    if (!(json_number_value(share) > 0 && json_number_value(share) <= 1) ||
        !(json_number_value(root_share) > 0 && json_number_value(root_share) <= 1))
        fail(where, "share out of (0, 1]");
    if (fabs(json_number_value(share) - (double)n / (double)used) > 1e-5)
        fail(where, "shareOfAll is not samples / used of its recording");
    if (!(json_number_value(rel) > 0))
        fail(where, "relevance not positive");
    if (json_array_size(path) < 2)
        fail(where, "path shorter than a root and one hop");
    else {
        json_t *first = json_array_get(path, 0);
        json_t *last = json_array_get(path, json_array_size(path) - 1);
        if (json_object_get(first, "hop"))
            fail(where, "path does not start at a root object");
        for (size_t i = 1; i < json_array_size(path); i++)
            need(json_array_get(path, i), "hop", JSON_STRING, where);
        if (!json_equal(json_object_get(last, "type"), json_object_get(c, "objectType")))
            fail(where, "path does not end at the candidate's object");
        if (json_integer_value(json_object_get(last, "samples")) < n)
            fail(where, "candidate object holds fewer samples than the candidate");
    }
    if (json_array_size(types) == 0 || sum_samples(types, where) > n)
        fail(where, "sampledTypes empty or holding more samples than the candidate");
    if (json_array_size(sites) == 0 || sum_samples(sites, where) > n)
        fail(where, "allocationSites empty or holding more samples than the candidate");
    if (expect && !strstr(json_string_value(grows), expect)) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s grows through '%s', expected '%s'", where,
                 json_string_value(grows), expect);
        fail(msg, NULL);
    }
}

int main(int argc, char **argv)
{
    const char *expect[16];
    size_t nexpect = 0, min_candidates = 0, i;
    json_t *doc, *cands, *c, *warmup, *w;
    json_error_t err;
    int a;

    for (a = 1; a < argc - 1; a++) {
        if (strcmp(argv[a], "--expect") == 0 && a + 1 < argc - 1 && nexpect < 16)
            expect[nexpect++] = argv[++a];
        else if (strcmp(argv[a], "--min-candidates") == 0 && a + 1 < argc - 1)
            min_candidates = (size_t)strtoul(argv[++a], NULL, 10);
        else
            break;
    }
    if (a != argc - 1) {
        fputs("usage: leaks-json-check [--min-candidates N] [--expect NAME]... FILE\n",
              stderr);
        return 2;
    }
    doc = json_load_file(argv[a], 0, &err);
    if (!doc) {
        fprintf(stderr, "leaks-json-check: %s: line %d: %s\n", argv[a], err.line,
                err.text);
        return 1;
    }
    need(doc, "samples", JSON_INTEGER, "top");
    need(doc, "used", JSON_INTEGER, "top");
    need(doc, "withChain", JSON_INTEGER, "top");
    need(doc, "brokenChains", JSON_OBJECT, "top");
    if (!json_object_get(doc, "ranking"))
        fail("top.ranking missing", NULL);
    warmup = need(doc, "warmup", JSON_ARRAY, "top");
    json_array_foreach(warmup, i, w)
    {
        need(w, "file", JSON_STRING, "warmup");
        need(w, "samples", JSON_INTEGER, "warmup");
        need(w, "skipped", JSON_INTEGER, "warmup");
        need(w, "used", JSON_INTEGER, "warmup");
        if (!json_is_boolean(json_object_get(w, "measured")))
            fail("warmup.measured missing", NULL);
    }
    cands = need(doc, "candidates", JSON_ARRAY, "top");
    if (cands) {
        if (json_array_size(cands) < min_candidates || json_array_size(cands) < nexpect)
            fail("too few candidates", NULL);
        json_array_foreach(cands, i, c)
            check_candidate(c, i, warmup, i < nexpect ? expect[i] : NULL);
    }
    json_decref(doc);
    return failures ? 1 : 0;
}
