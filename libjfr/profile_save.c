/* profile_save.c - a profile as bytes (jfr_profile_save): what a process
 * sends another so that profiles merge without text. The layout is in
 * profile_struct.h ("Saved profiles"); profile_load.c reads it back. */
#include <stdlib.h>
#include <string.h>

#include "profile_struct.h"

/* A growing byte buffer of plain malloc: the caller frees the result with
 * jfr_profile_bytes_free, whatever allocator the profile has. */
typedef struct out_buf {
    uint8_t *data;
    size_t len, room;
    bool failed;
} out_buf;

static bool room_for(out_buf *b, size_t n)
{
    size_t room;
    uint8_t *data;

    if (b->failed)
        return false;
    if (b->room - b->len >= n)
        return true;
    room = b->room ? b->room : 4096;
    while (room - b->len < n) {
        if (room > SIZE_MAX / 2) {
            b->failed = true;
            return false;
        }
        room *= 2;
    }
    if (!(data = realloc(b->data, room))) {
        b->failed = true;
        return false;
    }
    b->data = data;
    b->room = room;
    return true;
}

static void put_varint(out_buf *b, uint64_t v)
{
    if (!room_for(b, 10))
        return;
    while (v >= 0x80) {
        b->data[b->len++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->data[b->len++] = (uint8_t)v;
}

static void put_signed(out_buf *b, int64_t v)
{
    put_varint(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63)); /* zigzag */
}

static void put_bytes(out_buf *b, const void *s, size_t n)
{
    put_varint(b, n);
    if (n && room_for(b, n)) {
        memcpy(b->data + b->len, s, n);
        b->len += n;
    }
}

static void put_header(out_buf *b, const jfr_profile *p)
{
    const jfr_cpu_accounting *c = &p->cpu;

    if (room_for(b, JFRP_SAVED_MAGIC_LEN)) {
        memcpy(b->data, JFRP_SAVED_MAGIC, JFRP_SAVED_MAGIC_LEN);
        b->len = JFRP_SAVED_MAGIC_LEN;
    }
    put_varint(b, p->flags);
    put_signed(b, p->bucket_nanos);
    put_signed(b, p->bucket_origin);
    put_bytes(b, p->selection, strlen(p->selection));
    put_varint(b, (uint64_t)p->unit);
    put_varint(b, (uint64_t)p->count_unit);
    put_varint(b, (uint64_t)p->unit_known | (uint64_t)p->is_cpu << 1);
    put_varint(b, c->samples);
    put_varint(b, c->with_stack);
    put_varint(b, c->failed);
    put_varint(b, c->biased);
    put_varint(b, c->lost);
    put_varint(b, c->period_ns);
    put_varint(b, c->lost_events);
    put_varint(b, c->failed_period_ns);
    put_varint(b, c->biased_period_ns);
    put_varint(b, p->lost_stack_samples);
}

/* The string table: every distinct name, class, method and signature of
 * the frames, once; `ids` gets four string ids per frame (class + 1, 0 for
 * none). */
static int put_strings(out_buf *b, const jfr_profile *p, size_t nframes, uint32_t *ids)
{
    jfrp_intern strings;
    int rc = 0;

    jfrp_intern_init(&strings, &p->al);
    for (size_t i = 0; i < nframes && rc >= 0; i++) {
        const jfr_profile_frame *f = &p->frames[i];
        const char *s[4] = {f->name, f->class_name, f->method, f->signature};

        for (int k = 0; k < 4 && rc >= 0; k++) {
            uint32_t id = 0;

            if (s[k])
                rc = jfrp_intern_put(&strings, s[k], strlen(s[k]), &id, NULL);
            ids[i * 4 + (size_t)k] = k == 1 ? (s[k] ? id + 1 : 0) : id;
        }
    }
    if (rc >= 0) {
        put_varint(b, jfrp_intern_count(&strings));
        for (size_t i = 0; i < jfrp_intern_count(&strings); i++) {
            size_t len;
            const void *s = jfrp_intern_key(&strings, (uint32_t)i, &len);
            put_bytes(b, s, len);
        }
    }
    jfrp_intern_free(&strings);
    return rc;
}

static void put_frames(out_buf *b, const jfr_profile *p, size_t nframes,
                       const uint32_t *ids)
{
    put_varint(b, nframes);
    for (size_t i = 0; i < nframes; i++) {
        const jfr_profile_frame *f = &p->frames[i];

        for (int k = 0; k < 4; k++)
            put_varint(b, ids[i * 4 + (size_t)k]);
        put_signed(b, f->line);
        put_varint(b, (uint64_t)f->kind << 1 | (uint64_t)f->synthetic);
    }
}

/* Stacks in the profile's order, each as the number of frames it shares
 * with the stack before it, then the rest: stacks of one chunk mostly
 * share their roots. */
static void put_stacks(out_buf *b, const jfr_profile *p)
{
    size_t nstacks = jfrp_intern_count(&p->stacks), prev_depth = 0, room[2] = {0, 0};
    uint32_t *buf[2] = {NULL, NULL}; /* this stack's frames and the one's before */

    put_varint(b, nstacks);
    for (size_t i = 0; i < nstacks && !b->failed; i++) {
        size_t depth = jfrp_profile_stack_frames(p, i, NULL, 0), shared = 0;
        uint32_t *frames, *prev = buf[(i + 1) % 2];

        if (jfrp_grow_array(&p->al, (void **)&buf[i % 2], &room[i % 2], depth + 1,
                            sizeof *frames) < 0) {
            b->failed = true;
            break;
        }
        frames = buf[i % 2];
        (void)jfrp_profile_stack_frames(p, i, frames, depth);
        while (shared < depth && shared < prev_depth && frames[shared] == prev[shared])
            shared++;
        put_varint(b, shared);
        put_varint(b, depth - shared);
        for (size_t k = shared; k < depth; k++)
            put_varint(b, frames[k]);
        put_varint(b, p->stack_weight[i]);
        put_varint(b, p->stack_samples[i]);
        prev_depth = depth;
    }
    jfrp_free(&p->al, buf[0]);
    jfrp_free(&p->al, buf[1]);
}

int jfr_profile_save(void **out, size_t *size, const jfr_profile *p)
{
    out_buf b = {NULL, 0, 0, false};
    size_t nframes;
    uint32_t *ids;
    int rc;

    if (!out || !size)
        return JFR_EINVAL;
    *out = NULL;
    *size = 0;
    if (!p || p->census)
        return JFR_EINVAL;
    nframes = jfrp_intern_count(&p->frame_keys);
    if (!(ids = jfrp_calloc(&p->al, nframes ? nframes * 4 : 1, sizeof *ids)))
        return JFR_ENOMEM;
    put_header(&b, p);
    rc = put_strings(&b, p, nframes, ids);
    if (rc >= 0) {
        put_frames(&b, p, nframes, ids);
        put_stacks(&b, p);
    }
    jfrp_free(&p->al, ids);
    if (rc >= 0 && b.failed)
        rc = JFR_ENOMEM;
    if (rc < 0) {
        free(b.data);
        return rc;
    }
    *out = b.data;
    *size = b.len;
    return JFR_OK;
}

void jfr_profile_bytes_free(void *bytes)
{
    free(bytes);
}
