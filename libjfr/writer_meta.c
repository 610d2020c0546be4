/* writer_meta.c - the metadata record of the declared types (jfr-format.md
 * §7): a string table, then the element tree root > metadata > class >
 * field > annotation, and the region. */
#include <inttypes.h>
#include <stdio.h>

#include "writer_build_private.h"

/* The string table, built while the tree is encoded (a second buffer),
 * then written in front of it. A linear search is enough for the few
 * hundred distinct strings of a metadata record. */
typedef struct strtab {
    const char **s;
    size_t n, cap;
    bool failed;
    const jfrp_alloc *al;
} strtab;

static uint64_t intern(strtab *t, const char *s)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->s[i], s) == 0)
            return i;
    if (jfrp_grow_array(t->al, (void **)&t->s, &t->cap, t->n + 1, sizeof *t->s) < 0) {
        t->failed = true;
        return 0;
    }
    t->s[t->n] = s;
    return t->n++;
}

/* An element with no children, its attributes given as key/value pairs;
 * the caller writes the child count and the children. */
typedef struct enc {
    jfrw_buf *b;
    strtab *tab;
    bool compressed;
} enc;

static void put_index(enc *e, const char *s)
{
    jfrw_int(e->b, e->compressed, intern(e->tab, s), 4);
}

static void element(enc *e, const char *name, const char *const *kv, size_t nattrs)
{
    put_index(e, name);
    jfrw_int(e->b, e->compressed, nattrs, 4);
    for (size_t i = 0; i < nattrs; i++) {
        put_index(e, kv[2 * i]);
        put_index(e, kv[2 * i + 1]);
    }
}

/* Annotation elements; ids[i] is the decimal id of a[i]'s type. */
static void annotations(enc *e, char ids[][24], const jfrw_annot *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        jfrw_int(e->b, e->compressed, intern(e->tab, "annotation"), 4);
        jfrw_int(e->b, e->compressed, a[i].n + 1, 4);
        put_index(e, "class");
        put_index(e, ids[i]);
        for (size_t j = 0; j < a[i].n; j++) {
            put_index(e, a[i].names[j]);
            put_index(e, a[i].values[j]);
        }
        jfrw_int(e->b, e->compressed, 0, 4); /* children */
    }
}

/* Decimal texts of every id the tree names, allocated once for all (the
 * string table points into them until it is written). */
typedef struct idtexts {
    char (*t)[24];
    size_t n, cap;
} idtexts;

static char (*id_slots(idtexts *ids, const jfrp_alloc *al, size_t n))[24]
{
    (void)al;
    if (!ids->t || n > ids->cap - ids->n)
        return NULL;
    ids->n += n;
    return &ids->t[ids->n - n];
}

static size_t ids_needed(const jfrw_decls *d)
{
    size_t n = 0;

    for (size_t i = 0; i < d->n; i++) {
        n += 1 + d->types[i].nannots;
        for (size_t j = 0; j < d->types[i].nfields; j++)
            n += 1 + d->types[i].fields[j].nannots;
    }
    return n;
}

static void field_element(enc *e, idtexts *ids, const jfrp_alloc *al,
                          const jfrw_dfield *f)
{
    char(*slot)[24] = id_slots(ids, al, 1 + f->nannots);
    const char *kv[8];
    size_t n = 0;

    if (!slot) {
        e->tab->failed = true;
        return;
    }
    snprintf(slot[0], 24, "%" PRIu64, f->type);
    kv[n++] = "name", kv[n++] = f->name;
    kv[n++] = "class", kv[n++] = slot[0];
    if (f->flags & JFR_FIELD_ARRAY)
        kv[n++] = "dimension", kv[n++] = "1";
    if (f->flags & JFR_FIELD_POOLED)
        kv[n++] = "constantPool", kv[n++] = "true";
    element(e, "field", kv, n / 2);
    jfrw_int(e->b, e->compressed, f->nannots, 4);
    for (size_t i = 0; i < f->nannots; i++)
        snprintf(slot[1 + i], 24, "%" PRIu64, f->annots[i].type);
    annotations(e, slot + 1, f->annots, f->nannots);
}

static void class_element(enc *e, idtexts *ids, const jfrp_alloc *al, const jfrw_dtype *t)
{
    char(*slot)[24] = id_slots(ids, al, 1 + t->nannots);
    const char *kv[8];
    size_t n = 0;

    if (!slot) {
        e->tab->failed = true;
        return;
    }
    snprintf(slot[0], 24, "%" PRIu64, t->id);
    kv[n++] = "name", kv[n++] = t->name;
    kv[n++] = "id", kv[n++] = slot[0];
    if (t->super)
        kv[n++] = "superType", kv[n++] = t->super;
    if (t->flags & JFR_TYPE_SIMPLE)
        kv[n++] = "simpleType", kv[n++] = "true";
    element(e, "class", kv, n / 2);
    jfrw_int(e->b, e->compressed, t->nfields + t->nannots, 4);
    for (size_t i = 0; i < t->nfields; i++)
        field_element(e, ids, al, &t->fields[i]);
    for (size_t i = 0; i < t->nannots; i++)
        snprintf(slot[1 + i], 24, "%" PRIu64, t->annots[i].type);
    annotations(e, slot + 1, t->annots, t->nannots);
}

void jfrw_meta_encode(const jfr_writer *w, jfrw_buf *b, bool compressed, int64_t ticks,
                      int64_t gmt_offset_ms)
{
    const jfrw_decls *d = w->decls;
    strtab tab = {NULL, 0, 0, false, &w->al};
    idtexts ids = {NULL, 0, ids_needed(d)};
    jfrw_buf tree, body;
    enc e = {&tree, &tab, compressed};
    char gmt[24];
    const char *region[] = {"locale", "en_US", "gmtOffset", gmt};

    jfrw_buf_init(&tree, &w->al);
    jfrw_buf_init(&body, &w->al);
    ids.t = jfrp_calloc(&w->al, ids.cap ? ids.cap : 1, sizeof *ids.t);
    snprintf(gmt, sizeof gmt, "%" PRId64, gmt_offset_ms);
    element(&e, "root", NULL, 0);
    jfrw_int(&tree, compressed, 2, 4);
    element(&e, "metadata", NULL, 0);
    jfrw_int(&tree, compressed, d->n, 4);
    for (size_t i = 0; i < d->n; i++)
        class_element(&e, &ids, &w->al, &d->types[i]);
    element(&e, "region", region, 2);
    jfrw_int(&tree, compressed, 0, 4);

    jfrw_int(&body, compressed, 0, 8); /* type id: metadata */
    jfrw_int(&body, compressed, (uint64_t)ticks, 8);
    jfrw_int(&body, compressed, 0, 8);             /* duration */
    jfrw_int(&body, compressed, d->generation, 8); /* id: changes with the types */
    jfrw_int(&body, compressed, tab.n, 4);
    for (size_t i = 0; i < tab.n; i++)
        jfrw_string(&body, compressed, tab.s[i], strlen(tab.s[i]));
    jfrw_bytes(&body, tree.data, tree.len);
    size_t start = b->len;
    jfrw_bytes(b, body.data, body.len);
    jfrw_record(b, compressed, start);
    if (tab.failed || tree.err || body.err)
        b->err = JFR_ENOMEM;
    jfrw_buf_free(&tree);
    jfrw_buf_free(&body);
    jfrp_free(&w->al, tab.s);
    jfrp_free(&w->al, ids.t);
}
