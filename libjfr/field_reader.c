/* field_reader.c - chosen fields of the events of one type, through a
 * field plan (field_plan.h): the public face of the profile's per-event
 * reads, for callers that key rows by a pool key (jfr/event.h). */
#include <string.h>

#include "jfr_private.h"
#include "field_plan.h"

struct jfr_field_reader {
    jfrp_alloc al;
    jfrp_field_plan plan;
};

int jfr_field_reader_new(jfr_field_reader **out, const jfr_type *type,
                         const char *const *names, size_t n,
                         const jfr_allocator *allocator)
{
    jfrp_field_want want[JFR_FIELD_READER_MAX];
    jfrp_alloc al;
    jfr_field_reader *rd;

    if (!out)
        return JFR_EINVAL;
    *out = NULL;
    if (!type || (n && !names) || n > JFR_FIELD_READER_MAX)
        return JFR_EINVAL;
    for (size_t i = 0; i < n; i++)
        want[i] = (jfrp_field_want){names[i],
                                    JFRP_SHAPE_INT | JFRP_SHAPE_BOOL | JFRP_SHAPE_REF};
    jfrp_alloc_init(&al, allocator);
    if (!(rd = jfrp_calloc(&al, 1, sizeof *rd)))
        return JFR_ENOMEM;
    rd->al = al;
    if (jfrp_field_plan_init(&rd->plan, &rd->al, type, want, n) < 0) {
        jfrp_free(&al, rd);
        return JFR_ENOMEM;
    }
    *out = rd;
    return JFR_OK;
}

int jfr_field_reader_read(jfr_field_bits *out, const jfr_field_reader *rd,
                          const jfr_event *ev)
{
    jfrp_field_at at[JFRP_PLAN_SLOTS];
    jfrp_reader r;

    if (!out || !rd || !ev)
        return JFR_EINVAL;
    memset(out, 0, rd->plan.nslots * sizeof *out);
    if (ev->type != rd->plan.type)
        return JFR_EINVAL;
    jfrp_reader_init(&r, ev->payload, (size_t)(ev->end - ev->payload),
                     jfr_event_offset(ev) + (uint64_t)(ev->payload - ev->start),
                     (ev->chunk->header.flags & JFR_CHUNK_FLAG_COMPRESSED_INTS) != 0);
    jfrp_field_plan_read(&rd->plan, &r, at);
    for (size_t i = 0; i < rd->plan.nslots; i++) {
        const jfr_field *f = at[i].field;

        if (!f)
            continue;
        out[i].read = true;
        out[i].pooled = f->pooled;
        out[i].bits = at[i].bits;
        out[i].i = f->pooled ? (int64_t)at[i].bits
                             : jfrp_int_of_bits(f->type->kind, at[i].bits, false);
    }
    return r.err ? JFR_ECORRUPT : JFR_OK;
}

void jfr_field_reader_free(jfr_field_reader *rd)
{
    jfrp_alloc al;

    if (!rd)
        return;
    al = rd->al;
    jfrp_field_plan_free(&rd->plan, &al);
    jfrp_free(&al, rd);
}
