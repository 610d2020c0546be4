/* vtab.c - the SQLite virtual-table module: a table's rows are the events
 * of one type over every chunk of every file, read through libjfr's event
 * iterator filtered by that type (other events are skipped undecoded);
 * a cell is decoded only when the query reads it (cells.c). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog.h"
#include "cells.h"

typedef struct jfrsql_vtab {
    sqlite3_vtab base;
    jfrsql_catalog *cat;
    const jfrsql_table *table;
    bool planned; /* counted in cat->tables_planned */
} jfrsql_vtab;

typedef struct jfrsql_cursor {
    sqlite3_vtab_cursor base;
    jfrsql_catalog *cat;
    jfr_recording **recs; /* per file, borrowed on first use */
    bool *tried, *lent;
    size_t file;
    jfr_recording *rec; /* the file being read */
    jfr_event_iter *it; /* the chunk being read */
    const char **names; /* the chunk's types of the table, as it names them */
    size_t names_cap;
    const jfr_type *resolved; /* the type row.steps were resolved for */
    jfr_header last;          /* the header of the last chunk met */
    bool have_last;
    jfrsql_row row;
    sqlite3_int64 rowid;
    bool eof;
} jfrsql_cursor;

/* 'a.jfr' -> a.jfr: module arguments come as SQL wrote them. */
static char *dequote(const char *s)
{
    size_t n = strlen(s), j = 0;
    char q = n >= 2 ? s[0] : 0;
    char *out;

    if ((q != '\'' && q != '"') || s[n - 1] != q)
        return sqlite3_mprintf("%s", s);
    if (!(out = sqlite3_malloc64(n)))
        return NULL;
    for (size_t i = 1; i + 1 < n; i++) {
        out[j++] = s[i];
        if (s[i] == q && s[i + 1] == q)
            i++;
    }
    out[j] = '\0';
    return out;
}

char *jfrsql_table_schema(const jfrsql_table *t)
{
    sqlite3_str *s = sqlite3_str_new(NULL);

    sqlite3_str_appendall(s, "CREATE TABLE x(");
    for (size_t c = 0; c < t->ncols; c++)
        sqlite3_str_appendf(s, "%s\"%w\" %s", c ? ", " : "", t->cols[c].name,
                            t->cols[c].decl);
    sqlite3_str_appendall(s, ")");
    return sqlite3_str_finish(s);
}

/* USING jfr('a.jfr', ..., 'jdk.ExecutionSample'): a catalog of its own. */
static int catalog_of_args(jfrsql_catalog **cat, char **type, int argc,
                           const char *const *argv, char **err)
{
    char **files;
    int nfiles = argc - 4, rc = SQLITE_OK;

    *cat = NULL;
    if (nfiles < 1) {
        *err = sqlite3_mprintf("jfr: give one or more files, then an event type: "
                               "USING jfr('rec.jfr', 'jdk.ExecutionSample')");
        return SQLITE_ERROR;
    }
    if (!(*type = dequote(argv[argc - 1])))
        return SQLITE_NOMEM;
    if (!(files = sqlite3_malloc64((size_t)nfiles * sizeof *files)))
        return SQLITE_NOMEM;
    memset(files, 0, (size_t)nfiles * sizeof *files);
    for (int i = 0; i < nfiles && rc == SQLITE_OK; i++)
        if (!(files[i] = dequote(argv[3 + i])))
            rc = SQLITE_NOMEM;
    if (rc == SQLITE_OK)
        rc = jfrsql_catalog_new(cat, (const char *const *)files, (size_t)nfiles, *type,
                                NULL, NULL);
    for (int i = 0; i < nfiles; i++)
        sqlite3_free(files[i]);
    sqlite3_free(files);
    return rc;
}

/* "jfr: no event type 'X' in the files (did you mean jdk.Y?)": the nearest
 * of every event type the files declare. */
static char *unknown_type(const jfrsql_catalog *cat, const char *type)
{
    const char **names = sqlite3_malloc64((cat->nevent_types + 1) * sizeof *names);
    char *msg = sqlite3_mprintf("jfr: no event type '%s' in the files", type);
    size_t idx[3], n = 0;

    for (size_t i = 0; names && i < cat->nevent_types; i++)
        names[i] = cat->event_types[i].name;
    if (names)
        n = jfr_nearest_names(idx, 3, type, names, cat->nevent_types);
    for (size_t i = 0; i < n && msg; i++)
        msg = sqlite3_mprintf("%z%s%s", msg, i ? ", " : " (did you mean ", names[idx[i]]);
    if (n && msg)
        msg = sqlite3_mprintf("%z?)", msg);
    sqlite3_free(names);
    return msg;
}

static int vt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                      sqlite3_vtab **out, char **err)
{
    jfrsql_catalog *cat = aux;
    char *type = NULL, *schema;
    jfrsql_vtab *vt;
    int rc;

    if (cat) {
        jfrsql_catalog_ref(cat);
        type = argc > 3 ? dequote(argv[3]) : sqlite3_mprintf("%s", argv[2]);
        rc = type ? SQLITE_OK : SQLITE_NOMEM;
    } else {
        rc = catalog_of_args(&cat, &type, argc, argv, err);
    }
    if (rc != SQLITE_OK)
        goto fail;
    if (!(vt = sqlite3_malloc64(sizeof *vt))) {
        rc = SQLITE_NOMEM;
        goto fail;
    }
    memset(vt, 0, sizeof *vt);
    vt->cat = cat;
    vt->table = jfrsql_catalog_find(cat, type);
    if (!vt->table) {
        *err = cat->first_warning && cat->chunks == 0
                   ? sqlite3_mprintf("jfr: %s", cat->first_warning)
                   : unknown_type(cat, type);
        sqlite3_free(vt);
        rc = SQLITE_ERROR;
        goto fail;
    }
    sqlite3_free(type);
    if (!(schema = jfrsql_table_schema(vt->table))) {
        jfrsql_catalog_unref(cat);
        sqlite3_free(vt);
        return SQLITE_NOMEM;
    }
    rc = sqlite3_declare_vtab(db, schema);
    sqlite3_free(schema);
    /* a table that names its files reads them: not from the triggers and
     * views of a database someone else wrote */
    if (rc == SQLITE_OK && !aux)
        rc = sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    if (rc != SQLITE_OK) {
        jfrsql_catalog_unref(cat);
        sqlite3_free(vt);
        return rc;
    }
    *out = &vt->base;
    return SQLITE_OK;
fail:
    sqlite3_free(type);
    jfrsql_catalog_unref(cat);
    return rc;
}

static int vt_disconnect(sqlite3_vtab *base)
{
    jfrsql_vtab *vt = (jfrsql_vtab *)base;

    jfrsql_catalog_unref(vt->cat);
    sqlite3_free(vt);
    return SQLITE_OK;
}

static int vt_best_index(sqlite3_vtab *base, sqlite3_index_info *info)
{
    jfrsql_vtab *vt = (jfrsql_vtab *)base;

    /* SQLite plans every table of a statement before it reads any */
    if (!vt->planned) {
        vt->planned = true;
        vt->cat->tables_planned++;
    }
    /* one way to read: every event of the type; SQLite filters. The
     * columns the query uses go to xFilter, which reads only those. */
    info->estimatedCost = 1e6;
    info->estimatedRows = 1000000;
    info->idxStr = sqlite3_mprintf("%llx", (unsigned long long)info->colUsed);
    if (!info->idxStr)
        return SQLITE_NOMEM;
    info->needToFreeIdxStr = 1;
    return SQLITE_OK;
}

static int vt_open(sqlite3_vtab *base, sqlite3_vtab_cursor **out)
{
    jfrsql_vtab *vt = (jfrsql_vtab *)base;
    size_t nfiles = vt->cat->nfiles ? vt->cat->nfiles : 1;
    jfrsql_cursor *cur = sqlite3_malloc64(sizeof *cur);

    if (!cur)
        return SQLITE_NOMEM;
    memset(cur, 0, sizeof *cur);
    cur->cat = vt->cat;
    cur->row.table = vt->table;
    cur->row.identity = &vt->cat->ids;
    cur->row.jdk_integers = vt->cat->jdk_integers;
    cur->recs = sqlite3_malloc64(nfiles * sizeof *cur->recs);
    cur->tried = sqlite3_malloc64(nfiles * sizeof *cur->tried);
    cur->lent = sqlite3_malloc64(nfiles * sizeof *cur->lent);
    cur->row.steps = sqlite3_malloc64((vt->table->ncols + 1) * sizeof *cur->row.steps);
    if (!cur->recs || !cur->tried || !cur->lent || !cur->row.steps) {
        sqlite3_free(cur->recs);
        sqlite3_free(cur->tried);
        sqlite3_free(cur->lent);
        sqlite3_free(cur->row.steps);
        sqlite3_free(cur);
        return SQLITE_NOMEM;
    }
    memset(cur->recs, 0, nfiles * sizeof *cur->recs);
    memset(cur->tried, 0, nfiles * sizeof *cur->tried);
    memset(cur->lent, 0, nfiles * sizeof *cur->lent);
    cur->eof = true;
    *out = &cur->base;
    return SQLITE_OK;
}

/* Done with the chunk: tell what was wrong with its pools. */
static void leave_chunk(jfrsql_cursor *cur)
{
    const jfr_error *w = cur->row.chunk ? jfr_chunk_warning(cur->row.chunk) : NULL;

    if (w)
        jfrsql_catalog_warn(cur->cat, cur->row.file, w);
    jfr_event_iter_free(cur->it);
    cur->it = NULL;
    cur->row.chunk = NULL;
    cur->row.ev = NULL;
    jfrsql_stacks_clear(&cur->row.stacks);
    jfrsql_stacks_clear(&cur->row.methods);
    jfrsql_stacks_clear(&cur->row.classes);
    jfrsql_stacks_clear(&cur->row.threads);
    jfrsql_ids_clear(&cur->row.ids);
}

static int vt_close(sqlite3_vtab_cursor *base)
{
    jfrsql_cursor *cur = (jfrsql_cursor *)base;

    leave_chunk(cur);
    jfrsql_stacks_free(&cur->row.stacks);
    jfrsql_stacks_free(&cur->row.methods);
    jfrsql_stacks_free(&cur->row.classes);
    jfrsql_stacks_free(&cur->row.threads);
    jfrsql_ids_free(&cur->row.ids);
    for (size_t i = 0; i < cur->cat->nfiles; i++)
        if (cur->recs[i])
            jfrsql_catalog_give_back(cur->cat, i, cur->recs[i], cur->lent[i]);
    sqlite3_free(cur->recs);
    sqlite3_free(cur->tried);
    sqlite3_free(cur->lent);
    sqlite3_free(cur->names);
    sqlite3_free(cur->row.steps);
    sqlite3_free(cur->row.top);
    sqlite3_free(cur->row.top_used);
    sqlite3_free(cur);
    return SQLITE_OK;
}

/* The next file that opens, from the start; false after the last. */
static bool next_file(jfrsql_cursor *cur)
{
    for (; cur->file < cur->cat->nfiles; cur->file++) {
        size_t i = cur->file;
        if (!cur->tried[i]) {
            cur->tried[i] = true;
            /* the query reads other tables too: one pass in threads
             * lists the records of them all */
            if (cur->cat->tables_planned > 1)
                jfrsql_catalog_list_ahead(cur->cat, i);
            cur->recs[i] = jfrsql_catalog_borrow(cur->cat, i, &cur->lent[i]);
        }
        if (cur->recs[i] && jfr_recording_rewind(cur->recs[i]) == JFR_OK) {
            cur->rec = cur->recs[i];
            cur->row.file = cur->cat->files[i];
            return true;
        }
    }
    return false;
}

/* Move to the next chunk that declares the table's type: every event type
 * whose name is the table's, as SQL compares names (without case; JFR 1.0's
 * "com.oracle." left out), each resolved when its first event comes. */
static int enter_chunk(jfrsql_cursor *cur, jfr_chunk *chunk)
{
    size_t ntypes = jfr_chunk_type_count(chunk), n = 0;

    for (size_t i = 0; i < ntypes; i++) {
        const jfr_type *type = jfr_chunk_type_at(chunk, i);
        const char *name = jfr_type_name(type);
        if (!jfr_type_is_event(type) ||
            strcasecmp(jfrsql_canonical_name(name), cur->row.table->name) != 0)
            continue;
        if (n == cur->names_cap) {
            size_t cap = cur->names_cap ? cur->names_cap * 2 : 4;
            const char **v = sqlite3_realloc64(cur->names, cap * sizeof *v);
            if (!v)
                return SQLITE_NOMEM;
            cur->names = v;
            cur->names_cap = cap;
        }
        cur->names[n++] = name;
    }
    if (n == 0)
        return SQLITE_OK;
    /* A query that reads no column (SELECT 1 ... LIMIT 1, count(*)) cannot
     * tell events apart, nor their order (rowids count 1, 2, ... either
     * way): file order, which need not walk the whole chunk to sort it
     * before the first event. */
    if (jfr_event_iter_new(&cur->it, chunk, cur->names, n,
                           (cur->row.used ? JFR_ITER_BY_END_TIME : 0) |
                               (cur->cat->tables_planned > 1 ? JFR_ITER_INDEX : 0)) !=
        JFR_OK)
        return SQLITE_NOMEM;
    cur->row.chunk = chunk;
    cur->resolved = NULL;
    return SQLITE_OK;
}

/* At the end of a scan, the catalog's own handles go back at once rather
 * than when SQLite closes the cursor (at the end of the statement): the
 * next table's scan then reads through the same handle, which lists the
 * records of chunks it read before (libjfr's record index). */
static void give_back_shared(jfrsql_cursor *cur)
{
    for (size_t i = 0; i < cur->cat->nfiles; i++) {
        if (cur->recs[i] && cur->lent[i]) {
            jfrsql_catalog_give_back(cur->cat, i, cur->recs[i], true);
            cur->recs[i] = NULL;
            cur->lent[i] = cur->tried[i] = false;
        }
    }
}

static int advance(jfrsql_cursor *cur)
{
    for (;;) {
        jfr_chunk *chunk;
        int rc;

        if (cur->it) {
            const jfr_event *ev;
            rc = jfr_event_next(&ev, cur->it);
            if (rc == JFR_OK) {
                if (jfr_event_type(ev) != cur->resolved) {
                    cur->resolved = jfr_event_type(ev);
                    if (jfrsql_resolve(&cur->row, cur->resolved) != SQLITE_OK)
                        return SQLITE_NOMEM;
                }
                cur->row.ev = ev;
                cur->row.have_obj = false;
                cur->row.have_top = false;
                cur->rowid++;
                return SQLITE_OK;
            }
            if (rc < 0)
                jfrsql_catalog_warn(cur->cat, cur->row.file,
                                    jfr_recording_error(cur->rec));
            leave_chunk(cur);
            continue;
        }
        if (!cur->rec && !next_file(cur)) {
            give_back_shared(cur);
            cur->eof = true;
            return SQLITE_OK;
        }
        rc = jfr_recording_next_chunk(&chunk, cur->rec);
        if (rc == JFR_DONE) {
            cur->rec = NULL;
            cur->file++;
        } else if (rc < 0) {
            jfrsql_catalog_warn(cur->cat, cur->row.file, jfr_recording_error(cur->rec));
        } else {
            /* every chunk counts for the runs, with the type or not */
            const jfr_header *h = jfr_chunk_header(chunk);
            if (cur->have_last && !jfr_header_continues(&cur->last, h))
                cur->row.run++;
            cur->last = *h;
            cur->have_last = true;
            if ((rc = enter_chunk(cur, chunk)) != SQLITE_OK)
                return rc;
        }
    }
}

static int vt_filter(sqlite3_vtab_cursor *base, int idx, const char *idx_str, int argc,
                     sqlite3_value **argv)
{
    jfrsql_cursor *cur = (jfrsql_cursor *)base;

    (void)idx;
    cur->row.used = idx_str ? strtoull(idx_str, NULL, 16) : UINT64_MAX;
    (void)argc;
    (void)argv;
    leave_chunk(cur);
    cur->file = 0;
    cur->rec = NULL;
    cur->rowid = 0;
    cur->row.run = 0;
    cur->have_last = false;
    cur->eof = false;
    return advance(cur);
}

static int vt_next(sqlite3_vtab_cursor *base)
{
    return advance((jfrsql_cursor *)base);
}

static int vt_eof(sqlite3_vtab_cursor *base)
{
    return ((jfrsql_cursor *)base)->eof;
}

static int vt_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
    jfrsql_cursor *cur = (jfrsql_cursor *)base;

    if (col < 0 || (size_t)col >= cur->row.table->ncols || !cur->row.ev)
        sqlite3_result_null(ctx);
    else
        jfrsql_cell(ctx, &cur->row, (size_t)col);
    return SQLITE_OK;
}

static int vt_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid)
{
    *rowid = ((jfrsql_cursor *)base)->rowid;
    return SQLITE_OK;
}

const sqlite3_module jfrsql_module = {
    .iVersion = 0,
    .xCreate = vt_connect,
    .xConnect = vt_connect,
    .xBestIndex = vt_best_index,
    .xDisconnect = vt_disconnect,
    .xDestroy = vt_disconnect,
    .xOpen = vt_open,
    .xClose = vt_close,
    .xFilter = vt_filter,
    .xNext = vt_next,
    .xEof = vt_eof,
    .xColumn = vt_column,
    .xRowid = vt_rowid,
};
