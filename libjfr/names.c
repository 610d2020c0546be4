/* Java names from the JVM's internal forms (jfr/names.h): the one place that
 * reads descriptors, for the library's analyses, jfrtool and the bindings. */
#include <string.h>

#include "jfr.h"

#define UNKNOWN_TYPE "<unknown-descriptor-type>"

/* Output that measures as it writes: bytes past `room` are counted, not
 * stored. */
typedef struct name_out {
    char *dst;
    size_t room;
    size_t at;
} name_out;

static void put(name_out *o, const char *s, size_t n)
{
    if (o->at < o->room)
        memcpy(o->dst + o->at, s, o->at + n <= o->room ? n : o->room - o->at);
    o->at += n;
}

static void put_dotted(name_out *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put(o, s[i] == '/' ? "." : s + i, 1);
}

static const char *primitive_name(char code)
{
    switch (code) {
    case 'B':
        return "byte";
    case 'C':
        return "char";
    case 'D':
        return "double";
    case 'F':
        return "float";
    case 'I':
        return "int";
    case 'J':
        return "long";
    case 'S':
        return "short";
    case 'Z':
        return "boolean";
    default:
        return NULL;
    }
}

/* The class name s[0..n) from its last '/' or '.' on, with SIMPLE. */
static void put_class(name_out *o, const char *s, size_t n, unsigned flags)
{
    if (flags & JFR_NAME_SIMPLE)
        for (size_t i = n; i > 0; i--)
            if (s[i - 1] == '/' || s[i - 1] == '.') {
                s += i;
                n -= i;
                break;
            }
    put_dotted(o, s, n);
}

static void type_at(name_out *o, const char *d, size_t len, size_t *pos, unsigned flags)
{
    size_t i = *pos, dims = 0;
    const char *name;

    while (i < len && d[i] == '[') {
        dims++;
        i++;
    }
    if (i < len && d[i] == 'L') {
        const char *semi = memchr(d + i, ';', len - i);
        size_t stop = semi ? (size_t)(semi - d) : len;

        put_class(o, d + i + 1, stop - i - 1, flags);
        i = semi ? stop + 1 : len;
    } else {
        name = i < len ? primitive_name(d[i]) : NULL;
        put(o, name ? name : UNKNOWN_TYPE, strlen(name ? name : UNKNOWN_TYPE));
        i = i < len ? i + 1 : len;
    }
    while (dims--)
        put(o, "[]", 2);
    *pos = i;
}

size_t jfr_name_of_type(char *dst, size_t room, const char *desc, size_t len, size_t *pos,
                        unsigned flags)
{
    name_out o = {dst, room, 0};
    size_t start = pos ? *pos : 0;

    if (desc)
        type_at(&o, desc, len, &start, flags);
    else
        put(&o, UNKNOWN_TYPE, strlen(UNKNOWN_TYPE));
    if (pos)
        *pos = start;
    return o.at;
}

/* "(" types ")" of the descriptor's parameters; the end is its last ')'. */
static void params(name_out *o, const char *d, size_t len, unsigned flags)
{
    size_t close = 0;

    put(o, "(", 1);
    if (d && len > 0 && d[0] == '(') {
        for (size_t k = 1; k < len; k++)
            if (d[k] == ')')
                close = k;
    }
    if (close > 1 && (flags & JFR_NAME_ELIDE_PARAMS)) {
        put(o, "...", 3);
    } else {
        for (size_t i = 1; i < close;) {
            if (i > 1)
                put(o, ", ", 2);
            type_at(o, d, close, &i, flags);
        }
    }
    put(o, ")", 1);
}

size_t jfr_name_of_params(char *dst, size_t room, const char *desc, size_t len,
                          unsigned flags)
{
    name_out o = {dst, room, 0};

    params(&o, desc, len, flags);
    return o.at;
}

static void class_name(name_out *o, const char *name, size_t len, unsigned flags)
{
    if (!name) {
        put(o, "null", 4);
    } else if (len > 0 && name[0] == '[') {
        size_t pos = 0;
        type_at(o, name, len, &pos, flags);
    } else {
        put_class(o, name, len, flags);
    }
}

size_t jfr_name_of_class(char *dst, size_t room, const char *name, size_t len,
                         unsigned flags)
{
    name_out o = {dst, room, 0};

    class_name(&o, name, len, flags);
    return o.at;
}

size_t jfr_name_of_method(char *dst, size_t room, const char *class_name_,
                          size_t class_len, const char *method, size_t method_len,
                          const char *desc, size_t desc_len, unsigned flags)
{
    name_out o = {dst, room, 0};

    class_name(&o, class_name_, class_len, flags);
    put(&o, ".", 1);
    if (method)
        put(&o, method, method_len);
    else
        put(&o, "null", 4);
    params(&o, desc, desc_len, (flags & JFR_NAME_ELIDE_PARAMS) | JFR_NAME_SIMPLE);
    return o.at;
}
