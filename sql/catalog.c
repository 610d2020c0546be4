/* catalog.c - the event types of a set of files: one walk over every
 * chunk's metadata gives each type's columns (the union over chunks, as
 * types gain fields between JDK versions), and the warnings about damaged
 * input are told once however often the files are read. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog.h"

const char *jfrsql_canonical_name(const char *type_name)
{
    /* JFR 1.0 (JDK 9/10) names event types "com.oracle.jdk.X" */
    if (strncmp(type_name, "com.oracle.jdk.", 15) == 0)
        return type_name + 11;
    return type_name;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = sqlite3_malloc64(n);

    if (p)
        memcpy(p, s, n);
    return p;
}

void jfrsql_catalog_warn(jfrsql_catalog *cat, const char *file, const jfr_error *err)
{
    char *key, text[JFR_ERROR_MESSAGE_SIZE + 64];

    jfr_error_text(text, sizeof text, err); /* as jfrtool says it */
    if (!cat->first_warning)
        cat->first_warning = sqlite3_mprintf("%s: %s", file, text);
    if (!cat->warn)
        return;
    key = sqlite3_mprintf("%s\n%lld\n%llu\n%s", file, (long long)err->chunk,
                          (unsigned long long)err->offset, err->message);
    if (!key)
        return;
    for (size_t i = 0; i < cat->nseen; i++) {
        if (strcmp(cat->seen[i], key) == 0) {
            sqlite3_free(key);
            return;
        }
    }
    if (cat->nseen == cat->seen_cap) {
        size_t cap = cat->seen_cap ? cat->seen_cap * 2 : 8;
        char **seen = sqlite3_realloc64(cat->seen, cap * sizeof *seen);
        if (!seen) {
            sqlite3_free(key);
            return;
        }
        cat->seen = seen;
        cat->seen_cap = cap;
    }
    cat->seen[cat->nseen++] = key;
    cat->warn(file, err, cat->user);
}

jfr_recording *jfrsql_catalog_borrow(jfrsql_catalog *cat, size_t i, bool *lent)
{
    *lent = false;
    if (!cat->recs[i])
        return NULL; /* told when the scan could not open it */
    if (!cat->lent[i]) {
        cat->lent[i] = *lent = true;
        return cat->recs[i];
    }
    return jfrsql_catalog_open(cat, i);
}

void jfrsql_catalog_give_back(jfrsql_catalog *cat, size_t i, jfr_recording *rec,
                              bool lent)
{
    if (lent)
        cat->lent[i] = false;
    else
        jfr_recording_free(rec);
}

jfr_recording *jfrsql_catalog_open(jfrsql_catalog *cat, size_t i)
{
    jfr_recording *rec;
    jfr_error err;

    if ((cat->open ? cat->open(&rec, cat->files[i], &err, cat->open_user)
                   : jfr_recording_open_file(&rec, cat->files[i], NULL, &err)) < 0) {
        jfrsql_catalog_warn(cat, cat->files[i], &err);
        return NULL;
    }
    return rec;
}

jfrsql_table *jfrsql_catalog_find(jfrsql_catalog *cat, const char *name)
{
    for (size_t i = 0; i < cat->ntables; i++)
        if (strcasecmp(cat->tables[i].name, name) == 0)
            return &cat->tables[i];
    for (size_t i = 0; i < cat->ntables; i++)
        if (cat->tables[i].alias && strcasecmp(cat->tables[i].alias, name) == 0)
            return &cat->tables[i];
    return NULL;
}

static jfrsql_table *add_table(jfrsql_catalog *cat, const char *name)
{
    jfrsql_table *t;

    if (cat->ntables == cat->cap) {
        size_t cap = cat->cap ? cat->cap * 2 : 64;
        jfrsql_table *v = sqlite3_realloc64(cat->tables, cap * sizeof *v);
        if (!v)
            return NULL;
        cat->tables = v;
        cat->cap = cap;
    }
    t = &cat->tables[cat->ntables];
    memset(t, 0, sizeof *t);
    if (!(t->name = dup_str(name)))
        return NULL;
    cat->ntables++;
    return t;
}

/* "jdk.ExecutionSample" -> "ExecutionSample" */
static const char *short_name(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? dot + 1 : name;
}

static bool wanted(const char *name, const char *only_type)
{
    return !only_type || strcasecmp(name, only_type) == 0 ||
           strcasecmp(short_name(name), only_type) == 0;
}

/* Say that event type `id` is `name` (`label`): a later word replaces an
 * earlier one, as the JDK's lookup of ids does. */
static int note_event_type(jfrsql_catalog *cat, uint64_t id, const char *name,
                           const char *label)
{
    jfrsql_event_type *e = NULL;
    char *n = dup_str(name), *l = label ? dup_str(label) : NULL;

    if (!n || (label && !l)) {
        sqlite3_free(n);
        sqlite3_free(l);
        return SQLITE_NOMEM;
    }
    for (size_t i = 0; i < cat->nevent_types && !e; i++)
        if (cat->event_types[i].id == id)
            e = &cat->event_types[i];
    if (!e) {
        if (cat->nevent_types == cat->event_types_cap) {
            size_t cap = cat->event_types_cap ? cat->event_types_cap * 2 : 64;
            jfrsql_event_type *v = sqlite3_realloc64(cat->event_types, cap * sizeof *v);
            if (!v) {
                sqlite3_free(n);
                sqlite3_free(l);
                return SQLITE_NOMEM;
            }
            cat->event_types = v;
            cat->event_types_cap = cap;
        }
        e = &cat->event_types[cat->nevent_types++];
    } else {
        sqlite3_free(e->name);
        sqlite3_free(e->label);
    }
    e->id = id;
    e->name = n;
    e->label = l;
    return SQLITE_OK;
}

static int add_chunk_types(jfrsql_catalog *cat, jfr_chunk *chunk, const char *only_type)
{
    size_t n = jfr_chunk_type_count(chunk);

    for (size_t i = 0; i < n; i++) {
        const jfr_type *type = jfr_chunk_type_at(chunk, i);
        const char *name;
        jfrsql_table *t;

        if (!jfr_type_is_event(type))
            continue;
        name = jfrsql_canonical_name(jfr_type_name(type));
        if (note_event_type(cat, jfr_type_id(type), name, jfr_type_label(type)) !=
            SQLITE_OK)
            return SQLITE_NOMEM;
        if (!wanted(name, only_type))
            continue;
        t = jfrsql_catalog_find(cat, name);
        if (t && strcasecmp(t->name, name) != 0)
            t = NULL; /* found by alias: another type */
        if (!t && !(t = add_table(cat, name)))
            return SQLITE_NOMEM;
        if (jfrsql_table_add_type(t, type) != SQLITE_OK)
            return SQLITE_NOMEM;
    }
    return SQLITE_OK;
}

static uint64_t fnv(uint64_t h, const char *s)
{
    for (; s && *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return (h ^ 0xff) * 0x100000001b3ULL;
}

/* A hash of the names, labels and ids of the chunk's types, of their
 * fields and of the fields' types: the chunks of one JVM mostly share their metadata, whose
 * columns need to be made once. */
static uint64_t chunk_shape(jfr_chunk *chunk)
{
    size_t n = jfr_chunk_type_count(chunk);
    uint64_t h = 0xcbf29ce484222325ULL;

    for (size_t i = 0; i < n; i++) {
        const jfr_type *type = jfr_chunk_type_at(chunk, i);
        size_t nf = jfr_type_field_count(type);
        h = fnv(fnv(h, jfr_type_name(type)), jfr_type_label(type));
        h = (h ^ jfr_type_id(type)) * 0x100000001b3ULL;
        for (size_t f = 0; f < nf; f++) {
            const jfr_field *field = jfr_type_field_at(type, f);
            const jfr_type *ft = jfr_field_type(field);
            h = fnv(fnv(h, jfr_field_name(field)), ft ? jfr_type_name(ft) : "?");
            h = (h ^ (jfr_field_is_array(field) ? 1u : 0u)) * 0x100000001b3ULL;
        }
    }
    return h;
}

static bool shape_known(const jfrsql_catalog *cat, uint64_t shape)
{
    for (size_t i = 0; i < cat->nshapes; i++)
        if (cat->shapes[i] == shape)
            return true;
    return false;
}

static void note_shape(jfrsql_catalog *cat, uint64_t shape)
{
    if (cat->nshapes == cat->shapes_cap) {
        size_t cap = cat->shapes_cap ? cat->shapes_cap * 2 : 8;
        uint64_t *v = sqlite3_realloc64(cat->shapes, cap * sizeof *v);
        if (!v)
            return; /* such chunks are read again: slower, not wrong */
        cat->shapes = v;
        cat->shapes_cap = cap;
    }
    cat->shapes[cat->nshapes++] = shape;
}

/* Chunks are read through jfr_recording_decode_chunks (in one thread, see
 * scan_file; the lock keeps the decode safe in more): each makes the
 * columns of its chunk, unless a chunk of the same metadata was merged
 * already; the merges, in chunk order, add what is new to the catalog, so
 * the columns come in the same order whatever the threads did. */
typedef struct scan_run {
    jfrsql_catalog *cat;
    size_t file;
    const char *only_type;
    pthread_mutex_t lock; /* the catalog's shapes, read by the workers */
    size_t chunks;
    int rc;
} scan_run;

typedef struct chunk_columns {
    uint64_t shape;
    jfrsql_catalog *types; /* NULL: its metadata was merged before */
    jfrsql_chunk_info info;
} chunk_columns;

static jfrsql_catalog *new_empty(void)
{
    jfrsql_catalog *c = sqlite3_malloc64(sizeof *c);

    if (c) {
        memset(c, 0, sizeof *c);
        c->refs = 1;
    }
    return c;
}

static int scan_decode(jfr_chunk *chunk, jfr_recording *rec, void **result, void *user)
{
    scan_run *sr = user;
    chunk_columns *cc = sqlite3_malloc64(sizeof *cc);
    bool known;

    (void)rec;
    if (!cc)
        return JFR_ENOMEM;
    cc->shape = chunk_shape(chunk);
    cc->types = NULL;
    {
        const jfr_header *h = jfr_chunk_header(chunk);
        cc->info.index = jfr_chunk_index(chunk);
        cc->info.start = h->start_nanos;
        cc->info.duration = h->duration_nanos;
        cc->info.size = h->chunk_size;
    }
    pthread_mutex_lock(&sr->lock);
    known = shape_known(sr->cat, cc->shape);
    pthread_mutex_unlock(&sr->lock);
    if (!known && (!(cc->types = new_empty()) ||
                   add_chunk_types(cc->types, chunk, sr->only_type) != SQLITE_OK)) {
        jfrsql_catalog_unref(cc->types);
        sqlite3_free(cc);
        return JFR_ENOMEM;
    }
    *result = cc;
    return JFR_OK;
}

/* Move the tables and columns of `from` that `to` lacks into `to`, and
 * the event types `from` names. */
static int merge_types(jfrsql_catalog *to, jfrsql_catalog *from)
{
    for (size_t i = 0; i < from->nevent_types; i++) {
        const jfrsql_event_type *e = &from->event_types[i];
        if (note_event_type(to, e->id, e->name, e->label) != SQLITE_OK)
            return SQLITE_NOMEM;
    }
    for (size_t i = 0; i < from->ntables; i++) {
        jfrsql_table *src = &from->tables[i], *dst = jfrsql_catalog_find(to, src->name);
        if (dst && strcasecmp(dst->name, src->name) != 0)
            dst = NULL;
        if (!dst && !(dst = add_table(to, src->name)))
            return SQLITE_NOMEM;
        for (size_t c = 0; c < src->ncols; c++)
            if (jfrsql_table_take_column(dst, &src->cols[c]) != SQLITE_OK)
                return SQLITE_NOMEM;
    }
    return SQLITE_OK;
}

static int note_chunk(jfrsql_catalog *cat, const jfrsql_chunk_info *info)
{
    if (cat->nchunk_infos == cat->chunk_infos_cap) {
        size_t cap = cat->chunk_infos_cap ? cat->chunk_infos_cap * 2 : 16;
        jfrsql_chunk_info *v = sqlite3_realloc64(cat->chunk_infos, cap * sizeof *v);
        if (!v)
            return SQLITE_NOMEM;
        cat->chunk_infos = v;
        cat->chunk_infos_cap = cap;
    }
    cat->chunk_infos[cat->nchunk_infos++] = *info;
    return SQLITE_OK;
}

static void scan_merge(void *result, const jfr_chunk_report *report, void *user)
{
    scan_run *sr = user;
    chunk_columns *cc = result;
    const char *file = sr->cat->files[sr->file];

    if (report->error)
        jfrsql_catalog_warn(sr->cat, file, report->error);
    if (report->decode_error)
        jfrsql_catalog_warn(sr->cat, file, report->decode_error);
    /* said now (once: the walks' warnings are the same), so that a query
     * or a view that reads none of the chunk's records still tells of a
     * damaged chunk, and --strict fails on it */
    if (report->warning)
        jfrsql_catalog_warn(sr->cat, file, report->warning);
    if (!cc) {
        if (!report->error)
            sr->rc = SQLITE_NOMEM; /* the decode failed */
        return;
    }
    sr->chunks++;
    cc->info.file = sr->file;
    if (note_chunk(sr->cat, &cc->info) != SQLITE_OK)
        sr->rc = SQLITE_NOMEM;
    pthread_mutex_lock(&sr->lock);
    if (cc->types && !shape_known(sr->cat, cc->shape)) {
        note_shape(sr->cat, cc->shape);
        if (merge_types(sr->cat, cc->types) != SQLITE_OK)
            sr->rc = SQLITE_NOMEM;
    }
    pthread_mutex_unlock(&sr->lock);
    jfrsql_catalog_unref(cc->types);
    sqlite3_free(cc);
}

static int scan_file(jfrsql_catalog *cat, size_t i, const char *only_type)
{
    static const jfr_chunk_ops ops = {scan_decode, scan_merge};
    jfr_recording *rec = jfrsql_catalog_open(cat, i);
    scan_run sr = {cat, i, only_type, PTHREAD_MUTEX_INITIALIZER, 0, SQLITE_OK};

    if (!rec) {
        cat->unopened++;
        return SQLITE_OK;
    }
    /* in this thread: a chunk's metadata is read in about a millisecond,
     * less than threads cost here (starts, hand-overs, two workers making
     * the columns of the same metadata before either was merged), and the
     * tables read every chunk's metadata again anyway (doc/performance.md,
     * "The SQL catalog in one thread") */
    if (jfr_recording_decode_chunks(rec, 1, &ops, &sr) < 0)
        sr.rc = SQLITE_NOMEM;
    pthread_mutex_destroy(&sr.lock);
    if (sr.chunks == 0)
        cat->unreadable++;
    cat->chunks += sr.chunks;
    cat->recs[i] = rec;
    return sr.rc;
}

typedef struct named {
    const char *s; /* a table's short name */
    size_t table;
} named;

static int by_short_name(const void *a, const void *b)
{
    return strcasecmp(((const named *)a)->s, ((const named *)b)->s);
}

/* A short name is an alias when no other table has it, as its short name
 * or as its name (a name without a dot is its own short name): the tables
 * sorted by short name, each alone among its equals. */
static void set_aliases(jfrsql_catalog *cat)
{
    size_t n = cat->ntables;
    named *v = sqlite3_malloc64((n ? n : 1) * sizeof *v);

    for (size_t i = 0; i < n; i++)
        cat->tables[i].alias = NULL;
    if (!v)
        return; /* no aliases: tables keep their full names */
    for (size_t i = 0; i < n; i++)
        v[i] = (named){short_name(cat->tables[i].name), i};
    qsort(v, n, sizeof *v, by_short_name);
    for (size_t i = 0; i < n; i++) {
        const jfrsql_table *t = &cat->tables[v[i].table];
        bool alone = (i == 0 || strcasecmp(v[i - 1].s, v[i].s) != 0) &&
                     (i + 1 == n || strcasecmp(v[i + 1].s, v[i].s) != 0);

        if (alone && v[i].s != t->name)
            cat->tables[v[i].table].alias = dup_str(v[i].s);
    }
    sqlite3_free(v);
}

static int catalog_new(jfrsql_catalog **out, const char *const *files, size_t nfiles,
                       const char *only_type, jfrsql_open_fn open, void *open_user,
                       jfrsql_warn_fn warn, void *user)
{
    jfrsql_catalog *cat = sqlite3_malloc64(sizeof *cat);
    int rc = SQLITE_OK;

    *out = NULL;
    if (!cat)
        return SQLITE_NOMEM;
    memset(cat, 0, sizeof *cat);
    cat->refs = 1;
    cat->warn = warn;
    cat->user = user;
    cat->open = open;
    cat->open_user = open_user;
    cat->files = sqlite3_malloc64((nfiles + 1) * sizeof *cat->files);
    cat->recs = sqlite3_malloc64((nfiles + 1) * sizeof *cat->recs);
    cat->lent = sqlite3_malloc64((nfiles + 1) * sizeof *cat->lent);
    cat->listed = sqlite3_malloc64((nfiles + 1) * sizeof *cat->listed);
    if (!cat->files || !cat->recs || !cat->lent || !cat->listed) {
        sqlite3_free(cat->files);
        sqlite3_free(cat->recs);
        sqlite3_free(cat->lent);
        sqlite3_free(cat->listed);
        sqlite3_free(cat);
        return SQLITE_NOMEM;
    }
    memset(cat->recs, 0, (nfiles + 1) * sizeof *cat->recs);
    memset(cat->lent, 0, (nfiles + 1) * sizeof *cat->lent);
    memset(cat->listed, 0, (nfiles + 1) * sizeof *cat->listed);
    for (size_t i = 0; i < nfiles && rc == SQLITE_OK; i++) {
        if (!(cat->files[i] = dup_str(files[i])))
            rc = SQLITE_NOMEM;
        cat->nfiles = i + 1;
    }
    for (size_t i = 0; i < nfiles && rc == SQLITE_OK; i++)
        rc = scan_file(cat, i, only_type);
    if (rc != SQLITE_OK) {
        jfrsql_catalog_unref(cat);
        return rc;
    }
    set_aliases(cat);
    *out = cat;
    return SQLITE_OK;
}

void jfrsql_catalog_jdk_integers(jfrsql_catalog *cat, bool on)
{
    cat->jdk_integers = on;
}

int jfrsql_catalog_new(jfrsql_catalog **out, const char *const *files, size_t nfiles,
                       const char *only_type, jfrsql_warn_fn warn, void *user)
{
    return catalog_new(out, files, nfiles, only_type, NULL, NULL, warn, user);
}

int jfrsql_catalog_new_opened(jfrsql_catalog **out, const char *const *files,
                              size_t nfiles, jfrsql_open_fn open, void *open_user,
                              jfrsql_warn_fn warn, void *user)
{
    return catalog_new(out, files, nfiles, NULL, open, open_user, warn, user);
}

void jfrsql_catalog_threads(jfrsql_catalog *cat, unsigned threads)
{
    cat->list_threads = threads;
}

/* The event records below which a query over one table walks each chunk
 * in the calling thread sooner than threads list them: threads, their
 * handles and each chunk's metadata against a walk of a few milliseconds
 * (doc/performance.md, "The views' records listed in threads"). */
#define LIST_ONE_MIN_EVENT_BYTES ((uint64_t)16 << 20)

/* File `i`'s records of the event types `names` names (NULL: all) listed
 * in the catalog's threads, once, while the catalog's handle is free, when
 * its event records are at least `min_events` bytes. */
static void list_file(jfrsql_catalog *cat, size_t i, const char *const *names, size_t n,
                      uint64_t min_events)
{
    if (cat->list_threads < 2 || cat->listed[i] || !cat->recs[i] || cat->lent[i])
        return;
    cat->listed[i] = true;
    if (min_events == 0 || jfr_recording_event_bytes_estimate(cat->recs[i]) >= min_events)
        (void)jfr_recording_index_records(cat->recs[i], names, n, cat->list_threads);
}

void jfrsql_catalog_list_ahead(jfrsql_catalog *cat, size_t i)
{
    list_file(cat, i, NULL, 0, 0);
}

void jfrsql_catalog_list_records(jfrsql_catalog *cat, const char *const *tables,
                                 size_t ntables)
{
    /* each table's type as the files name it, and as JFR 1.0 did */
    char **names = sqlite3_malloc64((2 * ntables + 1) * sizeof *names);
    size_t n = 0, found = 0;

    if (!names || cat->list_threads < 2) {
        sqlite3_free(names);
        return;
    }
    for (size_t k = 0; k < ntables; k++) {
        const jfrsql_table *t = jfrsql_catalog_find(cat, tables[k]);
        if (t) {
            names[n++] = sqlite3_mprintf("%s", t->name);
            names[n++] = sqlite3_mprintf("com.oracle.%s", t->name);
            found++;
        }
    }
    /* several tables are walked several times: listed whatever the file */
    for (size_t i = 0; found > 0 && i < cat->nfiles; i++)
        list_file(cat, i, (const char *const *)names, n,
                  found > 1 ? 0 : LIST_ONE_MIN_EVENT_BYTES);
    for (size_t k = 0; k < n; k++)
        sqlite3_free(names[k]);
    sqlite3_free(names);
}

void jfrsql_catalog_ref(jfrsql_catalog *cat)
{
    cat->refs++;
}

static void free_table(jfrsql_table *t)
{
    for (size_t c = 0; c < t->ncols; c++) {
        sqlite3_free(t->cols[c].name);
        for (int k = 0; k < t->cols[c].depth; k++)
            sqlite3_free(t->cols[c].path[k]);
    }
    sqlite3_free(t->cols);
    sqlite3_free(t->name);
    sqlite3_free(t->alias);
}

void jfrsql_catalog_unref(jfrsql_catalog *cat)
{
    if (!cat || --cat->refs > 0)
        return;
    for (size_t i = 0; i < cat->ntables; i++)
        free_table(&cat->tables[i]);
    sqlite3_free(cat->tables);
    jfr_identity_free(cat->ids);
    for (size_t i = 0; i < cat->nevent_types; i++) {
        sqlite3_free(cat->event_types[i].name);
        sqlite3_free(cat->event_types[i].label);
    }
    sqlite3_free(cat->event_types);
    for (size_t i = 0; i < cat->nfiles; i++) {
        sqlite3_free(cat->files[i]);
        jfr_recording_free(cat->recs[i]);
    }
    sqlite3_free(cat->files);
    sqlite3_free(cat->recs);
    sqlite3_free(cat->lent);
    sqlite3_free(cat->listed);
    for (size_t i = 0; i < cat->nseen; i++)
        sqlite3_free(cat->seen[i]);
    sqlite3_free(cat->seen);
    sqlite3_free(cat->first_warning);
    sqlite3_free(cat->shapes);
    sqlite3_free(cat->chunk_infos);
    sqlite3_free(cat);
}

void jfrsql_catalog_release(void *cat)
{
    jfrsql_catalog_unref(cat);
}

size_t jfrsql_catalog_unopened(const jfrsql_catalog *cat)
{
    return cat->unopened;
}

size_t jfrsql_catalog_unreadable(const jfrsql_catalog *cat)
{
    return cat->unreadable;
}

jfr_recording *jfrsql_catalog_recording(jfrsql_catalog *cat, size_t i)
{
    return i < cat->nfiles ? cat->recs[i] : NULL;
}

size_t jfrsql_catalog_chunks(const jfrsql_catalog *cat)
{
    return cat->chunks;
}

uint64_t jfrsql_catalog_bytes(const jfrsql_catalog *cat)
{
    uint64_t bytes = 0;

    for (size_t i = 0; i < cat->nchunk_infos; i++)
        bytes += cat->chunk_infos[i].size;
    return bytes;
}
