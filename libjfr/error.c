/* error.c - status strings and filling jfr_error. */
#include <stdio.h>
#include <string.h>

#include "jfr_private.h"

const char *jfr_strerror(int code)
{
    switch (code) {
    case JFR_OK:
        return "success";
    case JFR_DONE:
        return "no more items";
    case JFR_AGAIN:
        return "nothing new yet";
    case JFR_EINVAL:
        return "invalid argument";
    case JFR_ENOMEM:
        return "out of memory";
    case JFR_EIO:
        return "input/output error";
    case JFR_EFORMAT:
        return "not a JFR recording";
    case JFR_EVERSION:
        return "unsupported JFR version";
    case JFR_ECORRUPT:
        return "corrupt data";
    case JFR_ETRUNCATED:
        return "truncated recording";
    case JFR_ELIMIT:
        return "limit exceeded";
    case JFR_ENOTFOUND:
        return "not found";
    default:
        return "unknown error";
    }
}

static int vfail(jfr_error *err, int code, int64_t chunk, uint64_t offset,
                 const char *fmt, va_list ap)
{
    if (!err)
        return code;
    err->code = code;
    err->sys_errno = 0;
    err->chunk = chunk;
    err->offset = offset;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    return code;
}

int jfrp_fail(jfr_error *err, int code, int64_t chunk, uint64_t offset, const char *fmt,
              ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfail(err, code, chunk, offset, fmt, ap);
    va_end(ap);
    return code;
}

int jfrp_chunk_fail(jfr_chunk *c, int code, uint64_t offset, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfail(&c->rec->err, code, c->index, offset, fmt, ap);
    va_end(ap);
    return code;
}

int jfrp_reader_error(jfr_chunk *c, const jfrp_reader *r, const char *what)
{
    int code = r->err ? r->err : JFR_ECORRUPT;

    return jfrp_chunk_fail(c, code, r->err_offset, "%s: %s at offset %llu", what,
                           code == JFR_ECORRUPT ? "malformed or truncated data"
                                                : jfr_strerror(code),
                           (unsigned long long)r->err_offset);
}
