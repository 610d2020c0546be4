/* json_writer.h - jfrtool's one JSON writer (json_writer.c): strings,
 * numbers and containers, in the few styles jfrtool's outputs keep byte
 * for byte:
 *
 *   json_page    one line, '<', '>' and '&' escaped in strings, so the
 *                text can sit inside a page's <script> (report, flame
 *                page, speedscope);
 *   json_pretty  two-space indent, a key's value after ": ", as the JSON
 *                of view, sql and leaks has always been laid out (the
 *                layout of jansson's JSON_INDENT(2), whose trees those
 *                commands build: jw_tree writes them); json_compact is
 *                the same on one line, for JSON in a CSV cell;
 *   JSON_ESC_JAVA strings as `jfr print --json` escapes them, for
 *                out_json.c's events (which lay themselves out).
 *
 * Writing goes into a buffer, flushed to the FILE every 64 KiB. */
#ifndef JFRTOOL_JSON_WRITER_H
#define JFRTOOL_JSON_WRITER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

/* How strings are escaped (json_style.escape, json_put_string). Always:
 * '"' and '\\' as \" and \\, and control characters. */
#define JSON_ESC_HTML  0x1u /* control characters and '<', '>', '&' as \u00xx */
#define JSON_ESC_NAMED 0x2u /* \b \f \n \r \t by name, other controls \u00XX */
/* as the JDK's tool: named escapes, '/' as \/, every non-ASCII UTF-16 unit
 * as \uxxxx, and text that is not valid UTF-8 as null */
#define JSON_ESC_JAVA  0x4u

typedef struct json_style {
    const char *comma; /* between items: "," */
    const char *colon; /* between a key and its value: ":" or ": " */
    int indent;        /* spaces per level, each item on a line; 0: one line */
    unsigned escape;   /* JSON_ESC_* */
} json_style;

extern const json_style json_page;
extern const json_style json_pretty;
extern const json_style json_compact; /* json_pretty on one line */

/** Whether the `len` bytes at `s` are strict UTF-8 (no overlong forms,
 * surrogates or values past U+10FFFF). */
bool json_is_utf8(const char *s, size_t len);

/** Append `len` bytes of `s` as a JSON string, escaped by `escape`. */
void json_put_string(strbuf *sb, const char *s, size_t len, unsigned escape);

/** Append a real as jansson writes it at `precision` significant digits
 * ("%.*g", ".0" added to whole numbers, the exponent without '+' and
 * leading zeros). */
void json_put_real(strbuf *sb, double v, int precision);

/** A JSON writer: the style, where the buffer goes, and the place in the
 * document (containers open, whether the next item follows another). */
typedef struct jw {
    FILE *out; /* NULL: the text stays in `sb` */
    strbuf sb;
    const json_style *style;
    int depth;      /* containers open */
    bool comma;     /* the next item follows another */
    bool after_key; /* the next value is a key's */
    int precision;  /* of jw_real and reals in jw_tree (default 17) */
} jw;

/** Start writing to `out` (NULL: into w->sb only) in json_page style. */
void jw_init(jw *w, FILE *out);
/** The same in another style. */
void jw_init_style(jw *w, FILE *out, const json_style *style);
/** Write out what is buffered (to w->out) and free the buffer. */
void jw_flush(jw *w);

/** Raw text, no separators. */
void jw_raw(jw *w, const char *s);
/** `n` bytes of raw text. */
void jw_rawn(jw *w, const char *s, size_t n);
/** Containers; a key, then a value. */
void jw_begin(jw *w, char c); /* '{' or '[' */
void jw_end(jw *w, char c);   /* '}' or ']' */
void jw_key(jw *w, const char *key);
void jw_str(jw *w, const char *s); /* NULL: null */
void jw_strn(jw *w, const char *s, size_t len);
void jw_int(jw *w, int64_t v);
void jw_uint(jw *w, uint64_t v);
/** The `n` numbers at `v` as items of the open array, each as jw_uint
 * would write it: the room is made once per run of items, not per item,
 * and numbers below JW_SMALL copied from a jw_numtab (the report's page
 * writes millions of frame indexes). */
void jw_uint32s(jw *w, const uint32_t *v, size_t n);

/** ",N" for every N below `count`, made once: arrays of millions of
 * numbers (a page's frame indexes, a flame graph's depths) repeat a few
 * thousand, and copying their text is cheaper than making it. Texts
 * longer than a slot are made each time. */
#define JW_NUMTAB_SLOT 8
typedef struct jw_numtab {
    char (*text)[JW_NUMTAB_SLOT];
    uint8_t *len; /* 0: longer than a slot */
    size_t count;
} jw_numtab;

void jw_numtab_init(jw_numtab *nt, size_t count);
void jw_numtab_free(jw_numtab *nt);

/** ",v" at `p`, which has room for a slot and for 21 bytes; returns the
 * end. */
static inline char *jw_put_comma_number(const jw_numtab *nt, char *p, uint64_t v)
{
    if (v < nt->count && nt->len[v]) {
        memcpy(p, nt->text[v], JW_NUMTAB_SLOT);
        return p + nt->len[v];
    }
    *p++ = ',';
    return p + jfr_text_u64(p, JFR_TEXT_U64_ROOM, v);
}
/** A number of the page's data: a whole number below 9e15 as an integer,
 * else "%.12g"; NaN and infinities are null. */
void jw_num(jw *w, double v);

/** A key and an array of the `n` integers at `v`, of any integer type
 * (each written as jw_int of its value). */
#define JW_INT_ARRAY(w, key, v, n)                                                       \
    do {                                                                                 \
        jw_key((w), (key));                                                              \
        jw_begin((w), '[');                                                              \
        for (size_t jw_i_ = 0; jw_i_ < (size_t)(n); jw_i_++)                             \
            jw_int((w), (int64_t)(v)[jw_i_]);                                            \
        jw_end((w), ']');                                                                \
    } while (0)
/** A key and an array of the `n` strings at `s` (NULL ones as null). */
void jw_str_array(jw *w, const char *key, char *const *s, size_t n);
/** A real as jansson writes it, at w->precision digits. */
void jw_real(jw *w, double v);
void jw_bool(jw *w, bool v);
void jw_null(jw *w);

/** Room for `n` bytes at the end of the buffer, for a caller that writes
 * many numbers itself (the flame page's node arrays): write at the pointer
 * returned, then jw_wrote with where the text ends. */
char *jw_room(jw *w, size_t n);
void jw_wrote(jw *w, const char *end);

/** Write the value `j` (a jansson tree) as one item. */
void jw_tree(jw *w, json_t *j);

/** Write the document `j` (a jansson tree) to `out` in json_pretty style
 * at `precision`, and a line end: the JSON of view, sql and leaks. */
void json_tree_print(FILE *out, json_t *j, int precision);

/** The value `j` as text in `style` at `precision`, appended to `sb`
 * (a CSV cell of JSON). */
void json_tree_text(strbuf *sb, json_t *j, const json_style *style, int precision);

#endif
