/* source.h - getting the recording's bytes into memory, and the container
 * filters that bid on magic bytes (plain JFR, gzip, lz4 frame). */
#ifndef JFRP_SOURCE_H
#define JFRP_SOURCE_H

#include "jfr_private.h"

/** Map or read `path` ("-": standard input) into rec->data. */
int jfrp_source_path(jfr_recording *rec, const char *path);
/** Read `fd` to its end into rec->data. */
int jfrp_source_fd(jfr_recording *rec, int fd);
/** Unwrap gzip/lz4 containers in place (rec->data becomes the JFR bytes). */
int jfrp_source_unwrap(jfr_recording *rec, const char *name);

/** Unmap or free the input buffers. */
void jfrp_source_release(jfr_recording *rec);

/** Growable output buffer capped at rec->opts.max_input_size. */
typedef struct jfrp_outbuf {
    uint8_t *data;
    size_t len;
    size_t cap;
} jfrp_outbuf;
/* inflate_guard.c (so that the filters and source.c call into it, not into
 * each other) */
int jfrp_outbuf_reserve(jfr_recording *rec, jfrp_outbuf *b, size_t extra);
/** Fail with "input larger than the limit" at `len` bytes. */
int jfrp_input_too_large(jfr_recording *rec, size_t len);

/*
 * Decompressed output that stops making sense as chunks is not followed
 * far: past this many bytes without a chunk's records or a plausible chunk
 * header, decompression stops (a bomb is refused after this much work).
 */
#define JFRP_GUARD_SLACK ((size_t)16 << 20)

/** What decompressed output is checked against while it grows: a walk
 * over chunk headers and record sizes (jfr-format.md §3.5). */
typedef struct jfrp_guard {
    uint64_t chunk; /* where the current chunk starts */
    uint64_t end;   /* its declared end; UINT64_MAX when unusable */
    uint64_t walk;  /* the next record; 0 while the header is unread */
    uint64_t since; /* where the output stopped being records and no whole
                       chunk followed yet; UINT64_MAX: none */
    uint64_t scan;  /* where the search for the next header goes on */
    bool searching; /* for a header, after output that is not records */
    bool compressed;
} jfrp_guard;

/** Where a filter writes: the output, its guard, how the data ended. */
typedef struct jfrp_sink {
    jfrp_outbuf out;
    jfrp_guard guard;
    jfr_error note;
    bool has_note;
} jfrp_sink;

/** Check the output added since the last call: false when decompression
 * must stop (the note says why). */
bool jfrp_sink_check(jfr_recording *rec, jfrp_sink *s);
/** The compressed data ended badly; the output so far is kept. The first
 * reason wins. */
void jfrp_sink_note(jfrp_sink *s, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/** A decompressing filter. `decode` fails only when it cannot run (out of
 * memory, over the size limit); bad or cut data ends the output with a
 * note. */
typedef struct jfrp_filter {
    const char *name;
    bool (*bid)(const uint8_t *p, size_t n);
    int (*decode)(jfr_recording *rec, const uint8_t *in, size_t n, jfrp_sink *out);
} jfrp_filter;

extern const jfrp_filter jfrp_filter_gzip;
extern const jfrp_filter jfrp_filter_lz4;
extern const jfrp_filter jfrp_filter_xz;
extern const jfrp_filter jfrp_filter_bzip2;

#endif
