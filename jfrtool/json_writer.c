/* json_writer.c - jfrtool's one JSON writer (json_writer.h). */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "json_writer.h"

const json_style json_page = {",", ":", 0, JSON_ESC_HTML};
const json_style json_pretty = {",", ": ", 2, JSON_ESC_NAMED};
const json_style json_compact = {",", ":", 0, JSON_ESC_NAMED};

#define FLUSH_AT ((size_t)1 << 16)

/* ---- strings -------------------------------------------------------------------- */

bool json_is_utf8(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;

    while (p < end) {
        uint32_t c = *p++;
        int extra;

        if (c < 0x80)
            continue;
        if (c < 0xc2 || c > 0xf4)
            return false;
        extra = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
        if (end - p < extra)
            return false;
        c &= extra == 3 ? 0x07 : extra == 2 ? 0x0f : 0x1f;
        for (int i = 0; i < extra; i++, p++) {
            if ((*p & 0xc0) != 0x80)
                return false;
            c = (c << 6) | (*p & 0x3f);
        }
        if ((extra == 2 && c < 0x800) || (extra == 3 && c < 0x10000) || c > 0x10ffff ||
            (c >= 0xd800 && c <= 0xdfff))
            return false;
    }
    return true;
}

/* Whether byte `c` ends a run of bytes copied as they are. */
static bool special(unsigned char c, unsigned escape)
{
    if (c < 0x20 || c == '"' || c == '\\')
        return true;
    if (escape & JSON_ESC_HTML)
        return c == '<' || c == '>' || c == '&';
    if (escape & JSON_ESC_JAVA)
        return c == '/' || c >= 0x80;
    return false;
}

static void put_u_escape(strbuf *sb, uint32_t unit, bool upper)
{
    const char *hex = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char u[6] = {'\\',
                 'u',
                 hex[unit >> 12 & 15],
                 hex[unit >> 8 & 15],
                 hex[unit >> 4 & 15],
                 hex[unit & 15]};

    sb_putn(sb, u, sizeof u);
}

/* The character at *p (a special byte), escaped; *p moves past it. */
static void put_escape(strbuf *sb, const unsigned char **p, unsigned escape)
{
    static const char named[] = "\bb\ff\nn\rr\tt";
    uint32_t c = *(*p)++;
    const char *n;

    if (c == '"' || c == '\\' || c == '/') {
        sb_putc(sb, '\\');
        sb_putc(sb, (char)c);
        return;
    }
    if (c >= 0x80) { /* JSON_ESC_JAVA: UTF-16 units (the text is valid UTF-8) */
        uint32_t units[2];

        (*p)--;
        for (int i = 0, count = utf16_units(p, units); i < count; i++)
            put_u_escape(sb, units[i], false);
        return;
    }
    if ((escape & (JSON_ESC_NAMED | JSON_ESC_JAVA)) && c && (n = strchr(named, (int)c))) {
        sb_putc(sb, '\\');
        sb_putc(sb, n[1]);
        return;
    }
    put_u_escape(sb, c, (escape & JSON_ESC_NAMED) != 0);
}

void json_put_string(strbuf *sb, const char *s, size_t len, unsigned escape)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len;

    if ((escape & JSON_ESC_JAVA) && !json_is_utf8(s, len)) {
        sb_putn(sb, "null", 4);
        return;
    }
    sb_putc(sb, '"');
    while (p < end) {
        const unsigned char *run = p;

        /* plain text goes out in one copy */
        while (p < end && !special(*p, escape))
            p++;
        if (p > run)
            sb_putn(sb, (const char *)run, (size_t)(p - run));
        if (p < end)
            put_escape(sb, &p, escape);
    }
    sb_putc(sb, '"');
}

/* ---- numbers -------------------------------------------------------------------- */

void json_put_real(strbuf *sb, double v, int precision)
{
    char text[64], *e;
    int n = snprintf(text, sizeof text, "%.*g", precision, v);

    if (n < 0 || (size_t)n >= sizeof text)
        return;
    if (!strchr(text, '.') && !strchr(text, 'e'))
        strcpy(text + n, ".0"); /* still a real when read back */
    e = strchr(text, 'e');
    if (e) { /* "1e+300" -> "1e300", "1e-05" -> "1e-5" */
        char *digits = e + 1 + (e[1] == '-'), *from = e + 1;

        while (*from == '+' || *from == '-')
            from++;
        while (*from == '0' && from[1])
            from++;
        memmove(digits, from, strlen(from) + 1);
    }
    sb_puts(sb, text);
}

/* ---- the writer ----------------------------------------------------------------- */

void jw_init_style(jw *w, FILE *out, const json_style *style)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->style = style;
    w->precision = 17;
}

void jw_init(jw *w, FILE *out)
{
    jw_init_style(w, out, &json_page);
}

void jw_flush(jw *w)
{
    if (w->out && w->sb.len)
        fwrite(w->sb.ptr, 1, w->sb.len, w->out);
    sb_free(&w->sb);
}

static void maybe_flush(jw *w)
{
    if (w->out && w->sb.len >= FLUSH_AT) {
        fwrite(w->sb.ptr, 1, w->sb.len, w->out);
        w->sb.len = 0;
    }
}

static void newline(jw *w, int depth)
{
    char *p = sb_extend(&w->sb, (size_t)(depth * w->style->indent) + 1);

    p[0] = '\n';
    memset(p + 1, ' ', (size_t)(depth * w->style->indent));
}

/* Before an item: the separator from the item before, the line it starts. */
static void sep(jw *w)
{
    const char *comma = w->style->comma;

    maybe_flush(w);
    /* every style's is one character: no string copy per item */
    if (w->comma && comma[0] && !comma[1])
        sb_putc(&w->sb, comma[0]);
    else if (w->comma)
        sb_puts(&w->sb, comma);
    if (w->style->indent && w->depth)
        newline(w, w->depth);
    w->comma = true;
}

/* Before a value: a key's value goes on the key's line, after its colon;
 * any other is an item of its own. */
static void item(jw *w)
{
    if (w->after_key)
        w->after_key = false;
    else
        sep(w);
}

void jw_raw(jw *w, const char *s)
{
    sb_puts(&w->sb, s);
    maybe_flush(w);
}

void jw_rawn(jw *w, const char *s, size_t n)
{
    sb_putn(&w->sb, s, n);
    maybe_flush(w);
}

void jw_begin(jw *w, char c)
{
    item(w);
    sb_putc(&w->sb, c);
    w->depth++;
    w->comma = false;
}

void jw_end(jw *w, char c)
{
    w->depth--;
    /* an empty container stays on its line */
    if (w->style->indent && w->comma)
        newline(w, w->depth);
    sb_putc(&w->sb, c);
    w->comma = true;
    maybe_flush(w);
}

void jw_key(jw *w, const char *key)
{
    sep(w);
    json_put_string(&w->sb, key, strlen(key), w->style->escape);
    sb_puts(&w->sb, w->style->colon);
    w->after_key = true;
}

void jw_strn(jw *w, const char *s, size_t len)
{
    item(w);
    if (!s)
        sb_putn(&w->sb, "null", 4);
    else
        json_put_string(&w->sb, s, len, w->style->escape);
    maybe_flush(w);
}

void jw_str(jw *w, const char *s)
{
    jw_strn(w, s, s ? strlen(s) : 0);
}

void jw_uint(jw *w, uint64_t v)
{
    item(w);
    sb_put_u64(&w->sb, v);
}

void jw_numtab_init(jw_numtab *nt, size_t count)
{
    char digits[JFR_TEXT_U64_ROOM];

    nt->count = count;
    nt->text = xcalloc(count ? count : 1, sizeof *nt->text);
    nt->len = xcalloc(count ? count : 1, 1);
    for (size_t v = 0; v < count; v++) {
        size_t n = jfr_text_u64(digits, JFR_TEXT_U64_ROOM, v);

        if (n + 1 > JW_NUMTAB_SLOT)
            continue;
        nt->text[v][0] = ',';
        memcpy(nt->text[v] + 1, digits, n);
        nt->len[v] = (uint8_t)(n + 1);
    }
}

void jw_numtab_free(jw_numtab *nt)
{
    free(nt->text);
    free(nt->len);
}

/* jw_uint32s' texts of the numbers below 1,000, made on its first call,
 * for every writer and thread (kept until the process ends). */
static jw_numtab small;
static pthread_once_t small_once = PTHREAD_ONCE_INIT;

static void small_init(void)
{
    jw_numtab_init(&small, 1000);
}

void jw_uint32s(jw *w, const uint32_t *v, size_t n)
{
    const char comma = w->style->comma[0];
    const size_t per_run = 4096, most_bytes = 11; /* a comma and 10 digits */

    if (w->style->indent || w->after_key || comma != ',' || w->style->comma[1]) {
        for (size_t i = 0; i < n; i++)
            jw_uint(w, v[i]);
        return;
    }
    pthread_once(&small_once, small_init);
    while (n > 0) {
        size_t run = n < per_run ? n : per_run;
        char *p;

        maybe_flush(w);
        if (w->sb.len + run * most_bytes + 1 > w->sb.cap)
            sb_grow_to(&w->sb, w->sb.len + run * most_bytes + 1);
        p = w->sb.ptr + w->sb.len;
        if (!w->comma) { /* the array's first item: no comma before it */
            p += jfr_text_u64(p, JFR_TEXT_U64_ROOM, v[0]);
            w->comma = true;
            v++;
            n--;
            run--;
        }
        for (size_t i = 0; i < run; i++)
            p = jw_put_comma_number(&small, p, v[i]);
        *p = '\0';
        w->sb.len = (size_t)(p - w->sb.ptr);
        v += run;
        n -= run;
    }
}

void jw_int(jw *w, int64_t v)
{
    if (v >= 0) {
        jw_uint(w, (uint64_t)v);
        return;
    }
    item(w);
    sb_put_i64(&w->sb, v);
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
    item(w);
    n = snprintf(text, sizeof text, "%.12g", v);
    sb_putn(&w->sb, text, (size_t)n);
}

void jw_real(jw *w, double v)
{
    item(w);
    json_put_real(&w->sb, v, w->precision);
}

void jw_bool(jw *w, bool v)
{
    item(w);
    sb_puts(&w->sb, v ? "true" : "false");
}

void jw_null(jw *w)
{
    item(w);
    sb_putn(&w->sb, "null", 4);
}

char *jw_room(jw *w, size_t n)
{
    maybe_flush(w);
    if (w->sb.len + n + 1 > w->sb.cap)
        sb_grow_to(&w->sb, w->sb.len + n + 1);
    return w->sb.ptr + w->sb.len;
}

void jw_wrote(jw *w, const char *end)
{
    w->sb.len = (size_t)(end - w->sb.ptr);
    w->sb.ptr[w->sb.len] = '\0';
}

/* ---- jansson trees -------------------------------------------------------------- */

static void tree_object(jw *w, json_t *j)
{
    const char *key;
    json_t *v;

    jw_begin(w, '{');
    json_object_foreach(j, key, v)
    {
        jw_key(w, key);
        jw_tree(w, v);
    }
    jw_end(w, '}');
}

void jw_tree(jw *w, json_t *j)
{
    if (!j) /* no value (a string that was not UTF-8): nothing, as jansson */
        return;
    switch (json_typeof(j)) {
    case JSON_OBJECT:
        tree_object(w, j);
        return;
    case JSON_ARRAY:
        jw_begin(w, '[');
        for (size_t i = 0; i < json_array_size(j); i++)
            jw_tree(w, json_array_get(j, i));
        jw_end(w, ']');
        return;
    case JSON_STRING:
        jw_strn(w, json_string_value(j), json_string_length(j));
        return;
    case JSON_INTEGER:
        jw_int(w, json_integer_value(j));
        return;
    case JSON_REAL:
        jw_real(w, json_real_value(j));
        return;
    case JSON_TRUE:
    case JSON_FALSE:
        jw_bool(w, json_is_true(j));
        return;
    case JSON_NULL:
        jw_null(w);
        return;
    }
}

void json_tree_text(strbuf *sb, json_t *j, const json_style *style, int precision)
{
    jw w;

    jw_init_style(&w, NULL, style);
    w.precision = precision;
    jw_tree(&w, j);
    sb_putn(sb, w.sb.ptr ? w.sb.ptr : "", w.sb.len);
    sb_free(&w.sb);
}

void json_tree_print(FILE *out, json_t *j, int precision)
{
    jw w;

    jw_init_style(&w, out, &json_pretty);
    w.precision = precision;
    jw_tree(&w, j);
    jw_raw(&w, "\n");
    jw_flush(&w);
}

void jw_str_array(jw *w, const char *key, char *const *s, size_t n)
{
    jw_key(w, key);
    jw_begin(w, '[');
    for (size_t i = 0; i < n; i++)
        jw_str(w, s[i]);
    jw_end(w, ']');
}
