/* record_index.c - where each event type's records are in a chunk, kept by
 * the recording once a chunk is walked for some of its types a second time.
 *
 * A walk for a few types (an SQL table, a view's event type) steps over
 * every record of the chunk. Queries and views that read several types walk
 * each chunk once per type; from the second walk on (or the first, when the
 * caller says more will follow: JFR_ITER_INDEX), the recording lists every
 * type's records by offset, in one more walk, and later walks visit only
 * their own records. A single walk, the common case, costs nothing more.
 * The lists take 4 bytes a record (records average tens of bytes); a chunk
 * that is damaged, too large for 32-bit offsets or beyond the recording's
 * budget is walked as before. record_index_ahead.c lists every chunk in
 * threads before the walks. */
#include <stdlib.h>
#include <string.h>

#include "jfr_private.h"

struct jfrp_record_index {
    uint64_t chunk_offset; /* the chunk's header.file_offset */
    uint64_t chunk_size;
    uint32_t walks;  /* filtered walks begun */
    uint32_t ntypes; /* the chunk's types when the lists were made */
    uint32_t *first; /* per type index: its records are at[first[t] .. first[t + 1]) */
    uint32_t *at;    /* record offsets in the chunk, by type, each type in file order */
    uint8_t *listed; /* NULL: every type listed; else which ones (listed ahead) */
    uint64_t bytes;  /* what the lists count against the budget */
    bool unusable;   /* walk the chunk as before */
};

void jfrp_record_indexes_free(jfr_recording *rec)
{
    for (size_t i = 0; i < rec->nrindex; i++) {
        jfrp_free(&rec->al, rec->rindex[i].first);
        jfrp_free(&rec->al, rec->rindex[i].at);
        jfrp_free(&rec->al, rec->rindex[i].listed);
    }
    jfrp_free(&rec->al, rec->rindex);
    rec->rindex = NULL;
    rec->nrindex = rec->rindex_cap = 0;
    rec->rindex_bytes = 0;
}

/* The entry of the chunk at `key` (its header.file_offset) of `size`
 * bytes, made if new; entries are sorted by chunk offset (chunks are
 * mostly read in order, so a new one usually goes last). */
static jfrp_record_index *entry_at(jfr_recording *rec, uint64_t key, uint64_t size)
{
    size_t lo = 0, hi = rec->nrindex;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (rec->rindex[mid].chunk_offset < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < rec->nrindex && rec->rindex[lo].chunk_offset == key)
        return &rec->rindex[lo];
    if (rec->nrindex == rec->rindex_cap) {
        size_t cap = rec->rindex_cap ? rec->rindex_cap * 2 : 16;
        jfrp_record_index *v =
            jfrp_reallocarray(&rec->al, rec->rindex, cap, sizeof *rec->rindex);
        if (!v)
            return NULL;
        rec->rindex = v;
        rec->rindex_cap = cap;
    }
    memmove(&rec->rindex[lo + 1], &rec->rindex[lo],
            (rec->nrindex - lo) * sizeof *rec->rindex);
    rec->rindex[lo] = (jfrp_record_index){.chunk_offset = key, .chunk_size = size};
    rec->nrindex++;
    return &rec->rindex[lo];
}

static jfrp_record_index *entry_of(jfr_chunk *c)
{
    return entry_at(c->rec, c->header.file_offset, c->size);
}

/* One walk over the chunk: each event record's type index and offset,
 * then the offsets grouped by type (a counting sort keeps file order). */
int jfrp_record_lists_make(jfrp_record_lists *x, jfr_chunk *c, const uint8_t *keep,
                           uint64_t room)
{
    const jfrp_alloc *al = &c->rec->al;
    size_t ntypes = c->meta.ntypes, n = 0, cap = 0;
    uint32_t *types = NULL, *offsets = NULL;
    jfrp_reader r;
    jfrp_record rec;
    int step, rc = JFR_ENOMEM;

    x->first = x->at = NULL;
    x->listed = NULL;
    x->ntypes = (uint32_t)ntypes;
    jfrp_chunk_reader(&r, c, JFRP_HEADER_SIZE);
    while ((step = jfrp_record_step(&r, c->salvaged, &rec)) == JFRP_RECORD_OK) {
        const jfr_type *t = rec.type_id > 1 ? jfr_chunk_type_by_id(c, rec.type_id) : NULL;
        if (!t || (keep && !keep[t->index]))
            continue;
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 4096;
            uint32_t *nt = jfrp_reallocarray(al, types, ncap, sizeof *types);
            uint32_t *no =
                nt ? jfrp_reallocarray(al, offsets, ncap, sizeof *offsets) : NULL;
            if (nt)
                types = nt;
            if (!no)
                goto out;
            offsets = no;
            cap = ncap;
        }
        types[n] = (uint32_t)t->index;
        offsets[n] = (uint32_t)(rec.start - c->data);
        n++;
    }
    x->bytes = (uint64_t)(n + ntypes + 1) * sizeof(uint32_t) + (keep ? ntypes : 0);
    if (step == JFRP_RECORD_BAD || x->bytes > room) {
        rc = 0;
        goto out;
    }
    x->first = jfrp_calloc(al, ntypes + 1, sizeof *x->first);
    x->at = jfrp_malloc(al, (n ? n : 1) * sizeof *x->at);
    if (keep && (x->listed = jfrp_malloc(al, ntypes ? ntypes : 1)))
        memcpy(x->listed, keep, ntypes);
    if (!x->first || !x->at || (keep && !x->listed))
        goto out;
    for (size_t i = 0; i < n; i++)
        x->first[types[i] + 1]++;
    for (size_t t = 0; t < ntypes; t++)
        x->first[t + 1] += x->first[t];
    /* first[t] is now where type t starts; fill, then shift back */
    for (size_t i = 0; i < n; i++)
        x->at[x->first[types[i]]++] = offsets[i];
    memmove(&x->first[1], &x->first[0], ntypes * sizeof *x->first);
    x->first[0] = 0;
    rc = 1;
out:
    if (rc != 1) {
        jfrp_free(al, x->first);
        jfrp_free(al, x->at);
        jfrp_free(al, x->listed);
        x->first = x->at = NULL;
        x->listed = NULL;
    }
    jfrp_free(al, types);
    jfrp_free(al, offsets);
    return rc;
}

/* A followed chunk is walked a segment at a time; offsets are 32-bit. */
bool jfrp_record_listable(const jfr_chunk *c)
{
    return c->size <= UINT32_MAX && !c->unfinished && c->records_from == JFRP_HEADER_SIZE;
}

static void install(jfrp_record_index *x, jfr_recording *rec, jfrp_record_lists *l)
{
    x->first = l->first;
    x->at = l->at;
    x->listed = l->listed;
    x->ntypes = l->ntypes;
    x->bytes = l->bytes;
    rec->rindex_bytes += l->bytes;
    l->first = l->at = NULL;
    l->listed = NULL;
}

/* Give back lists made ahead for other types than a walk wants. */
static void drop(jfrp_record_index *x, jfr_recording *rec)
{
    jfrp_free(&rec->al, x->first);
    jfrp_free(&rec->al, x->at);
    jfrp_free(&rec->al, x->listed);
    x->first = x->at = NULL;
    x->listed = NULL;
    rec->rindex_bytes -= x->bytes;
    x->bytes = 0;
}

/* Whether the lists hold every type `keep` marks. */
static bool lists_cover(const jfrp_record_index *x, const uint8_t *keep, size_t ntypes)
{
    if (!x->listed)
        return true;
    for (size_t t = 0; t < ntypes; t++)
        if (keep[t] && !x->listed[t])
            return false;
    return true;
}

void jfrp_record_lists_take(jfr_recording *rec, uint64_t chunk_offset,
                            uint64_t chunk_size, int made, jfrp_record_lists *l)
{
    jfrp_record_index *x = entry_at(rec, chunk_offset, chunk_size);

    if (!x || x->first || x->unusable || x->chunk_size != chunk_size)
        return;
    if (made == 0)
        x->unusable = true;
    else if (l->bytes <= JFRP_INDEX_BUDGET_BYTES - rec->rindex_bytes)
        install(x, rec, l);
}

/* The lists of every type of chunk `c`, made now for its entry `x`. */
static int build(jfrp_record_index *x, jfr_chunk *c)
{
    jfrp_record_lists l;
    int rc = jfrp_record_lists_make(&l, c, NULL,
                                    JFRP_INDEX_BUDGET_BYTES - c->rec->rindex_bytes);

    if (rc == 1)
        install(x, c->rec, &l);
    return rc;
}

static int by_offset(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The most lists merged by taking the least head (else sorted whole). */
#define MERGE_MAX 8

/* Merge the kept types' lists, each in file order, into `out` in file
 * order: a view's samples and lost samples (two lists of a few hundred
 * thousand records) without a sort. */
static void merge_lists(uint32_t *out, const jfrp_record_index *x, const uint8_t *keep,
                        size_t ntypes)
{
    const uint32_t *at[MERGE_MAX], *end[MERGE_MAX];
    size_t k = 0, n = 0;

    for (size_t t = 0; t < ntypes; t++) {
        if (keep[t] && x->first[t] < x->first[t + 1]) {
            at[k] = x->at + x->first[t];
            end[k++] = x->at + x->first[t + 1];
        }
    }
    for (;;) {
        size_t least = k;
        for (size_t i = 0; i < k; i++)
            if (at[i] < end[i] && (least == k || *at[i] < *at[least]))
                least = i;
        if (least == k)
            return;
        out[n++] = *at[least]++;
    }
}

int jfrp_record_index_use(jfr_chunk *c, const uint8_t *keep, bool now,
                          const uint32_t **out, size_t *count, uint32_t **owned)
{
    jfrp_record_index *x;
    size_t ntypes = c->meta.ntypes, kept = 0, n = 0, only = 0;
    uint32_t *merged;
    int rc;

    *owned = NULL;
    if (!jfrp_record_listable(c))
        return 0;
    if (!(x = entry_of(c)))
        return JFR_ENOMEM;
    if (x->unusable || x->chunk_size != c->size)
        return 0;
    if (x->first && (x->ntypes != ntypes || !lists_cover(x, keep, ntypes))) {
        /* listed ahead for other types: walked, then listed whole, as a
         * chunk without lists */
        if (++x->walks < 2 && !now)
            return 0;
        drop(x, c->rec);
    }
    if (!x->first) {
        if (++x->walks < 2 && !now)
            return 0;
        if ((rc = build(x, c)) <= 0) {
            x->unusable = rc == 0;
            return rc;
        }
    }
    if (x->ntypes != ntypes)
        return 0;
    for (size_t t = 0; t < ntypes; t++) {
        if (keep[t]) {
            kept++;
            only = t;
            n += x->first[t + 1] - x->first[t];
        }
    }
    if (kept <= 1) {
        *out = kept ? x->at + x->first[only] : x->at;
        *count = n;
        return 1;
    }
    /* several types (or names): their records in file order */
    merged = jfrp_malloc(&c->rec->al, (n ? n : 1) * sizeof *merged);
    if (!merged)
        return JFR_ENOMEM;
    if (kept <= MERGE_MAX) {
        merge_lists(merged, x, keep, ntypes);
    } else {
        n = 0;
        for (size_t t = 0; t < ntypes; t++) {
            if (!keep[t])
                continue;
            memcpy(merged + n, x->at + x->first[t],
                   (x->first[t + 1] - x->first[t]) * sizeof *merged);
            n += x->first[t + 1] - x->first[t];
        }
        qsort(merged, n, sizeof *merged, by_offset);
    }
    *out = *owned = merged;
    *count = n;
    return 1;
}
