/* cmd_print.c - jfrtool print: every event, as text or as JSON in the shape
 * of `jfr print --json`. Like the JDK tool, events are shown chunk by chunk
 * in order of their end time; only each chunk's (time, offset) pairs are
 * held in memory, never the events. */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "follow.h"
#include "jfrtool.h"
#include "print_names.h"
#include "out_json.h"
#include "out_print.h"
#include "print_order.h"
#include "util.h"

const char usage_print[] =
    "Usage: jfrtool print [--json | --json-lines] [--events NAME,...] [--stack-depth N]\n"
    "                     FILE...\n"
    "       jfrtool print --follow [OPTIONS] PID|DIR|FILE\n"
    "\n"
    "Print the events of the recording, chunk by chunk in time order.\n"
    "  --json            JSON: {\"recording\": {\"events\": [{\"type\", \"values\"}]}}\n"
    "  --json-lines      each event as JSON on a line of its own\n"
    "  --follow          follow a running JVM (its process id or its repository)\n"
    "                    or a growing file: print each flush's events as the JVM\n"
    "                    writes them, in time order within the flush, until the\n"
    "                    JVM ends its recording or exits, or Ctrl-C\n"
    "  --events LIST     only these event types (comma-separated full names,\n"
    "                    or simple names such as ExecutionSample)\n"
    "  --stack-depth N   frames shown per stack trace (default 5, as the JDK\n"
    "                    tool prints them in text and JSON)\n";

typedef struct order {
    int64_t end_ticks;
    uint64_t seq;
    uint64_t offset;
} order;

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
    bool lines; /* --json-lines */
    bool first;
    json_opts jopts;
    text_opts topts;
    char **names;
    size_t nnames;
    strbuf out; /* JSON being written: one write per 64 KiB, not per token */
} print_state;

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

static void print_event(print_state *ps, const jfr_event *ev, const char *path,
                        const jfr_error *err, bool *damaged)
{
    if (ps->lines) {
        if (event_json_line(&ps->out, ev, &ps->jopts) < 0) {
            flush_json(ps);
            if (event_json_loss())
                warnx_("%s: chunk %lld, offset %llu: %s not printed: %s", path,
                       (long long)jfr_chunk_index(jfr_event_chunk(ev)),
                       (unsigned long long)jfr_event_offset(ev),
                       jfr_type_name(jfr_event_type(ev)), event_json_loss());
            else
                report_error(path, err);
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
            if (event_json_loss())
                warnx_("%s: chunk %lld, offset %llu: %s not printed: %s", path,
                       (long long)jfr_chunk_index(jfr_event_chunk(ev)),
                       (unsigned long long)jfr_event_offset(ev),
                       jfr_type_name(jfr_event_type(ev)), event_json_loss());
            else
                report_error(path, err);
            *damaged = true;
            return;
        }
        ps->first = false;
        if (ps->out.len >= 1 << 16)
            flush_json(ps);
        return;
    }
    if (print_event_text(stdout, ev, &ps->topts) < 0) {
        report_error(path, err);
        *damaged = true;
    }
}

/* `err`: where the chunk's errors are (its recording's). */
static void print_chunk(print_state *ps, const jfr_error *err, jfr_chunk *chunk,
                        const char *path, bool *damaged)
{
    jfr_event_iter *it;
    const jfr_event *ev;
    order *ord = NULL;
    size_t n = 0, cap = 0;
    int rc;

    event_json_new_chunk();
    if (jfr_event_iter_new(&it, chunk, NULL, 0, 0) < 0) {
        report_error(path, err);
        *damaged = true;
        return;
    }
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
        if (!wanted(jfr_event_type(ev), ps->names, ps->nnames))
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 4096;
            ord = xrealloc(ord, cap, sizeof *ord);
        }
        ord[n].end_ticks = end_ticks(ev);
        ord[n].seq = n;
        ord[n].offset = jfr_event_offset(ev);
        n++;
    }
    if (rc < 0) {
        /* the events before the damage are still printed */
        report_error(path, err);
        *damaged = true;
    }
    if (ps->json || ps->lines) {
        if (n) /* ord is NULL for a chunk without events */
            qsort(ord, n, sizeof *ord, compare_order);
    } else { /* text: JDK 25's PrettyWriter order (print_order.h) */
        print_slot *slots = xcalloc(n ? n : 1, sizeof *slots);

        for (size_t i = 0; i < n; i++) {
            slots[i].end_nanos = jfr_chunk_ticks_to_epoch_nanos(chunk, ord[i].end_ticks);
            slots[i].ref = ord[i].offset;
        }
        print_order_jdk(slots, n);
        for (size_t i = 0; i < n; i++)
            ord[i].offset = slots[i].ref;
        free(slots);
    }
    for (size_t i = 0; i < n; i++) {
        if (jfr_event_iter_seek(it, ord[i].offset) < 0 ||
            jfr_event_next(&ev, it) != JFR_OK)
            continue;
        print_event(ps, ev, path, err, damaged);
    }
    if (ps->json || ps->lines)
        flush_json(ps); /* before the next chunk's messages */
    free(ord);
    jfr_event_iter_free(it);
}

/* --follow: each flush's segment is printed as a chunk is (follow.h). */
typedef struct print_follow {
    print_state *ps;
    name_check *names;
    bool damaged;
} print_follow;

static void print_flush(const jfr_flush *fl, void *user)
{
    print_follow *pf = user;

    name_check_chunk(pf->names, fl->chunk);
    print_chunk(pf->ps, fl->chunk_error, fl->chunk, fl->path, &pf->damaged);
    fflush(stdout);
}

static int follow_print(print_state *ps, name_check *names, const char *arg)
{
    print_follow pf = {ps, names, false};
    follow_ops ops = {print_flush, NULL, 0, NULL, JFR_FOLLOW_FROM_FIRST, false};

    return follow_run(arg, &ops, &pf);
}

static int print_files(print_state *ps, name_check *names, char **files, int nfiles)
{
    int status = EXIT_OK;
    bool damaged = false;

    for (int i = 0; i < nfiles; i++) {
        jfr_recording *rec = open_recording(files[i], &status);
        jfr_chunk *chunk;

        if (!rec)
            continue;
        while (next_chunk(&chunk, rec, files[i], &damaged) == JFR_OK) {
            name_check_chunk(names, chunk);
            print_chunk(ps, jfr_recording_error(rec), chunk, files[i], &damaged);
        }
        close_recording(rec);
    }
    return status;
}

int cmd_print(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'j'},
        {"json-lines", no_argument, NULL, 'l'},
        {"follow", no_argument, NULL, 'f'},
        {"events", required_argument, NULL, 'e'},
        {"stack-depth", required_argument, NULL, 'd'},
        {"help", no_argument, NULL, 'h'},
        {0},
    };
    print_state ps = {0};
    name_check names;
    long depth = -1;
    int status, c;
    bool follow = false;
    char *end;

    while ((c = getopt_long(argc, argv, "je:d:h", opts, NULL)) != -1) {
        switch (c) {
        case 'j':
            ps.json = true;
            break;
        case 'l':
            ps.lines = true;
            break;
        case 'f':
            follow = true;
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
    if (optind >= argc || (follow && optind + 1 != argc) || (ps.json && ps.lines)) {
        if (ps.json && ps.lines)
            warnx_("--json and --json-lines are two ways of writing JSON: pick one");
        else if (follow && optind < argc)
            warnx_("--follow follows one JVM: one process id, directory or file");
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
    status = follow ? follow_print(&ps, &names, argv[optind])
                    : print_files(&ps, &names, argv + optind, argc - optind);
    if (ps.json) {
        flush_json(&ps);
        fputs("\n    ]\n  }\n}\n", stdout);
    }
    sb_free(&ps.out);
    status = name_check_finish(&names, status);
    free_list(ps.names);
    return status;
}
