/* parallel.c - see parallel.h. The library shares the chunks out among
 * threads and hands them back in order; this adds jfrtool's messages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "parallel.h"
#include "progress.h"

void parallel_say(strbuf *messages, const char *path, const jfr_error *err)
{
    message_prefix(messages);
    format_error(messages, path, err);
    sb_putc(messages, '\n');
}

/* What a chunk's decode gave: the command's result and its messages. */
typedef struct decoded {
    void *result;
    strbuf messages;
    uint64_t end; /* where the chunk ends in the input, for progress */
} decoded;

typedef struct read_run {
    const char *path;
    const char *name; /* for messages: "(standard input)" for "-" */
    const parallel_ops *ops;
    void *user;
    bool *damaged;
    size_t taken;
    bool traced;
    uint64_t size; /* of the input, for progress */
} read_run;

void parallel_trace(bool *traced, const char *path, unsigned threads)
{
    /* for tests/profile/check-jobs.sh: say that threads were used */
    if (!*traced && threads > 1 && getenv("JFRTOOL_TRACE_JOBS"))
        warnx_("%s: chunks in %u threads", path, threads);
    *traced = true;
}

static int decode_one(jfr_chunk *chunk, jfr_recording *rec, void **result, void *user)
{
    const read_run *rr = user;
    decoded *d = calloc(1, sizeof *d);

    if (!d)
        return JFR_ENOMEM;
    d->result = rr->ops->decode(chunk, rec, rr->name, &d->messages, rr->user);
    d->end = jfr_chunk_header(chunk)->file_offset + jfr_chunk_header(chunk)->chunk_size;
    *result = d;
    return JFR_OK;
}

static void say(read_run *rr, const jfr_error *err)
{
    strbuf sb = {0};

    parallel_say(&sb, rr->name, err);
    progress_clear();
    put_messages(sb_str(&sb));
    sb_free(&sb);
    *rr->damaged = true;
}

static void merge_one(void *result, const jfr_chunk_report *report, void *user)
{
    read_run *rr = user;
    decoded *d = result;

    parallel_trace(&rr->traced, rr->path, report->threads);
    if (report->error) {
        say(rr, report->error);
        return;
    }
    if (!d)
        diex(EXIT_INPUT, "out of memory");
    rr->ops->merge(d->result, rr->taken++, rr->user);
    progress_update(rr->name, d->end, rr->size, rr->taken);
    if (d->messages.len) {
        progress_clear();
        put_messages(sb_str(&d->messages));
        *rr->damaged = true;
    }
    /* pool warnings are known once the chunk has been used */
    if (report->warning)
        say(rr, report->warning);
    sb_free(&d->messages);
    free(d);
}

size_t parallel_read(jfr_recording *rec, const char *path, int jobs,
                     const parallel_ops *ops, void *user, bool *damaged)
{
    static const jfr_chunk_ops chunk_ops = {decode_one, merge_one};
    read_run rr = {path,  input_name(path),       ops, user, damaged, 0,
                   false, jfr_recording_size(rec)};

    if (jfr_recording_decode_chunks(rec, (unsigned)jobs, &chunk_ops, &rr) < 0)
        diex(EXIT_INPUT, "%s: out of memory", rr.name);
    progress_clear();
    if (rr.taken == 0)
        note_unreadable_input();
    return rr.taken;
}
