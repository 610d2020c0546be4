/* cmd_print.c - jfrtool print: every event, as text or as JSON in the shape
 * of `jfr print --json`. Like the JDK tool, events are shown chunk by chunk
 * in order of their end time; only each chunk's (time, offset) pairs are
 * held in memory, never the events. */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "print_context.h"
#include "print_names.h"
#include "out_json.h"
#include "out_print.h"
#include "print_order.h"
#include "util.h"

const char usage_print[] =
    "Usage: jfrtool print [--json] [--events NAME,...] [--stack-depth N] FILE...\n"
    "\n"
    "Print the events of the recording, chunk by chunk in time order.\n"
    "  --json            JSON: {\"recording\": {\"events\": [{\"type\", \"values\"}]}}\n"
    "  --events LIST     only these event types (comma-separated full names,\n"
    "                    or simple names such as ExecutionSample)\n"
    "  --stack-depth N   frames shown per stack trace (default 5, as the JDK\n"
    "                    tool prints them in text and JSON)\n";

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

/* Event types the user named, matched by full or simple name. */
static bool wanted(const jfr_type *t, char **names, size_t n)
{
    if (!names)
        return true;
    for (size_t i = 0; i < n; i++)
        if (name_selects(names[i], t))
            return true;
    return false;
}

typedef struct print_state {
    bool json;
    bool first;
    json_opts jopts;
    text_opts topts;
    char **names;
    size_t nnames;
    strbuf out; /* JSON being written: one write per 64 KiB, not per token */
    const char *context; /* text: the context lines of the event to print */
} print_state;

static void flush_json(print_state *ps)
{
    fwrite(ps->out.ptr ? ps->out.ptr : "", 1, ps->out.len, stdout);
    sb_clear(&ps->out);
}

static void print_event(print_state *ps, const jfr_event *ev, const char *path,
                        jfr_recording *rec, bool *damaged)
{
    if (ps->json) {
        size_t mark = ps->out.len;

        sb_puts(&ps->out, ps->first ? "\n      " : ",\n      ");
        if (event_json(&ps->out, ev, &ps->jopts, 6) < 0) {
            ps->out.len = mark;
            flush_json(ps); /* what came before, then the message */
            if (event_json_loss())
                warnx_("%s: chunk %lld, offset %llu: %s not printed: %s", path,
                       (long long)jfr_chunk_index(jfr_event_chunk(ev)),
                       (unsigned long long)jfr_event_offset(ev),
                       jfr_type_name(jfr_event_type(ev)), event_json_loss());
            else
                report_error(path, jfr_recording_error(rec));
            *damaged = true;
            return;
        }
        ps->first = false;
        if (ps->out.len >= 1 << 16)
            flush_json(ps);
        return;
    }
    if (print_event_text(stdout, ev, &ps->topts, ps->context) < 0) {
        report_error(path, jfr_recording_error(rec));
        *damaged = true;
    }
}

/* The chunk's events to print, and in text its contextual events, in file
 * order. */
static order *collect(print_state *ps, jfr_chunk *chunk, jfr_event_iter *it, size_t *count,
                      int *rc)
{
    const jfr_event *ev;
    order *ord = NULL;
    size_t n = 0, cap = 0, ntypes = jfr_chunk_type_count(chunk);
    /* per type of the chunk: 0 not looked at, 1 contextual, 2 not */
    unsigned char *contextual = xcalloc(ntypes ? ntypes : 1, 1);

    while ((*rc = jfr_event_next(&ev, it)) == JFR_OK) {
        const jfr_type *t = jfr_event_type(ev);
        size_t ti = jfr_type_index(t);
        bool want = wanted(t, ps->names, ps->nnames), ctx = false;
        if (!ps->json && ti < ntypes) {
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
        ord[n] = (order){end_ticks(ev), n, jfr_event_offset(ev),
                         ctx ? jfr_event_start_ticks(ev) : 0, ctx, want};
        n++;
    }
    free(contextual);
    *count = n;
    return ord;
}

/* JDK 25's PrettyWriter timeline (print_order.h): each event at its end;
 * a contextual event also at its start and end, before it. */
static print_slot *text_order(jfr_chunk *chunk, const order *ord, size_t n, size_t *nslots)
{
    print_slot *slots = xcalloc(3 * n + 1, sizeof *slots);
    size_t k = 0;

    for (size_t i = 0; i < n; i++) {
        int64_t end = jfr_chunk_ticks_to_epoch_nanos(chunk, ord[i].end_ticks);
        if (ord[i].contextual) {
            slots[k++] = (print_slot){jfr_chunk_ticks_to_epoch_nanos(chunk, ord[i].start_ticks),
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

static void print_chunk(print_state *ps, jfr_recording *rec, jfr_chunk *chunk,
                        const char *path, bool *damaged)
{
    jfr_event_iter *it;
    const jfr_event *ev;
    order *ord;
    print_slot *slots = NULL;
    print_contexts *contexts = NULL;
    size_t n, nslots;
    int rc;

    event_json_new_chunk();
    if (jfr_event_iter_new(&it, chunk, NULL, 0, 0) < 0) {
        report_error(path, jfr_recording_error(rec));
        *damaged = true;
        return;
    }
    ord = collect(ps, chunk, it, &n, &rc);
    if (rc < 0) {
        /* the events before the damage are still printed */
        report_error(path, jfr_recording_error(rec));
        *damaged = true;
    }
    if (ps->json) {
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
                report_error(path, jfr_recording_error(rec));
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
        print_event(ps, ev, path, rec, damaged);
    }
    if (ps->json)
        flush_json(ps); /* before the next chunk's messages */
    free(ord);
    free(slots);
    print_contexts_free(contexts);
    jfr_event_iter_free(it);
}

int cmd_print(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'},
        {"events", required_argument, NULL, 'e'},
        {"stack-depth", required_argument, NULL, 'd'},
        {"help", no_argument, NULL, 'h'},
        {0},
    };
    print_state ps = {0};
    name_check names;
    long depth = -1;
    int status = EXIT_OK, c;
    bool damaged = false;
    char *end;

    while ((c = getopt_long(argc, argv, "je:d:h", opts, NULL)) != -1) {
        switch (c) {
        case 'j':
            ps.json = true;
            break;
        case 'e':
            free_list(ps.names);
            ps.names = split_list(optarg, &ps.nnames);
            break;
        case 'd':
            depth = strtol(optarg, &end, 10);
            if (*end || depth < 0) {
                warnx_("--stack-depth needs a number >= 0, not '%s'", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'h':
            fputs(usage_print, stdout);
            return EXIT_OK;
        default:
            fputs(usage_print, stderr);
            return EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        fputs(usage_print, stderr);
        return EXIT_USAGE;
    }
    /* the JDK's default for JSON and text alike: whole stacks of a large
     * recording are gigabytes of JSON */
    ps.jopts.stack_depth = depth < 0 ? 5 : (size_t)depth;
    ps.topts.stack_depth = depth < 0 ? 5 : (size_t)depth;
    ps.first = true;
    name_check_init(&names, ps.names, ps.nnames);
    if (ps.json)
        fputs("{\n  \"recording\": {\n    \"events\": [", stdout);
    for (int i = optind; i < argc; i++) {
        jfr_recording *rec = open_recording(argv[i], &status);
        jfr_chunk *chunk;

        if (!rec)
            continue;
        while (next_chunk(&chunk, rec, argv[i], &damaged) == JFR_OK) {
            name_check_chunk(&names, chunk);
            print_chunk(&ps, rec, chunk, argv[i], &damaged);
        }
        close_recording(rec);
    }
    if (ps.json) {
        flush_json(&ps);
        fputs("\n    ]\n  }\n}\n", stdout);
    }
    sb_free(&ps.out);
    status = name_check_finish(&names, status);
    free_list(ps.names);
    return status;
}
