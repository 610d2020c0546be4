/* writer_bytes.c - the writer's byte buffers and encodings (jfr-format.md
 * §4, §5): varints, big-endian integers, strings, records. */
#include <string.h>

#include "header_write.h"
#include "writer_bytes.h"

void jfrw_buf_init(jfrw_buf *b, const jfrp_alloc *al)
{
    memset(b, 0, sizeof *b);
    b->al = al;
}

void jfrw_buf_free(jfrw_buf *b)
{
    jfrp_free(b->al, b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

bool jfrw_buf_grow(jfrw_buf *b, size_t n)
{
    size_t need, cap = b->cap ? b->cap : 256;
    uint8_t *p;

    if (b->err)
        return false;
    if (!jfrp_add_size(&need, b->len, n)) {
        b->err = JFR_ENOMEM;
        return false;
    }
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    p = jfrp_realloc(b->al, b->data, cap);
    if (!p) {
        b->err = JFR_ENOMEM;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void jfrw_varint_padded(jfrw_buf *b, uint64_t v, unsigned width)
{
    if (!jfrw_room(b, width))
        return;
    for (unsigned i = 0; i + 1 < width && i < 8; i++, v >>= 7)
        b->data[b->len++] = (uint8_t)(v & 0x7f) | 0x80;
    /* the ninth byte holds eight bits */
    b->data[b->len++] = (uint8_t)(width == 9 ? v : v & 0x7f);
}

void jfrw_be(jfrw_buf *b, uint64_t v, unsigned width)
{
    if (jfrw_room(b, width)) {
        jfrp_put_be(b->data + b->len, v, width);
        b->len += width;
    }
}

void jfrw_string(jfrw_buf *b, bool compressed, const char *s, size_t len)
{
    if (!s) {
        jfrw_u8(b, JFRP_STR_NULL);
        return;
    }
    jfrw_u8(b, JFRP_STR_UTF8);
    jfrw_int(b, compressed, len, 4);
    jfrw_bytes(b, s, len);
}

/* Bytes of the size field of a record of `len` more bytes. */
static unsigned size_width(bool compressed, size_t len)
{
    unsigned n;

    if (!compressed)
        return 4;
    /* the size counts its own bytes: one more byte may be needed */
    n = jfrw_varint_len(len + 1);
    if (jfrw_varint_len(len + n) > n)
        n++;
    return n;
}

void jfrw_record(jfrw_buf *b, bool compressed, size_t start)
{
    size_t len = b->len - start;
    unsigned n = size_width(compressed, len);
    jfrw_buf size;
    uint8_t bytes[9];

    if (!jfrw_room(b, n))
        return;
    memmove(b->data + start + n, b->data + start, len);
    size = (jfrw_buf){NULL, bytes, 0, sizeof bytes, 0};
    if (compressed)
        jfrw_varint_padded(&size, len + n, n);
    else
        jfrw_be(&size, len + n, 4);
    memcpy(b->data + start, bytes, n);
    b->len += n;
}
