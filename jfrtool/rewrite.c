/* rewrite.c - see rewrite.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jfrtool.h"
#include "rewrite.h"
#include "util.h"

/* The JDK's scrub refuses to overwrite its input; so do we, whatever the
 * path says (links, "./"). */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;

    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int rewrite_open(rewrite *r, const char *in, const char *out)
{
    jfr_error err;
    int status = EXIT_OK;

    memset(r, 0, sizeof *r);
    r->in = in;
    r->name = input_name(in);
    if (!output_is_stdout(out) && strcmp(in, "-") != 0 && same_file(in, out)) {
        warnx_("%s: the output cannot be the input", out);
        return EXIT_USAGE;
    }
    if (!(r->rec = open_recording(in, &status)))
        return status;
    if ((status = outfile_open(&r->out, out)) != EXIT_OK) {
        close_recording(r->rec);
        r->rec = NULL;
        return status;
    }
    fflush(r->out.fp);
    if (jfr_writer_open_fd(&r->w, fileno(r->out.fp), NULL, &err) < 0) {
        warnx_("%s: %s", r->out.path ? r->out.path : "(standard output)", err.message);
        rewrite_close(r, EXIT_INPUT, false);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

/* The damaged records the writer left out of the chunk just written. */
static void report_notes(rewrite *r)
{
    size_t n = jfr_writer_note_count(r->w);

    for (size_t i = 0; i < n && i < JFR_WRITER_MAX_NOTES; i++) {
        strbuf sb = {0};
        format_error(&sb, r->name, jfr_writer_note_at(r->w, i));
        warnx_("%s: left out", sb_str(&sb));
        sb_free(&sb);
    }
    if (n > JFR_WRITER_MAX_NOTES)
        warnx_("%s: and %zu more damaged records left out of that chunk", r->name,
               n - JFR_WRITER_MAX_NOTES);
}

/* The writer failed: say where. */
static int writer_failed(rewrite *r)
{
    const jfr_error *e = jfr_writer_error(r->w);

    warnx_("%s: %s", r->out.path ? r->out.path : "(standard output)", e->message);
    return EXIT_INPUT;
}

int rewrite_chunks(rewrite *r, jfr_scrub *scrub)
{
    for (;;) {
        jfr_chunk *chunk;
        int rc = jfr_recording_next_chunk(&chunk, r->rec);

        if (rc == JFR_DONE)
            break;
        if (rc < 0) { /* damage between chunks, or a chunk that did not open */
            report_error(r->name, jfr_recording_error(r->rec));
            r->errors++;
            continue;
        }
        r->chunks_read++;
        rc = jfr_writer_add_chunk(&r->stats, r->w, chunk, scrub);
        if (rc == JFR_ECORRUPT) { /* its metadata record is gone */
            report_error(r->name, jfr_recording_error(r->rec));
            r->errors++;
        } else if (rc < 0) {
            return writer_failed(r);
        }
        report_notes(r);
        /* cut, unfinished or damaged pools: known once the chunk was used */
        if (jfr_chunk_warning(chunk)) {
            report_error(r->name, jfr_chunk_warning(chunk));
            r->warnings++;
        }
    }
    if (!r->chunks_read)
        note_unreadable_input();
    return EXIT_OK;
}

int rewrite_close(rewrite *r, int status, bool keep)
{
    int rc = 0;

    if (r->w) {
        rc = jfr_writer_close(r->w);
        if (rc < 0 && status == EXIT_OK)
            status = writer_failed(r);
        jfr_writer_free(r->w);
        r->w = NULL;
    }
    if (r->rec) {
        close_recording(r->rec);
        r->rec = NULL;
    }
    if (!(keep && rc == 0 && status == EXIT_OK))
        outfile_discard(&r->out); /* nothing to keep: OUT stays as it was */
    if (r->out.fp)
        status = outfile_close(&r->out, status);
    return status;
}
