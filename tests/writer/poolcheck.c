/* poolcheck.c - what a recording's constant pools hold, seen two ways, for
 * the writer's tests (tests/writer):
 *
 *     poolcheck entries FILE         every entry of every checkpoint, as
 *                                    "CHUNK TYPE KEY" (duplicates too)
 *     poolcheck reachable FILE [SEL] the entries the events reach, through
 *                                    pooled values (the public value API)
 *                                    and strings stored as String-pool keys;
 *                                    SEL: +TYPE... only those event types,
 *                                    -TYPE... all but those
 *     poolcheck strings FILE         every string of every event and every
 *                                    pool entry, decoded, one per line
 *
 * `entries` walks the checkpoint records byte by byte (jfr-format.md §8),
 * independently of the reader's pool index; `reachable` follows what a
 * reader resolves. Output lines are unsorted; exit 2 when a file cannot be
 * read whole (any error or chunk warning). Test code: linked with libjfr's
 * internal library for the raw checkpoint walk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfr_private.h"
#include "skip.h"

static int failed;

static void die_rec(const char *what, const jfr_recording *rec)
{
    fprintf(stderr, "poolcheck: %s: %s\n", what, jfr_recording_error(rec)->message);
    failed = 2;
}

/* ---- entries: the raw walk -------------------------------------------------------- */

static void entries_of_checkpoint(jfr_chunk *c, const uint8_t *start, uint64_t size)
{
    jfrp_reader r;
    uint64_t npools;

    jfrp_chunk_reader(&r, c, (uint64_t)(start - c->data));
    r.end = start + size;
    for (int i = 0; i < 5; i++) /* size, type id, start, duration, delta */
        (void)jfrp_int(&r, 8);
    if (r.compressed)
        (void)jfrp_varint(&r);
    else
        (void)jfrp_u8(&r);
    npools = jfrp_int(&r, 4);
    for (uint64_t p = 0; p < npools && !r.err; p++) {
        const jfr_type *t = jfr_chunk_type_by_id(c, jfrp_int(&r, 8));
        uint64_t n = jfrp_int(&r, 4);

        if (!t) {
            jfrp_reader_fail(&r, JFR_ECORRUPT);
            break;
        }
        for (uint64_t i = 0; i < n && !r.err; i++) {
            uint64_t key = jfrp_int(&r, 8);
            jfrp_skip_inline(&r, t);
            if (!r.err)
                printf("%lld %s %llu\n", (long long)c->index, t->name,
                       (unsigned long long)key);
        }
    }
    if (r.err || r.p != r.end) {
        fprintf(stderr, "poolcheck: chunk %lld: bad checkpoint\n", (long long)c->index);
        failed = 2;
    }
}

static void entries(jfr_chunk *c)
{
    jfrp_reader r;
    jfrp_record rec;

    jfrp_chunk_reader(&r, c, JFRP_HEADER_SIZE);
    while (jfrp_record_step(&r, false, &rec) == JFRP_RECORD_OK)
        if (rec.type_id == 1)
            entries_of_checkpoint(c, rec.start, rec.size);
}

/* ---- reachable: what a reader resolves ---------------------------------------------- */

typedef struct walk {
    jfr_chunk *c;
    jfrp_map *seen; /* per type index: key + 1 -> 1 */
    bool strings;   /* print strings instead */
} walk;

static void mark(walk *w, const jfr_type *t, uint64_t key, bool *is_new)
{
    jfrp_map *m = &w->seen[t->index];

    *is_new = !jfrp_map_get(m, key + 1);
    if (*is_new) {
        (void)jfrp_map_put(m, &w->c->rec->al, key + 1, 1);
        if (!w->strings)
            printf("%lld %s %llu\n", (long long)w->c->index, t->name,
                   (unsigned long long)key);
    }
}

static void print_string(const jfr_str *s)
{
    for (size_t i = 0; i < s->len; i++) {
        unsigned char ch = (unsigned char)s->ptr[i];
        if (ch == '\n')
            fputs("\\n", stdout);
        else
            putchar(ch);
    }
    putchar('\n');
}

static void walk_value(walk *w, const jfr_value *v, int depth);

/* A string about to be read at `pos`: a String-pool key is a reference. */
static void string_ref(walk *w, uint64_t pos)
{
    jfrp_reader r;
    jfrp_raw_string s;

    jfrp_chunk_reader(&r, w->c, pos);
    jfrp_raw_string_read(&r, &s);
    if (!r.err && s.tag == JFRP_STR_POOL && w->c->meta.known.string &&
        jfrp_pool_lookup(w->c->meta.known.string, s.count)) {
        bool is_new;
        mark(w, w->c->meta.known.string, s.count, &is_new);
    }
}

static void walk_children(walk *w, const jfr_value *v, int depth)
{
    jfr_cursor cur;
    jfr_value child;

    if (jfr_value_iter(&cur, v) != JFR_OK)
        return;
    for (;;) {
        const jfrp_cursor_state *st =
            (const jfrp_cursor_state *)(const void *)cur.reserved_;
        uint64_t pos = st->pos;
        const jfr_field *f = v->kind == JFR_VALUE_OBJECT && st->index < v->type->nfields
                                 ? &v->type->fields[st->index]
                                 : v->field;
        int rc = jfr_cursor_next(&child, &cur);

        if (rc == JFR_DONE)
            return;
        if (rc < 0) {
            fprintf(stderr, "poolcheck: chunk %lld: a value cannot be read\n",
                    (long long)w->c->index);
            failed = 2;
            return;
        }
        if (f && !f->pooled && f->type && f->type->kind == JFR_KIND_STRING &&
            (v->kind == JFR_VALUE_OBJECT ? !f->array : true))
            string_ref(w, pos);
        walk_value(w, &child, depth + 1);
    }
}

static void walk_value(walk *w, const jfr_value *v, int depth)
{
    if (depth > 200)
        return;
    if (v->pooled && v->kind != JFR_VALUE_NULL) {
        bool is_new;
        mark(w, v->type, v->key, &is_new);
        if (!is_new)
            return;
    }
    if (v->kind == JFR_VALUE_STRING && w->strings)
        print_string(&v->as.str);
    if (v->kind == JFR_VALUE_OBJECT || v->kind == JFR_VALUE_ARRAY)
        walk_children(w, v, depth);
}

static bool selected(const char *name, char **sel, int nsel)
{
    bool only = nsel > 0 && sel[0][0] == '+';

    for (int i = 0; i < nsel; i++)
        if (strcmp(sel[i] + 1, name) == 0)
            return only;
    return !only;
}

static void reachable(jfr_chunk *c, bool strings, char **sel, int nsel)
{
    walk w = {c, NULL, strings};
    jfr_event_iter *it;
    const jfr_event *ev;
    jfr_value v;
    int rc;

    w.seen = calloc(c->meta.ntypes + 1, sizeof *w.seen);
    if (!w.seen || jfr_event_iter_new(&it, c, NULL, 0, 0) < 0) {
        failed = 2;
        free(w.seen);
        return;
    }
    while ((rc = jfr_event_next(&ev, it)) == JFR_OK) {
        if (!selected(jfr_type_name(jfr_event_type(ev)), sel, nsel))
            continue;
        if (jfr_event_value(&v, ev) == JFR_OK)
            walk_value(&w, &v, 0);
    }
    if (rc < 0)
        failed = 2;
    if (strings) { /* pool entries too, reached or not */
        for (size_t i = 0; i < c->npools; i++) {
            jfrp_pool *p = &c->pools[i];
            for (size_t k = 0; p->type && k < p->ndirect; k++)
                if (p->direct[k] && jfrp_pool_value(&v, c, p->type, p->first + k) == 0)
                    walk_value(&w, &v, 0);
            for (size_t k = 0; p->type && k < p->entries.cap; k++)
                if (p->entries.vals[k] &&
                    jfrp_pool_value(&v, c, p->type, p->entries.keys[k]) == 0)
                    walk_value(&w, &v, 0);
        }
    }
    jfr_event_iter_free(it);
    for (size_t i = 0; i <= c->meta.ntypes; i++)
        jfrp_map_free(&w.seen[i], &c->rec->al);
    free(w.seen);
}

int main(int argc, char **argv)
{
    jfr_recording *rec;
    jfr_chunk *c;
    jfr_error err;
    int rc;

    if (argc < 3 || (strcmp(argv[1], "entries") && strcmp(argv[1], "reachable") &&
                     strcmp(argv[1], "strings"))) {
        fputs("usage: poolcheck entries|reachable|strings FILE [+TYPE...|-TYPE...]\n",
              stderr);
        return 1;
    }
    if (jfr_recording_open_file(&rec, argv[2], NULL, &err) < 0) {
        fprintf(stderr, "poolcheck: %s: %s\n", argv[2], err.message);
        return 2;
    }
    while ((rc = jfr_recording_next_chunk(&c, rec)) != JFR_DONE) {
        if (rc < 0) {
            die_rec(argv[2], rec);
            continue;
        }
        jfrp_pools_ensure(c);
        if (argv[1][0] == 'e')
            entries(c);
        else
            reachable(c, argv[1][0] == 's', argv + 3, argc - 3);
        if (jfr_chunk_warning(c)) {
            fprintf(stderr, "poolcheck: %s\n", jfr_chunk_warning(c)->message);
            failed = 2;
        }
    }
    jfr_recording_free(rec);
    return failed;
}
