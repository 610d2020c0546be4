/* profile_compact.c - a profile's stacks kept in 1, 2 or 4 bytes a frame
 * (JFR_PROFILE_COMPACT_STACKS). Most profiles have fewer than 65,536
 * frames, and their stacks were most of a report's memory as 4-byte ids.
 * A compact profile starts at one byte a frame and rewrites its stacks
 * wider the first time a stack holds an id that does not fit. Stacks are
 * hashed as 4-byte ids whatever their width, so a rewrite keeps every
 * hash, id and slot of the table. */
#include <string.h>

#include "profile_struct.h"

static unsigned bytes_for(uint32_t largest)
{
    return largest <= UINT8_MAX ? 1 : largest <= UINT16_MAX ? 2 : 4;
}

static void widen_1_to_2(uint8_t *to, const uint8_t *from, size_t len)
{
    for (size_t k = 0; k < len; k++) {
        uint16_t v = from[k];
        memcpy(to + 2 * k, &v, 2);
    }
}

static void widen_1_to_4(uint8_t *to, const uint8_t *from, size_t len)
{
    for (size_t k = 0; k < len; k++) {
        uint32_t v = from[k];
        memcpy(to + 4 * k, &v, 4);
    }
}

static void widen_2_to_4(uint8_t *to, const uint8_t *from, size_t len)
{
    for (size_t k = 0; k < len / 2; k++) {
        uint16_t narrow;
        uint32_t v;

        memcpy(&narrow, from + 2 * k, 2);
        v = narrow;
        memcpy(to + 4 * k, &v, 4);
    }
}

int jfrp_profile_widen(jfr_profile *p, unsigned bytes)
{
    int rc = 0;

    if (bytes <= p->frame_bytes)
        return 0;
    if (p->frame_bytes == 1)
        rc = jfrp_intern_rewrite(&p->stacks, bytes,
                                 bytes == 2 ? widen_1_to_2 : widen_1_to_4);
    else
        rc = jfrp_intern_rewrite(&p->stacks, 2, widen_2_to_4);
    if (rc < 0)
        return rc;
    p->frame_bytes = bytes;
    return 0;
}

int jfrp_profile_stack_key(jfr_profile *p, const uint32_t *frames, size_t depth,
                           const void **key, size_t *len)
{
    uint32_t all = 0;
    uint8_t *out;
    int rc;

    if (p->frame_bytes == 4) {
        *key = frames;
        *len = depth * sizeof *frames;
        return 0;
    }
    /* the largest id has no bit the others lack: their OR needs its width */
    for (size_t k = 0; k < depth; k++)
        all |= frames[k];
    if ((rc = jfrp_profile_widen(p, bytes_for(all))) < 0)
        return rc;
    if (p->frame_bytes == 4)
        return jfrp_profile_stack_key(p, frames, depth, key, len);
    if ((rc = jfrp_grow_array(&p->al, (void **)&p->narrow, &p->narrow_room,
                              depth * p->frame_bytes + 1, 1)) < 0)
        return rc;
    out = p->narrow;
    if (p->frame_bytes == 1) {
        for (size_t k = 0; k < depth; k++)
            out[k] = (uint8_t)frames[k];
    } else {
        for (size_t k = 0; k < depth; k++) {
            uint16_t v = (uint16_t)frames[k];
            memcpy(out + 2 * k, &v, 2);
        }
    }
    *key = out;
    *len = depth * p->frame_bytes;
    return 0;
}

size_t jfrp_profile_stack_frames(const jfr_profile *p, size_t i, uint32_t *out,
                                 size_t room)
{
    size_t len;
    const uint8_t *key = jfrp_intern_key(&p->stacks, (uint32_t)i, &len);
    size_t depth = len / p->frame_bytes;

    if (!out || room < depth)
        return depth; /* the caller's room is too small: nothing copied */
    if (p->frame_bytes == 4) {
        memcpy(out, key, len);
    } else if (p->frame_bytes == 2) {
        for (size_t k = 0; k < depth; k++) {
            uint16_t v;
            memcpy(&v, key + 2 * k, 2);
            out[k] = v;
        }
    } else {
        for (size_t k = 0; k < depth; k++)
            out[k] = key[k];
    }
    return depth;
}

uint32_t jfrp_profile_stack_frame(const jfr_profile *p, size_t i, size_t k)
{
    const uint8_t *key = jfrp_intern_key(&p->stacks, (uint32_t)i, NULL);
    uint16_t v16;
    uint32_t v32;

    switch (p->frame_bytes) {
    case 1:
        return key[k];
    case 2:
        memcpy(&v16, key + 2 * k, 2);
        return v16;
    default:
        memcpy(&v32, key + 4 * k, 4);
        return v32;
    }
}

int jfr_profile_stack_copy(uint64_t *weight, uint32_t *frames, size_t room, size_t *depth,
                           const jfr_profile *p, size_t i)
{
    size_t n;

    if (!p || i >= jfrp_intern_count(&p->stacks))
        return JFR_EINVAL;
    n = jfrp_profile_stack_frames(p, i, frames, room);
    if (depth)
        *depth = n;
    if (weight)
        *weight = p->stack_weight[i];
    return frames && room < n ? JFR_ELIMIT : JFR_OK;
}
