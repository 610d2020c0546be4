/* cmd_leaks.c - jfrtool leaks: memory-leak candidates from old-object
 * samples (design.md §5). libjfr merges the reference chains and scores
 * them (include/jfr/leaks.h, doc/leaks.md); this file only renders the
 * result, as text or as JSON. */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "jfrtool.h"
#include "json_writer.h"
#include "out_text.h"
#include "util.h"

const char usage_leaks[] =
    "Usage: jfrtool leaks [--json] [--format F] [--top N] FILE...\n"
    "\n"
    "Find memory-leak candidates in jdk.OldObjectSample events. With reference\n"
    "chains (recorded with path-to-gc-roots=true) the chains of all samples are\n"
    "merged into trees and scored (see doc/leaks.md); for each candidate it\n"
    "prints where the leak grows (Class.field), the path from the GC root, the\n"
    "root's kind, how many samples it keeps alive, their types and allocation\n"
    "sites. Without chains it ranks the samples by class and by allocation site.\n"
    "Samples written during warm-up (JMC's class-loading rule) are left out.\n"
    "\n"
    "  --json     the same as JSON\n"
    "  --format F text (default) or json (as --json); `--format list`\n"
    "  --top N    at most N candidates (default 10)\n";

#define DETAIL_ROWS 5

typedef struct leaks_out {
    jfr_leaks *lk;
    char **rec_files; /* per recording, the file it came from (borrowed) */
    size_t nrec_files;
    size_t top;
} leaks_out;

/* ---- names of hops ------------------------------------------------------------- */

/* "Holder.field" or "Type[index]" for the reference into `node`. */
static void hop_text(strbuf *sb, jfr_leaks *lk, uint32_t node)
{
    const jfr_leak_node *n = jfr_leaks_node_at(lk, node);
    const jfr_leak_node *p = jfr_leaks_node_at(lk, n->parent);

    if (n->field) {
        const char *holder = jfr_leaks_holder_name(lk, node);
        sb_printf(sb, "%s.%s", holder ? holder : "?", n->field);
    } else if (n->array_index >= 0) {
        sb_printf(sb, "%s[%d]", p && p->type ? p->type : "?", n->array_index);
    } else {
        sb_printf(sb, "%s (unnamed reference)", p && p->type ? p->type : "?");
    }
}

/* The nodes from the root down to `node`, root first. Caller frees. */
static uint32_t *path_to(jfr_leaks *lk, uint32_t node, size_t *len)
{
    size_t n = 0;
    uint32_t *path;

    for (uint32_t k = node; k != JFR_LEAK_NONE; k = jfr_leaks_node_at(lk, k)->parent)
        n++;
    path = xcalloc(n, sizeof *path);
    *len = n;
    for (uint32_t k = node; k != JFR_LEAK_NONE; k = jfr_leaks_node_at(lk, k)->parent)
        path[--n] = k;
    return path;
}

static void time_text(strbuf *sb, int64_t nanos)
{
    int64_t secs;
    int32_t ns;

    split_nanos(nanos, &secs, &ns);
    fmt_utc_seconds(sb, secs);
    sb_printf(sb, ".%03d UTC", ns / 1000000);
}

static const char *file_of(const leaks_out *o, size_t rec)
{
    return rec < o->nrec_files ? o->rec_files[rec] : "?";
}

/* ---- text ---------------------------------------------------------------------- */

static void print_warmup(const leaks_out *o)
{
    size_t n = jfr_leaks_recording_count(o->lk);
    strbuf sb = {0};

    for (size_t i = 0; i < n; i++) {
        const jfr_leaks_warmup *w = jfr_leaks_warmup_at(o->lk, i);
        const char *file = file_of(o, i);

        sb_clear(&sb);
        if (!w->measured) {
            printf("Warm-up (%s): no jdk.ClassLoadingStatistics events; all %llu samples"
                   " used.\n",
                   file, (unsigned long long)w->samples);
            continue;
        }
        time_text(&sb, w->end_nanos);
        printf("Warm-up (%s): ends %s, at the first class-loading count above\n"
               "  90%% of the maximum (%llu classes; JMC's rule)%s.\n"
               "  %llu of %llu samples were written before and are left out.\n",
               file, sb_str(&sb), (unsigned long long)w->max_classes,
               w->visible ? "" : "; classes had already settled when first counted",
               (unsigned long long)w->skipped, (unsigned long long)w->samples);
    }
    sb_free(&sb);
}

static void print_rank(jfr_leaks *lk, jfr_leaks_rank_by by, uint32_t within, size_t max,
                       const char *indent)
{
    const jfr_leak_rank *rows;
    size_t n;

    if (jfr_leaks_rank(&rows, &n, lk, by, within) < 0)
        return;
    for (size_t i = 0; i < n && i < max; i++)
        printf("%s%8llu  %s\n", indent, (unsigned long long)rows[i].samples,
               rows[i].name);
    if (n > max)
        printf("%s%8s  (%zu more)\n", indent, "...", n - max);
}

static void print_candidate(const leaks_out *o, size_t rank, const jfr_leak_candidate *c)
{
    jfr_leaks *lk = o->lk;
    const jfr_leak_tree *t = jfr_leaks_tree_at(lk, c->tree);
    const jfr_leak_node *n = jfr_leaks_node_at(lk, c->node);
    strbuf sb = {0};
    uint32_t *path;
    size_t len;

    hop_text(&sb, lk, c->site);
    printf("\n#%zu %s\n", rank + 1, sb_str(&sb));
    if (o->nrec_files > 1)
        printf("  in %s\n", file_of(o, c->recording));
    printf("  keeps alive %llu of %llu samples (%.1f%%), %.1f%% of its root's %llu;"
           " relevance %.2f\n",
           (unsigned long long)c->samples,
           (unsigned long long)jfr_leaks_warmup_at(lk, c->recording)->used,
           100.0 * c->share_of_all, 100.0 * c->share_of_root,
           (unsigned long long)c->root_samples, c->relevance);
    printf("  GC root: %s, %s%s%s\n", t->system ? t->system : "unknown system",
           t->type ? t->type : "unknown type", t->description ? ": " : "",
           t->description ? t->description : "");
    printf("  path from the GC root:\n");
    path = path_to(lk, c->node, &len);
    printf("    %s (root object)\n", jfr_leaks_node_at(lk, path[0])->type
                                         ? jfr_leaks_node_at(lk, path[0])->type
                                         : "?");
    for (size_t i = 1; i < len; i++) {
        const jfr_leak_node *h = jfr_leaks_node_at(lk, path[i]);
        sb_clear(&sb);
        hop_text(&sb, lk, path[i]);
        if (h->skip > 0)
            printf("    ... %lld references omitted ...\n", (long long)h->skip);
        printf("    %s%s\n", sb_str(&sb),
               path[i] == c->site ? "   <- the leak grows here" : "");
    }
    printf("    %s (%llu samples through this object, %llu references from the root)\n",
           n->type ? n->type : "?", (unsigned long long)c->samples,
           (unsigned long long)n->distance);
    free(path);
    printf("  sampled objects:\n");
    print_rank(lk, JFR_LEAKS_BY_CLASS, c->node, DETAIL_ROWS, "  ");
    printf("  allocation sites:\n");
    print_rank(lk, JFR_LEAKS_BY_SITE, c->node, DETAIL_ROWS, "  ");
    sb_free(&sb);
}

static void print_text(const leaks_out *o)
{
    jfr_leaks *lk = o->lk;
    const jfr_leaks_stats *st = jfr_leaks_stats_get(lk);
    size_t ncand = jfr_leaks_candidate_count(lk);

    printf("%llu old-object samples, %llu with a reference chain to a GC root.\n",
           (unsigned long long)st->samples, (unsigned long long)st->with_chain);
    print_warmup(o);
    if (st->broken_chains)
        printf(
            "%llu reference chains ended early: %llu cycles, %llu undefined references,"
            " %llu too long.\n",
            (unsigned long long)st->broken_chains, (unsigned long long)st->cycles,
            (unsigned long long)st->dangling, (unsigned long long)st->too_long);
    if (st->samples == 0) {
        printf("No jdk.OldObjectSample events: nothing to analyse.\n");
        return;
    }
    if (st->with_chain == 0)
        printf("\nNo reference chains (record with path-to-gc-roots=true to get them);\n"
               "ranking the samples by class and by allocation site instead.\n");
    else if (ncand == 0)
        printf(
            "\nNo candidate scored above the threshold; ranking the samples instead.\n");
    if (st->with_chain == 0 || ncand == 0) {
        printf("\nBy class:\n");
        print_rank(lk, JFR_LEAKS_BY_CLASS, JFR_LEAK_NONE, o->top, "");
        printf("\nBy allocation site:\n");
        print_rank(lk, JFR_LEAKS_BY_SITE, JFR_LEAK_NONE, o->top, "");
        return;
    }
    for (size_t i = 0; i < ncand && i < o->top; i++)
        print_candidate(o, i, jfr_leaks_candidate_at(lk, i));
    if (ncand > o->top)
        printf("\n(%zu more candidates; see --top)\n", ncand - o->top);
}

/* ---- JSON ---------------------------------------------------------------------- */

static json_t *json_str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *rank_json(jfr_leaks *lk, jfr_leaks_rank_by by, uint32_t within, size_t max,
                         const char *key)
{
    json_t *arr = json_array();
    const jfr_leak_rank *rows;
    size_t n;

    if (jfr_leaks_rank(&rows, &n, lk, by, within) < 0)
        return arr;
    for (size_t i = 0; i < n && i < max; i++)
        json_array_append_new(arr, json_pack("{s:s, s:I}", key, rows[i].name, "samples",
                                             (json_int_t)rows[i].samples));
    return arr;
}

static json_t *hop_json(jfr_leaks *lk, uint32_t id)
{
    const jfr_leak_node *n = jfr_leaks_node_at(lk, id);
    json_t *j = json_object();
    strbuf sb = {0};

    if (n->parent != JFR_LEAK_NONE) {
        hop_text(&sb, lk, id);
        json_object_set_new(j, "hop", json_string(sb_str(&sb)));
        json_object_set_new(j, "holder", json_str_or_null(jfr_leaks_holder_name(lk, id)));
        json_object_set_new(j, "field", json_str_or_null(n->field));
        if (n->array_index >= 0) {
            json_object_set_new(j, "index", json_integer(n->array_index));
            json_object_set_new(j, "arraySize", json_integer(n->array_size));
        }
        json_object_set_new(j, "skip", json_integer(n->skip));
    }
    json_object_set_new(j, "type", json_str_or_null(n->type));
    json_object_set_new(j, "description", json_str_or_null(n->description));
    json_object_set_new(j, "samples", json_integer((json_int_t)n->samples));
    sb_free(&sb);
    return j;
}

static json_t *candidate_json(const leaks_out *o, const jfr_leak_candidate *c)
{
    jfr_leaks *lk = o->lk;
    const jfr_leak_tree *t = jfr_leaks_tree_at(lk, c->tree);
    const jfr_leak_node *n = jfr_leaks_node_at(lk, c->node);
    const jfr_leak_node *site = jfr_leaks_node_at(lk, c->site);
    json_t *j = json_object(), *path = json_array();
    strbuf sb = {0};
    uint32_t *ids;
    size_t len;

    hop_text(&sb, lk, c->site);
    json_object_set_new(j, "growsThrough", json_string(sb_str(&sb)));
    json_object_set_new(j, "file", json_string(file_of(o, c->recording)));
    json_object_set_new(j, "holder",
                        json_str_or_null(jfr_leaks_holder_name(lk, c->site)));
    json_object_set_new(j, "field", json_str_or_null(site->field));
    json_object_set_new(j, "arrayIndex",
                        site->array_index >= 0 ? json_integer(site->array_index)
                                               : json_null());
    json_object_set_new(j, "objectType", json_str_or_null(n->type));
    json_object_set_new(j, "samples", json_integer((json_int_t)c->samples));
    json_object_set_new(j, "rootSamples", json_integer((json_int_t)c->root_samples));
    json_object_set_new(j, "shareOfAll", json_real(c->share_of_all));
    json_object_set_new(j, "shareOfRoot", json_real(c->share_of_root));
    json_object_set_new(j, "distance", json_integer((json_int_t)n->distance));
    json_object_set_new(j, "relevance", json_real(c->relevance));
    json_object_set_new(j, "root",
                        json_pack("{s:o, s:o, s:o}", "system",
                                  json_str_or_null(t->system), "type",
                                  json_str_or_null(t->type), "description",
                                  json_str_or_null(t->description)));
    ids = path_to(lk, c->node, &len);
    for (size_t i = 0; i < len; i++)
        json_array_append_new(path, hop_json(lk, ids[i]));
    free(ids);
    json_object_set_new(j, "path", path);
    json_object_set_new(j, "sampledTypes",
                        rank_json(lk, JFR_LEAKS_BY_CLASS, c->node, DETAIL_ROWS, "type"));
    json_object_set_new(j, "allocationSites",
                        rank_json(lk, JFR_LEAKS_BY_SITE, c->node, DETAIL_ROWS, "site"));
    sb_free(&sb);
    return j;
}

static json_t *warmup_json(const leaks_out *o)
{
    json_t *arr = json_array();
    size_t n = jfr_leaks_recording_count(o->lk);
    strbuf sb = {0};

    for (size_t i = 0; i < n; i++) {
        const jfr_leaks_warmup *w = jfr_leaks_warmup_at(o->lk, i);
        json_t *j = json_object();

        json_object_set_new(j, "file", json_string(file_of(o, i)));
        json_object_set_new(j, "rule", json_string("jmc-class-loading-90-percent"));
        json_object_set_new(j, "measured", json_boolean(w->measured));
        json_object_set_new(j, "visible", json_boolean(w->visible));
        if (w->visible) {
            int64_t secs;
            int32_t ns;
            sb_clear(&sb);
            split_nanos(w->end_nanos, &secs, &ns);
            fmt_iso_instant(&sb, secs, ns, 0);
            json_object_set_new(j, "end", json_string(sb_str(&sb)));
        } else {
            json_object_set_new(j, "end", json_null());
        }
        json_object_set_new(j, "maxLoadedClasses",
                            json_integer((json_int_t)w->max_classes));
        json_object_set_new(j, "samples", json_integer((json_int_t)w->samples));
        json_object_set_new(j, "skipped", json_integer((json_int_t)w->skipped));
        json_object_set_new(j, "used", json_integer((json_int_t)w->used));
        json_array_append_new(arr, j);
    }
    sb_free(&sb);
    return arr;
}

static void print_json(const leaks_out *o)
{
    jfr_leaks *lk = o->lk;
    const jfr_leaks_stats *st = jfr_leaks_stats_get(lk);
    size_t ncand = jfr_leaks_candidate_count(lk);
    json_t *root = json_object(), *cands = json_array();

    json_object_set_new(root, "samples", json_integer((json_int_t)st->samples));
    json_object_set_new(root, "used", json_integer((json_int_t)st->used));
    json_object_set_new(root, "withChain", json_integer((json_int_t)st->with_chain));
    json_object_set_new(
        root, "brokenChains",
        json_pack("{s:I, s:I, s:I, s:I}", "total", (json_int_t)st->broken_chains,
                  "cycles", (json_int_t)st->cycles, "dangling", (json_int_t)st->dangling,
                  "tooLong", (json_int_t)st->too_long));
    json_object_set_new(root, "warmup", warmup_json(o));
    for (size_t i = 0; i < ncand && i < o->top; i++)
        json_array_append_new(cands, candidate_json(o, jfr_leaks_candidate_at(lk, i)));
    json_object_set_new(root, "candidates", cands);
    if (st->samples && (st->with_chain == 0 || ncand == 0))
        json_object_set_new(
            root, "ranking",
            json_pack("{s:o, s:o}", "byClass",
                      rank_json(lk, JFR_LEAKS_BY_CLASS, JFR_LEAK_NONE, o->top, "type"),
                      "bySite",
                      rank_json(lk, JFR_LEAKS_BY_SITE, JFR_LEAK_NONE, o->top, "site")));
    else
        json_object_set_new(root, "ranking", json_null());
    json_tree_print(stdout, root, 6);
    json_decref(root);
}

/* ---- the command --------------------------------------------------------------- */

/* Every chunk of the inputs into o->lk, each recording's file noted;
 * whether any input could be opened (*status: EXIT_INPUT for one that
 * could not). */
static bool read_inputs(leaks_out *o, int nfiles, char **files, int *status)
{
    bool damaged = false, any = false;

    for (int i = 0; i < nfiles; i++) {
        jfr_recording *rec = open_recording(files[i], status);
        jfr_chunk *chunk;

        if (!rec)
            continue;
        any = true;
        while (next_chunk(&chunk, rec, files[i], &damaged) == JFR_OK) {
            if (jfr_leaks_add_chunk(o->lk, chunk) < 0) {
                report_error(files[i], jfr_recording_error(rec));
                damaged = true;
            }
            /* each chunk with index 0 started a recording: remember its file */
            while (o->nrec_files < jfr_leaks_stats_get(o->lk)->recordings) {
                o->rec_files =
                    xrealloc(o->rec_files, o->nrec_files + 1, sizeof *o->rec_files);
                o->rec_files[o->nrec_files++] = files[i];
            }
        }
        close_recording(rec);
    }
    return any;
}

int cmd_leaks(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'},
        {"format", required_argument, NULL, 'F'},
        {"top", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},
        {0},
    };
    jfr_leaks_options lo = JFR_LEAKS_OPTIONS_INIT;
    leaks_out o = {0};
    jfr_error err;
    bool json = false;
    int status = EXIT_OK, c;
    char *end;

    o.top = 10;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'j':
            json = true;
            break;
        case 'F': {
            const out_format *f;
            if ((c = out_format_option(&f, optarg, OUT_LEAKS)) >= 0)
                return c;
            json = f->id == OUT_FMT_JSON;
            break;
        }
        case 't':
            o.top = (size_t)strtoul(optarg, &end, 10);
            if (*end || !*optarg || optarg[0] == '-' || o.top == 0) {
                warnx_("--top wants a positive number, not '%s'", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'h':
            fputs(usage_leaks, stdout);
            return EXIT_OK;
        default:
            fputs(usage_leaks, stderr);
            return EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        fputs(usage_leaks, stderr);
        return EXIT_USAGE;
    }
    if (jfr_leaks_new(&o.lk, &lo, &err) < 0)
        diex(EXIT_INPUT, "leaks: %s", err.message);
    if (!read_inputs(&o, argc - optind, argv + optind, &status)) {
        jfr_leaks_free(o.lk);
        free(o.rec_files);
        return status == EXIT_OK ? EXIT_INPUT : status;
    }
    if (jfr_leaks_build_trees(o.lk) < 0)
        diex(EXIT_INPUT, "leaks: out of memory");
    {
        const jfr_leaks_stats *st = jfr_leaks_stats_get(o.lk);
        if (st->broken_chains)
            warnx_(
                "warning: %llu reference chains ended early (%llu cycles, %llu undefined"
                " references, %llu too long)",
                (unsigned long long)st->broken_chains, (unsigned long long)st->cycles,
                (unsigned long long)st->dangling, (unsigned long long)st->too_long);
    }
    if (json)
        print_json(&o);
    else
        print_text(&o);
    jfr_leaks_free(o.lk);
    free(o.rec_files);
    return status;
}
