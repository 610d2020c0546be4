/* gzip_out.c - gzip_out_write (gzip_out.h): libdeflate where it was built
 * in, else zlib. libdeflate compresses a whole buffer in one call, and at
 * level 1 it took half zlib's time at level 1 for a smaller file (a 2.5 MB
 * pprof protobuf: 554 KB against 598 KB; doc/performance.md). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#elif defined HAVE_ZLIB
#include <zlib.h>
#endif

#include "gzip_out.h"

bool gzip_out_available(void)
{
#if defined HAVE_LIBDEFLATE || defined HAVE_ZLIB
    return true;
#else
    return false;
#endif
}

#ifdef HAVE_LIBDEFLATE
int gzip_out_write(FILE *out, const void *data, size_t len)
{
    struct libdeflate_compressor *c = libdeflate_alloc_compressor(1);
    size_t room, n = 0;
    void *gz;

    if (!c)
        return -1;
    room = libdeflate_gzip_compress_bound(c, len);
    gz = malloc(room);
    if (gz)
        n = libdeflate_gzip_compress(c, data, len, gz, room);
    libdeflate_free_compressor(c);
    if (n) /* the bound always fits */
        fwrite(gz, 1, n, out);
    free(gz);
    return n ? 0 : -1;
}
#elif defined HAVE_ZLIB
int gzip_out_write(FILE *out, const void *data, size_t len)
{
    const unsigned char *in = data;
    unsigned char chunk[1 << 16];
    z_stream z = {0};
    int rc = Z_OK;

    /* 15 + 16: a gzip header and trailer around the deflate stream */
    if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
        Z_OK)
        return -1;
    while (rc == Z_OK) {
        /* zlib counts its input in 32 bits: 1 GiB at a time */
        size_t piece = len < ((size_t)1 << 30) ? len : (size_t)1 << 30;

        z.next_in = (unsigned char *)(uintptr_t)in;
        z.avail_in = (uInt)piece;
        do {
            z.next_out = chunk;
            z.avail_out = sizeof chunk;
            rc = deflate(&z, piece == len ? Z_FINISH : Z_NO_FLUSH);
            fwrite(chunk, 1, sizeof chunk - z.avail_out, out);
        } while (rc == Z_OK && (z.avail_in || z.avail_out == 0));
        in += piece;
        len -= piece;
    }
    deflateEnd(&z);
    return rc == Z_STREAM_END ? 0 : -1;
}
#else
int gzip_out_write(FILE *out, const void *data, size_t len)
{
    (void)out;
    (void)data;
    (void)len;
    return -1;
}
#endif
