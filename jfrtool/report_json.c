/* report_json.c - the small buffered JSON writer of the report page. Its
 * output goes inside a <script>: '<', '>' and '&' are escaped in strings,
 * so no text from a recording can end the script. */
#include <math.h>
#include <string.h>

#include "report.h"

void jw_init(jw *w, FILE *out)
{
    w->out = out;
    w->len = 0;
    w->comma = false;
}

void jw_flush(jw *w)
{
    fwrite(w->buf, 1, w->len, w->out);
    w->len = 0;
}

static void put(jw *w, const char *s, size_t n)
{
    if (n > sizeof w->buf - w->len) {
        jw_flush(w);
        if (n > sizeof w->buf) {
            fwrite(s, 1, n, w->out);
            return;
        }
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
}

static void putc_(jw *w, char c)
{
    if (w->len == sizeof w->buf)
        jw_flush(w);
    w->buf[w->len++] = c;
}

void jw_raw(jw *w, const char *s)
{
    put(w, s, strlen(s));
}

static void sep(jw *w)
{
    if (w->comma)
        putc_(w, ',');
    w->comma = true;
}

void jw_begin(jw *w, char c)
{
    sep(w);
    putc_(w, c);
    w->comma = false;
}

void jw_end(jw *w, char c)
{
    putc_(w, c);
    w->comma = true;
}

static void string_body(jw *w, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";

    putc_(w, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            putc_(w, '\\');
            putc_(w, (char)c);
        } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
            char e[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            put(w, e, sizeof e);
        } else {
            putc_(w, (char)c);
        }
    }
    putc_(w, '"');
}

void jw_key(jw *w, const char *key)
{
    sep(w);
    string_body(w, key, strlen(key));
    putc_(w, ':');
    w->comma = false;
}

void jw_strn(jw *w, const char *s, size_t len)
{
    sep(w);
    if (!s) {
        put(w, "null", 4);
        return;
    }
    string_body(w, s, len);
}

void jw_str(jw *w, const char *s)
{
    jw_strn(w, s, s ? strlen(s) : 0);
}

void jw_int(jw *w, int64_t v)
{
    char digits[24];
    size_t n = 0;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

    sep(w);
    if (v < 0)
        putc_(w, '-');
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (n)
        putc_(w, digits[--n]);
}

void jw_num(jw *w, double v)
{
    char text[40];
    int n;

    if (!isfinite(v)) {
        jw_null(w);
        return;
    }
    if (v == floor(v) && fabs(v) < 9e15) {
        jw_int(w, (int64_t)v);
        return;
    }
    sep(w);
    n = snprintf(text, sizeof text, "%.12g", v);
    put(w, text, (size_t)n);
}

void jw_bool(jw *w, bool v)
{
    sep(w);
    jw_raw(w, v ? "true" : "false");
}

void jw_null(jw *w)
{
    sep(w);
    put(w, "null", 4);
}
