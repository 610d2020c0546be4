/* text_out.h - the bounded writer behind jfr/text.h: it keeps the bytes
 * that fit in the caller's room and counts all of them. */
#ifndef JFR_TEXT_OUT_H
#define JFR_TEXT_OUT_H

#include <stddef.h>
#include <string.h>

typedef struct text_out {
    char *dst;
    size_t room, len;
} text_out;

static inline void text_putn(text_out *t, const char *s, size_t n)
{
    if (t->len < t->room) {
        size_t fit = t->room - t->len < n ? t->room - t->len : n;
        memcpy(t->dst + t->len, s, fit);
    }
    t->len += n;
}

static inline void text_puts(text_out *t, const char *s)
{
    text_putn(t, s, strlen(s));
}

static inline void text_putc(text_out *t, char c)
{
    text_putn(t, &c, 1);
}

/** printf into the writer (texts of at most 64 bytes). */
void jfrp_text_printf(text_out *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** jfr_text_fixed into a writer. */
void jfrp_text_fixed(text_out *t, double d, int decimals);

#endif
