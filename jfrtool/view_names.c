/* view_names.c - methods and classes as the JDK's views print them
 * (doc/views.md §2.3-2.4), and the Java string measures the JDK's layout
 * and hash order depend on: lengths and hashes count UTF-16 code units. */
#include <string.h>

#include "views.h"

/* Next code point of UTF-8 text; a malformed byte counts as one (U+FFFD). */
static uint32_t next_code_point(const unsigned char **p, const unsigned char *end)
{
    const unsigned char *s = *p;
    uint32_t c = *s;
    int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;

    if (c < 0x80 || s + extra >= end + (extra ? 0 : 1)) {
        *p = s + 1;
        return c < 0x80 ? c : 0xFFFD;
    }
    c &= 0x3Fu >> extra;
    for (int i = 1; i <= extra; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *p = s + 1;
            return 0xFFFD;
        }
        c = (c << 6) | (s[i] & 0x3Fu);
    }
    *p = s + extra + 1;
    return c;
}

int32_t java_string_hash(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    uint32_t h = 0;

    while (p < end) {
        uint32_t c = next_code_point(&p, end);
        if (c >= 0x10000) {
            c -= 0x10000;
            h = 31 * h + (0xD800 + (c >> 10));
            h = 31 * h + (0xDC00 + (c & 0x3FF));
        } else {
            h = 31 * h + c;
        }
    }
    return (int32_t)h;
}

size_t utf16_length(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    size_t n = 0;

    while (p < end)
        n += next_code_point(&p, end) >= 0x10000 ? 2 : 1;
    return n;
}

/* Append `s` with every '/' as '.' (JVM internal names to Java names). */
static void put_dotted(strbuf *sb, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        sb_putc(sb, s[i] == '/' ? '.' : s[i]);
}

/* Decode the field descriptor at d[*i] (JDK's ValueFormatter rules) into
 * `out`, leaving *i on its last character. Without `keep_package`, only
 * the part after the last '.' is kept. */
static void decode_type(strbuf *out, const char *d, size_t len, size_t *i,
                        bool keep_package)
{
    size_t dims = 0, start = out->len;

    while (*i < len && d[*i] == '[') {
        dims++;
        (*i)++;
    }
    if (*i >= len) {
        sb_puts(out, "<unknown-descriptor-type>");
    } else {
        switch (d[*i]) {
        case 'L': {
            const char *semi = memchr(d + *i, ';', len - *i);
            size_t stop = semi ? (size_t)(semi - d) : len;
            put_dotted(out, d + *i + 1, stop - *i - 1);
            *i = semi ? stop : len - 1;
            break;
        }
        case 'I':
            sb_puts(out, "int");
            break;
        case 'J':
            sb_puts(out, "long");
            break;
        case 'Z':
            sb_puts(out, "boolean");
            break;
        case 'D':
            sb_puts(out, "double");
            break;
        case 'F':
            sb_puts(out, "float");
            break;
        case 'S':
            sb_puts(out, "short");
            break;
        case 'C':
            sb_puts(out, "char");
            break;
        case 'B':
            sb_puts(out, "byte");
            break;
        default:
            sb_puts(out, "<unknown-descriptor-type>");
            break;
        }
    }
    while (dims--)
        sb_puts(out, "[]");
    if (!keep_package) {
        const char *dot = NULL;
        for (size_t k = start; k < out->len; k++)
            if (out->ptr[k] == '.')
                dot = out->ptr + k;
        if (dot) {
            size_t skip = (size_t)(dot + 1 - (out->ptr + start));
            memmove(out->ptr + start, dot + 1, out->len - start - skip);
            out->len -= skip;
            out->ptr[out->len] = '\0';
        }
    }
}

void view_method_text(strbuf *sb, jfr_str class_name, jfr_str method, jfr_str descriptor,
                      bool compact)
{
    const char *d = descriptor.ptr ? descriptor.ptr : "";
    size_t dlen = descriptor.ptr ? descriptor.len : 0, close = 0;
    bool first = true;

    if (class_name.ptr)
        put_dotted(sb, class_name.ptr, class_name.len);
    else
        sb_puts(sb, "null");
    sb_putc(sb, '.');
    if (method.ptr)
        sb_putn(sb, method.ptr, method.len);
    else
        sb_puts(sb, "null");
    sb_putc(sb, '(');
    for (size_t k = 0; k < dlen; k++)
        if (d[k] == ')')
            close = k;
    for (size_t i = 1; i < close; i++) {
        if (compact) {
            sb_puts(sb, "...");
            break;
        }
        if (!first)
            sb_puts(sb, ", ");
        first = false;
        decode_type(sb, d, close, &i, false);
    }
    sb_putc(sb, ')');
}

void view_class_text(strbuf *sb, jfr_str class_name, bool compact)
{
    size_t start = sb->len;

    if (!class_name.ptr) {
        sb_puts(sb, "null");
        return;
    }
    if (class_name.len > 0 && class_name.ptr[0] == '[') {
        size_t i = 0;
        decode_type(sb, class_name.ptr, class_name.len, &i, true);
    } else {
        put_dotted(sb, class_name.ptr, class_name.len);
    }
    if (compact) {
        size_t dot = start;
        bool found = false;
        for (size_t k = start; k < sb->len; k++)
            if (sb->ptr[k] == '.') {
                dot = k;
                found = true;
            }
        if (found) {
            memmove(sb->ptr + start, sb->ptr + dot + 1, sb->len - dot - 1);
            sb->len -= dot + 1 - start;
            sb->ptr[sb->len] = '\0';
        }
    }
}
