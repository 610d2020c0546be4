/* cmd_repair.c - jfrtool repair: every event jfrtool can read of a damaged
 * recording, written as a valid one (complete chunk headers, each chunk's
 * metadata, the pool entries its events need), and what could not be kept
 * said in the usual message style. Exit status 3 when something was left
 * out. The work is libjfr's writer (jfr_writer_add_chunk). */
#include <getopt.h>
#include <string.h>

#include "jfrtool.h"
#include "out_text.h"
#include "rewrite.h"
#include "util.h"

/* Exit status when the output lacks part of the input (doc/jfrtool.1). */
#define EXIT_DROPPED 3

const char usage_repair[] =
    "Usage: jfrtool repair IN OUT\n"
    "\n"
    "Write every event that can be read of recording IN (as jfrtool summary\n"
    "counts them) to OUT as a valid recording that the JDK's tools read: cut,\n"
    "unfinished and damaged chunks become complete chunks with the metadata\n"
    "and constant-pool entries their events need. What could not be kept is\n"
    "reported on standard error, damage by damage, then in one line: the\n"
    "bytes of the input outside any readable record (chunks and ranges lost),\n"
    "the records left out (an undeclared type, fields that do not fit) and the\n"
    "chunks whose constant pools were damaged.\n"
    "\n"
    "Exit status: 0 when OUT holds everything, 3 when something was left out,\n"
    "2 when nothing could be read (OUT is then not written).\n";

/* Bytes of the input that no written record came from. */
static uint64_t bytes_lost(const rewrite *r)
{
    uint64_t size = jfr_recording_size(r->rec);
    uint64_t kept = r->stats.bytes_read - r->stats.bytes_skipped;

    return kept < size ? size - kept : 0;
}

static void say_num(strbuf *sb, uint64_t n, const char *what, const char *many)
{
    if (sb->len)
        sb_puts(sb, ", ");
    fmt_grouped(sb, (int64_t)n);
    sb_printf(sb, " %s", n == 1 ? what : many);
}

/* One line: what was left out, or nothing when everything was kept. */
static bool report_drops(const rewrite *r, uint64_t lost)
{
    const jfr_write_stats *st = &r->stats;
    strbuf sb = {0};

    if (lost)
        say_num(&sb, lost, "byte outside any readable record",
                "bytes outside any readable record");
    if (st->records_unknown)
        say_num(&sb, st->records_unknown, "record of an undeclared type",
                "records of undeclared types");
    if (st->events_undecodable)
        say_num(&sb, st->events_undecodable, "event whose fields do not fit",
                "events whose fields do not fit");
    if (st->pools_damaged)
        say_num(&sb, st->pools_damaged, "chunk with damaged constant pools",
                "chunks with damaged constant pools");
    if (sb.len)
        warnx_("%s: left out: %s", r->name, sb_str(&sb));
    sb_free(&sb);
    return lost || st->records_unknown || st->events_undecodable || st->pools_damaged ||
           r->errors;
}

int cmd_repair(int argc, char **argv)
{
    rewrite r;
    bool dropped;
    int status;

    if ((status = parse_help_only(argc, argv, usage_repair)) != -1)
        return status;
    if (argc - optind != 2) {
        warnx_("repair takes IN and OUT");
        return EXIT_USAGE;
    }
    if ((status = rewrite_open(&r, argv[optind], argv[optind + 1])) != EXIT_OK)
        return status;
    status = rewrite_chunks(&r, NULL);
    if (status == EXIT_OK && !r.stats.chunks_written) {
        warnx_("%s: nothing could be read: %s not written", r.name, argv[optind + 1]);
        note_unreadable_input();
        return rewrite_close(&r, EXIT_INPUT, false);
    }
    dropped = status == EXIT_OK && report_drops(&r, bytes_lost(&r));
    status = rewrite_close(&r, status, true);
    return status == EXIT_OK && dropped ? EXIT_DROPPED : status;
}
