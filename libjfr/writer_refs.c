/* writer_refs.c - the constant-pool entries a copied chunk needs: every
 * entry a kept value refers to, then every entry those refer to, found
 * through the metadata (pooled fields, and strings stored as keys of the
 * java.lang.String pool, jfr-format.md §5 and §8.3), never through a list
 * of known types. A key is marked once, whatever number of times it is
 * defined: its entry is the definition the pool index resolves. */
#include <stdlib.h>
#include <string.h>

#include "writer_struct.h"
#include "skip.h"

/* One marked entry. `redacted` is the offset + 1 of its re-encoded value
 * in `rewritten` when the scrub changed it, else 0. */
typedef struct kent {
    uint32_t type_index;
    uint64_t key;
    uint64_t off, end; /* chunk-relative: its value's bytes */
    uint64_t redacted;
    size_t redacted_len;
    bool bad; /* could not be followed (a limit): not written */
} kent;

struct jfrw_kept {
    jfr_chunk *c;
    const jfrp_alloc *al;
    jfrw_chunk_plan *plan;
    jfrw_redact_fn redact;
    /* the marked keys, per type index: a bit per key of a pool indexed by
     * an array (keys close together), else a map; made on first use */
    uint8_t **bits;
    jfrp_map *keys;
    uint8_t *refs; /* per type index: 0 not known yet, 1 refers to
                        nothing (no pooled field or string at any depth), 2 may */
    kent *ents;
    size_t n, cap, followed;
    jfrw_buf rewritten;
    int err;
    /* the chunk may have lost pool entries: its pools were damaged, or it
     * was cut inside a record (the cut one may be its last checkpoint).
     * Where it cannot have, what is undefined is the input's own and is
     * kept, as any undefined key. */
    bool entries_lost;
    /* the entry being followed has a frame whose method is not whole
     * (whole_for_jdk) in such a chunk */
    bool method_lost;
};

/* Whether salvaged chunk `c` ends inside a record, or at one that cannot
 * be read: what follows is lost. */
static bool ends_cut(const jfr_chunk *c)
{
    jfrp_reader r;
    jfrp_record rec;
    const uint8_t *at;
    int step;

    if (!c->salvaged)
        return false;
    jfrp_chunk_reader(&r, c, JFRP_HEADER_SIZE);
    do {
        at = r.p;
        step = jfrp_record_step(&r, true, &rec);
    } while (step == JFRP_RECORD_OK);
    return step == JFRP_RECORD_BAD || at < c->data + c->size;
}

int jfrw_kept_new(jfrw_kept **out, jfr_chunk *c)
{
    const jfrp_alloc *al = &c->rec->al;
    jfrw_kept *k = jfrp_calloc(al, 1, sizeof *k);

    *out = NULL;
    if (!k)
        return JFR_ENOMEM;
    k->c = c;
    k->al = al;
    k->bits = jfrp_calloc(al, c->meta.ntypes + 1, sizeof *k->bits);
    k->keys = jfrp_calloc(al, c->meta.ntypes + 1, sizeof *k->keys);
    k->refs = jfrp_calloc(al, c->meta.ntypes + 1, 1);
    if (!k->bits || !k->keys || !k->refs) {
        jfrp_free(al, k->bits);
        jfrp_free(al, k->keys);
        jfrp_free(al, k->refs);
        jfrp_free(al, k);
        return JFR_ENOMEM;
    }
    jfrw_buf_init(&k->rewritten, al);
    jfrp_pools_ensure_all(c);
    k->entries_lost = c->pools_damaged || ends_cut(c);
    *out = k;
    return 0;
}

void jfrw_kept_set_plan(jfrw_kept *k, jfrw_chunk_plan *plan, jfrw_redact_fn redact)
{
    k->plan = plan;
    k->redact = redact;
}

void jfrw_kept_free(jfrw_kept *k)
{
    if (!k)
        return;
    for (size_t i = 0; i <= k->c->meta.ntypes; i++) {
        jfrp_free(k->al, k->bits[i]);
        jfrp_map_free(&k->keys[i], k->al);
    }
    jfrp_free(k->al, k->bits);
    jfrp_free(k->al, k->keys);
    jfrp_free(k->al, k->refs);
    jfrp_free(k->al, k->ents);
    jfrw_buf_free(&k->rewritten);
    jfrp_free(k->al, k);
}

/* Whether (type, key) is marked; with `set`, mark (or with `clear`,
 * unmark) it. -1: out of memory. */
static int marked(jfrw_kept *k, const jfr_type *type, uint64_t key, bool set, bool clear)
{
    const jfrp_pool *pool = type->pool;
    size_t t = type->index;

    if (pool->direct) { /* the key is in the array's range: it was found */
        uint64_t bit = key - pool->first;
        if (!k->bits[t] && !(k->bits[t] = jfrp_calloc(k->al, pool->ndirect / 8 + 1, 1)))
            return -1;
        if (clear)
            k->bits[t][bit / 8] &= (uint8_t) ~(1u << (bit % 8));
        else if (k->bits[t][bit / 8] & (1u << (bit % 8)))
            return 1;
        else if (set)
            k->bits[t][bit / 8] |= (uint8_t)(1u << (bit % 8));
        return 0;
    }
    /* map values are never 0: 1 marked, 2 unmarked again */
    if (clear)
        return jfrp_map_put(&k->keys[t], k->al, key, 2) < 0 ? -1 : 0;
    if (jfrp_map_get(&k->keys[t], key) == 1)
        return 1;
    return set && jfrp_map_put(&k->keys[t], k->al, key, 1) < 0 ? -1 : 0;
}

/* The common case first: most references are to entries that other
 * values used before, and a marked key costs a bit test (pools indexed by
 * an array: stack traces, threads, classes) or one map probe. */
static inline bool marked_already(const jfrw_kept *k, const jfr_type *type, uint64_t key)
{
    const jfrp_pool *pool = type->pool;
    uint64_t bit;

    if (!pool)
        return false;
    if (!pool->direct) /* a frame's method: one probe of the marks, not two */
        return jfrp_map_get(&k->keys[type->index], key) == 1;
    if (!k->bits[type->index])
        return false;
    bit = key - pool->first;
    return bit < pool->ndirect && (k->bits[type->index][bit / 8] & (1u << (bit % 8)));
}

/*
 * After lost entries, what JDK 25's text print needs of an entry it
 * prints: RecordedClass.getName fails on a class without a name; a method
 * is printed with its class's name, its name and its descriptor's
 * parameters split into types; an array class's name is split so too; a
 * class loader is printed by its name or else its class's name.
 */

/* Whether the JDK's printer can split `len` bytes at `s` (a descriptor's
 * parameters, or an array class's name) into types: each run of '[' is
 * followed by a type, and each 'L' by a ';' further on. */
static bool types_split(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        while (i < len && s[i] == '[')
            i++;
        if (i == len)
            return false;
        if (s[i] == 'L') {
            const char *end = memchr(s + i, ';', len - i);

            if (!end)
                return false;
            i = (size_t)(end - s);
        }
    }
    return true;
}

static bool class_name_prints(const jfr_str *name)
{
    return name->ptr &&
           (name->len == 0 || name->ptr[0] != '[' || types_split(name->ptr, name->len));
}

static bool method_whole(jfr_chunk *c, uint64_t key)
{
    int rc;
    const jfrp_method *m = jfrp_chunk_method(c, key, &rc);
    const char *close;

    if (!m || !class_name_prints(&m->class_name) || !m->name.ptr || !m->descriptor.ptr ||
        !m->descriptor.len || m->descriptor.ptr[0] != '(')
        return false;
    /* the parameters: up to the last ')' */
    for (close = m->descriptor.ptr + m->descriptor.len; close > m->descriptor.ptr;)
        if (*--close == ')')
            return types_split(m->descriptor.ptr + 1,
                               (size_t)(close - m->descriptor.ptr) - 1);
    return false;
}

static bool class_named(jfr_chunk *c, uint64_t key)
{
    jfr_str name;

    return jfrp_chunk_class_key_name(&name, c, key) == 0 && class_name_prints(&name);
}

static bool loader_named(jfr_chunk *c, const jfr_type *type, uint64_t key)
{
    jfr_value loader, klass;
    jfr_str name;

    if (jfrp_pool_value(&loader, c, type, key) != 0)
        return false;
    if (jfr_value_string_field(&name, &loader, "name") == 0 && name.ptr)
        return true;
    return jfr_value_field(&klass, &loader, "type") == 0 &&
           jfr_value_string_field(&name, &klass, "name") == 0 && name.ptr;
}

/* Whether entry `key` of `type` has what the JDK needs to print it; for a
 * stack trace, whether its frames' methods had (told by the marks of its
 * follow). Those that have not are left out; references to them read as
 * null, which the JDK prints. */
static bool whole_for_jdk(const jfrw_kept *k, const jfr_type *type, uint64_t key)
{
    const jfrp_known *known = &k->c->meta.known;

    if (!k->entries_lost)
        return true;
    if (type == known->stacktrace)
        return !k->method_lost;
    if (type == known->method)
        return method_whole(k->c, key);
    if (type == known->klass)
        return class_named(k->c, key);
    if (type == known->class_loader)
        return loader_named(k->c, type, key);
    return true;
}

int jfrw_kept_mark(jfrw_kept *k, const jfr_type *type, uint64_t key)
{
    uint64_t off;
    int was;

    /* before the shortcut: each stack trace with the frame must learn it */
    if (k->entries_lost && type == k->c->meta.known.method && !method_whole(k->c, key))
        k->method_lost = true;
    if (marked_already(k, type, key))
        return 0;
    if (!(off = jfrp_pool_lookup(type, key))) /* undefined: null, here as in the input */
        return 0;
    if (jfrp_grow_array(k->al, (void **)&k->ents, &k->cap, k->n + 1, sizeof *k->ents) < 0)
        return k->err = JFR_ENOMEM;
    if ((was = marked(k, type, key, true, false)) != 0)
        return was < 0 ? (k->err = JFR_ENOMEM) : 0;
    k->ents[k->n++] = (kent){(uint32_t)type->index, key, off, 0, 0, 0, false};
    return 0;
}

/* The common case inline, where no entry can have been lost: a key
 * marked before costs a bit test or a probe, no call. */
static inline void mark_ref(jfrw_kept *k, const jfr_type *type, uint64_t key)
{
    if (!k->entries_lost && marked_already(k, type, key))
        return;
    (void)jfrw_kept_mark(k, type, key);
}

size_t jfrw_kept_mark_count(const jfrw_kept *k)
{
    return k->n;
}

void jfrw_kept_rollback(jfrw_kept *k, size_t n)
{
    for (size_t i = n; i < k->n; i++)
        if (marked(k, &k->c->meta.types[k->ents[i].type_index], k->ents[i].key, false,
                   true) < 0)
            k->err = JFR_ENOMEM;
    if (n < k->n)
        k->n = n;
    if (k->followed > k->n)
        k->followed = k->n;
}

/* Whether values of `t` can refer to a pool entry: a pooled field or a
 * string (which may be a String pool key) at any inline depth. Decodable
 * types nest at most max_depth deep (metadata.c), so this ends. */
static bool may_refer(jfrw_kept *k, const jfr_type *t)
{
    bool any = false;

    if (k->refs[t->index])
        return k->refs[t->index] == 2;
    if (t->kind == JFR_KIND_STRING)
        any = true;
    for (size_t i = 0; i < t->nfields && !any && t->decodable; i++) {
        const jfr_field *f = &t->fields[i];
        any = f->pooled || !f->type || may_refer(k, f->type);
    }
    k->refs[t->index] = any ? 2 : 1;
    return any;
}

/* A string's encoding tag: a key of the String pool is a reference. */
static void refs_string(jfrw_kept *k, jfrp_reader *r)
{
    jfrp_raw_string s;

    jfrp_raw_string_read(r, &s);
    if (!r->err && s.tag == JFRP_STR_POOL && k->c->meta.known.string)
        mark_ref(k, k->c->meta.known.string, s.count);
}

void jfrw_refs_inline(jfrw_kept *k, jfrp_reader *r, const jfr_type *type)
{
    if (!type->decodable) {
        jfrp_reader_fail(r, JFR_ECORRUPT);
        return;
    }
    if (!may_refer(k, type)) {
        jfrp_skip_inline(r, type); /* nothing to follow */
        return;
    }
    switch (type->kind) {
    case JFR_KIND_STRUCT:
        for (size_t i = 0; i < type->nfields && !r->err; i++)
            jfrw_refs_field(k, r, &type->fields[i]);
        return;
    case JFR_KIND_STRING:
        refs_string(k, r);
        return;
    default:
        jfrp_skip_inline(r, type);
        return;
    }
}

static void refs_element(jfrw_kept *k, jfrp_reader *r, const jfr_field *f)
{
    if (f->pooled) {
        uint64_t key = jfrp_int(r, 8);
        if (!r->err)
            mark_ref(k, f->type, key);
    } else if (f->type->kind == JFR_KIND_STRING) {
        refs_string(k, r);
    } else if (f->type->kind == JFR_KIND_STRUCT) {
        jfrw_refs_inline(k, r, f->type);
    } else {
        jfrp_skip_element(r, f);
    }
}

void jfrw_refs_field(jfrw_kept *k, jfrp_reader *r, const jfr_field *f)
{
    if (!f->type) {
        jfrp_reader_fail(r, JFR_ECORRUPT);
        return;
    }
    if (!f->array) {
        refs_element(k, r, f);
        return;
    }
    if (!f->pooled && !may_refer(k, f->type)) {
        jfrp_skip_array(r, f); /* no element can refer to anything */
        return;
    }
    uint64_t n = jfrp_array_count(r, f, k->c->rec->opts.max_array_length);
    for (uint64_t i = 0; i < n && !r->err; i++)
        refs_element(k, r, f);
}

/* Follow one entry: its references are marked, its end found; a value the
 * scrub redacts is re-encoded once, here, and kept for writing. An entry
 * left out takes back the marks it alone made: what only it referred to
 * is not written either (and a second pass writes the same bytes). */
static int follow(jfrw_kept *k, size_t i)
{
    jfr_chunk *c = k->c;
    const jfr_type *type = &c->meta.types[k->ents[i].type_index];
    size_t marked_before = k->n;
    jfrp_reader r;

    jfrp_chunk_reader(&r, c, k->ents[i].off);
    k->method_lost = false;
    if (k->plan && jfrw_plan_redacts(k->plan, type)) {
        size_t at = k->rewritten.len;
        bool changed = k->redact(k->plan, k, &r, type, &k->rewritten);
        if (k->rewritten.err)
            return k->err = JFR_ENOMEM;
        if (changed) {
            k->ents[i].redacted = at + 1;
            k->ents[i].redacted_len = k->rewritten.len - at;
        } else {
            k->rewritten.len = at;
        }
    } else {
        jfrw_refs_inline(k, &r, type);
    }
    /* the index checked every entry when it was built: this cannot fail
     * on data, but a limit (array length) may; such an entry is left out
     * and references to it read as null, as are entries damaged pools
     * left without what the JDK needs */
    k->ents[i].bad = r.err != 0 || !whole_for_jdk(k, type, k->ents[i].key);
    k->ents[i].end = r.err ? k->ents[i].off : (uint64_t)(r.p - c->data);
    if (k->ents[i].bad)
        jfrw_kept_rollback(k, marked_before);
    return k->err;
}

int jfrw_kept_close(jfrw_kept *k)
{
    while (k->followed < k->n && !k->err)
        if (follow(k, k->followed++) < 0)
            break;
    return k->err;
}

static int by_type_then_offset(const void *a, const void *b)
{
    const kent *x = a, *y = b;

    if (x->type_index != y->type_index)
        return x->type_index < y->type_index ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* The pools with an entry to write, once sorted (a type whose entries
 * are all bad gets none: the JDK's reader refuses an empty pool). */
static uint64_t count_pools(const jfrw_kept *k)
{
    uint64_t n = 0;

    for (size_t i = 0; i < k->n;) {
        size_t j = i;
        bool good = false;

        while (j < k->n && k->ents[j].type_index == k->ents[i].type_index)
            good |= !k->ents[j++].bad;
        n += good;
        i = j;
    }
    return n;
}

/* Entries go out through a small buffer: the chunk's pools are never all
 * in memory (the input's bytes are, mapped). */
#define STAGE_BYTES ((size_t)64 << 10)

int jfrw_kept_write(jfrw_kept *k, jfr_writer *w, int64_t start_ticks, uint64_t *nentries)
{
    jfr_chunk *c = k->c;
    bool compressed = (c->header.flags & JFR_CHUNK_FLAG_COMPRESSED_INTS) != 0;
    jfrw_buf *b = &w->scratch;
    int rc;

    *nentries = 0;
    if (k->n > 1)
        qsort(k->ents, k->n, sizeof *k->ents, by_type_then_offset);
    if ((rc = jfrw_checkpoint_begin(w, compressed, start_ticks, count_pools(k))) < 0)
        return rc;
    b->len = 0;
    for (size_t i = 0; i < k->n && rc == 0;) {
        size_t j = i, good = 0;
        const jfr_type *type = &c->meta.types[k->ents[i].type_index];

        while (j < k->n && k->ents[j].type_index == k->ents[i].type_index)
            good += !k->ents[j++].bad;
        if (good) {
            jfrw_int(b, compressed, type->id, 8);
            jfrw_int(b, compressed, good, 4);
        }
        for (; i < j && rc == 0; i++) {
            const kent *e = &k->ents[i];
            if (e->bad)
                continue;
            jfrw_int(b, compressed, e->key, 8);
            if (e->redacted)
                jfrw_bytes(b, k->rewritten.data + e->redacted - 1, e->redacted_len);
            else
                jfrw_bytes(b, c->data + e->off, (size_t)(e->end - e->off));
            ++*nentries;
            if (b->len >= STAGE_BYTES)
                rc = jfrw_out_take(w, b);
        }
    }
    return rc == 0 ? jfrw_out_take(w, b) : rc;
}
