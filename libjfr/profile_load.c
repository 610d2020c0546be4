/* profile_load.c - a saved profile (profile_save.c) read back: every
 * count and length is checked against the bytes left, every frame id
 * against the frame table, so that any input is refused cleanly. The
 * bytes are checked whole before anything is added to a profile, so that
 * jfr_profile_merge_saved adds them straight into its destination: no
 * profile in between, each frame interned once. */
#include <string.h>

#include "profile_struct.h"

typedef struct in_buf {
    const uint8_t *start, *at, *end;
    const char *bad; /* what was wrong, at `at`; NULL while all is well */
} in_buf;

/* Byte by byte, each checked: near the end of the bytes, or when wrong. */
static uint64_t get_varint_slow(in_buf *b)
{
    uint64_t v = 0;

    for (unsigned shift = 0; !b->bad; shift += 7) {
        uint8_t byte;

        if (b->at >= b->end) {
            b->bad = "ends early";
            break;
        }
        byte = *b->at;
        if (shift == 63 && byte > 1) {
            b->bad = "integer too large";
            break;
        }
        b->at++;
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return v;
    }
    return 0;
}

/* A varint: with ten bytes left (the longest), without a check per byte;
 * anything get_varint_slow would refuse goes to it. */
static inline uint64_t get_varint(in_buf *b)
{
    const uint8_t *q = b->at;
    uint64_t v = 0;

    if (b->bad || b->end - q < 10)
        return get_varint_slow(b);
    for (unsigned shift = 0; shift < 63; shift += 7) {
        uint8_t byte = *q++;

        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            b->at = q;
            return v;
        }
    }
    if (*q > 1)
        return get_varint_slow(b);
    b->at = q + 1;
    return v | (uint64_t)*q << 63;
}

static int64_t get_signed(in_buf *b)
{
    uint64_t v = get_varint(b);

    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* A count of items of at least `min_size` bytes each: never more than the
 * bytes left could hold. */
static size_t get_count(in_buf *b, size_t min_size, uint64_t limit)
{
    uint64_t n = get_varint(b);

    if (!b->bad && (n > (uint64_t)(b->end - b->at) / min_size || n > limit))
        b->bad = "count larger than the bytes left";
    return b->bad ? 0 : (size_t)n;
}

static const uint8_t *get_bytes(in_buf *b, size_t *len)
{
    const uint8_t *s;

    *len = get_count(b, 1, UINT32_MAX);
    s = b->at;
    if (!b->bad)
        b->at += *len;
    return s;
}

static int fail(in_buf *b, jfr_error *err)
{
    return jfrp_fail(err, JFR_ECORRUPT, -1, (uint64_t)(b->at - b->start),
                     "saved profile: %s", b->bad);
}

/* The header, as read: the selection points into the bytes. */
typedef struct saved_header {
    unsigned flags;
    int64_t bucket_nanos, bucket_origin;
    const uint8_t *selection;
    size_t selection_len;
    jfr_unit unit, count_unit;
    bool unit_known, is_cpu;
    jfr_cpu_accounting cpu;
    uint64_t lost_stack_samples;
} saved_header;

typedef struct saved_string {
    const uint8_t *bytes;
    size_t len;
} saved_string;

/* A frame of the frame table: string ids as saved (class + 1, 0: none). */
typedef struct saved_frame {
    uint32_t name, class_plus1, method, signature;
    int32_t line;
    uint8_t kind, synthetic;
} saved_frame;

/* Saved bytes, checked: the tables, and where the stacks start. */
typedef struct saved_view {
    saved_header h;
    saved_string *strings;
    size_t nstrings;
    saved_frame *frames;
    size_t nframes;
    const uint8_t *stacks, *end; /* the stack count's first byte, the end */
} saved_view;

static void get_accounting(in_buf *b, saved_header *h)
{
    jfr_cpu_accounting *c = &h->cpu;

    c->samples = get_varint(b);
    c->with_stack = get_varint(b);
    c->failed = get_varint(b);
    c->biased = get_varint(b);
    c->lost = get_varint(b);
    c->period_ns = get_varint(b);
    c->lost_events = get_varint(b);
    c->failed_period_ns = get_varint(b);
    c->biased_period_ns = get_varint(b);
    h->lost_stack_samples = get_varint(b);
}

static void get_header(in_buf *b, saved_header *h)
{
    uint64_t unit, count_unit, bits;

    if ((size_t)(b->end - b->at) < JFRP_SAVED_MAGIC_LEN ||
        memcmp(b->at, JFRP_SAVED_MAGIC, JFRP_SAVED_MAGIC_LEN) != 0) {
        b->bad = "not a saved profile of this version";
        return;
    }
    b->at += JFRP_SAVED_MAGIC_LEN;
    h->flags = (unsigned)get_varint(b);
    h->bucket_nanos = get_signed(b);
    h->bucket_origin = get_signed(b);
    h->selection = get_bytes(b, &h->selection_len);
    if (!b->bad && memchr(h->selection, 0, h->selection_len))
        b->bad = "a NUL byte in the selection";
    unit = get_varint(b);
    count_unit = get_varint(b);
    bits = get_varint(b);
    if (!b->bad && (unit > JFR_UNIT_NUMBER || count_unit > JFR_UNIT_EVENTS || bits > 3))
        b->bad = "unknown unit";
    h->unit = (jfr_unit)unit;
    h->count_unit = (jfr_unit)count_unit;
    h->unit_known = bits & 1;
    h->is_cpu = (bits >> 1) & 1;
    get_accounting(b, h);
}

/* The string table, as pointers into the bytes. */
static int get_strings(saved_view *v, const jfrp_alloc *al, in_buf *b)
{
    size_t count = get_count(b, 1, UINT32_MAX);

    if (!(v->strings = jfrp_calloc(al, count ? count : 1, sizeof *v->strings)))
        return JFR_ENOMEM;
    for (size_t i = 0; i < count && !b->bad; i++) {
        saved_string *s = &v->strings[i];

        s->bytes = get_bytes(b, &s->len);
        if (!b->bad && memchr(s->bytes, 0, s->len))
            b->bad = "a NUL byte in a name";
    }
    v->nstrings = b->bad ? 0 : count;
    return 0;
}

static uint32_t string_ref(in_buf *b, size_t nstrings, bool optional)
{
    uint64_t id = get_varint(b);

    if (!b->bad && id - optional >= nstrings && !(optional && id == 0))
        b->bad = "string id out of range";
    return b->bad ? 0 : (uint32_t)id;
}

static int get_frames(saved_view *v, const jfrp_alloc *al, in_buf *b)
{
    size_t count = get_count(b, 6, UINT32_MAX - 1);

    if (!(v->frames = jfrp_calloc(al, count ? count : 1, sizeof *v->frames)))
        return JFR_ENOMEM;
    for (size_t i = 0; i < count && !b->bad; i++) {
        saved_frame *f = &v->frames[i];
        int64_t line;
        uint64_t bits;

        f->name = string_ref(b, v->nstrings, false);
        f->class_plus1 = string_ref(b, v->nstrings, true);
        f->method = string_ref(b, v->nstrings, false);
        f->signature = string_ref(b, v->nstrings, false);
        line = get_signed(b);
        bits = get_varint(b);
        if (!b->bad &&
            (line < INT32_MIN || line > INT32_MAX || (bits >> 1) > JFR_FRAME_C1))
            b->bad = "frame line or kind out of range";
        f->line = (int32_t)line;
        f->kind = (uint8_t)(bits >> 1);
        f->synthetic = bits & 1;
    }
    v->nframes = b->bad ? 0 : count;
    return 0;
}

/* A stack as read: its first `shared` frames are the stack before's. */
typedef struct saved_stack {
    size_t shared, depth;
    uint64_t weight, samples;
} saved_stack;

/* The next stack into *st, its fresh frame ids (saved ids) into
 * seq[shared..depth) unless seq is NULL (only checking); seq has room for
 * `room` frames, the deepest stack that checking found. */
static void get_stack(in_buf *b, size_t nframes, saved_stack *st, uint32_t *seq,
                      size_t room)
{
    uint64_t shared = get_varint(b);
    size_t fresh = get_count(b, 1, UINT32_MAX);

    if (!b->bad && (shared > st->depth || shared + fresh == 0))
        b->bad = "stack shares more frames than the one before has";
    if (!b->bad && seq && shared + fresh > room)
        b->bad = "stack deeper than when checked"; /* never: the bytes were checked */
    for (size_t k = 0; k < fresh && !b->bad; k++) {
        uint64_t id = get_varint(b);

        if (!b->bad && id >= nframes)
            b->bad = "frame id out of range";
        if (seq)
            seq[shared + k] = (uint32_t)id;
    }
    st->shared = b->bad ? 0 : (size_t)shared;
    st->depth = b->bad ? 0 : shared + fresh;
    st->weight = get_varint(b);
    st->samples = get_varint(b);
}

/* Every stack read once without adding it: *deepest for the room. */
static void check_stacks(in_buf *b, size_t nframes, size_t *deepest)
{
    size_t count = get_count(b, 4, UINT32_MAX);
    saved_stack st = {0, 0, 0, 0};

    *deepest = 0;
    for (size_t i = 0; i < count && !b->bad; i++) {
        get_stack(b, nframes, &st, NULL, 0);
        if (st.depth > *deepest)
            *deepest = st.depth;
    }
}

static void view_free(saved_view *v, const jfrp_alloc *al)
{
    jfrp_free(al, v->strings);
    jfrp_free(al, v->frames);
}

/* Check every byte: 0 with b->bad set when they are wrong, JFR_ENOMEM. */
static int view_read(saved_view *v, const jfrp_alloc *al, in_buf *b, size_t *deepest)
{
    int rc;

    memset(v, 0, sizeof *v);
    *deepest = 0;
    get_header(b, &v->h);
    if (!b->bad && (rc = get_strings(v, al, b)) < 0)
        return rc;
    if (!b->bad && (rc = get_frames(v, al, b)) < 0)
        return rc;
    v->stacks = b->at;
    v->end = b->end;
    if (!b->bad)
        check_stacks(b, v->nframes, deepest);
    if (!b->bad && b->at != b->end)
        b->bad = "bytes after the last stack";
    return 0;
}

/* ---- adding checked bytes to a profile ------------------------------------------ */

/* What adding needs: saved string and frame id -> the profile's id + 1,
 * each interned when first used. */
typedef struct adder {
    jfr_profile *p;
    const saved_view *v;
    uint32_t *string_ids;
    uint32_t *frame_ids;
} adder;

static int string_id(adder *a, uint32_t saved, uint32_t *id)
{
    const saved_string *s = &a->v->strings[saved];
    int rc;

    if (!a->string_ids[saved]) {
        if ((rc = jfrp_profile_string(a->p, (const char *)s->bytes, s->len, id)) < 0)
            return rc;
        a->string_ids[saved] = *id + 1;
    }
    *id = a->string_ids[saved] - 1;
    return 0;
}

/* The first meeting of saved frame `saved`: its strings and the frame
 * interned. */
static int new_frame_id(adder *a, uint32_t saved, uint32_t *id)
{
    const saved_frame *f = &a->v->frames[saved];
    uint32_t s[4];
    int rc;

    if ((rc = string_id(a, f->name, &s[0])) < 0 ||
        (rc = f->class_plus1 ? string_id(a, f->class_plus1 - 1, &s[1])
                             : jfrp_profile_string(a->p, "", 0, &s[1])) < 0 ||
        (rc = string_id(a, f->method, &s[2])) < 0 ||
        (rc = string_id(a, f->signature, &s[3])) < 0 ||
        (rc = jfrp_profile_frame_of_names(a->p, s, f->line, (jfr_frame_kind)f->kind,
                                          f->synthetic, id)) < 0)
        return rc;
    a->frame_ids[saved] = *id + 1;
    return 0;
}

static inline int frame_id(adder *a, uint32_t saved, uint32_t *id)
{
    if (!a->frame_ids[saved])
        return new_frame_id(a, saved, id);
    *id = a->frame_ids[saved] - 1;
    return 0;
}

/* The stacks (checked by view_read), added to a->p in batches
 * (jfrp_profile_put_stacks); frames get the profile's ids as they are
 * first met. */
static int add_stacks(adder *a, size_t deepest)
{
    in_buf b = {a->v->stacks, a->v->stacks, a->v->end, NULL};
    size_t count = (size_t)get_varint(&b), room = deepest ? deepest : 1, n = 0;
    saved_stack st = {0, 0, 0, 0};
    jfrp_stack_put put[JFRP_PUT_BATCH];
    uint32_t *seq = jfrp_calloc(&a->p->al, room, sizeof *seq);
    /* the batch's ids, a stack each, and the last stack's before it */
    uint32_t *ids = jfrp_calloc(&a->p->al, room, (JFRP_PUT_BATCH + 1) * sizeof *ids);
    int rc = seq && ids ? 0 : JFR_ENOMEM, prc;

    for (size_t i = 0; i < count && rc >= 0 && !b.bad; i++) {
        uint32_t *mine = ids + (n + 1) * room;

        get_stack(&b, a->v->nframes, &st, seq, deepest);
        /* the shared frames keep the ids the stack before gave them */
        memcpy(mine, mine - room, st.shared * sizeof *mine);
        for (size_t k = st.shared; k < st.depth && rc >= 0 && !b.bad; k++)
            rc = frame_id(a, seq[k], &mine[k]);
        if (rc < 0 || b.bad)
            break;
        put[n++] = (jfrp_stack_put){mine, st.depth, st.weight, st.samples, 0};
        if (n == JFRP_PUT_BATCH) {
            rc = jfrp_profile_put_stacks(a->p, put, n);
            memcpy(ids, mine, room * sizeof *ids);
            n = 0;
        }
    }
    if (ids && (prc = jfrp_profile_put_stacks(a->p, put, n)) < 0 && rc >= 0)
        rc = prc;
    jfrp_free(&a->p->al, seq);
    jfrp_free(&a->p->al, ids);
    return rc < 0 ? rc : b.bad ? JFR_ECORRUPT : 0;
}

/* Add the checked bytes of `v` to `p`; with `all_frames`, every frame of
 * the table first, in its order (a loaded profile keeps the saved ids). */
static int add_view(jfr_profile *p, const saved_view *v, size_t deepest, bool all_frames)
{
    adder a = {p, v, NULL, NULL};
    int rc = 0;

    a.string_ids =
        jfrp_calloc(&p->al, v->nstrings ? v->nstrings : 1, sizeof *a.string_ids);
    a.frame_ids = jfrp_calloc(&p->al, v->nframes ? v->nframes : 1, sizeof *a.frame_ids);
    if (!a.string_ids || !a.frame_ids)
        rc = JFR_ENOMEM;
    for (size_t i = 0; all_frames && i < v->nframes && rc >= 0; i++) {
        uint32_t id;

        rc = frame_id(&a, (uint32_t)i, &id);
    }
    if (rc >= 0)
        rc = add_stacks(&a, deepest);
    jfrp_free(&p->al, a.string_ids);
    jfrp_free(&p->al, a.frame_ids);
    if (rc < 0)
        return rc;
    jfrp_profile_add_cpu(&p->cpu, &v->h.cpu);
    p->lost_stack_samples += v->h.lost_stack_samples;
    if (!p->unit_known && v->h.unit_known) {
        p->unit = v->h.unit;
        p->unit_known = true;
    }
    return 0;
}

/* Check `size` bytes at `data` whole: 0, or an error set in `err`. */
static int view_check(saved_view *v, const jfrp_alloc *al, const void *data, size_t size,
                      size_t *deepest, jfr_error *err)
{
    static const uint8_t none[1];
    in_buf b = {none, none, none, NULL};
    int rc;

    if (!data && size)
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "saved profile: no bytes");
    if (data) { /* no arithmetic on NULL, even + 0 */
        b.start = b.at = data;
        b.end = b.start + size;
    }
    if ((rc = view_read(v, al, &b, deepest)) < 0) {
        view_free(v, al);
        return jfrp_fail(err, rc, -1, (uint64_t)(b.at - b.start), "saved profile: %s",
                         jfr_strerror(rc));
    }
    if (b.bad) {
        view_free(v, al);
        return fail(&b, err);
    }
    return 0;
}

/* A profile with the header of `v` and nothing added yet. */
static jfr_profile *profile_of_header(const jfrp_alloc *al, const saved_header *h)
{
    jfr_profile *p = jfrp_calloc(al, 1, sizeof *p);

    if (!p)
        return NULL;
    p->al = *al;
    jfrp_intern_init(&p->strings, &p->al);
    jfrp_intern_init(&p->frame_keys, &p->al);
    jfrp_intern_init(&p->stacks, &p->al);
    if (!(p->selection = jfrp_malloc(&p->al, h->selection_len + 1))) {
        jfr_profile_free(p);
        return NULL;
    }
    if (h->selection_len)
        memcpy(p->selection, h->selection, h->selection_len);
    p->selection[h->selection_len] = '\0';
    p->flags = h->flags;
    p->frame_bytes = h->flags & JFR_PROFILE_COMPACT_STACKS ? 1 : 4;
    p->bucket_nanos = h->bucket_nanos;
    p->bucket_origin = h->bucket_origin;
    p->unit = h->unit;
    p->count_unit = h->count_unit;
    p->unit_known = h->unit_known;
    p->is_cpu = h->is_cpu;
    return p;
}

int jfr_profile_load(jfr_profile **out, const void *data, size_t size,
                     const jfr_allocator *allocator, jfr_error *err)
{
    saved_view v;
    jfr_profile *p;
    jfrp_alloc al;
    size_t deepest;
    int rc;

    if (!out)
        return JFR_EINVAL;
    *out = NULL;
    jfrp_alloc_init(&al, allocator);
    if ((rc = view_check(&v, &al, data, size, &deepest, err)) < 0)
        return rc;
    /* counters start at zero: add_view adds the saved ones */
    if (!(p = profile_of_header(&al, &v.h)))
        rc = JFR_ENOMEM;
    else
        rc = add_view(p, &v, deepest, true);
    view_free(&v, &al);
    if (rc < 0) {
        jfr_profile_free(p);
        return jfrp_fail(err, rc, -1, 0, "saved profile: %s", jfr_strerror(rc));
    }
    *out = p;
    return JFR_OK;
}

/* Whether a profile with header `h` merges into `p` (jfr_profile_merge's
 * rule). */
static bool mergeable(const jfr_profile *p, const saved_header *h)
{
    return JFRP_MERGE_FLAGS(p->flags) == JFRP_MERGE_FLAGS(h->flags) &&
           p->bucket_nanos == h->bucket_nanos && p->bucket_origin == h->bucket_origin &&
           strlen(p->selection) == h->selection_len &&
           memcmp(p->selection, h->selection, h->selection_len) == 0 &&
           !(p->unit_known && h->unit_known && p->unit != h->unit);
}

int jfr_profile_merge_saved(jfr_profile *dst, const void *data, size_t size,
                            jfr_error *err)
{
    saved_view v;
    size_t deepest;
    int rc;

    if (!dst)
        return jfrp_fail(err, JFR_EINVAL, -1, 0,
                         "saved profile: no profile to merge into");
    if ((rc = view_check(&v, &dst->al, data, size, &deepest, err)) < 0)
        return rc;
    if (!mergeable(dst, &v.h))
        rc = jfrp_fail(
            err, JFR_EINVAL, -1, 0,
            "saved profile: another selection, flags or unit than the profile's");
    else if ((rc = add_view(dst, &v, deepest, false)) < 0)
        jfrp_fail(err, rc, -1, 0, "saved profile: %s", jfr_strerror(rc));
    view_free(&v, &dst->al);
    return rc;
}
