/* profile_load.c - a saved profile (profile_save.c) read back: every
 * count and length is checked against the bytes left, every frame id
 * against the frame table, so that any input is refused cleanly. */
#include <string.h>

#include "profile_private.h"

typedef struct in_buf {
    const uint8_t *start, *at, *end;
    const char *bad; /* what was wrong, at `at`; NULL while all is well */
} in_buf;

static uint64_t get_varint(in_buf *b)
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

static int get_header(jfr_profile *p, in_buf *b)
{
    jfr_cpu_accounting *c = &p->cpu;
    const uint8_t *sel;
    uint64_t unit, count_unit, bits;
    size_t len;

    if ((size_t)(b->end - b->at) < JFRP_SAVED_MAGIC_LEN ||
        memcmp(b->at, JFRP_SAVED_MAGIC, JFRP_SAVED_MAGIC_LEN) != 0) {
        b->bad = "not a saved profile of this version";
        return 0;
    }
    b->at += JFRP_SAVED_MAGIC_LEN;
    p->flags = (unsigned)get_varint(b);
    p->bucket_nanos = get_signed(b);
    p->bucket_origin = get_signed(b);
    sel = get_bytes(b, &len);
    if (!b->bad && memchr(sel, 0, len))
        b->bad = "a NUL byte in the selection";
    if (b->bad)
        return 0;
    if (!(p->selection = jfrp_malloc(&p->al, len + 1)))
        return JFR_ENOMEM;
    memcpy(p->selection, sel, len);
    p->selection[len] = '\0';
    unit = get_varint(b);
    count_unit = get_varint(b);
    bits = get_varint(b);
    if (!b->bad && (unit > JFR_UNIT_NUMBER || count_unit > JFR_UNIT_EVENTS || bits > 3))
        b->bad = "unknown unit";
    p->unit = (jfr_unit)unit;
    p->count_unit = (jfr_unit)count_unit;
    p->unit_known = bits & 1;
    p->is_cpu = (bits >> 1) & 1;
    c->samples = get_varint(b);
    c->with_stack = get_varint(b);
    c->failed = get_varint(b);
    c->biased = get_varint(b);
    c->lost = get_varint(b);
    c->period_ns = get_varint(b);
    c->lost_events = get_varint(b);
    c->failed_period_ns = get_varint(b);
    c->biased_period_ns = get_varint(b);
    p->lost_stack_samples = get_varint(b);
    return 0;
}

/* The string table, interned in the profile: *strings by saved id. */
static int get_strings(jfr_profile *p, in_buf *b, const char ***strings, size_t *n)
{
    size_t count = get_count(b, 1, UINT32_MAX);

    *n = 0;
    if (!(*strings = jfrp_calloc(&p->al, count ? count : 1, sizeof **strings)))
        return JFR_ENOMEM;
    for (size_t i = 0; i < count && !b->bad; i++) {
        size_t len;
        const uint8_t *s = get_bytes(b, &len);
        uint32_t id;
        int rc;

        if (b->bad)
            break;
        if (memchr(s, 0, len)) {
            b->bad = "a NUL byte in a name";
            break;
        }
        if ((rc = jfrp_profile_string(p, (const char *)s, len, &id)) < 0)
            return rc;
        (*strings)[i] = jfrp_intern_key(&p->strings, id, NULL);
        *n = i + 1;
    }
    return 0;
}

static const char *string_ref(in_buf *b, const char **strings, size_t n, bool optional)
{
    uint64_t id = get_varint(b);

    if (optional && id == 0)
        return NULL;
    id -= optional;
    if (!b->bad && id >= n)
        b->bad = "string id out of range";
    return b->bad ? "" : strings[id];
}

/* The frame table: saved frame id -> this profile's frame id. */
static int get_frames(jfr_profile *p, in_buf *b, const char **strings, size_t nstrings,
                      uint32_t **map, size_t *nframes)
{
    size_t count = get_count(b, 6, UINT32_MAX - 1);

    *nframes = 0;
    if (!(*map = jfrp_calloc(&p->al, count ? count : 1, sizeof **map)))
        return JFR_ENOMEM;
    for (size_t i = 0; i < count && !b->bad; i++) {
        jfr_profile_frame f;
        int64_t line;
        uint64_t bits;
        int rc;

        memset(&f, 0, sizeof f);
        f.name = string_ref(b, strings, nstrings, false);
        f.class_name = string_ref(b, strings, nstrings, true);
        f.method = string_ref(b, strings, nstrings, false);
        f.signature = string_ref(b, strings, nstrings, false);
        line = get_signed(b);
        bits = get_varint(b);
        if (!b->bad &&
            (line < INT32_MIN || line > INT32_MAX || (bits >> 1) > JFR_FRAME_C1))
            b->bad = "frame line or kind out of range";
        if (b->bad)
            break;
        f.line = (int32_t)line;
        f.kind = (jfr_frame_kind)(bits >> 1);
        f.synthetic = bits & 1;
        if ((rc = jfrp_profile_copy_frame(p, &f, &(*map)[i])) < 0)
            return rc;
        *nframes = i + 1;
    }
    return 0;
}

/* Stacks, each sharing a prefix with the one before (profile_save.c). */
static int get_stacks(jfr_profile *p, in_buf *b, const uint32_t *map, size_t nframes)
{
    size_t count = get_count(b, 4, UINT32_MAX), depth = 0, room = 0;
    uint32_t *seq = NULL;
    int rc = 0;

    for (size_t i = 0; i < count && !b->bad && rc >= 0; i++) {
        uint64_t shared = get_varint(b);
        size_t fresh = get_count(b, 1, UINT32_MAX);
        uint64_t weight, samples;

        if (!b->bad && (shared > depth || shared + fresh == 0))
            b->bad = "stack shares more frames than the one before has";
        if (b->bad || (rc = jfrp_grow_array(&p->al, (void **)&seq, &room, shared + fresh,
                                            sizeof *seq)) < 0)
            break;
        for (size_t k = 0; k < fresh && !b->bad; k++) {
            uint64_t id = get_varint(b);

            if (!b->bad && id >= nframes)
                b->bad = "frame id out of range";
            seq[shared + k] = b->bad ? 0 : map[id];
        }
        depth = shared + fresh;
        weight = get_varint(b);
        samples = get_varint(b);
        if (!b->bad)
            rc = jfrp_profile_add_stack(p, seq, depth, weight, samples);
    }
    jfrp_free(&p->al, seq);
    return rc;
}

static int get_profile(jfr_profile *p, in_buf *b)
{
    const char **strings = NULL;
    uint32_t *map = NULL;
    size_t nstrings = 0, nframes = 0;
    int rc;

    if ((rc = get_header(p, b)) >= 0 && !b->bad &&
        (rc = get_strings(p, b, &strings, &nstrings)) >= 0 && !b->bad &&
        (rc = get_frames(p, b, strings, nstrings, &map, &nframes)) >= 0 && !b->bad)
        rc = get_stacks(p, b, map, nframes);
    if (rc >= 0 && !b->bad && b->at != b->end)
        b->bad = "bytes after the last stack";
    jfrp_free(&p->al, strings);
    jfrp_free(&p->al, map);
    return rc;
}

int jfr_profile_load(jfr_profile **out, const void *data, size_t size,
                     const jfr_allocator *allocator, jfr_error *err)
{
    static const uint8_t none[1];
    in_buf b = {none, none, none, NULL};
    jfr_profile *p;
    jfrp_alloc al;
    int rc;

    if (!out)
        return JFR_EINVAL;
    *out = NULL;
    if (!data && size)
        return jfrp_fail(err, JFR_EINVAL, -1, 0, "saved profile: no bytes");
    if (data) { /* no arithmetic on NULL, even + 0 */
        b.start = b.at = data;
        b.end = b.start + size;
    }
    jfrp_alloc_init(&al, allocator);
    if (!(p = jfrp_calloc(&al, 1, sizeof *p)))
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    p->al = al;
    jfrp_intern_init(&p->strings, &p->al);
    jfrp_intern_init(&p->frame_keys, &p->al);
    jfrp_intern_init(&p->stacks, &p->al);
    rc = get_profile(p, &b);
    if (rc < 0 || b.bad) {
        jfr_profile_free(p);
        return rc < 0 ? jfrp_fail(err, rc, -1, (uint64_t)(b.at - b.start),
                                  "saved profile: %s", jfr_strerror(rc))
                      : fail(&b, err);
    }
    *out = p;
    return JFR_OK;
}

int jfr_profile_merge_saved(jfr_profile *dst, const void *data, size_t size,
                            jfr_error *err)
{
    jfr_profile *src;
    int rc;

    if (!dst)
        return jfrp_fail(err, JFR_EINVAL, -1, 0,
                         "saved profile: no profile to merge into");
    if ((rc = jfr_profile_load(&src, data, size, NULL, err)) < 0)
        return rc;
    if ((rc = jfr_profile_merge(dst, src)) == JFR_EINVAL)
        jfrp_fail(err, rc, -1, 0,
                  "saved profile: another selection, flags or unit than the profile's");
    else if (rc < 0)
        jfrp_fail(err, rc, -1, 0, "saved profile: %s", jfr_strerror(rc));
    jfr_profile_free(src);
    return rc;
}
