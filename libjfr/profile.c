/* profile.c - a profile's life: its options, its merged stacks (frame-id
 * sequences with weights), merging profiles, and reading them back.
 * Filling it from a chunk is profile_chunk.c's job. */
#include <stdio.h>
#include <string.h>

#include "profile_struct.h"

/* ---- creation ------------------------------------------------------------- */

static char *copy_string(jfr_profile *p, const char *s)
{
    size_t n = strlen(s);
    char *c = jfrp_malloc(&p->al, n + 1);

    if (c)
        memcpy(c, s, n + 1);
    return c;
}

static int compile(regex_t *re, bool *has, const char *pattern, const char *what,
                   jfr_error *err)
{
    char msg[100];
    int rc;

    if (!pattern)
        return JFR_OK;
    rc = regcomp(re, pattern, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        regerror(rc, re, msg, sizeof msg);
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "bad %s regex '%.40s': %s", what,
                         pattern, msg);
    }
    *has = true;
    return JFR_OK;
}

/* The sources the options name: exactly one of event_type, kind, sources. */
static int chosen_sources(const jfr_profile_options *opts, jfr_profile_source *one,
                          const jfr_profile_source **out, size_t *n, jfr_unit *count_unit,
                          jfr_error *err)
{
    const char *kind = opts->version >= 2 ? opts->kind : NULL;
    const jfr_profile_source *list = opts->version >= 2 ? opts->sources : NULL;
    size_t nlist = list ? opts->nsources : 0;
    bool has_type = opts->event_type && *opts->event_type;
    const jfr_profile_kind *k;

    if (has_type + (kind != NULL) + (nlist != 0) != 1)
        return jfrp_fail(err, JFR_EINVAL, -1, 0,
                         "profile: give one of an event type, a kind or sources");
    *count_unit = JFR_UNIT_SAMPLES;
    if (kind) {
        if (!(k = jfr_profile_kind_by_name(kind)))
            return jfrp_fail(err, JFR_EINVAL, -1, 0, "profile: unknown kind '%.40s'",
                             kind);
        *out = k->sources;
        *n = k->nsources;
        *count_unit = k->count_unit;
        return JFR_OK;
    }
    if (list) {
        for (size_t i = 0; i < nlist; i++)
            if (!list[i].event_type || !*list[i].event_type)
                return jfrp_fail(err, JFR_EINVAL, -1, 0,
                                 "profile: source %zu has no event type", i);
        *out = list;
        *n = nlist;
        return JFR_OK;
    }
    /* one event type: its weight is weight_field, set below for every source */
    memset(one, 0, sizeof *one);
    one->event_type = opts->event_type;
    *out = one;
    *n = 1;
    return JFR_OK;
}

static char **copy_states(jfr_profile *p, const char *const *states)
{
    size_t n = 0;
    char **copy;

    while (states[n])
        n++;
    if (!(copy = jfrp_calloc(&p->al, n + 1, sizeof *copy)))
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (!(copy[i] = copy_string(p, states[i])))
            return copy; /* freed with the profile */
    return copy;
}

static int copy_source(jfr_profile *p, jfrp_source *to, const jfr_profile_source *from,
                       const char *weight)
{
    to->group = from->group;
    to->class_kind = from->class_kind;
    /* a weight of the caller's replaces a counting one */
    to->weight_counts = from->weight_counts && !weight;
    if (!weight)
        weight = from->weight_field;
    if (!(to->event_type = copy_string(p, from->event_type)) ||
        (weight && !(to->weight_field = copy_string(p, weight))) ||
        (from->class_field && !(to->class_field = copy_string(p, from->class_field))) ||
        (from->states && !(to->states = copy_states(p, from->states))))
        return JFR_ENOMEM;
    for (size_t i = 0; to->states && from->states[i]; i++)
        if (!to->states[i])
            return JFR_ENOMEM;
    return JFR_OK;
}

static bool same_string(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* Sources of one event type may differ in group and states only: an event
 * is read once, with one weight and one class frame. */
static int check_sources(const jfr_profile *p, jfr_error *err)
{
    for (size_t i = 0; i < p->nsources; i++) {
        const jfrp_source *a = &p->sources[i];
        if (a->group >= JFRP_MAX_GROUPS)
            return jfrp_fail(err, JFR_EINVAL, -1, 0,
                             "profile: source %zu: group %u (at most %u groups)", i,
                             a->group, JFRP_MAX_GROUPS);
        for (size_t j = 0; j < i; j++) {
            const jfrp_source *b = &p->sources[j];
            if (strcmp(a->event_type, b->event_type) == 0 &&
                (!same_string(a->weight_field, b->weight_field) ||
                 !same_string(a->class_field, b->class_field) ||
                 a->class_kind != b->class_kind || a->weight_counts != b->weight_counts))
                return jfrp_fail(err, JFR_EINVAL, -1, 0,
                                 "profile: two sources of %.60s weigh or name classes "
                                 "differently",
                                 a->event_type);
        }
    }
    return JFR_OK;
}

/* What merge compares: every source as text. */
static int make_selection(jfr_profile *p)
{
    size_t len = 1;

    for (size_t i = 0; i < p->nsources; i++) {
        const jfrp_source *src = &p->sources[i];
        len += strlen(src->event_type) + 64;
        len += src->weight_field ? strlen(src->weight_field) : 0;
        len += src->class_field ? strlen(src->class_field) : 0;
        for (size_t k = 0; src->states && src->states[k]; k++)
            len += strlen(src->states[k]) + 1;
    }
    if (!(p->selection = jfrp_malloc(&p->al, len)))
        return JFR_ENOMEM;
    p->selection[0] = '\0';
    for (size_t i = 0; i < p->nsources; i++) {
        const jfrp_source *src = &p->sources[i];
        size_t at = strlen(p->selection);
        at +=
            (size_t)snprintf(p->selection + at, len - at, "%s/%s/%u/%s/%d/%d/",
                             src->event_type, src->weight_field ? src->weight_field : "",
                             src->group, src->class_field ? src->class_field : "",
                             (int)src->class_kind, (int)src->weight_counts);
        for (size_t k = 0; src->states && src->states[k]; k++)
            at += (size_t)snprintf(p->selection + at, len - at, "%s,", src->states[k]);
        snprintf(p->selection + at, len - at, ";");
    }
    return JFR_OK;
}

/* Copy the sources (weight_field, when given, weighs every one) and make
 * the selection string that merge compares. */
static int copy_sources(jfr_profile *p, const jfr_profile_source *from, size_t n,
                        const char *weight)
{
    p->sources = jfrp_calloc(&p->al, n, sizeof *p->sources);
    if (!p->sources)
        return JFR_ENOMEM;
    p->nsources = n;
    for (size_t i = 0; i < n; i++) {
        int rc = copy_source(p, &p->sources[i], &from[i], weight);
        if (rc < 0)
            return rc;
        p->is_cpu |= strcmp(p->sources[i].event_type, JFRP_CPU_SAMPLE) == 0;
        if (from[i].group + 1 > p->ngroups && from[i].group < JFRP_MAX_GROUPS)
            p->ngroups = from[i].group + 1;
    }
    return make_selection(p);
}

/* ---- the samples of every sample kind (JFR_PROFILE_KIND_SAMPLES) ------------
 * A count-only profile per kind that counts samples, fed the same chunks
 * (jfr_profile_add_chunk), so that a nearly empty profile can be told from
 * a recording whose samples are of another kind (cryostat-recording.jfr: 4
 * execution samples, 29,867 wall-clock ones). */

/* A kind that counts samples: no source weighs by time or bytes. */
static bool counts_samples(const jfr_profile_kind *k)
{
    if (k->count_unit != JFR_UNIT_SAMPLES)
        return false;
    for (size_t i = 0; i < k->nsources; i++)
        if (k->sources[i].weight_field && !k->sources[i].weight_counts)
            return false;
    return true;
}

static int census_new(jfr_profile *p, const jfr_profile_options *opts, jfr_error *err)
{
    const jfr_profile_kind *kinds = jfr_profile_kinds(&p->ncensus);
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    int rc;

    p->census = jfrp_calloc(&p->al, p->ncensus, sizeof *p->census);
    if (!p->census)
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    /* the same samples: time range and threads, not frames */
    o.thread_field = opts->thread_field;
    o.thread_regex = opts->thread_regex;
    o.from_nanos = opts->from_nanos;
    o.to_nanos = opts->to_nanos;
    o.allocator = opts->allocator;
    for (size_t k = 0; k < p->ncensus; k++) {
        if (!counts_samples(&kinds[k]))
            continue;
        o.kind = kinds[k].name;
        if ((rc = jfr_profile_new(&p->census[k], &o, err)) < 0)
            return rc;
    }
    return JFR_OK;
}

static void census_merge(jfr_profile *dst, const jfr_profile *src)
{
    for (size_t k = 0; k < dst->ncensus && k < src->ncensus; k++) {
        if (!dst->census[k] || !src->census[k])
            continue;
        dst->census[k]->samples += src->census[k]->samples;
        dst->census[k]->total += src->census[k]->total;
    }
}

static void census_free(jfr_profile *p)
{
    for (size_t k = 0; p->census && k < p->ncensus; k++)
        jfr_profile_free(p->census[k]);
    jfrp_free(&p->al, p->census);
    p->census = NULL;
}

int jfr_profile_new(jfr_profile **out, const jfr_profile_options *opts, jfr_error *err)
{
    const jfr_profile_source *sources = NULL;
    jfr_profile_source one;
    jfr_unit count_unit = JFR_UNIT_SAMPLES;
    jfr_profile *p;
    size_t nsources = 0;
    jfrp_alloc al;
    int rc;

    if (!out)
        return JFR_EINVAL;
    *out = NULL;
    if (!opts || opts->version < 1 || opts->version > JFR_PROFILE_OPTIONS_VERSION)
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "profile: unknown options version");
    if ((rc = chosen_sources(opts, &one, &sources, &nsources, &count_unit, err)) < 0)
        return rc;
    jfrp_alloc_init(&al, opts->allocator);
    p = jfrp_calloc(&al, 1, sizeof *p);
    if (!p)
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    p->al = al;
    jfrp_intern_init(&p->strings, &p->al);
    jfrp_intern_init(&p->frame_keys, &p->al);
    jfrp_intern_init(&p->stacks, &p->al);
    p->frame_bytes = opts->flags & JFR_PROFILE_COMPACT_STACKS ? 1 : 4;
    p->from_nanos = opts->from_nanos;
    p->to_nanos = opts->to_nanos;
    p->flags = opts->flags;
    if (opts->version >= 3 && opts->bucket_nanos > 0) {
        p->bucket_nanos = opts->bucket_nanos;
        p->bucket_origin = opts->bucket_origin_nanos;
    }
    if (copy_sources(p, sources, nsources, opts->weight_field) < 0 ||
        (opts->thread_field && !(p->thread_field = copy_string(p, opts->thread_field)))) {
        jfr_profile_free(p);
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    }
    if ((rc = check_sources(p, err)) < 0 ||
        ((p->flags & JFR_PROFILE_KIND_SAMPLES) && (rc = census_new(p, opts, err)) < 0)) {
        jfr_profile_free(p);
        return rc;
    }
    /* counts have their unit now; a weight field's comes with the metadata */
    p->count_unit = count_unit;
    p->unit = count_unit;
    p->unit_known = true;
    for (size_t i = 0; i < p->nsources; i++)
        if (p->sources[i].weight_field && !p->sources[i].weight_counts) {
            p->unit = JFR_UNIT_NUMBER;
            p->unit_known = false;
        }
    if ((rc = compile(&p->thread_re, &p->has_thread_re, opts->thread_regex, "thread",
                      err)) < 0 ||
        (rc = compile(&p->include_re, &p->has_include, opts->include_regex, "include",
                      err)) < 0 ||
        (rc = compile(&p->exclude_re, &p->has_exclude, opts->exclude_regex, "exclude",
                      err)) < 0) {
        jfr_profile_free(p);
        return rc;
    }
    *out = p;
    return JFR_OK;
}

void jfr_profile_free(jfr_profile *p)
{
    if (!p)
        return;
    if (p->has_thread_re)
        regfree(&p->thread_re);
    if (p->has_include)
        regfree(&p->include_re);
    if (p->has_exclude)
        regfree(&p->exclude_re);
    jfrp_tree_free(p);
    census_free(p);
    jfrp_intern_free(&p->strings);
    jfrp_intern_free(&p->frame_keys);
    jfrp_intern_free(&p->stacks);
    jfrp_free(&p->al, p->narrow);
    jfrp_free(&p->al, p->frames);
    jfrp_free(&p->al, p->frame_match);
    jfrp_free(&p->al, p->stack_weight);
    jfrp_free(&p->al, p->stack_samples);
    jfrp_free(&p->al, p->buf);
    for (size_t i = 0; p->sources && i < p->nsources; i++) {
        jfrp_source *src = &p->sources[i];
        jfrp_free(&p->al, src->event_type);
        jfrp_free(&p->al, src->weight_field);
        jfrp_free(&p->al, src->class_field);
        for (size_t k = 0; src->states && src->states[k]; k++)
            jfrp_free(&p->al, src->states[k]);
        jfrp_free(&p->al, src->states);
    }
    jfrp_free(&p->al, p->sources);
    jfrp_free(&p->al, p->selection);
    jfrp_free(&p->al, p->thread_field);
    jfrp_free(&p->al, p);
}

/* ---- merged stacks ------------------------------------------------------------ */

/* jfrp_profile_put_stack of frames whose jfrp_intern_hash in p->stacks is
 * `hash` (unused in a profile that is only merged). */
static int put_stack_hashed(jfr_profile *p, uint32_t *id, const uint32_t *frames,
                            size_t depth, uint64_t hash, uint64_t weight,
                            uint64_t samples)
{
    int added, rc;
    const void *key;
    size_t len;

    if (depth > UINT32_MAX / sizeof *frames)
        return JFR_ELIMIT;
    /* room first: a stack interned without its counters would point past them */
    if (jfrp_intern_count(&p->stacks) >= p->stacks_room) {
        size_t room = p->stacks_room ? p->stacks_room * 2 : 256;
        uint64_t *w = jfrp_reallocarray(&p->al, p->stack_weight, room, sizeof *w);
        if (!w)
            return JFR_ENOMEM;
        p->stack_weight = w;
        w = jfrp_reallocarray(&p->al, p->stack_samples, room, sizeof *w);
        if (!w)
            return JFR_ENOMEM;
        p->stack_samples = w;
        p->stacks_room = room;
    }
    /* 4-byte ids are stored as they come; only a compact profile narrows */
    key = frames;
    len = depth * sizeof *frames;
    if (p->frame_bytes != 4 &&
        (rc = jfrp_profile_stack_key(p, frames, depth, &key, &len)) < 0)
        return rc;
    if (p->merge_only) {
        rc = jfrp_intern_append(&p->stacks, key, len, id);
        added = 1;
    } else {
        rc = jfrp_intern_put_hashed(&p->stacks, key, len, hash, id, &added);
    }
    if (rc < 0)
        return rc;
    if (added) {
        p->stack_weight[*id] = 0;
        p->stack_samples[*id] = 0;
    }
    jfrp_profile_count_stack(p, *id, weight, samples);
    return 0;
}

int jfrp_profile_put_stack(jfr_profile *p, uint32_t *id, const uint32_t *frames,
                           size_t depth, uint64_t weight, uint64_t samples)
{
    uint64_t hash = p->merge_only || depth > UINT32_MAX / sizeof *frames
                        ? 0
                        : jfrp_intern_hash(&p->stacks, frames, depth * sizeof *frames);

    return put_stack_hashed(p, id, frames, depth, hash, weight, samples);
}

/* How many of a batch's lookups are started before the first put: each is
 * a cache miss in a large profile, and started together they overlap. */
#define ENTRIES_AHEAD 8

int jfrp_profile_put_stacks(jfr_profile *p, jfrp_stack_put *v, size_t n)
{
    uint64_t hash[JFRP_PUT_BATCH];
    int rc = 0;

    if (n > JFRP_PUT_BATCH)
        return JFR_EINVAL;
    /* a profile that is only merged looks nothing up */
    for (size_t j = 0; j < n && !p->merge_only; j++) {
        if (v[j].depth > UINT32_MAX / sizeof *v[j].frames)
            return JFR_ELIMIT;
        hash[j] =
            jfrp_intern_hash(&p->stacks, v[j].frames, v[j].depth * sizeof *v[j].frames);
        jfrp_intern_prefetch_slot(&p->stacks, hash[j]);
    }
    for (size_t j = 0; j < n && rc >= 0; j++) {
        if (j % ENTRIES_AHEAD == 0 && !p->merge_only)
            for (size_t k = j; k < j + ENTRIES_AHEAD && k < n; k++)
                jfrp_intern_prefetch_entry(&p->stacks, hash[k]);
        rc = put_stack_hashed(p, &v[j].id, v[j].frames, v[j].depth,
                              p->merge_only ? 0 : hash[j], v[j].weight, v[j].samples);
    }
    return rc;
}

void jfrp_profile_count_stack(jfr_profile *p, uint32_t id, uint64_t weight,
                              uint64_t samples)
{
    p->stack_weight[id] += weight;
    p->stack_samples[id] += samples;
    p->total += weight;
    p->samples += samples;
    p->tree_valid = false;
}

void jfrp_profile_merge_only(jfr_profile *p)
{
    p->merge_only = true;
}

int jfrp_profile_add_stack(jfr_profile *p, const uint32_t *frames, size_t depth,
                           uint64_t weight, uint64_t samples)
{
    uint32_t id;

    return jfrp_profile_put_stack(p, &id, frames, depth, weight, samples);
}

int jfr_profile_add_synthetic(jfr_profile *p, const char *name, uint64_t weight,
                              uint64_t samples)
{
    uint32_t id;
    int rc;

    if (!p || !name)
        return JFR_EINVAL;
    if ((rc = jfrp_profile_synthetic(p, name, &id)) < 0)
        return rc;
    return jfrp_profile_add_stack(p, &id, 1, weight, samples);
}

/* `text` without what changes from run to run, in `*buf` (grown as needed):
 * a frame given whole, such as a line of folded text, is normalised as the
 * profile's own class names are (the method name never starts with a digit,
 * so only the class part can change). */
static int normalized_copy(jfr_profile *p, const char *text, char **buf, size_t *room,
                           const char **out)
{
    size_t len = strlen(text);

    if (len + 1 > *room) {
        char *grown = jfrp_realloc(&p->al, *buf, len + 1);

        if (!grown)
            return JFR_ENOMEM;
        *buf = grown;
        *room = len + 1;
    }
    memcpy(*buf, text, len);
    (*buf)[jfr_name_normalize(*buf, len)] = '\0';
    *out = *buf;
    return 0;
}

int jfr_profile_add_stack(jfr_profile *p, const jfr_profile_frame *frames, size_t depth,
                          uint64_t weight, uint64_t samples)
{
    uint32_t *seq;
    char *names[2] = {NULL, NULL};
    size_t rooms[2] = {0, 0};
    int rc = 0;

    if (!p || !frames || depth == 0)
        return JFR_EINVAL;
    if (depth > UINT32_MAX / sizeof *seq)
        return JFR_ELIMIT;
    for (size_t k = 0; k < depth; k++)
        if (!frames[k].name)
            return JFR_EINVAL;
    seq = jfrp_calloc(&p->al, depth, sizeof *seq);
    if (!seq)
        return JFR_ENOMEM;
    for (size_t k = 0; k < depth && rc >= 0; k++) {
        jfr_profile_frame f = frames[k];

        f.class_name = f.class_name ? f.class_name : "";
        f.method = f.method ? f.method : "";
        f.signature = f.signature ? f.signature : "";
        if (!(p->flags & JFR_PROFILE_LINES))
            f.line = -1;
        if ((p->flags & JFR_PROFILE_NORMALIZE) && !f.synthetic &&
            ((rc = normalized_copy(p, f.name, &names[0], &rooms[0], &f.name)) < 0 ||
             (rc = normalized_copy(p, f.class_name, &names[1], &rooms[1],
                                   &f.class_name)) < 0))
            break;
        rc = jfrp_profile_copy_frame(p, &f, &seq[k]);
    }
    if (rc >= 0)
        rc = jfrp_profile_add_stack(p, seq, depth, weight, samples);
    jfrp_free(&p->al, names[0]);
    jfrp_free(&p->al, names[1]);
    jfrp_free(&p->al, seq);
    return rc < 0 ? rc : JFR_OK;
}

/* ---- merging ------------------------------------------------------------------ */

void jfrp_profile_add_cpu(jfr_cpu_accounting *dst, const jfr_cpu_accounting *src)
{
    dst->samples += src->samples;
    dst->with_stack += src->with_stack;
    dst->failed += src->failed;
    dst->biased += src->biased;
    dst->lost += src->lost;
    dst->period_ns += src->period_ns;
    dst->lost_events += src->lost_events;
    dst->failed_period_ns += src->failed_period_ns;
    dst->biased_period_ns += src->biased_period_ns;
}

/* The stack of src `i` with dst's frame ids, at seq + *used (grown as
 * needed); frames new to dst are copied in the order they are met. */
static int map_stack(jfr_profile *dst, const jfr_profile *src, uint32_t *to_dst, size_t i,
                     uint32_t **seq, size_t *room, size_t *used)
{
    size_t depth = jfrp_profile_stack_frames(src, i, NULL, 0);
    const uint32_t *in;
    uint32_t *out;
    int rc;

    if ((rc = jfrp_grow_array(&dst->al, (void **)seq, room, *used + depth + 1,
                              sizeof **seq)) < 0)
        return rc;
    /* src's ids, read in place when they are 4 bytes (as jfr_profile_stack
     * reads them), made dst's */
    out = *seq + *used;
    if (src->frame_bytes == 4) {
        in = jfrp_intern_key(&src->stacks, (uint32_t)i, NULL);
    } else {
        (void)jfrp_profile_stack_frames(src, i, out, depth);
        in = out;
    }
    for (size_t k = 0; k < depth; k++) {
        uint32_t id = in[k], copy;

        if (!to_dst[id]) {
            if ((rc = jfrp_profile_copy_frame(dst, &src->frames[id], &copy)) < 0)
                return rc;
            to_dst[id] = copy + 1;
        }
        out[k] = to_dst[id] - 1;
    }
    *used += depth;
    return 0;
}

int jfr_profile_merge(jfr_profile *dst, const jfr_profile *src)
{
    size_t nframes, nstacks, room = 0;
    uint32_t *to_dst, *seq = NULL;
    int rc = 0;

    if (!dst || !src || dst == src ||
        JFRP_MERGE_FLAGS(dst->flags) != JFRP_MERGE_FLAGS(src->flags) ||
        dst->bucket_nanos != src->bucket_nanos ||
        dst->bucket_origin != src->bucket_origin ||
        strcmp(dst->selection, src->selection) != 0 ||
        (dst->unit_known && src->unit_known && dst->unit != src->unit))
        return JFR_EINVAL;
    nframes = jfrp_intern_count(&src->frame_keys);
    nstacks = jfrp_intern_count(&src->stacks);
    /* src frame id -> dst frame id + 1, made as frames are first met, so
     * that frames get their dst ids in the order of src's stacks */
    to_dst = jfrp_calloc(&dst->al, nframes ? nframes : 1, sizeof *to_dst);
    if (!to_dst)
        return JFR_ENOMEM;
    for (size_t first = 0; first < nstacks && rc >= 0; first += JFRP_PUT_BATCH) {
        size_t n = nstacks - first < JFRP_PUT_BATCH ? nstacks - first : JFRP_PUT_BATCH;
        size_t off[JFRP_PUT_BATCH + 1] = {0}, used = 0, mapped = 0;
        jfrp_stack_put put[JFRP_PUT_BATCH];
        int prc;

        for (; mapped < n && rc >= 0; mapped++) {
            rc = map_stack(dst, src, to_dst, first + mapped, &seq, &room, &used);
            off[mapped + 1] = used;
        }
        if (rc < 0)
            mapped--;
        for (size_t j = 0; j < mapped; j++)
            put[j] = (jfrp_stack_put){seq + off[j], off[j + 1] - off[j],
                                      src->stack_weight[first + j],
                                      src->stack_samples[first + j], 0};
        if ((prc = jfrp_profile_put_stacks(dst, put, mapped)) < 0 && rc >= 0)
            rc = prc;
    }
    jfrp_free(&dst->al, seq);
    jfrp_free(&dst->al, to_dst);
    if (rc < 0)
        return rc;
    jfrp_profile_add_cpu(&dst->cpu, &src->cpu);
    census_merge(dst, src);
    dst->lost_stack_samples += src->lost_stack_samples;
    if (!dst->unit_known && src->unit_known) {
        dst->unit = src->unit;
        dst->unit_known = true;
    }
    return JFR_OK;
}

/* ---- accessors -------------------------------------------------------------- */

uint64_t jfr_profile_total(const jfr_profile *p)
{
    return p ? p->total : 0;
}

uint64_t jfr_profile_samples(const jfr_profile *p)
{
    return p ? p->samples : 0;
}

uint64_t jfr_profile_lost_stacks(const jfr_profile *p)
{
    return p ? p->lost_stack_samples : 0;
}

const jfr_cpu_accounting *jfr_profile_cpu(const jfr_profile *p)
{
    return p ? &p->cpu : NULL;
}

jfr_unit jfr_profile_unit(const jfr_profile *p)
{
    return p ? p->unit : JFR_UNIT_SAMPLES;
}

unsigned jfr_profile_flags(const jfr_profile *p)
{
    return p ? p->flags : 0;
}

size_t jfr_profile_stack_count(const jfr_profile *p)
{
    return p ? jfrp_intern_count(&p->stacks) : 0;
}

/* jfr_profile_stack of a compact profile: its stacks rewritten in 4-byte
 * ids first, for good (the one change a getter makes; see profile.h). Out
 * of jfr_profile_stack's own path, which stays a few instructions. */
static int widened_stack(uint64_t *weight, const uint32_t **frames, size_t *depth,
                         const jfr_profile *p, size_t i)
{
    int rc = jfrp_profile_widen((jfr_profile *)(uintptr_t)p, 4);

    return rc < 0 ? rc : jfr_profile_stack(weight, frames, depth, p, i);
}

int jfr_profile_stack(uint64_t *weight, const uint32_t **frames, size_t *depth,
                      const jfr_profile *p, size_t i)
{
    size_t len;
    const void *key;

    if (!p || i >= jfrp_intern_count(&p->stacks))
        return JFR_EINVAL;
    if (p->frame_bytes != 4)
        return widened_stack(weight, frames, depth, p, i);
    key = jfrp_intern_key(&p->stacks, (uint32_t)i, &len);
    if (weight)
        *weight = p->stack_weight[i];
    if (frames)
        *frames = key;
    if (depth)
        *depth = len / sizeof(uint32_t);
    return JFR_OK;
}

uint64_t jfr_profile_stack_samples(const jfr_profile *p, size_t i)
{
    if (!p || i >= jfrp_intern_count(&p->stacks))
        return 0;
    return p->stack_samples[i];
}

size_t jfr_profile_frame_count(const jfr_profile *p)
{
    return p ? jfrp_intern_count(&p->frame_keys) : 0;
}

const jfr_profile_frame *jfr_profile_frame_at(const jfr_profile *p, uint32_t id)
{
    if (!p || id >= jfrp_intern_count(&p->frame_keys))
        return NULL;
    return &p->frames[id];
}

uint64_t jfr_profile_kind_samples(const jfr_profile *p, const char *kind)
{
    const jfr_profile_kind *k = jfr_profile_kind_by_name(kind);
    const jfr_profile_kind *kinds = jfr_profile_kinds(NULL);

    if (!p || !k || !p->census || (size_t)(k - kinds) >= p->ncensus ||
        !p->census[k - kinds])
        return 0;
    return p->census[k - kinds]->total;
}
