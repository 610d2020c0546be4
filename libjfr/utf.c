/* utf.c - converting the string encodings of jfr-format.md §5 to UTF-8.
 * Input is untrusted: malformed sequences become U+FFFD, never errors. */
#include "jfr_private.h"

static size_t put_cp(char *dst, uint32_t cp)
{
    unsigned char *d = (unsigned char *)dst;

    if (cp < 0x80) {
        d[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        d[0] = (unsigned char)(0xc0 | (cp >> 6));
        d[1] = (unsigned char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        d[0] = (unsigned char)(0xe0 | (cp >> 12));
        d[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
        d[2] = (unsigned char)(0x80 | (cp & 0x3f));
        return 3;
    }
    d[0] = (unsigned char)(0xf0 | (cp >> 18));
    d[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
    d[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
    d[3] = (unsigned char)(0x80 | (cp & 0x3f));
    return 4;
}

size_t jfrp_utf8_bound(const jfrp_raw_string *s)
{
    size_t n = (size_t)(s->bytes_end - s->bytes);

    /* UTF-8: an invalid byte becomes 3; Latin-1: 2 per byte; UTF-16: a
     * unit takes at least one byte and yields at most 3 */
    return n * 3 + 1;
}

/* One code point from (modified) UTF-8 at p; *len gets its byte length.
 * Returns 0xFFFD for malformed input (len 1). */
static uint32_t next_utf8(const uint8_t *p, const uint8_t *end, size_t *len)
{
    uint32_t c = p[0], cp;
    size_t n, left = (size_t)(end - p);

    *len = 1;
    if (c < 0x80)
        return c;
    if (c >= 0xc0 && c < 0xe0)
        n = 2, cp = c & 0x1f;
    else if (c >= 0xe0 && c < 0xf0)
        n = 3, cp = c & 0x0f;
    else if (c >= 0xf0 && c < 0xf5)
        n = 4, cp = c & 0x07;
    else
        return 0xfffd;
    if (n > left)
        return 0xfffd;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0xfffd;
        cp = (cp << 6) | (p[i] & 0x3f);
    }
    /* modified UTF-8 writes NUL as C0 80: accept that overlong form only */
    if ((n == 2 && cp < 0x80 && cp != 0) || (n == 3 && cp < 0x800) ||
        (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0xfffd;
    *len = n;
    return cp;
}

/* Copy the ASCII bytes at *p, eight at a time while there are eight: most
 * names are ASCII. Returns the bytes copied. */
static size_t copy_ascii(char *dst, const uint8_t **pp, const uint8_t *end)
{
    const uint8_t *p = *pp;
    size_t out = 0;

    while (end - p >= 8) {
        uint64_t w;

        memcpy(&w, p, 8);
        if (w & 0x8080808080808080ULL)
            break;
        memcpy(dst + out, p, 8);
        out += 8;
        p += 8;
    }
    while (p < end && *p < 0x80)
        dst[out++] = (char)*p++;
    *pp = p;
    return out;
}

static size_t convert_utf8(char *dst, const uint8_t *p, const uint8_t *end)
{
    size_t out = 0, len, len2;

    while (p < end) {
        uint32_t cp;

        out += copy_ascii(dst + out, &p, end);
        if (p == end)
            break;
        cp = next_utf8(p, end, &len);

        if (cp >= 0xd800 && cp <= 0xdbff) {
            /* a surrogate pair written as two 3-byte sequences (CESU-8) */
            uint32_t lo = p + len < end ? next_utf8(p + len, end, &len2) : 0;
            if (lo >= 0xdc00 && lo <= 0xdfff) {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                len += len2;
            } else {
                cp = 0xfffd;
            }
        } else if (cp >= 0xdc00 && cp <= 0xdfff) {
            cp = 0xfffd;
        }
        out += put_cp(dst + out, cp);
        p += len;
    }
    return out;
}

static size_t convert_utf16(char *dst, const jfrp_raw_string *s, bool compressed)
{
    jfrp_reader r;
    size_t out = 0;

    jfrp_reader_init(&r, s->bytes, (size_t)(s->bytes_end - s->bytes), 0, compressed);
    for (uint64_t i = 0; i < s->count && !r.err; i++) {
        uint32_t u = (uint32_t)jfrp_int(&r, 2);

        if (u >= 0xd800 && u <= 0xdbff && i + 1 < s->count) {
            jfrp_reader save = r;
            uint32_t lo = (uint32_t)jfrp_int(&r, 2);
            if (lo >= 0xdc00 && lo <= 0xdfff) {
                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
                i++;
            } else {
                r = save;
                u = 0xfffd;
            }
        } else if (u >= 0xd800 && u <= 0xdfff) {
            u = 0xfffd;
        }
        out += put_cp(dst + out, u);
    }
    return out;
}

size_t jfrp_utf8_convert(char *dst, const jfrp_raw_string *s, bool compressed)
{
    size_t out = 0;

    switch (s->tag) {
    case JFRP_STR_UTF8:
        out = convert_utf8(dst, s->bytes, s->bytes_end);
        break;
    case JFRP_STR_LATIN1:
        for (const uint8_t *p = s->bytes; p < s->bytes_end;) {
            out += copy_ascii(dst + out, &p, s->bytes_end);
            if (p < s->bytes_end)
                out += put_cp(dst + out, *p++);
        }
        break;
    case JFRP_STR_UTF16:
        out = convert_utf16(dst, s, compressed);
        break;
    default:
        break;
    }
    dst[out] = '\0';
    return out;
}
