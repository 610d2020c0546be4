/* writer_plan.c - what a scrub means for one chunk: its filters resolved
 * against the chunk's types once, the thread and time of each event read
 * only when a filter needs them, and the string fields to redact. */
#include "writer_scrub_private.h"
#include "skip.h"

static bool is_thread_filter(jfr_scrub_filter k)
{
    return k == JFR_SCRUB_INCLUDE_THREADS || k == JFR_SCRUB_EXCLUDE_THREADS;
}

static bool is_include(jfr_scrub_filter k)
{
    return k == JFR_SCRUB_INCLUDE_EVENTS || k == JFR_SCRUB_INCLUDE_CATEGORIES ||
           k == JFR_SCRUB_INCLUDE_THREADS;
}

static int32_t field_index(const jfr_type *t, const char *name, jfr_kind kind,
                           bool pooled)
{
    for (size_t i = 0; i < t->nfields; i++) {
        const jfr_field *f = &t->fields[i];
        if (strcmp(f->name, name) == 0 && f->type && !f->array && f->pooled == pooled &&
            (pooled || f->type->kind == kind))
            return (int32_t)i;
    }
    return -1;
}

/* The rules whose type and string field this chunk declares. */
static int resolve_rules(jfrw_chunk_plan *p)
{
    const jfr_scrub *s = p->s;
    jfr_chunk *c = p->c;

    for (size_t ti = 0; ti < c->meta.ntypes; ti++) {
        const jfr_type *t = &c->meta.types[ti];
        size_t n = 0;

        for (size_t r = 0; r < s->nrules; r++)
            n += strcmp(s->rules[r].type, t->name) == 0;
        if (!n)
            continue;
        p->rules[ti] = jfrp_arena_calloc(&p->arena, n, sizeof **p->rules);
        if (!p->rules[ti])
            return JFR_ENOMEM;
        for (size_t r = 0; r < s->nrules; r++) {
            int32_t f;
            if (strcmp(s->rules[r].type, t->name) != 0 ||
                (f = field_index(t, s->rules[r].field, JFR_KIND_STRING, false)) < 0)
                continue;
            p->rules[ti][p->nrules[ti]++] = (field_rule){(uint32_t)f, (uint32_t)r};
        }
    }
    return 0;
}

static void resolve_types(jfrw_chunk_plan *p)
{
    const jfr_scrub *s = p->s;
    jfr_chunk *c = p->c;

    for (size_t ti = 0; ti < c->meta.ntypes; ti++) {
        const jfr_type *t = &c->meta.types[ti];
        bool kept = true;

        for (size_t i = 0; s && i < s->nfilters && kept; i++) {
            const jfrw_filter *f = &s->filters[i];
            if (f->types)
                kept = jfr_type_filter_matches(f->types, t) == is_include(f->kind);
        }
        p->type_kept[ti] = kept;
        p->thread_at[ti] = field_index(t, "eventThread", JFR_KIND_STRUCT, true);
        p->time_at[ti] = field_index(t, "startTime", JFR_KIND_LONG, false);
    }
}

int jfrw_plan_new(jfrw_chunk_plan **out, jfr_scrub *s, jfr_chunk *c)
{
    const jfrp_alloc *al = &c->rec->al;
    size_t n = c->meta.ntypes ? c->meta.ntypes : 1;
    jfrw_chunk_plan *p = jfrp_calloc(al, 1, sizeof *p);

    *out = NULL;
    if (!p)
        return JFR_ENOMEM;
    p->s = s;
    p->c = c;
    jfrp_arena_init(&p->arena, al);
    jfrp_arena_init(&p->scratch, al);
    p->vctx.chunk = c;
    p->vctx.scratch = &p->scratch;
    p->type_kept = jfrp_arena_calloc(&p->arena, n, 1);
    p->redacts = jfrp_arena_calloc(&p->arena, n, 1);
    p->rules = jfrp_arena_calloc(&p->arena, n, sizeof *p->rules);
    p->nrules = jfrp_arena_calloc(&p->arena, n, sizeof *p->nrules);
    p->thread_at = jfrp_arena_calloc(&p->arena, n, sizeof *p->thread_at);
    p->time_at = jfrp_arena_calloc(&p->arena, n, sizeof *p->time_at);
    if (!p->type_kept || !p->redacts || !p->rules || !p->nrules || !p->thread_at ||
        !p->time_at || (s && resolve_rules(p) < 0)) {
        jfrw_plan_free(p);
        return JFR_ENOMEM;
    }
    resolve_types(p);
    for (size_t i = 0; s && i < s->nfilters; i++)
        p->thread_filters |= is_thread_filter(s->filters[i].kind);
    *out = p;
    return 0;
}

void jfrw_plan_free(jfrw_chunk_plan *p)
{
    if (!p)
        return;
    jfrp_map_free(&p->verdicts, &p->c->rec->al);
    jfrp_arena_free(&p->arena);
    jfrp_arena_free(&p->scratch);
    jfrp_free(&p->c->rec->al, p);
}

bool jfrw_plan_type_kept(const jfrw_chunk_plan *p, size_t type_index)
{
    return p->type_kept[type_index] != 0;
}

bool jfrw_plan_time_filtered(const jfrw_chunk_plan *p)
{
    return p->s && (p->s->from || p->s->to);
}

/* Skip fields [0, n) of `t` at `r`. */
static void skip_fields(jfrp_reader *r, const jfr_type *t, size_t n)
{
    for (size_t i = 0; i < n && !r->err; i++)
        jfrp_skip_field(r, &t->fields[i]);
}

/* Whether the thread filters keep an event of the thread named `name`
 * ({NULL, 0}: no thread, or no name, which matches nothing, as in the JDK). */
static bool name_kept(const jfr_scrub *s, jfr_str name)
{
    bool kept = true;

    for (size_t i = 0; i < s->nfilters && kept; i++) {
        const jfrw_filter *flt = &s->filters[i];
        bool match = false;

        if (!is_thread_filter(flt->kind))
            continue;
        for (size_t j = 0; name.ptr && j < flt->nitems && !match; j++)
            match = jfrw_glob(name.ptr, name.len, flt->items[j], strlen(flt->items[j]));
        kept = match == is_include(flt->kind);
    }
    return kept;
}

/* name_kept for the thread of pool key `key` (cached per key). */
static int thread_verdict(jfrw_chunk_plan *p, const jfr_field *f, uint64_t key)
{
    uint64_t cached = jfrp_map_get(&p->verdicts, key);
    jfr_value v = {0};
    jfr_str name = {NULL, 0};
    bool kept;

    if (cached)
        return cached == 1;
    v.field = f;
    if (jfrp_pool_value(&v, p->c, f->type, key) < 0 ||
        jfr_value_string_field(&name, &v, "javaName") < 0)
        return -1;
    kept = name_kept(p->s, name);
    if (jfrp_map_put(&p->verdicts, &p->c->rec->al, key, kept ? 1 : 2) < 0)
        return -1;
    return kept;
}

static int thread_kept(jfrw_chunk_plan *p, const jfr_type *t, const uint8_t *payload,
                       const uint8_t *end)
{
    int32_t at = p->thread_at[t->index];
    jfrp_reader r;
    uint64_t key;

    if (at < 0)
        return name_kept(p->s, (jfr_str){NULL, 0});
    jfrp_chunk_reader(&r, p->c, (uint64_t)(payload - p->c->data));
    r.end = end;
    skip_fields(&r, t, (size_t)at);
    key = jfrp_int(&r, 8);
    if (r.err)
        return -1;
    return thread_verdict(p, &t->fields[at], key);
}

static int time_kept(jfrw_chunk_plan *p, const jfr_type *t, const uint8_t *payload,
                     const uint8_t *end)
{
    int32_t at = p->time_at[t->index];
    jfrp_reader r;
    int64_t ns;

    if (at < 0)
        return 1;
    jfrp_chunk_reader(&r, p->c, (uint64_t)(payload - p->c->data));
    r.end = end;
    skip_fields(&r, t, (size_t)at);
    ns = jfr_chunk_ticks_to_epoch_nanos(p->c, (int64_t)jfrp_int(&r, 8));
    if (r.err)
        return -1;
    return (!p->s->from || ns >= p->s->from) && (!p->s->to || ns < p->s->to);
}

int jfrw_plan_event_kept(jfrw_chunk_plan *p, const jfr_type *t, const uint8_t *payload,
                         const uint8_t *end)
{
    int rc = 1;

    if (p->thread_filters && (rc = thread_kept(p, t, payload, end)) != 1)
        return rc;
    if (jfrw_plan_time_filtered(p))
        rc = time_kept(p, t, payload, end);
    return rc;
}

bool jfrw_plan_redacts(const jfrw_chunk_plan *p, const jfr_type *t)
{
    uint8_t *known = &p->redacts[t->index];
    bool any;

    if (*known)
        return *known == 2;
    any = p->nrules[t->index] > 0;
    /* inline struct fields: nesting is bounded (metadata.c), pooled ones
     * are other values, redacted where they are written */
    for (size_t i = 0; i < t->nfields && !any && t->decodable; i++) {
        const jfr_field *f = &t->fields[i];
        any = f->type && !f->pooled && f->type->kind == JFR_KIND_STRUCT &&
              jfrw_plan_redacts(p, f->type);
    }
    *known = any ? 2 : 1;
    return any;
}
