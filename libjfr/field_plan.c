/* field_plan.c - one pass over a value for a few chosen fields (see
 * field_plan.h). */
#include <string.h>

#include "field_plan.h"
#include "skip.h"

static unsigned shape_of(const jfr_field *f)
{
    if (!f->type || f->array)
        return 0;
    if (f->pooled)
        return JFRP_SHAPE_REF;
    switch (f->type->kind) {
    case JFR_KIND_BOOLEAN:
        return JFRP_SHAPE_BOOL;
    case JFR_KIND_BYTE:
    case JFR_KIND_CHAR:
    case JFR_KIND_SHORT:
    case JFR_KIND_INT:
    case JFR_KIND_LONG:
        return JFRP_SHAPE_INT;
    case JFR_KIND_STRING:
        return JFRP_SHAPE_STRING;
    default:
        return 0;
    }
}

int jfrp_field_plan_init(jfrp_field_plan *plan, const jfrp_alloc *al,
                         const jfr_type *type, const jfrp_field_want *want, size_t n)
{
    memset(plan, 0, sizeof *plan);
    plan->type = type;
    plan->nslots = n < JFRP_PLAN_SLOTS ? n : JFRP_PLAN_SLOTS;
    plan->slot = jfrp_malloc(al, type->nfields ? type->nfields : 1);
    if (!plan->slot)
        return JFR_ENOMEM;
    memset(plan->slot, -1, type->nfields ? type->nfields : 1);
    for (size_t i = 0; i < JFRP_PLAN_SLOTS; i++)
        plan->fields[i] = -1;
    for (size_t i = 0; i < plan->nslots; i++) {
        int fi = want[i].name ? jfr_type_field_index(type, want[i].name) : -1;

        if (fi < 0 || !(shape_of(&type->fields[fi]) & want[i].shapes))
            continue;
        if (plan->slot[fi] >= 0) { /* wanted twice: copied after the walk */
            plan->fields[i] = fi;
            plan->copies = true;
            continue;
        }
        plan->slot[fi] = (int8_t)i;
        plan->fields[i] = fi;
        if ((size_t)fi + 1 > plan->nread)
            plan->nread = (size_t)fi + 1;
    }
    return 0;
}

void jfrp_field_plan_free(jfrp_field_plan *plan, const jfrp_alloc *al)
{
    jfrp_free(al, plan->slot);
    plan->slot = NULL;
    plan->nread = plan->nslots = 0;
}

void jfrp_field_plan_read(const jfrp_field_plan *plan, jfrp_reader *r, jfrp_field_at *out)
{
    const jfr_type *t = plan->type;

    memset(out, 0, plan->nslots * sizeof *out);
    for (size_t i = 0; i < plan->nread && !r->err; i++) {
        const jfr_field *f = &t->fields[i];
        int s = plan->slot[i];

        if (s < 0) {
            jfrp_skip_field(r, f);
            continue;
        }
        out[s].pos = r->p;
        if (f->pooled)
            out[s].bits = jfrp_int(r, 8);
        else if (f->type->kind == JFR_KIND_STRING)
            jfrp_skip_inline(r, f->type);
        else
            out[s].bits = jfrp_read_scalar_bits(r, f->type->kind);
        if (!r->err)
            out[s].field = f;
    }
    for (size_t i = 0; plan->copies && i < plan->nslots; i++)
        if (plan->fields[i] >= 0 && !out[i].field)
            out[i] = out[plan->slot[plan->fields[i]]];
}
