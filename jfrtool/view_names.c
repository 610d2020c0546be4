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

void view_method_text(strbuf *sb, jfr_str class_name, jfr_str method, jfr_str descriptor,
                      bool compact)
{
    unsigned flags = compact ? JFR_NAME_ELIDE_PARAMS : 0;
    size_t n = jfr_name_of_method(NULL, 0, class_name.ptr, class_name.len, method.ptr,
                                  method.len, descriptor.ptr, descriptor.len, flags);

    jfr_name_of_method(sb_extend(sb, n), n, class_name.ptr, class_name.len, method.ptr,
                       method.len, descriptor.ptr, descriptor.len, flags);
}

void view_class_text(strbuf *sb, jfr_str class_name, bool compact)
{
    unsigned flags = compact ? JFR_NAME_SIMPLE : 0;
    size_t n = jfr_name_of_class(NULL, 0, class_name.ptr, class_name.len, flags);

    jfr_name_of_class(sb_extend(sb, n), n, class_name.ptr, class_name.len, flags);
}
