/* chunk.c - chunk header decoding and validation, opening a chunk
 * (metadata and pool index), time conversion. See jfr-format.md §3, §11. */
#include <string.h>

#include "jfr_private.h"
#include "field_plan.h"

static uint64_t be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = (v << 8) | p[i];
    return v;
}

/*
 * Decode the 68-byte header at p. Checks structure only: magic, version and
 * that offsets lie inside the declared chunk. Whether the chunk fits in the
 * input is the caller's business.
 */
int jfrp_header_parse(jfr_header *h, const uint8_t *p, size_t avail)
{
    memset(h, 0, sizeof *h);
    if (avail < 4 || memcmp(p, "FLR\0", 4) != 0)
        return JFR_EFORMAT;
    if (avail < 8)
        return JFR_ETRUNCATED;
    h->major = (uint16_t)(p[4] << 8 | p[5]);
    h->minor = (uint16_t)(p[6] << 8 | p[7]);
    if (h->major != 1 && h->major != 2)
        return JFR_EVERSION;
    if (avail < JFRP_HEADER_SIZE)
        return JFR_ETRUNCATED;
    h->chunk_size = be64(p + 8);
    h->constant_pool_offset = be64(p + 16);
    h->metadata_offset = be64(p + 24);
    h->start_nanos = (int64_t)be64(p + 32);
    h->duration_nanos = (int64_t)be64(p + 40);
    h->start_ticks = (int64_t)be64(p + 48);
    h->ticks_per_second = (int64_t)be64(p + 56);
    h->state = p[64];
    h->flags = (uint16_t)(p[66] << 8 | p[67]);
    if (h->chunk_size < JFRP_HEADER_SIZE)
        return JFR_ECORRUPT;
    if (h->metadata_offset < JFRP_HEADER_SIZE || h->metadata_offset >= h->chunk_size)
        return JFR_ECORRUPT;
    if (h->constant_pool_offset != 0 && (h->constant_pool_offset < JFRP_HEADER_SIZE ||
                                         h->constant_pool_offset >= h->chunk_size))
        return JFR_ECORRUPT;
    return JFR_OK;
}

/*
 * A header worth resynchronising on: one that parses (magic, version 1 or
 * 2, offsets inside the chunk), with a size under the limit. `strict` also
 * wants the chunk to end where the input or another chunk's magic does:
 * the JDK copies its chunk header into the chunk at every flush
 * (jdk.ChunkHeader), and such a copy ends nowhere in particular.
 */
static bool plausible_header(const uint8_t *data, size_t size, uint64_t at,
                             uint64_t max_chunk_size, bool strict)
{
    jfr_header h;
    uint64_t left = size - at;

    if (jfrp_header_parse(&h, data + at, left) != JFR_OK || h.chunk_size > max_chunk_size)
        return false;
    if (!strict)
        return true;
    if (h.chunk_size > left)
        return false;
    return h.chunk_size == left || (left - h.chunk_size >= 4 &&
                                    memcmp(data + at + h.chunk_size, "FLR\0", 4) == 0);
}

uint64_t jfrp_find_header(const uint8_t *data, size_t size, uint64_t from,
                          uint64_t max_chunk_size, bool strict)
{
    while (from < size && size - from >= JFRP_HEADER_SIZE) {
        const uint8_t *p = memchr(data + from, 'F', size - from - 3);

        if (!p)
            break;
        from = (uint64_t)(p - data);
        if (size - from < JFRP_HEADER_SIZE)
            break;
        if (memcmp(p, "FLR\0", 4) == 0 &&
            plausible_header(data, size, from, max_chunk_size, strict))
            return from;
        from++;
    }
    return size;
}

int jfrp_chunk_open(jfr_chunk **out, jfr_recording *rec, uint64_t pos, int64_t index,
                    const jfr_header *h, size_t avail)
{
    jfr_chunk *c;
    int rc;

    *out = NULL;
    c = jfrp_calloc(&rec->al, 1, sizeof *c);
    if (!c)
        return jfrp_fail(&rec->err, JFR_ENOMEM, index, pos, "out of memory");
    c->rec = rec;
    c->index = index;
    c->header = *h;
    c->header.file_offset = rec->base_offset + pos;
    c->data = rec->data + pos;
    c->size = avail;
    c->records_from = JFRP_HEADER_SIZE;
    c->unfinished = c->header.state != 0;
    if (c->header.ticks_per_second <= 0)
        c->header.ticks_per_second = 1000000000; /* keep times usable */
    /* the previous chunk's blocks, if kept */
    c->arena = rec->chunk_spare;
    jfrp_arena_init(&rec->chunk_spare, &rec->al);
    c->pool_ctx.chunk = c;
    c->pool_ctx.scratch = NULL;
    if ((rc = jfrp_metadata_read(c)) < 0) {
        jfrp_chunk_free(c);
        return rc;
    }
    /* constant pools are indexed on first use (jfrp_pools_ensure): counting
     * events needs none of them */
    *out = c;
    return JFR_OK;
}

/* What a recording keeps of a chunk's arena for the next chunk. */
#define KEEP_ARENA_BYTES ((size_t)64 << 20)

void jfrp_chunk_free(jfr_chunk *c)
{
    const jfrp_alloc *al;

    if (!c)
        return;
    /* a mapped chunk is read once: memory stays near one chunk's worth
     * whatever the file size (pages shared with neighbours are kept) */
    jfrp_mapping_forget(c->rec, c->data, c->data + c->size, false);
    al = &c->rec->al;
    for (size_t i = 0; i < c->npools; i++)
        jfrp_pool_free(&c->pools[i], al);
    jfrp_metadata_keep(c);
    jfrp_map_free(&c->string_cache, al);
    jfrp_map_free(&c->stack_cache, al);
    jfrp_map_free(&c->method_cache, al);
    if (c->method_plan)
        jfrp_field_plan_free(c->method_plan, al);
    if (c->class_plan)
        jfrp_field_plan_free(c->class_plan, al);
    jfrp_map_free(&c->frame_kind_cache, al);
    jfrp_free(al, c->record_starts);
    /* keep the blocks for the next chunk, unless they are many */
    jfrp_arena_recycle(&c->arena);
    if (!c->rec->chunk_spare.spare && jfrp_arena_held(&c->arena) <= KEEP_ARENA_BYTES)
        c->rec->chunk_spare = c->arena;
    else
        jfrp_arena_free(&c->arena);
    jfrp_free(al, c);
}

int jfrp_chunk_extend(jfr_chunk *c, const jfr_header *h, size_t avail)
{
    uint64_t from = c->size, at = c->header.file_offset;

    if (avail < c->size || h->metadata_offset != c->header.metadata_offset)
        return JFR_EINVAL; /* the follower opens the chunk again instead */
    c->header = *h;
    c->header.file_offset = at;
    if (c->header.ticks_per_second <= 0)
        c->header.ticks_per_second = 1000000000;
    c->size = avail;
    c->records_from = from;
    c->unfinished = h->state != 0;
    return jfrp_pools_extend(c, from);
}

const jfr_header *jfr_chunk_header(const jfr_chunk *chunk)
{
    return chunk ? &chunk->header : NULL;
}

int64_t jfr_chunk_index(const jfr_chunk *chunk)
{
    return chunk ? chunk->index : -1;
}

const jfr_error *jfr_chunk_warning(const jfr_chunk *chunk)
{
    return chunk && chunk->has_warning ? &chunk->warning : NULL;
}

bool jfr_chunk_is_unfinished(const jfr_chunk *chunk)
{
    return chunk && chunk->unfinished;
}

/* Truncation toward zero, saturating outside int64_t (damaged times; a
 * plain cast would be undefined there) and 0 for NaN. */
static int64_t double_to_i64(double d)
{
    if (d != d)
        return 0;
    if (d >= 9223372036854775808.0)
        return INT64_MAX;
    if (d < -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)d;
}

/* The JDK divides by ticksPerSecond / 1e9 as a double and truncates; doing
 * the same reproduces its timestamps to the nanosecond (jfr-format.md §11). */
int64_t jfr_chunk_ticks_to_nanos(const jfr_chunk *chunk, int64_t ticks)
{
    double per_ns;

    if (!chunk)
        return 0;
    /* nanosecond ticks: the quotient by 1.0 is the tick count as a double,
     * which the JDK's rounds past 2^53 (104 days) as well */
    if (chunk->header.ticks_per_second == 1000000000)
        return double_to_i64((double)ticks);
    per_ns = (double)chunk->header.ticks_per_second / 1e9;
    return double_to_i64((double)ticks / per_ns);
}

int64_t jfrp_header_end_nanos(const jfr_header *h)
{
    int64_t end;

    if (h->duration_nanos <= 0)
        return h->start_nanos;
    return __builtin_add_overflow(h->start_nanos, h->duration_nanos, &end) ? INT64_MAX
                                                                           : end;
}

int64_t jfr_chunk_ticks_to_epoch_nanos(const jfr_chunk *chunk, int64_t ticks)
{
    int64_t span, sum;

    if (!chunk)
        return 0;
    span = jfr_chunk_ticks_to_nanos(
        chunk, (int64_t)((uint64_t)ticks - (uint64_t)chunk->header.start_ticks));
    /* damaged times saturate instead of overflowing */
    if (__builtin_add_overflow(chunk->header.start_nanos, span, &sum))
        return span > 0 ? INT64_MAX : INT64_MIN;
    return sum;
}

int64_t jfr_chunk_gmt_offset_ms(const jfr_chunk *chunk)
{
    return chunk ? chunk->meta.gmt_offset_ms : 0;
}
