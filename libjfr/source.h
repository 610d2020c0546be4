/* source.h - getting the recording's bytes into memory, and the container
 * filters that bid on magic bytes (plain JFR, gzip, lz4 frame). */
#ifndef JFRP_SOURCE_H
#define JFRP_SOURCE_H

#include "jfr_private.h"

/** Map or read `path` ("-": standard input) into rec->data. */
int jfrp_source_path(jfr_recording *rec, const char *path);
/** Read `fd` to its end into rec->data. */
int jfrp_source_fd(jfr_recording *rec, int fd, const char *name);
/** Unwrap gzip/lz4 containers in place (rec->data becomes the JFR bytes). */
int jfrp_source_unwrap(jfr_recording *rec, const char *name);

/** Unmap or free the input buffers. */
void jfrp_source_release(jfr_recording *rec);

/** A decompressing filter: output is one malloc'ed buffer. */
typedef struct jfrp_filter {
    const char *name;
    bool (*bid)(const uint8_t *p, size_t n);
    int (*decode)(jfr_recording *rec, const uint8_t *in, size_t n, uint8_t **out,
                  size_t *out_len);
} jfrp_filter;

extern const jfrp_filter jfrp_filter_gzip;
extern const jfrp_filter jfrp_filter_lz4;

/** Growable output buffer capped at rec->opts.max_input_size. */
typedef struct jfrp_outbuf {
    uint8_t *data;
    size_t len;
    size_t cap;
} jfrp_outbuf;
int jfrp_outbuf_reserve(jfr_recording *rec, jfrp_outbuf *b, size_t extra);

#endif
