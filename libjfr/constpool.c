/* constpool.c - find a chunk's checkpoints and index every constant-pool
 * entry: (type, key) -> offset of its value, decoded later on demand
 * (jfr-format.md §8). Later definitions of a key replace earlier ones. */
#include <stdio.h>
#include <string.h>

#include "jfr_private.h"
#include "skip.h"

/* Checkpoint offsets, collected from the delta chain (newest first). */
typedef struct cp_list {
    uint64_t *off;
    size_t n, cap;
} cp_list;

static int cp_push(jfr_chunk *c, cp_list *l, uint64_t off)
{
    if (jfrp_grow_array(&c->rec->al, (void **)&l->off, &l->cap, l->n + 1,
                        sizeof *l->off) < 0)
        return JFR_ENOMEM;
    l->off[l->n++] = off;
    return 0;
}

/* ---- the index of one pool ---- */

static int pending_reserve(jfrp_pool *pool, jfr_chunk *c, uint64_t more)
{
    uint64_t(*grown)[2];
    size_t room = pool->pending_room ? pool->pending_room : 64;

    if (more <= pool->pending_room - pool->npending)
        return 0;
    while (room - pool->npending < more) {
        if (room > SIZE_MAX / 2 / sizeof *grown)
            return JFR_ENOMEM;
        room *= 2;
    }
    grown = jfrp_reallocarray(&c->rec->al, pool->pending, room, sizeof *grown);
    if (!grown)
        return JFR_ENOMEM;
    pool->pending = grown;
    pool->pending_room = room;
    return 0;
}

static inline void pending_add(jfrp_pool *pool, uint64_t key, uint64_t off)
{
    if (pool->npending == 0 || key < pool->min_key)
        pool->min_key = key;
    if (pool->npending == 0 || key > pool->max_key)
        pool->max_key = key;
    pool->pending[pool->npending][0] = key;
    pool->pending[pool->npending][1] = off;
    pool->npending++;
}

/* ---- pool parts read on first lookup ----
 *
 * A pool that ends its checkpoint need not be walked to reach anything
 * after it, so its entries are left unread until its type is looked up:
 * `view gc-configuration` of a file whose stack traces are 90 % of its
 * bytes no longer walks them. Once a type has such a part, every later
 * part of it waits too, so that its entries are still indexed in reading
 * order. */

typedef struct jfrp_pool_part {
    uint64_t checkpoint; /* chunk-relative, for messages */
    uint64_t entries;    /* the first entry's key */
    uint64_t end;        /* the checkpoint's end */
    uint64_t count;
} jfrp_pool_part;

static int part_add(jfrp_pool *pool, jfr_chunk *c, const jfrp_pool_part *part)
{
    if (jfrp_grow_array(&c->rec->al, (void **)&pool->parts, &pool->parts_room,
                        pool->nparts + 1, sizeof *part) < 0)
        return JFR_ENOMEM;
    pool->parts[pool->nparts++] = *part;
    return 0;
}

/* Index `count` entries of `type` from `r` into the pool's pending list
 * (room reserved); each entry is skipped whole, so that a lookup knows
 * its end is sound (jfrp_pool_value). */
static void read_entries(jfrp_pool *pool, const jfr_type *type, jfrp_reader *r,
                         const uint8_t *data, uint64_t count)
{
    for (uint64_t k = 0; k < count && !r->err; k++) {
        uint64_t key = jfrp_int(r, 8);
        uint64_t value_off = (uint64_t)(r->p - data);

        jfrp_skip_inline(r, type);
        if (r->err)
            break;
        pending_add(pool, key, value_off);
    }
}

static int pool_finish(jfrp_pool *pool, const jfrp_alloc *al);

/* Read the parts left waiting into the pending list, in reading order.
 * 0, JFR_ENOMEM, or the first damage, placed (c->rec->err). */
static int read_parts(jfrp_pool *pool)
{
    jfr_chunk *c = pool->chunk;
    int rc = 0;

    for (size_t i = 0; i < pool->nparts; i++) {
        const jfrp_pool_part *part = &pool->parts[i];
        jfrp_reader r;
        char what[80];

        if (pending_reserve(pool, c, part->count) < 0) {
            rc = jfrp_chunk_fail(c, JFR_ENOMEM, c->header.file_offset + part->entries,
                                 "out of memory");
            break;
        }
        jfrp_chunk_reader(&r, c, part->entries);
        r.end = c->data + part->end;
        read_entries(pool, pool->type, &r, c->data, part->count);
        if (r.err && rc == 0) {
            snprintf(what, sizeof what, "checkpoint at offset %llu",
                     (unsigned long long)(c->header.file_offset + part->checkpoint));
            rc = jfrp_reader_error(c, JFR_PLACE_CHUNK, &r, what);
        }
    }
    jfrp_free(&c->rec->al, pool->parts);
    pool->parts = NULL;
    pool->nparts = pool->parts_room = 0;
    return rc;
}

/* On a type's first lookup: damage found now is the chunk's warning, as
 * if the pools had been read whole at once. */
void jfrp_pool_read_parts(jfrp_pool *pool)
{
    jfr_chunk *c = pool->chunk;
    jfr_error saved = c->rec->err;
    int rc = read_parts(pool);

    if (pool_finish(pool, &c->rec->al) == JFR_ENOMEM && rc == 0)
        rc = jfrp_chunk_fail(c, JFR_ENOMEM, c->header.file_offset, "out of memory");
    if (rc < 0) {
        c->pools_damaged = true;
        if (!c->has_warning) {
            c->has_warning = true;
            c->warning = c->rec->err;
        }
        c->rec->err = saved;
    }
}

/* Index what was read (once per chunk: jfrp_pools_ensure). Entries are
 * put in reading order, so a key read again replaces the earlier
 * definition, in the array as in the map. An array is used when it takes
 * no more room than the map would. */
static int pool_finish(jfrp_pool *pool, const jfrp_alloc *al)
{
    size_t n = pool->npending;
    int rc = 0;

    if (n == 0)
        return 0;
    if (pool->max_key - pool->min_key < 2 * (uint64_t)n + 64) {
        size_t range = (size_t)(pool->max_key - pool->min_key) + 1;

        if (!(pool->direct = jfrp_calloc(al, range, sizeof *pool->direct))) {
            rc = JFR_ENOMEM;
        } else {
            pool->first = pool->min_key;
            pool->ndirect = range;
            pool->nindexed = n;
            for (size_t i = 0; i < n; i++)
                pool->direct[pool->pending[i][0] - pool->first] = pool->pending[i][1];
        }
    } else if ((rc = jfrp_map_reserve(&pool->entries, al, n)) == 0) {
        /* cannot fail: the room is there */
        for (size_t i = 0; i < n; i++)
            (void)jfrp_map_put(&pool->entries, al, pool->pending[i][0],
                               pool->pending[i][1]);
        pool->nindexed = n;
    }
    jfrp_free(al, pool->pending);
    pool->pending = NULL;
    pool->npending = pool->pending_room = 0;
    return rc;
}

/* ---- a followed chunk's pools grow at each flush (jfr-format.md §3.6) ---- */

static uint64_t pool_get(const jfrp_pool *pool, uint64_t key)
{
    if (pool->direct)
        return key - pool->first < pool->ndirect ? pool->direct[key - pool->first] : 0;
    return jfrp_map_get(&pool->entries, key);
}

/* Make the array index cover the pending keys too, or move every entry
 * to the map when the keys are no longer close together. */
static int widen_direct(jfrp_pool *pool, const jfrp_alloc *al)
{
    uint64_t lo = pool->first, hi = pool->first + pool->ndirect - 1;
    uint64_t *grown;

    if (pool->min_key < lo)
        lo = pool->min_key;
    if (pool->max_key > hi)
        hi = pool->max_key;
    if (lo == pool->first && hi == pool->first + pool->ndirect - 1)
        return 0;
    if (hi - lo < 2 * ((uint64_t)pool->nindexed + pool->npending) + 64) {
        if (!(grown = jfrp_calloc(al, (size_t)(hi - lo) + 1, sizeof *grown)))
            return JFR_ENOMEM;
        memcpy(grown + (pool->first - lo), pool->direct, pool->ndirect * sizeof *grown);
        jfrp_free(al, pool->direct);
        pool->direct = grown;
        pool->first = lo;
        pool->ndirect = (size_t)(hi - lo) + 1;
        return 0;
    }
    if (jfrp_map_reserve(&pool->entries, al, pool->nindexed + pool->npending) < 0)
        return JFR_ENOMEM;
    for (size_t i = 0; i < pool->ndirect; i++)
        if (pool->direct[i])
            (void)jfrp_map_put(&pool->entries, al, pool->first + i, pool->direct[i]);
    jfrp_free(al, pool->direct);
    pool->direct = NULL;
    pool->ndirect = 0;
    return 0;
}

/* Add the pending entries (read newest first) to an index that exists,
 * keeping the keys it has: of several definitions the oldest wins, as when
 * the whole chunk is read at once. */
static int pool_merge(jfrp_pool *pool, const jfrp_alloc *al)
{
    int rc = 0;

    if (pool->npending == 0)
        return 0;
    if (!pool->direct && pool->entries.count == 0)
        return pool_finish(pool, al);
    if (pool->direct)
        rc = widen_direct(pool, al);
    if (rc == 0 && !pool->direct)
        rc = jfrp_map_reserve(&pool->entries, al, pool->npending);
    for (size_t i = pool->npending; rc == 0 && i-- > 0;) {
        uint64_t key = pool->pending[i][0], off = pool->pending[i][1];

        if (pool_get(pool, key))
            continue;
        if (pool->direct)
            pool->direct[key - pool->first] = off;
        else
            (void)jfrp_map_put(&pool->entries, al, key, off); /* room reserved */
        pool->nindexed++;
    }
    jfrp_free(al, pool->pending);
    pool->pending = NULL;
    pool->npending = pool->pending_room = 0;
    return rc;
}

void jfrp_pool_free(jfrp_pool *pool, const jfrp_alloc *al)
{
    jfrp_free(al, pool->direct);
    jfrp_free(al, pool->pending);
    jfrp_free(al, pool->parts);
    jfrp_map_free(&pool->entries, al);
    pool->direct = NULL;
    pool->pending = NULL;
    pool->parts = NULL;
    pool->ndirect = pool->npending = pool->pending_room = 0;
    pool->nparts = pool->parts_room = 0;
}

/* Walk the backwards-linked chain from the header down to checkpoints that
 * start at or after `from` (0: all of them). Every step must move strictly
 * backwards, so the walk ends. Returns false if the chain breaks. */
static bool walk_chain(jfr_chunk *c, uint64_t from, cp_list *l, int *rc)
{
    uint64_t pos = c->header.constant_pool_offset;

    while (pos && pos >= from) {
        jfrp_reader r;
        int64_t delta;

        if (pos < JFRP_HEADER_SIZE || pos >= c->size)
            return false;
        jfrp_chunk_reader(&r, c, pos);
        (void)jfrp_int(&r, 4);    /* size */
        if (jfrp_int(&r, 8) != 1) /* type id: checkpoint */
            return false;
        (void)jfrp_int(&r, 8);            /* start time */
        (void)jfrp_int(&r, 8);            /* duration */
        delta = (int64_t)jfrp_int(&r, 8); /* to the previous checkpoint */
        if (r.err)
            return false;
        if ((*rc = cp_push(c, l, pos)) < 0)
            return false;
        if (delta == 0)
            break;
        /* negate in unsigned arithmetic: -INT64_MIN overflows */
        if (delta > 0 || 0 - (uint64_t)delta > pos)
            return false;
        pos -= 0 - (uint64_t)delta;
    }
    return true;
}

/* Fallback: every checkpoint record met while walking the chunk's records
 * from `from` (at least the first record). */
static int scan_records(jfr_chunk *c, uint64_t from, cp_list *l)
{
    jfrp_reader r;
    jfrp_record rec;

    l->n = 0;
    jfrp_chunk_reader(&r, c, from > JFRP_HEADER_SIZE ? from : JFRP_HEADER_SIZE);
    /* past a bad record the others cannot be found */
    while (jfrp_record_step(&r, false, &rec) == JFRP_RECORD_OK) {
        if (rec.type_id == 1) {
            int rc = cp_push(c, l, (uint64_t)(rec.start - c->data));
            if (rc < 0)
                return rc;
        }
    }
    /* newest first, like the chain */
    for (size_t i = 0; i < l->n / 2; i++) {
        uint64_t t = l->off[i];
        l->off[i] = l->off[l->n - 1 - i];
        l->off[l->n - 1 - i] = t;
    }
    return 0;
}

static jfrp_pool *pool_for(jfr_chunk *c, const jfr_type *type)
{
    jfr_type *t = &c->meta.types[type->index];

    if (!c->pools) {
        c->pools = jfrp_arena_calloc(&c->arena, c->meta.ntypes, sizeof *c->pools);
        if (!c->pools)
            return NULL;
        c->npools = c->meta.ntypes;
    }
    t->pool = &c->pools[type->index];
    t->pool->type = type;
    t->pool->chunk = c;
    return t->pool;
}

/* Index a pool walked where it is, after the parts of its type that wait
 * (to keep the reading order). JFR_ENOMEM, or 0 with *damage set to the
 * parts' first damage if it was 0: reported as the checkpoint's own. */
static int walk_pool(jfr_chunk *c, jfrp_pool *pool, jfrp_reader *r, uint64_t count,
                     int *damage)
{
    if (pool->nparts) {
        int prc = read_parts(pool);

        if (prc == JFR_ENOMEM)
            return prc;
        if (*damage == 0)
            *damage = prc;
    }
    /* the count is bounded by the bytes left */
    if (pending_reserve(pool, c, count) < 0)
        return jfrp_chunk_fail(c, JFR_ENOMEM, jfrp_reader_offset(r), "out of memory");
    read_entries(pool, pool->type, r, c->data, count);
    return 0;
}

/* Index the checkpoint at `pos`; with `may_wait`, a pool that ends it
 * waits for its type's first lookup. */
static int read_checkpoint(jfr_chunk *c, uint64_t pos, bool may_wait)
{
    jfrp_reader r;
    uint64_t size, npools;
    char what[80];
    int parts_rc = 0;

    jfrp_chunk_reader(&r, c, pos);
    size = jfrp_int(&r, 4);
    if (r.err || size == 0 || size > c->size - pos)
        return jfrp_chunk_fail_placed(
            c, JFR_PLACE_CHUNK, JFR_ECORRUPT, c->header.file_offset + pos,
            "checkpoint at offset %llu has bad size %llu",
            (unsigned long long)(c->header.file_offset + pos), (unsigned long long)size);
    r.end = c->data + pos + size;
    (void)jfrp_int(&r, 8); /* type id */
    (void)jfrp_int(&r, 8); /* start time */
    (void)jfrp_int(&r, 8); /* duration */
    (void)jfrp_int(&r, 8); /* delta */
    if (r.compressed)
        (void)jfrp_varint(&r); /* type flags, informational */
    else
        (void)jfrp_u8(&r);
    npools = jfrp_int(&r, 4);
    for (uint64_t i = 0; i < npools && !r.err; i++) {
        uint64_t type_id = jfrp_int(&r, 8), count = jfrp_int(&r, 4);
        const jfr_type *type = jfr_chunk_type_by_id(c, type_id);
        jfrp_pool *pool;

        if (r.err)
            break;
        if (!type)
            return jfrp_chunk_fail_placed(
                c, JFR_PLACE_CHUNK, JFR_ECORRUPT, jfrp_reader_offset(&r),
                "checkpoint at offset %llu: pool of"
                " undeclared type id %llu",
                (unsigned long long)(c->header.file_offset + pos),
                (unsigned long long)type_id);
        if (count > jfrp_reader_left(&r)) {
            jfrp_reader_fail(&r, JFR_ECORRUPT);
            break;
        }
        c->pool_entries += count;
        if (c->pool_entries > c->rec->opts.max_pool_entries)
            return jfrp_chunk_fail_placed(
                c, JFR_PLACE_CHUNK, JFR_ELIMIT, jfrp_reader_offset(&r),
                "more than %llu constant-pool entries",
                (unsigned long long)c->rec->opts.max_pool_entries);
        if (!(pool = pool_for(c, type)))
            return jfrp_chunk_fail(c, JFR_ENOMEM, jfrp_reader_offset(&r),
                                   "out of memory");
        if (may_wait && i + 1 == npools) {
            jfrp_pool_part part = {pos, (uint64_t)(r.p - c->data), pos + size, count};

            if (part_add(pool, c, &part) < 0)
                return jfrp_chunk_fail(c, JFR_ENOMEM, jfrp_reader_offset(&r),
                                       "out of memory");
            break;
        }
        if (walk_pool(c, pool, &r, count, &parts_rc) == JFR_ENOMEM)
            return JFR_ENOMEM;
    }
    if (r.err) {
        snprintf(what, sizeof what, "checkpoint at offset %llu",
                 (unsigned long long)(c->header.file_offset + pos));
        return jfrp_reader_error(c, JFR_PLACE_CHUNK, &r, what);
    }
    return parts_rc;
}

int jfrp_pools_read(jfr_chunk *c)
{
    cp_list l = {NULL, 0, 0};
    jfr_error first_err;
    int rc = 0;

    if (c->header.constant_pool_offset == 0 || !walk_chain(c, 0, &l, &rc)) {
        if (rc == 0)
            rc = scan_records(c, 0, &l);
    }
    if (rc < 0) {
        jfrp_free(&c->rec->al, l.off);
        return jfrp_chunk_fail(c, rc, c->header.file_offset, "out of memory");
    }
    /* newest first, so that the oldest definition of a key wins: the JDK's
     * reader walks the chain the same way and keeps what it put last (a
     * thread renamed later keeps its first name there, as here) */
    for (size_t i = 0; i < l.n; i++) {
        /* each checkpoint states its size: a damaged one is skipped and the
         * others are still indexed; the first failure is reported */
        int crc = read_checkpoint(c, l.off[i], true);
        jfr_error first = c->rec->err;

        if (crc == JFR_ENOMEM) {
            rc = crc;
            break;
        }
        if (crc < 0 && rc == 0) {
            rc = crc;
            first_err = first;
        }
    }
    /* what was read before a failure is indexed too; a pool with parts
     * waiting is finished when they are read */
    for (size_t i = 0; i < c->npools; i++)
        if (!c->pools[i].nparts && pool_finish(&c->pools[i], &c->rec->al) == JFR_ENOMEM &&
            rc != JFR_ENOMEM)
            rc = jfrp_chunk_fail(c, JFR_ENOMEM, c->header.file_offset, "out of memory");
    if (rc < 0 && rc != JFR_ENOMEM)
        c->rec->err = first_err;
    jfrp_free(&c->rec->al, l.off);
    return rc;
}

int jfrp_pools_extend(jfr_chunk *c, uint64_t from)
{
    cp_list l = {NULL, 0, 0};
    int rc = 0;

    if (!c->pools_indexed)
        return 0; /* indexed whole on first use */
    /* the index grows from here: nothing waits any longer */
    jfrp_pools_ensure_all(c);
    /* no new checkpoint: the flush added events whose pools it had */
    if (c->header.constant_pool_offset >= from && !walk_chain(c, from, &l, &rc) &&
        rc == 0)
        rc = scan_records(c, from, &l);
    for (size_t i = 0; i < l.n && rc != JFR_ENOMEM; i++) {
        /* a damaged checkpoint is skipped, the first damage kept as the
         * chunk's warning, as for a chunk read whole */
        jfr_error saved = c->rec->err;
        int crc = read_checkpoint(c, l.off[i], false);

        if (crc == JFR_ENOMEM)
            rc = crc;
        else if (crc < 0 && !c->has_warning) {
            c->has_warning = true;
            c->warning = c->rec->err;
        }
        if (crc < 0 && crc != JFR_ENOMEM)
            c->rec->err = saved;
    }
    for (size_t i = 0; i < c->npools; i++)
        if (pool_merge(&c->pools[i], &c->rec->al) == JFR_ENOMEM)
            rc = JFR_ENOMEM;
    jfrp_free(&c->rec->al, l.off);
    return rc == JFR_ENOMEM
               ? jfrp_chunk_fail(c, rc, c->header.file_offset + from, "out of memory")
               : 0;
}

void jfrp_pools_ensure(jfr_chunk *c)
{
    jfr_error saved;
    int rc;

    if (c->pools_indexed)
        return;
    c->pools_indexed = true;
    saved = c->rec->err;
    rc = jfrp_pools_read(c);
    c->pools_damaged = rc < 0;
    if (rc < 0 && !c->has_warning) {
        /* keep what was indexed; events stay readable (jfr_chunk_warning) */
        c->has_warning = true;
        c->warning = c->rec->err;
    }
    if (rc < 0)
        c->rec->err = saved;
}

void jfrp_pools_ensure_all(jfr_chunk *c)
{
    jfrp_pools_ensure(c);
    for (size_t i = 0; i < c->npools; i++)
        if (c->pools[i].nparts)
            jfrp_pool_read_parts(&c->pools[i]);
}
