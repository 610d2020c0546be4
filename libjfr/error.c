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

int jfr_error_text(char *out, size_t size, const jfr_error *err)
{
    static const char *const joints[] = {", offset %llu: ", ": ", " "};
    char where[64];
    unsigned place;

    if (!err)
        return -1;
    if (err->chunk < 0)
        return snprintf(out, size, "%s", err->message);
    place = (unsigned)err->place < 3 ? (unsigned)err->place : 0;
    snprintf(where, sizeof where, joints[place], (unsigned long long)err->offset);
    return snprintf(out, size, "chunk %lld%s%s", (long long)err->chunk, where,
                    err->message);
}

static int vfail(jfr_error *err, jfr_error_place place, int code, int64_t chunk,
                 uint64_t offset, const char *fmt, va_list ap)
{
    if (!err)
        return code;
    err->code = code;
    err->sys_errno = 0;
    err->chunk = chunk;
    err->offset = offset;
    err->place = place;
    memset(err->reserved_, 0, sizeof err->reserved_);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    return code;
}

int jfrp_fail_placed(jfr_error *err, jfr_error_place place, int code, int64_t chunk,
                     uint64_t offset, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfail(err, place, code, chunk, offset, fmt, ap);
    va_end(ap);
    return code;
}

int jfrp_chunk_fail_placed(jfr_chunk *c, jfr_error_place place, int code, uint64_t offset,
                           const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfail(&c->rec->err, place, code, c->index, offset, fmt, ap);
    va_end(ap);
    return code;
}

int jfrp_fail(jfr_error *err, int code, int64_t chunk, uint64_t offset, const char *fmt,
              ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfail(err, JFR_PLACE_FIELDS, code, chunk, offset, fmt, ap);
    va_end(ap);
    return code;
}

int jfrp_chunk_fail(jfr_chunk *c, int code, uint64_t offset, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfail(&c->rec->err, JFR_PLACE_FIELDS, code, c->index, offset, fmt, ap);
    va_end(ap);
    return code;
}

int jfrp_reader_error(jfr_chunk *c, jfr_error_place place, const jfrp_reader *r,
                      const char *what)
{
    int code = r->err ? r->err : JFR_ECORRUPT;

    return jfrp_chunk_fail_placed(
        c, place, code, r->err_offset, "%s: %s at offset %llu", what,
        code == JFR_ECORRUPT ? "malformed or truncated data" : jfr_strerror(code),
        (unsigned long long)r->err_offset);
}
