/* jfrgen.h - a test-only writer of synthetic JFR chunks (jfr-format.md).
 *
 * Unit tests build the bytes they feed to libjfr with it: scalars in every
 * encoding (minimal and padded varints, fixed-width integers, all string
 * tags), and whole chunks described as "types, pools, events":
 *
 *     jg_chunk *c = jg_chunk_new();
 *     jg_primitives(c);
 *     jg_elem *ev = jg_class(c, 20, "test.Event", "jdk.jfr.Event");
 *     jg_field(ev, "startTime", JG_LONG, 0);
 *     jg_field(ev, "who", 21, JG_POOL);
 *     jg_field(jg_class(c, 21, "test.Who", NULL), "name", JG_STRING, 0);
 *     jg_string(jg_entry(jg_pool_new(jg_checkpoint(c), 21), 7), "x");
 *     jg_buf *e = jg_event(c, 20);
 *     jg_i64(e, 1000);
 *     jg_key(e, 7);
 *     jg_chunk_build(c, &file);  // append the chunk; repeat to concatenate
 *     jg_chunk_free(c);
 *
 * Everything is written in the chunk's integer mode (varints unless the
 * compressed-integer flag is cleared before records are added). Allocation
 * failures abort: this is test code.
 */
#ifndef JFRGEN_H
#define JFRGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- byte buffers and scalars ---------------------------------------------- */

typedef struct jg_buf {
    uint8_t *data;
    size_t len;
    size_t cap;
    bool fixed; /* integers fixed-width big-endian (flags bit 0 clear) */
} jg_buf;

void jg_buf_free(jg_buf *b);
void jg_bytes(jg_buf *b, const void *p, size_t n);
void jg_u8(jg_buf *b, uint8_t v);
/** Big-endian, `width` bytes (1..8). */
void jg_be(jg_buf *b, uint64_t v, unsigned width);
/** Write `v` big-endian into `p` (patching built bytes). */
void jg_put_be(uint8_t *p, uint64_t v, unsigned width);

/** Bytes of the minimal varint encoding of `v` (1..9). */
unsigned jg_varint_len(uint64_t v);
/** Minimal varint. */
void jg_varint(jg_buf *b, uint64_t v);
/**
 * Varint padded to `width` bytes (1..9). Widths 1..8 carry 7 bits a byte;
 * width 9 is the form whose ninth byte carries 8 bits. The value must fit.
 */
void jg_varint_padded(jg_buf *b, uint64_t v, unsigned width);

/** An integer of a declared width (2, 4, 8) in the buffer's mode: a varint
 * of the zero-extended bits, or fixed big-endian (jfr-format.md §4.3). */
void jg_int(jg_buf *b, uint64_t bits, unsigned width);
void jg_i16(jg_buf *b, int16_t v);
void jg_u16(jg_buf *b, uint16_t v); /* char */
void jg_i32(jg_buf *b, int32_t v);
void jg_i64(jg_buf *b, int64_t v);
void jg_f32(jg_buf *b, float v);
void jg_f64(jg_buf *b, double v);
/** A constant-pool key (a long). */
void jg_key(jg_buf *b, uint64_t key);
/** An array length or other int count. */
void jg_count(jg_buf *b, uint64_t n);

/* Strings (jfr-format.md §5), one function per encoding tag. */
void jg_str_null(jg_buf *b);                                   /* tag 0 */
void jg_str_empty(jg_buf *b);                                  /* tag 1 */
void jg_str_pool(jg_buf *b, uint64_t key);                     /* tag 2 */
void jg_str_utf8(jg_buf *b, const void *bytes, size_t n);      /* tag 3 */
void jg_str_utf16(jg_buf *b, const uint16_t *units, size_t n); /* tag 4 */
void jg_str_latin1(jg_buf *b, const void *bytes, size_t n);    /* tag 5 */
/** `s` as tag 3 (UTF-8), or tag 0 when `s` is NULL. */
void jg_string(jg_buf *b, const char *s);
/** ASCII/UTF-8 `s` converted to UTF-16 units, as tag 4. */
void jg_string_utf16(jg_buf *b, const char *s);

/* ---- chunks ------------------------------------------------------------------ */

/** Ids that jg_primitives() gives the primitive types. */
enum {
    JG_BOOLEAN = 4,
    JG_BYTE,
    JG_CHAR,
    JG_SHORT,
    JG_INT,
    JG_LONG,
    JG_FLOAT,
    JG_DOUBLE,
    JG_STRING /* java.lang.String */
};

/** jg_field flags. */
#define JG_ARRAY 0x1u /* dimension="1" */
#define JG_POOL  0x2u /* constantPool="true" */

/** A metadata element: name, attributes, children (jfr-format.md §7.2). */
typedef struct jg_elem {
    char *name;
    size_t nattrs;
    char **keys;
    char **vals;
    size_t nchildren;
    struct jg_elem **children;
} jg_elem;

/** The header fields a test may set; sizes and offsets are computed. */
typedef struct jg_header {
    uint16_t major, minor;
    int64_t start_nanos, duration_nanos, start_ticks, ticks_per_second;
    uint8_t state;
    uint16_t flags;
} jg_header;

typedef struct jg_pool jg_pool;
typedef struct jg_cp jg_cp;
typedef struct jg_rec jg_rec;
typedef struct jg_chunk jg_chunk;

/** One pool in a checkpoint. `count` may be changed to lie about it. */
struct jg_pool {
    uint64_t type_id;
    uint64_t count;
    jg_buf entries;
};

/** A checkpoint record. Fields other than `pools` may be set by tests. */
struct jg_cp {
    uint8_t flags;  /* typeFlags byte */
    bool set_delta; /* write `delta` instead of the computed link */
    int64_t delta;
    uint64_t offset; /* chunk-relative; filled in by jg_chunk_build */
    size_t npools;
    jg_pool **pools;
    bool fixed; /* the chunk's integer mode when it was added */
};

struct jg_chunk {
    jg_header h;   /* defaults: 2.1, compressed, 1 GHz ticks */
    jg_elem *root; /* "root" with "metadata" (and "region") */
    jg_elem *metadata;
    uint64_t metadata_id;
    int meta_string_tag;      /* tag of the string table: 3 (default) or 4 */
    unsigned meta_size_width; /* padded size of the metadata record, 0 minimal */
    bool meta_placed;
    size_t nrecs;
    jg_rec **recs;
    /* filled in by jg_chunk_build */
    uint64_t size;
    uint64_t metadata_offset;
    uint64_t cp_offset;
};

/** A new chunk: version 2.1, compressed integers, state 0, flags 3. */
jg_chunk *jg_chunk_new(void);
void jg_chunk_free(jg_chunk *c);

/** Switch the chunk to fixed-width integers (call before adding records). */
void jg_chunk_fixed_ints(jg_chunk *c);

/* Metadata. Strings are copied. */
jg_elem *jg_elem_add(jg_elem *parent, const char *name);
void jg_attr(jg_elem *e, const char *key, const char *val);
/** A class element under "metadata"; `super` may be NULL. */
jg_elem *jg_class(jg_chunk *c, uint64_t id, const char *name, const char *super);
/** A field of `cls`; flags JG_ARRAY, JG_POOL. Returns the field element. */
jg_elem *jg_field(jg_elem *cls, const char *name, uint64_t type_id, unsigned flags);
/** An annotation on a class or field; `value` may be NULL. */
jg_elem *jg_annotate(jg_elem *e, uint64_t annotation_type_id, const char *value);
jg_elem *jg_setting(jg_elem *cls, const char *name, uint64_t type_id,
                    const char *default_value);
/** The "region" element with its gmtOffset attribute (ms, decimal). */
jg_elem *jg_region(jg_chunk *c, const char *gmt_offset);
/** Declare boolean, byte, ..., double and java.lang.String (ids JG_*). */
void jg_primitives(jg_chunk *c);

/** Put the metadata record here in record order (default: first). */
void jg_metadata_record(jg_chunk *c);

/* Records, in the order they are added. */
/** An event record; returns its payload buffer (after the type id). */
jg_buf *jg_event(jg_chunk *c, uint64_t type_id);
/** The same with the size field padded to `size_width` bytes (0: minimal). */
jg_buf *jg_event_padded(jg_chunk *c, uint64_t type_id, unsigned size_width);
/** Bytes copied verbatim into the record sequence (no framing). */
jg_buf *jg_raw(jg_chunk *c);
/** A checkpoint record; the delta chain is computed at build time. */
jg_cp *jg_checkpoint(jg_chunk *c);
/** A pool of `type_id` in the checkpoint. */
jg_pool *jg_pool_new(jg_cp *cp, uint64_t type_id);
/** Start an entry: writes `key`, returns the buffer for the value's fields. */
jg_buf *jg_entry(jg_pool *p, uint64_t key);

/** Append the chunk's bytes to `out` (call again to concatenate chunks). */
void jg_chunk_build(jg_chunk *c, jg_buf *out);

#endif
