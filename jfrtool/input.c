/* input.c - walking an input's chunks (input.h): warnings about damaged
 * chunks as they are found, and the progress line while it is read. */
#include <string.h>

#include "input.h"
#include "progress.h"
#include "util.h"

/* Warnings about a chunk's pools are known only once it has been used, so
 * they are reported when the caller moves on from it. */
static jfr_recording *current_rec;
static jfr_chunk *current_chunk;
static size_t current_chunks_read;

int next_chunk(jfr_chunk **out, jfr_recording *rec, const char *path, bool *damaged)
{
    const char *name = input_name(path);
    int rc;

    if (current_rec != rec) {
        current_rec = rec;
        current_chunk = NULL;
        current_chunks_read = 0;
    }
    if (current_chunk && jfr_chunk_warning(current_chunk)) {
        report_error(name, jfr_chunk_warning(current_chunk));
        *damaged = true;
    }
    for (;;) {
        rc = jfr_recording_next_chunk(out, rec);
        current_chunk = rc == JFR_OK ? *out : NULL;
        if (rc == JFR_OK) {
            current_chunks_read++;
            progress_update(name, jfr_chunk_header(*out)->file_offset,
                            jfr_recording_size(rec), current_chunks_read);
        } else if (rc == JFR_DONE) {
            progress_clear();
            if (current_chunks_read == 0)
                note_unreadable_input();
        }
        if (rc >= 0)
            return rc;
        report_error(name, jfr_recording_error(rec));
        *damaged = true;
    }
}

void close_recording(jfr_recording *rec)
{
    /* a later recording may be allocated at the same address */
    if (rec == current_rec) {
        current_rec = NULL;
        current_chunk = NULL;
    }
    jfr_recording_free(rec);
}
