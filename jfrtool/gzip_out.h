/* gzip_out.h - one gzip member written at once (pprof files). */
#ifndef JFRTOOL_GZIP_OUT_H
#define JFRTOOL_GZIP_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/** Whether this build compresses (libdeflate or zlib); without either,
 * callers write their bytes plain. */
bool gzip_out_available(void);

/**
 * Write `data` (`len` bytes) to `out` as one gzip member, at the fastest
 * level. Returns 0, or -1 when memory ran out or no compressor was built
 * in (nothing written). Write errors are the stream's, as for fwrite.
 */
int gzip_out_write(FILE *out, const void *data, size_t len);

#endif
