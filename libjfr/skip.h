/* skip.h - stepping over values (skip.c): the pool index, value.c, the
 * field plans and the writer's copies use these. */
#ifndef JFRP_SKIP_H
#define JFRP_SKIP_H

#include "jfr_private.h"

/** Skip one value of `type` (scalar or struct, not array, not pooled). */
void jfrp_skip_inline(jfrp_reader *r, const jfr_type *type);
/** Skip the elements of an array field, its count first. */
void jfrp_skip_array(jfrp_reader *r, const jfr_field *f);

/* One element of field `f`: a pool key or an inline value. Pool keys and
 * compressed integers, most of what is skipped, take no call. */
static inline void jfrp_skip_element(jfrp_reader *r, const jfr_field *f)
{
    if (f->pooled && r->compressed)
        jfrp_skip_varint(r);
    else if (f->pooled)
        jfrp_skip(r, 8);
    else if (r->compressed && f->type->kind >= JFR_KIND_CHAR &&
             f->type->kind <= JFR_KIND_LONG)
        jfrp_skip_varint(r);
    else
        jfrp_skip_inline(r, f->type);
}

/** Skip the value of a field (array, pool key or inline). */
static inline void jfrp_skip_field(jfrp_reader *r, const jfr_field *f)
{
    if (!f->type)
        jfrp_reader_fail(r, JFR_ECORRUPT);
    else if (f->array)
        jfrp_skip_array(r, f);
    else
        jfrp_skip_element(r, f);
}

#endif
