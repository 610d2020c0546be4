/* cmd_print.c - jfrtool print: every event, as text or as JSON in the shape
 * of `jfr print --json`. Like the JDK tool, events are shown chunk by chunk
 * in order of their end time; only each chunk's (time, offset) pairs are
 * held in memory, never the events. */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "follow.h"
#include "event_filters.h"
#include "formats.h"
#include "jfrtool.h"
#include "print_context.h"
#include "out_json.h"
#include "out_print.h"
#include "print_order.h"
#include "type_names.h"
#include "util.h"

const char usage_print[] =
    "Usage: jfrtool print [--json | --json-lines | --xml | --format F] [--exact]\n"
    "                     [--events FILTER] [--categories FILTER] [--stack-depth N]\n"
    "                     FILE...\n"
    "       jfrtool print --follow [OPTIONS] PID|DIR|FILE\n"
    "\n"
    "Print the events of the recording, chunk by chunk in time order.\n"
    "  --json            JSON: {\"recording\": {\"events\": [{\"type\", \"values\"}]}}\n"
    "  --json-lines      each event as JSON on a line of its own\n"
    "  --xml             XML, as the JDK's jfr print --xml writes it\n"
    "  --format F        text (default), json (as --json), json-lines (as\n"
    "                    --json-lines) or xml (as --xml); `--format list`\n"
    "  --exact           text with times, durations and percentages to the\n"
    "                    nanosecond and amounts in bytes, as jfr print --exact\n"
    "  --follow          follow a running JVM (its process id or its repository)\n"
    "                    or a growing file: print each flush's events as the JVM\n"
    "                    writes them, in time order within the flush, until the\n"
    "                    JVM ends its recording or exits, or Ctrl-C\n"
    "  --events FILTER   only event types that FILTER names: a comma-separated\n"
    "                    list of full names (jdk.ExecutionSample), short names\n"
    "                    (ExecutionSample) and quoted globs ('jdk.GC*')\n"
    "  --categories FILTER\n"
    "                    only event types in a category FILTER names: 'GC,JVM,\n"
    "                    Java*' (an acronym names a category of several words);\n"
    "                    with --events, the types both select, as the JDK's jfr\n"
    "                    print; a name no input declares is an error\n"
    "  --stack-depth N   frames shown per stack trace (default 5, as the JDK\n"
    "                    tool prints them in text, JSON and XML)\n";

typedef struct order {
    int64_t end_ticks;
    uint64_t seq;
    uint64_t offset;
    int64_t start_ticks; /* a contextual event's (text only) */
    bool contextual;     /* its type has @Contextual fields (JDK 25) */
    bool wanted;         /* printed (a contextual event may only be a context) */
} order;

/* What a slot of the text order stands for (print_order.h). */
enum { SLOT_EVENT, SLOT_OPEN, SLOT_CLOSE };

static int compare_order(const void *a, const void *b)
{
    const order *x = a, *y = b;

    if (x->end_ticks != y->end_ticks)
        return x->end_ticks < y->end_ticks ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int64_t end_ticks(const jfr_event *ev)
{
    jfr_value v;
    int64_t end = jfr_event_start_ticks(ev);

    if (jfr_type_field_index(jfr_event_type(ev), "duration") == 1 &&
        jfr_event_field(&v, ev, "duration") == JFR_OK && v.kind == JFR_VALUE_INT)
        end += v.as.i;
    return end;
}

typedef struct print_state {
    bool json;
    bool lines; /* --json-lines */
    bool xml;
    bool follow;
    bool first;
    json_opts jopts;
    text_opts topts;
    event_filters filters;
    strbuf out;          /* JSON being written: one write per 64 KiB, not per token */
    const char *context; /* text: the context lines of the event to print */
} print_state;

/* Whether events are written as data (JSON, XML) rather than as text:
 * in the JDK's order, without contextual events. */
static bool structured(const print_state *ps)
{
    return ps->json || ps->lines || ps->xml;
}

/* The chunk's contextual types (print_context.h) the filters leave out,
 * appended to `names` (room for every type of the chunk): their events
 * give the context lines of the events printed. */
static void add_contextual(const char **names, jfr_chunk *chunk, size_t *n)
{
    size_t count = jfr_chunk_type_count(chunk), selected_n = *n;

    for (size_t i = 0; i < count; i++) {
        const jfr_type *t = jfr_chunk_type_at(chunk, i);
        bool listed = false;
        for (size_t k = 0; k < selected_n && !listed; k++)
            listed = names[k] == jfr_type_name(t);
        if (!listed && jfr_type_is_event(t) && print_type_contextual(t))
            names[(*n)++] = jfr_type_name(t);
    }
}

static void flush_json(print_state *ps)
{
    fwrite(ps->out.ptr ? ps->out.ptr : "", 1, ps->out.len, stdout);
    sb_clear(&ps->out);
}

/* The event's JSON on one line: event_json's line breaks and indentation
 * go (a line break inside a string is written escaped). */
static int event_json_line(strbuf *out, const jfr_event *ev, const json_opts *o)
{
    size_t mark = out->len, to = mark;

    if (event_json(out, ev, o, 0) < 0)
        return -1;
    for (size_t i = mark; i < out->len; i++) {
        if (out->ptr[i] != '\n') {
            out->ptr[to++] = out->ptr[i];
            continue;
        }
        while (i + 1 < out->len && out->ptr[i + 1] == ' ')
            i++;
    }
    out->len = to;
    sb_putc(out, '\n');
    return 0;
}

/* Why event `ev` could not be written as JSON: a value JSON cannot hold
 * (event_json_loss) or the damage `err` describes. */
static void json_not_printed(const char *path, const jfr_event *ev, const jfr_error *err)
{
    if (event_json_loss())
        warnx_("%s: chunk %lld, offset %llu: %s not printed: %s", path,
               (long long)jfr_chunk_index(jfr_event_chunk(ev)),
               (unsigned long long)jfr_event_offset(ev),
               jfr_type_name(jfr_event_type(ev)), event_json_loss());
    else
        report_error(path, err);
}

/* `err`: where the chunk's errors are (its recording's). */
static void print_event(print_state *ps, const jfr_event *ev, const char *path,
                        const jfr_error *err, bool *damaged)
{
    if (ps->lines) {
        if (event_json_line(&ps->out, ev, &ps->jopts) < 0) {
            flush_json(ps);
            json_not_printed(path, ev, err);
            *damaged = true;
        } else if (ps->out.len >= 1 << 16) {
            flush_json(ps);
        }
        return;
    }
    if (ps->xml) {
        if (event_xml(&ps->out, ev, &ps->jopts, 4) < 0) {
            flush_json(ps); /* what came before, then the message */
            json_not_printed(path, ev, err);
            *damaged = true;
        } else if (ps->out.len >= 1 << 16) {
            flush_json(ps);
        }
        return;
    }
    if (ps->json) {
        size_t mark = ps->out.len;

        sb_puts(&ps->out, ps->first ? "\n      " : ",\n      ");
        if (event_json(&ps->out, ev, &ps->jopts, 6) < 0) {
            ps->out.len = mark;
            flush_json(ps); /* what came before, then the message */
            json_not_printed(path, ev, err);
            *damaged = true;
            return;
        }
        ps->first = false;
        if (ps->out.len >= 1 << 16)
            flush_json(ps);
        return;
    }
    if (print_event_text(stdout, ev, &ps->topts, ps->context) < 0) {
        report_error(path, err);
        *damaged = true;
    }
}

/* The chunk's events to print, and in text its contextual events, in file
 * order. */
static order *collect(print_state *ps, jfr_chunk *chunk, jfr_event_iter *it,
                      size_t *count, int *rc)
{
    const jfr_event *ev;
    order *ord = NULL;
    size_t n = 0, cap = 0, ntypes = jfr_chunk_type_count(chunk);
    /* per type of the chunk: 0 not looked at, 1 contextual, 2 not */
    unsigned char *contextual = xcalloc(ntypes ? ntypes : 1, 1);

    while ((*rc = jfr_event_next(&ev, it)) == JFR_OK) {
        const jfr_type *t = jfr_event_type(ev);
        size_t ti = jfr_type_index(t);
        bool want = event_filters_select(&ps->filters, t), ctx = false;
        if (!structured(ps) && ti < ntypes) {
            if (!contextual[ti])
                contextual[ti] = print_type_contextual(t) ? 1 : 2;
            ctx = contextual[ti] == 1;
        }
        if (!want && !ctx)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 4096;
            ord = xrealloc(ord, cap, sizeof *ord);
        }
        ord[n] = (order){
            end_ticks(ev), n,   jfr_event_offset(ev), ctx ? jfr_event_start_ticks(ev) : 0,
            ctx,           want};
        n++;
    }
    free(contextual);
    *count = n;
    return ord;
}

/* JDK 25's PrettyWriter timeline (print_order.h): each event at its end;
 * a contextual event also at its start and end, before it. */
static print_slot *text_order(jfr_chunk *chunk, const order *ord, size_t n,
                              size_t *nslots)
{
    print_slot *slots = xcalloc(3 * n + 1, sizeof *slots);
    size_t k = 0;

    for (size_t i = 0; i < n; i++) {
        int64_t end = jfr_chunk_ticks_to_epoch_nanos(chunk, ord[i].end_ticks);
        if (ord[i].contextual) {
            slots[k++] =
                (print_slot){jfr_chunk_ticks_to_epoch_nanos(chunk, ord[i].start_ticks),
                             false, SLOT_OPEN, i};
            slots[k++] = (print_slot){end, true, SLOT_CLOSE, i};
        }
        if (ord[i].wanted)
            slots[k++] = (print_slot){end, true, SLOT_EVENT, i};
    }
    print_order_jdk(slots, k);
    *nslots = k;
    return slots;
}

static void print_chunk(print_state *ps, const jfr_error *err, jfr_chunk *chunk,
                        const char *path, bool *damaged)
{
    jfr_event_iter *it;
    const jfr_event *ev;
    order *ord;
    print_slot *slots = NULL;
    print_contexts *contexts = NULL;
    size_t n, nslots, ntypes;
    const char **types = event_filters_chunk_types(&ps->filters, chunk, &ntypes);
    int rc;

    event_json_new_chunk();
    if (types && !structured(ps))
        add_contextual(types, chunk, &ntypes);
    if (types && ntypes == 0) {
        free(types); /* the chunk has none of the types */
        return;
    }
    rc = jfr_event_iter_new(&it, chunk, types, ntypes, 0);
    free(types);
    if (rc < 0) {
        report_error(path, err);
        *damaged = true;
        return;
    }
    ord = collect(ps, chunk, it, &n, &rc);
    if (rc < 0) {
        /* the events before the damage are still printed */
        report_error(path, err);
        *damaged = true;
    }
    if (structured(ps)) {
        if (n) /* ord is NULL for a chunk without events */
            qsort(ord, n, sizeof *ord, compare_order);
        nslots = n;
    } else {
        slots = text_order(chunk, ord, n, &nslots);
        contexts = print_contexts_new();
    }
    for (size_t i = 0; i < nslots; i++) {
        const order *o = slots ? &ord[slots[i].ref] : &ord[i];
        if (jfr_event_iter_seek(it, o->offset) < 0 || jfr_event_next(&ev, it) != JFR_OK)
            continue;
        if (slots && slots[i].kind == SLOT_OPEN) {
            if (print_contexts_open(contexts, ev, &ps->topts) < 0) {
                report_error(path, err);
                *damaged = true;
            }
            continue;
        }
        if (slots && slots[i].kind == SLOT_CLOSE) {
            print_contexts_close(contexts, ev);
            continue;
        }
        /* a contextual event is shown without contexts, as the JDK shows it */
        ps->context = contexts && !o->contextual ? print_contexts_of(contexts, ev) : NULL;
        print_event(ps, ev, path, err, damaged);
    }
    if (structured(ps))
        flush_json(ps); /* before the next chunk's messages */
    free(ord);
    free(slots);
    print_contexts_free(contexts);
    jfr_event_iter_free(it);
}

static int parse_options(print_state *ps, long *depth, int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'},
        {"json-lines", no_argument, NULL, 'l'},
        {"xml", no_argument, NULL, 'x'},
        {"exact", no_argument, NULL, 'E'},
        {"format", required_argument, NULL, 'F'},
        {"follow", no_argument, NULL, 'f'},
        {"events", required_argument, NULL, 'e'},
        {"categories", required_argument, NULL, 'c'},
        {"stack-depth", required_argument, NULL, 'd'},
        {"help", no_argument, NULL, 'h'},
        {0},
    };
    char *end;
    int c, rc = EXIT_OK;

    while (rc == EXIT_OK && (c = getopt_long(argc, argv, "je:c:d:h", opts, NULL)) != -1) {
        switch (c) {
        case 'j':
            ps->json = true;
            break;
        case 'l':
            ps->lines = true;
            break;
        case 'x':
            ps->xml = true;
            break;
        case 'E':
            ps->topts.exact = true;
            break;
        case 'f':
            ps->follow = true;
            break;
        case 'F': {
            const out_format *f;
            if ((c = out_format_option(&f, optarg, OUT_PRINT)) >= 0)
                return c == EXIT_OK ? -1 : c;
            ps->json = f->id == OUT_FMT_JSON;
            ps->lines = f->id == OUT_FMT_JSON_LINES;
            ps->xml = f->id == OUT_FMT_XML;
            break;
        }
        case 'e':
            rc = event_filters_take(&ps->filters, false, optarg);
            break;
        case 'c':
            rc = event_filters_take(&ps->filters, true, optarg);
            break;
        case 'd':
            *depth = strtol(optarg, &end, 10);
            if (*end || *depth < 0) {
                warnx_("--stack-depth needs a number >= 0, not '%s'", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'h':
            fputs(usage_print, stdout);
            return -1;
        default:
            fputs(usage_print, stderr);
            return EXIT_USAGE;
        }
    }
    if (rc == EXIT_OK && (optind >= argc || (ps->follow && optind + 1 != argc) ||
                          ps->json + ps->lines + ps->xml > 1)) {
        if (ps->json + ps->lines + ps->xml > 1)
            warnx_("--json, --json-lines and --xml are ways of writing the events: "
                   "pick one");
        else if (ps->follow && optind < argc)
            warnx_("--follow follows one JVM: one process id, directory or file");
        fputs(usage_print, stderr);
        return EXIT_USAGE;
    }
    return rc;
}

/* --follow: each flush's segment is printed as a chunk is (follow.h); the
 * filters are checked against the first flush's types. */
typedef struct print_follow {
    print_state *ps;
    bool checked, damaged;
    int status;
} print_follow;

static void print_flush(const jfr_flush *fl, void *user)
{
    print_follow *pf = user;

    if (!pf->checked && event_filters_any(&pf->ps->filters)) {
        jfr_type_set *set = type_set_new();

        pf->checked = true;
        if (jfr_type_set_add_chunk(set, fl->chunk) == JFR_OK)
            pf->status = event_filters_check_set(&pf->ps->filters, set);
        jfr_type_set_free(set);
    }
    if (pf->status != EXIT_OK)
        return;
    print_chunk(pf->ps, fl->chunk_error, fl->chunk, fl->path, &pf->damaged);
    fflush(stdout);
}

static bool print_keep_going(void *user)
{
    return ((print_follow *)user)->status == EXIT_OK;
}

static int follow_print(print_state *ps, const char *arg)
{
    print_follow pf = {ps, false, false, EXIT_OK};
    follow_ops ops = {print_flush,           NULL, 0, print_keep_going,
                      JFR_FOLLOW_FROM_FIRST, false};
    int status = follow_run(arg, &ops, &pf);

    return pf.status != EXIT_OK ? pf.status : status;
}

static int print_files(print_state *ps, char **files, int nfiles)
{
    int status = EXIT_OK;
    bool damaged = false;

    for (int i = 0; i < nfiles; i++) {
        jfr_recording *rec = open_recording(files[i], &status);
        jfr_chunk *chunk;

        if (!rec)
            continue;
        while (next_chunk(&chunk, rec, files[i], &damaged) == JFR_OK)
            print_chunk(ps, jfr_recording_error(rec), chunk, files[i], &damaged);
        close_recording(rec);
    }
    return status;
}

int cmd_print(int argc, char **argv)
{
    print_state ps = {0};
    long depth = -1;
    int status;

    status = parse_options(&ps, &depth, argc, argv);
    /* a followed JVM's types are known at its first flush (print_flush) */
    if (status == EXIT_OK && !ps.follow)
        status = event_filters_check(&ps.filters, argv + optind, argc - optind);
    if (status != EXIT_OK) {
        event_filters_free(&ps.filters);
        return status < 0 ? EXIT_OK : status; /* -1: --help */
    }
    /* the JDK's default for JSON and text alike: whole stacks of a large
     * recording are gigabytes of JSON */
    ps.jopts.stack_depth = depth < 0 ? 5 : (size_t)depth;
    ps.topts.stack_depth = depth < 0 ? 5 : (size_t)depth;
    ps.first = true;
    if (ps.json)
        fputs("{\n  \"recording\": {\n    \"events\": [", stdout);
    if (ps.xml)
        fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<recording "
              "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n  <events>\n",
              stdout);
    status = ps.follow ? follow_print(&ps, argv[optind])
                       : print_files(&ps, argv + optind, argc - optind);
    if (ps.json) {
        flush_json(&ps);
        fputs("\n    ]\n  }\n}\n", stdout);
    }
    if (ps.xml) {
        flush_json(&ps);
        fputs("  </events>\n</recording>\n", stdout);
    }
    sb_free(&ps.out);
    event_filters_free(&ps.filters);
    return status;
}
