/* rewrite.c - see rewrite.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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
    r->name = strcmp(in, "-") == 0 ? "(standard input)" : in;
    if (out && strcmp(out, "-") == 0)
        out = NULL;
    if (out && strcmp(in, "-") != 0 && same_file(in, out)) {
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
        warnx_("%s: %s", out ? out : "(standard output)", err.message);
        rewrite_close(r, EXIT_INPUT, false);
        return EXIT_INPUT;
    }
    return EXIT_OK;
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
    jfr_chunk *chunk;

    while (next_chunk(&chunk, r->rec, r->in, &r->damaged) == JFR_OK) {
        const jfr_header *h = jfr_chunk_header(chunk);
        int rc;

        r->chunks_read++;
        rc = jfr_writer_add_chunk(r->w, chunk, scrub, &r->stats);
        if (rc == JFR_ECORRUPT) { /* the chunk's metadata is gone */
            report_error(r->name, jfr_recording_error(r->rec));
            r->damaged = true;
            continue;
        }
        if (rc < 0)
            return writer_failed(r);
        (void)h;
    }
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
    if (r->out.fp) {
        bool ok = keep && rc == 0 && status == EXIT_OK;
        status = outfile_close(&r->out, ok ? EXIT_OK : (status ? status : EXIT_INPUT));
    }
    return status;
}
