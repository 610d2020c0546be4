/* field_plan.h - reading a few chosen fields of one type in one pass.
 *
 * jfr_value_field() finds a field by name and walks the fields before it,
 * which is right for one look but quadratic for several and costly per
 * event. A plan resolves the names once per type; reading then walks the
 * value once, keeping where each wanted field starts and the raw bits of
 * integers, booleans and pool keys, and skipping the rest. The profile's
 * per-event reads and the method resolver go through it. */
#ifndef JFRP_FIELD_PLAN_H
#define JFRP_FIELD_PLAN_H

#include "jfr_private.h"

/* The shapes a wanted field may have; a field of another shape is left
 * unread, as if the type did not have it. */
#define JFRP_SHAPE_INT    1u /* an inline integer of any width */
#define JFRP_SHAPE_BOOL   2u
#define JFRP_SHAPE_REF    4u /* a constant-pool reference */
#define JFRP_SHAPE_STRING 8u /* an inline string */
#define JFRP_SHAPE_ANY    0xffu

typedef struct jfrp_field_want {
    const char *name; /* NULL: the slot stays unread */
    unsigned shapes;
} jfrp_field_want;

#define JFRP_PLAN_SLOTS 16

typedef struct jfrp_field_plan {
    const jfr_type *type;
    int8_t *slot;                /* per field below nread: the slot it fills, or -1 */
    size_t nread;                /* fields to walk: through the last wanted one */
    size_t nslots;               /* at most JFRP_PLAN_SLOTS */
    int fields[JFRP_PLAN_SLOTS]; /* per slot: its field index, or -1 */
    bool copies;                 /* a field fills more than one slot */
} jfrp_field_plan;

/** One wanted field of a value read by a plan. */
typedef struct jfrp_field_at {
    const jfr_field *field; /* NULL: not in the type, or not reached */
    const uint8_t *pos;     /* its first byte */
    uint64_t bits;          /* integers, booleans, pool keys: the raw value */
} jfrp_field_at;

/** Plan for `n` (at most JFRP_PLAN_SLOTS) wanted fields of `type`: slot i
 * is want[i]. 0 or JFR_ENOMEM. */
int jfrp_field_plan_init(jfrp_field_plan *plan, const jfrp_alloc *al,
                         const jfr_type *type, const jfrp_field_want *want, size_t n);
void jfrp_field_plan_free(jfrp_field_plan *plan, const jfrp_alloc *al);

/** The field index of slot `i`, or -1 when the type has no such field. */
static inline int jfrp_field_plan_index(const jfrp_field_plan *plan, size_t i)
{
    return plan->fields[i];
}

/**
 * Read a value of the plan's type at `r`: out[0..nslots) are filled (slots
 * not reached keep field NULL); `r` stops after the last wanted field.
 * Damage is the reader's sticky error.
 */
void jfrp_field_plan_read(const jfrp_field_plan *plan, jfrp_reader *r,
                          jfrp_field_at *out);

#endif
