/* jfr_private.h - internal structures shared by libjfr's modules.
 * Never installed; only libjfr and its unit tests include it. */
#ifndef JFRP_PRIVATE_H
#define JFRP_PRIVATE_H

#include <stdarg.h>
#include <string.h>

#include "jfr.h"

#include "alloc.h"
#include "map.h"
#include "reader.h"

#define JFRP_HEADER_SIZE 68

/** Where `field` of struct `type` ends: the size of a versioned options
 * struct whose last field in a version is `field`. */
#define JFRP_END_OF(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/**
 * A *_options_init: zero the first ends[version - 1] bytes of `opts` (the
 * size of that version's struct) and set its leading `unsigned version`.
 * JFR_EINVAL for NULL or a version outside 1..nversions.
 */
int jfrp_options_init(void *opts, unsigned version, const size_t *ends, size_t nversions);

struct jfr_field {
    const char *name;
    uint64_t type_id;
    const jfr_type *type; /* NULL when type_id is not declared */
    bool array;
    bool pooled;
    const char *label;
    size_t nannotations;
    jfr_annotation *annotations;
};

struct jfr_type {
    uint64_t id;
    const char *name;
    const char *super_type;
    const char *label;
    jfr_kind kind;
    bool simple;
    bool is_event;
    /* false when values of this type cannot be decoded inline: an inline
     * field of an undeclared type, an inline cycle, or nesting deeper than
     * the max_depth limit (checked once, when the metadata is read) */
    bool decodable;
    bool too_deep;  /* undecodable because of max_depth (or an inline cycle) */
    bool zero_size; /* values take no bytes (no fields, or only such) */
    /* for a struct whose fields are all scalars or pool keys, one op per
     * field ('v' varint, '1' one byte, '4'/'8' fixed bytes): skipped by a
     * tight loop instead of the generic walk; NULL otherwise */
    const char *flat_ops;
    uint32_t flat_varints; /* fields, when every op of flat_ops is 'v'; else 0 */
    uint32_t inline_height;
    size_t index; /* position in the chunk's type array */
    size_t nfields;
    jfr_field *fields;
    size_t nannotations;
    jfr_annotation *annotations;
    size_t nsettings;
    jfr_setting *settings;
    struct jfrp_pool *pool; /* this type's constant pool in the chunk */
};

/** One type's constant pool: key -> chunk-relative offset of the value. */
typedef struct jfrp_pool {
    const jfr_type *type;
    /* keys close together (stack traces, classes) index an array, others
     * a hash map; which is decided once every checkpoint is read */
    uint64_t *direct; /* offset by key - first; 0: absent */
    uint64_t first;
    size_t ndirect;
    jfrp_map entries;
    size_t nindexed; /* entries indexed (for the density of a grown index) */
    /* while the checkpoints are read: (key, offset) in reading order */
    uint64_t (*pending)[2];
    size_t npending, pending_room;
    uint64_t min_key, max_key;
    /* The parts of this pool that ended their checkpoints, not read until
     * the type is first looked up: a JDK writes each stack-trace pool
     * alone in a checkpoint, most of a file's bytes, and many readers need
     * none of it (constpool.c) */
    struct jfrp_pool_part *parts;
    size_t nparts, parts_room;
    struct jfr_chunk *chunk;
} jfrp_pool;

/** Free what a pool's index holds. */
void jfrp_pool_free(jfrp_pool *pool, const jfrp_alloc *al);

/**
 * Where decoded values put converted strings: event values use the
 * iterator's scratch arena (reset per event), pool values the chunk's cache.
 */
typedef struct jfrp_vctx {
    jfr_chunk *chunk;
    jfrp_arena *scratch; /* NULL: pool context */
} jfrp_vctx;

/* What libjfr keeps in a jfr_value's and a jfr_cursor's reserved storage
 * (declared there as uint64_t words). A value's part is copied in and out
 * with memcpy, which compilers turn into plain moves; a cursor's is used in
 * place through a may_alias type, since copying its parent value on every
 * step cost a third of jfr_cursor_next's time. */
#if defined(__GNUC__) || defined(__clang__)
#define JFRP_MAY_ALIAS __attribute__((__may_alias__))
#else
#define JFRP_MAY_ALIAS /* other compilers: build with strict aliasing off */
#endif

typedef struct jfrp_value_where {
    const jfrp_vctx *ctx; /* NULL: the value has no bytes to iterate */
    uint64_t pos;         /* chunk-relative offsets of its bytes */
    uint64_t end;
} jfrp_value_where;

typedef struct JFRP_MAY_ALIAS jfrp_cursor_state {
    jfr_value parent;
    uint64_t pos; /* chunk-relative offset of the next child */
    size_t index; /* of the next child */
} jfrp_cursor_state;

_Static_assert(sizeof(jfrp_value_where) <= sizeof(((jfr_value *)0)->reserved_),
               "jfr_value's reserved storage holds where the value is");
_Static_assert(sizeof(jfrp_cursor_state) <= sizeof(((jfr_cursor *)0)->reserved_),
               "jfr_cursor's reserved storage holds the cursor's state");
_Static_assert(_Alignof(jfrp_cursor_state) <= _Alignof(uint64_t),
               "jfr_cursor's storage is aligned for its state");

static inline jfrp_value_where jfrp_value_where_get(const jfr_value *v)
{
    jfrp_value_where w;
    memcpy(&w, v->reserved_, sizeof w);
    return w;
}

static inline void jfrp_value_where_set(jfr_value *v, const jfrp_vctx *ctx, uint64_t pos,
                                        uint64_t end)
{
    jfrp_value_where w = {ctx, pos, end};
    memcpy(v->reserved_, &w, sizeof w);
}

/** Frequently used types of a chunk, looked up by name once. */
typedef struct jfrp_known {
    const jfr_type *string;
    const jfr_type *stacktrace;
    const jfr_type *thread;
    const jfr_type *method;
    const jfr_type *klass;
    const jfr_type *class_loader;
    const jfr_type *frame_type;
} jfrp_known;

/**
 * What a chunk's metadata record becomes (metadata.c): the types and their
 * lookups. When a chunk is freed, its recording keeps this for the next
 * chunk, which takes it instead of parsing when its record has the same
 * bytes: files of many chunks mostly repeat one record, and parsing it was
 * half the time of reading one event type from them.
 */
typedef struct jfrp_meta {
    jfrp_arena arena; /* the types, their names and annotations */
    jfr_type *types;
    size_t ntypes;
    jfrp_map type_by_id; /* id -> index + 1 */
    uint32_t *small_ids; /* id -> index + 1 for ids below nsmall_ids */
    uint32_t nsmall_ids;
    int64_t gmt_offset_ms;
    jfrp_known known;
    /* what it was made from: the record after its header fields, and
     * whether integers were compressed (the flat ops depend on it) */
    const uint8_t *source;
    size_t source_size;
    bool compressed;
} jfrp_meta;

struct jfr_chunk {
    jfr_recording *rec;
    int64_t index;
    jfr_header header;
    const uint8_t *data; /* first byte of the chunk */
    size_t size;         /* bytes readable: header.chunk_size, or less */
    /* where walks over the records begin (event iterators, record counts):
     * JFRP_HEADER_SIZE, or for a followed chunk the start of the segment
     * the last flush added (follow.c); metadata and pools use everything */
    uint64_t records_from;
    bool unfinished;
    bool salvaged;      /* incomplete last chunk: a cut record ends it quietly */
    bool pools_indexed; /* the index is built on first lookup */
    bool pools_damaged; /* a checkpoint could not be indexed whole */
    bool has_warning;
    jfr_error warning; /* damaged pools: the chunk is still read */
    jfrp_arena arena;  /* pool indexes, caches */
    jfrp_meta meta;
    jfrp_pool *pools;
    size_t npools;
    uint64_t pool_entries;
    jfrp_map string_cache; /* chunk offset of a string -> jfr_str * */
    jfrp_map stack_cache;  /* stack trace key -> jfr_stacktrace * */
    jfrp_map method_cache; /* method key -> struct jfrp_method * */
    struct jfrp_field_plan *method_plan, *class_plan; /* stack.c, made on use */
    uint8_t *record_starts;    /* event.c: a bit per byte, made on the first seek */
    size_t record_starts_len;  /* its bytes (it grows with a followed chunk) */
    uint64_t records_known;    /* the walk behind record_starts got this far */
    jfrp_map frame_kind_cache; /* frame type key -> jfr_frame_kind + 1 */
    jfrp_vctx pool_ctx;
};

struct jfr_recording {
    jfrp_alloc al;
    jfr_options opts; /* limits with defaults filled in */
    jfr_error err;
    const uint8_t *data;
    size_t size;
    uint64_t base_offset;   /* input offset of data[0]: 0, or where a followed
                               chunk starts in its file (follow.c) */
    void *map_base;         /* munmap on free */
    bool mapped;            /* data is a file mapping (own or, for a view, borrowed) */
    jfrp_arena chunk_spare; /* the last chunk's arena blocks, for the next */
    jfrp_meta meta_spare;   /* the last chunk's metadata, for the next */
    bool has_meta_spare;
    size_t map_len;
    uint8_t *owned; /* free on free */
    const char *container;
    uint64_t next_pos;
    int64_t next_index;
    jfr_chunk *current;
    bool done;
    /* how compressed input ended when not cleanly (cut, bad data, junk
     * after it, decompression stopped): reported once after the chunks */
    jfr_error note;
    bool has_note;
    /* record_index.c: chunks' records by type, sorted by chunk offset */
    struct jfrp_record_index *rindex;
    size_t nrindex, rindex_cap;
    uint64_t rindex_bytes;
};

/* mapping.c */
/** Give back the pages of [start, end) when the input is a file mapping
 * (they are read again from the file if touched); whole pages only, or,
 * with `around`, every page the kernel may have mapped with them. */
void jfrp_mapping_forget(const jfr_recording *rec, const uint8_t *start,
                         const uint8_t *end, bool around);
/** Map the pages of [start, end) of a file mapping in one call, before a
 * copy reads them all (cheaper than a fault per window). */
void jfrp_mapping_prefetch(const jfr_recording *rec, const uint8_t *start,
                           const uint8_t *end);

/* record_index.c */
typedef struct jfrp_record_index jfrp_record_index;
/**
 * For a filtered walk of chunk `c` keeping the type indexes marked in
 * `keep`: 1 with *out the offsets in the chunk of the kept records, in file
 * order (*count of them; *owned, when not NULL, is to be freed with the
 * recording's allocator), once the chunk was walked before or at once when
 * `now` (more walks will follow); 0: walk it; JFR_ENOMEM.
 */
int jfrp_record_index_use(jfr_chunk *c, const uint8_t *keep, bool now,
                          const uint32_t **out, size_t *count, uint32_t **owned);
void jfrp_record_indexes_free(jfr_recording *rec);
/** The most the lists of one recording may take. */
#define JFRP_INDEX_BUDGET_BYTES ((uint64_t)256 << 20)
/** The lists of one chunk: type index t's records are at
 * at[first[t] .. first[t + 1]), each type in file order. */
typedef struct jfrp_record_lists {
    uint32_t *first, *at;
    uint8_t *listed; /**< NULL: every type's records; else the types listed */
    uint32_t ntypes;
    uint64_t bytes; /**< what they count against the budget */
} jfrp_record_lists;
/** Whether chunk `c` can be listed: not followed, offsets in 32 bits. */
bool jfrp_record_listable(const jfr_chunk *c);
/** Make the lists of chunk `c` (allocated with its handle's allocator) for
 * the type indexes `keep` marks (NULL: every type): 1 when made; 0 when its
 * walk met a damaged record or the lists would take more than `room`
 * bytes; JFR_ENOMEM. Walks for other types make the lists again. */
int jfrp_record_lists_make(jfrp_record_lists *l, jfr_chunk *c, const uint8_t *keep,
                           uint64_t room);
/** Give `rec` the lists `made` (jfrp_record_lists_make's result) of its
 * chunk at `chunk_offset` for its later walks, when it has none and they
 * fit its budget (taken: l's pointers set to NULL); a chunk that could not
 * be listed is marked so. */
void jfrp_record_lists_take(jfr_recording *rec, uint64_t chunk_offset,
                            uint64_t chunk_size, int made, jfrp_record_lists *l);

/* field_content.c */
/** The unit of a weight field by its content (jfr_field_content): a
 * timespan is in ns, an amount of bytes (or bytes per second) in bytes,
 * anything else a plain number. Profiles and rates alike. */
jfr_unit jfrp_weight_unit(const jfr_field *f);

/* recording_threads.c */
/** The threads jfr_recording_decode_chunks starts when asked for 0, for
 * `bytes` of chunks: one per `idle_cpus()` and per 4 MB, at least one;
 * idle_cpus is not called below 8 MB. */
unsigned jfrp_auto_threads(uint64_t bytes, unsigned (*idle_cpus)(void));

/* recording.c */
/** A handle of its own over the bytes of `rec`, at its position. */
int jfrp_recording_view(jfr_recording **out, const jfr_recording *rec);
/** Leave `rec` at its end: jfr_recording_next_chunk returns JFR_DONE. */
void jfrp_recording_end(jfr_recording *rec);
/** The chunk at `pos` ends where another chunk or the input does: its size
 * can be trusted (jfr-format.md §3.5). */
bool jfrp_ends_at_a_chunk(const jfr_recording *rec, uint64_t pos, const jfr_header *h);
/** The chunk's records, stepped over by their sizes, end exactly at its
 * declared end, none starting with a chunk magic. */
bool jfrp_records_fill(const jfr_recording *rec, uint64_t pos, const jfr_header *h);

struct jfr_event {
    jfr_chunk *chunk;
    const jfr_type *type;
    uint64_t type_id;
    const uint8_t *start;   /* the record's first byte (its size) */
    const uint8_t *payload; /* first field */
    const uint8_t *end;
    jfrp_vctx *vctx;
};

/* error.c */
int jfrp_fail(jfr_error *err, int code, int64_t chunk, uint64_t offset, const char *fmt,
              ...) __attribute__((format(printf, 5, 6)));
int jfrp_chunk_fail(jfr_chunk *c, int code, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/** As jfrp_fail and jfrp_chunk_fail (which place the location as
 * JFR_PLACE_FIELDS), for a message that names its own offsets
 * (JFR_PLACE_CHUNK) or goes on from the chunk (JFR_PLACE_SUBJECT). The
 * message never repeats the chunk's index: it is in the error's fields. */
int jfrp_fail_placed(jfr_error *err, jfr_error_place place, int code, int64_t chunk,
                     uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
int jfrp_chunk_fail_placed(jfr_chunk *c, jfr_error_place place, int code, uint64_t offset,
                           const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/** Turn a reader's sticky failure into the chunk's error, naming `what`. */
int jfrp_reader_error(jfr_chunk *c, jfr_error_place place, const jfrp_reader *r,
                      const char *what);

/** The length of a file's string up to its first NUL, as a C string
 * shows it. Profiles and leak chains hand out names as C strings, so two
 * strings that differ only after a NUL (a damaged or made-up file) must be
 * one name where they are interned too, as they are in a merge, a saved
 * profile and every output. */
static inline size_t jfrp_name_len(const char *s, size_t len)
{
    const char *nul = s ? memchr(s, 0, len) : NULL;

    return nul ? (size_t)(nul - s) : len;
}

/* chunk.c */
int jfrp_header_parse(jfr_header *h, const uint8_t *p, size_t avail);
/** Where the chunk of header `h` ends in time: its start plus a positive
 * duration (an unfinished chunk says 0), saturating for damaged values. */
int64_t jfrp_header_end_nanos(const jfr_header *h);
/** Offset of the first plausible chunk header (jfr-format.md §3.5) that
 * starts at or after `from`, its 68 bytes in `data`; `size` if none.
 * `strict`: the chunk also ends at the end of `data` or at a chunk magic. */
uint64_t jfrp_find_header(const uint8_t *data, size_t size, uint64_t from,
                          uint64_t max_chunk_size, bool strict);
/** A reader over chunk `c`'s bytes, at chunk-relative `chunk_offset` (inline
 * so that metadata.c and value.c need nothing from chunk.c). */
static inline void jfrp_chunk_reader(jfrp_reader *r, const jfr_chunk *c,
                                     uint64_t chunk_offset)
{
    jfrp_reader_init(r, c->data, c->size, c->header.file_offset,
                     (c->header.flags & JFR_CHUNK_FLAG_COMPRESSED_INTS) != 0);
    if (chunk_offset > c->size)
        jfrp_reader_fail(r, JFR_ECORRUPT);
    else
        r->p = c->data + chunk_offset;
}
/** Open the chunk at `pos` described by `h`, reading `avail` bytes of it. */
int jfrp_chunk_open(jfr_chunk **out, jfr_recording *rec, uint64_t pos, int64_t index,
                    const jfr_header *h, size_t avail);
/**
 * A followed chunk grew (follow.c): its bytes (in place, the same data
 * pointer) are now `avail`, its header `h` with the same metadata offset.
 * Walks over its records cover only what was added; pools already indexed
 * take the new checkpoints (jfrp_pools_extend).
 */
int jfrp_chunk_extend(jfr_chunk *c, const jfr_header *h, size_t avail);
void jfrp_chunk_free(jfr_chunk *c);

/* metadata.c */
/** Read chunk `c`'s metadata record into c->meta, or take the recording's
 * kept metadata when it was made from the same bytes. */
int jfrp_metadata_read(jfr_chunk *c);
/** Keep `c`'s metadata in its recording for the next chunk (freeing what
 * was kept before); c->meta is left empty. */
void jfrp_metadata_keep(jfr_chunk *c);
void jfrp_meta_free(jfrp_meta *m, const jfrp_alloc *al);

/* The record walk (jfr-format.md §6.1): every record starts with its size
 * and its type id; the one loop that steps over them, shared by the event
 * iterator, the record counts and the checkpoint scan. */
typedef struct jfrp_record {
    const uint8_t *start; /* its size's first byte */
    uint64_t size;
    uint64_t type_id;       /* 0 metadata, 1 checkpoint, else an event type */
    const uint8_t *payload; /* after the type id */
} jfrp_record;

enum { JFRP_RECORD_OK, JFRP_RECORD_END, JFRP_RECORD_BAD };

/** Read the record at `r` and move past it. JFRP_RECORD_END when `r` is
 * empty or, in a salvaged chunk, at the cut-off last record; BAD for a size
 * of 0 (it would never advance, async-profiler#1584) or past the end, or a
 * type id that does not fit (r is then somewhere inside the record). */
static inline int jfrp_record_step(jfrp_reader *r, bool salvaged, jfrp_record *rec)
{
    if (r->p >= r->end)
        return JFRP_RECORD_END;
    rec->start = r->p;
    rec->size = jfrp_int(r, 4);
    if (salvaged && !r->err && rec->size > (uint64_t)(r->end - rec->start)) {
        r->p = r->end;
        return JFRP_RECORD_END;
    }
    if (r->err || rec->size == 0 || rec->size > (uint64_t)(r->end - rec->start))
        return JFRP_RECORD_BAD;
    /* the type id must end inside the record */
    rec->type_id = jfrp_int(r, 8);
    if (r->err || r->p > rec->start + rec->size)
        return JFRP_RECORD_BAD;
    rec->payload = r->p;
    r->p = rec->start + rec->size;
    return JFRP_RECORD_OK;
}

/* event.c */
/** Per type index of `chunk`, 1 for the types named in `types` (several
 * types may share a name: all of them), as jfr_event_iter_new keeps them;
 * allocated with the recording's allocator; NULL when out of memory. */
uint8_t *jfrp_kept_types(jfr_chunk *chunk, const char *const *types, size_t ntypes);
/** Fail for the record at `start` whose size is impossible. */
int jfrp_bad_record(jfr_chunk *c, const uint8_t *start, uint64_t size);

/* constpool.c */
int jfrp_pools_read(jfr_chunk *c);
/** Build the pool index if not done yet; damage becomes the chunk warning. */
void jfrp_pools_ensure(jfr_chunk *c);
/** Index the checkpoints at or after chunk-relative `from` (what a flush
 * added) into pools already indexed, keeping the definitions they hold
 * (jfr-format.md §3.6); nothing when the pools were not indexed yet. */
int jfrp_pools_extend(jfr_chunk *c, uint64_t from);
/** jfrp_pools_ensure, and every pool part left for a first lookup read
 * too: for readers of the whole index (what is damaged, what is kept). */
void jfrp_pools_ensure_all(jfr_chunk *c);
/** Read a pool's parts left for its first lookup (constpool.c). */
void jfrp_pool_read_parts(jfrp_pool *pool);
/** Chunk-relative offset of the pool entry (type, key), or 0 if absent.
 * Call jfrp_pools_ensure(chunk) first: pools are indexed lazily. */
static inline uint64_t jfrp_pool_lookup(const jfr_type *type, uint64_t key)
{
    jfrp_pool *pool = type ? type->pool : NULL;

    if (!pool)
        return 0;
    if (__builtin_expect(pool->nparts != 0, 0))
        jfrp_pool_read_parts(pool);
    if (pool->direct)
        return key - pool->first < pool->ndirect ? pool->direct[key - pool->first] : 0;
    return jfrp_map_get(&pool->entries, key);
}

/** An integer's raw bits as the signed or jdk.jfr.Unsigned value its
 * width declares: the one place that knows how wide each kind is. */
static inline int64_t jfrp_int_of_bits(jfr_kind kind, uint64_t bits, bool is_unsigned)
{
    switch (kind) {
    case JFR_KIND_BYTE:
        return is_unsigned ? (int64_t)(uint8_t)bits : (int8_t)bits;
    case JFR_KIND_CHAR:
        return (int64_t)(uint16_t)bits;
    case JFR_KIND_SHORT:
        return is_unsigned ? (int64_t)(uint16_t)bits : (int16_t)bits;
    case JFR_KIND_INT:
        return is_unsigned ? (int64_t)(uint32_t)bits : (int32_t)bits;
    default:
        return (int64_t)bits;
    }
}

/** The raw bits of a scalar of `kind` (booleans, integers) at `r`. */
static inline uint64_t jfrp_read_scalar_bits(jfrp_reader *r, jfr_kind kind)
{
    switch (kind) {
    case JFR_KIND_BOOLEAN:
    case JFR_KIND_BYTE:
        return jfrp_u8(r);
    case JFR_KIND_CHAR:
    case JFR_KIND_SHORT:
        return jfrp_int(r, 2);
    case JFR_KIND_INT:
        return jfrp_int(r, 4);
    default:
        return jfrp_int(r, 8);
    }
}

/* An array's element count, checked against the bytes left and `limit`. */
static inline uint64_t jfrp_array_count(jfrp_reader *r, const jfr_field *f,
                                        uint32_t limit)
{
    uint64_t n = jfrp_int(r, 4);

    if (r->err)
        return 0;
    if (n > limit) {
        jfrp_reader_fail(r, JFR_ELIMIT);
        return 0;
    }
    if (n > jfrp_reader_left(r) && (f->pooled || !f->type->zero_size)) {
        jfrp_reader_fail(r, JFR_ECORRUPT);
        return 0;
    }
    return n;
}

/* value.c */
int jfrp_read_field(jfr_value *out, jfrp_vctx *ctx, jfrp_reader *r, const jfr_field *f);
int jfrp_value_of_type(jfr_value *out, jfrp_vctx *ctx, jfrp_reader *r,
                       const jfr_type *type, const jfr_field *f);
/** Decode the string at the reader into UTF-8 (NUL-terminated). */
int jfrp_read_string(jfr_str *out, jfrp_vctx *ctx, jfrp_reader *r);
/** The pool entry (type, key) as a value; JFR_VALUE_NULL when undefined. */
int jfrp_pool_value(jfr_value *out, jfr_chunk *c, const jfr_type *type, uint64_t key);
/* jfr_chunk_method_is_application of a method value already read. */
int jfrp_method_is_application(const jfr_value *method);

/* stack.c */
/** A method of the chunk's pool, resolved once and cached in the chunk. */
typedef struct jfrp_method {
    jfr_str class_name; /* internal form ("java/util/HashMap"); NULL if absent */
    jfr_str name;
    jfr_str descriptor;
    int32_t modifiers;
    bool hidden;
} jfrp_method;
/** Method `key` of chunk `c`: the one method resolver of the library (stack
 * frames and profiles). NULL with *rc 0 when the pool has no such method;
 * NULL with *rc < 0 when it could not be read. */
const jfrp_method *jfrp_chunk_method(jfr_chunk *c, uint64_t key, int *rc);
/** The name (internal form, "java/util/HashMap", "[B") of class `key` of
 * chunk `c`, read through `field`, a reference to java.lang.Class: ptr NULL
 * when the key is null or undefined. */
int jfrp_chunk_class_name(jfr_str *out, jfr_chunk *c, const jfr_field *field,
                          uint64_t key);
/** The name of entry `key` of the chunk's java.lang.Class pool, as
 * jfrp_chunk_class_name. */
int jfrp_chunk_class_key_name(jfr_str *out, jfr_chunk *c, uint64_t key);
/** The kind a FrameType name stands for ("JIT compiled"); UNKNOWN for NULL. */
jfr_frame_kind jfrp_frame_kind_by_name(const char *name);

/* utf.c */
/** Convert a raw string payload to UTF-8 into `dst` (size from
 * jfrp_utf8_bound); returns the length written. */
size_t jfrp_utf8_bound(const jfrp_raw_string *s);
size_t jfrp_utf8_convert(char *dst, const jfrp_raw_string *s, bool compressed);

#endif
