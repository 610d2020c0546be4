/* skip.c - stepping over values without decoding them, by their metadata
 * (jfr-format.md §6.3): what the pool index and the event reader need to
 * find where the next value starts. Below value.c and constpool.c, which
 * both use it. */
#include "jfr_private.h"
#include "skip.h"

/* A flat struct: one op per field (jfr_private.h). */
static inline void skip_flat(jfrp_reader *r, const char *ops)
{
    for (; *ops; ops++) {
        switch (*ops) {
        case 'v':
            jfrp_skip_varint(r);
            break;
        case '1':
            jfrp_skip(r, 1);
            break;
        case '4':
            jfrp_skip(r, 4);
            break;
        default:
            jfrp_skip(r, 8);
            break;
        }
    }
}

void jfrp_skip_inline(jfrp_reader *r, const jfr_type *type)
{
    jfrp_raw_string s;

    switch (type->kind) {
    case JFR_KIND_BOOLEAN:
    case JFR_KIND_BYTE:
        jfrp_skip(r, 1);
        return;
    case JFR_KIND_CHAR:
    case JFR_KIND_SHORT:
    case JFR_KIND_INT:
    case JFR_KIND_LONG:
        if (r->compressed)
            jfrp_skip_varint(r);
        else
            jfrp_skip(r, type->kind == JFR_KIND_LONG  ? 8
                         : type->kind == JFR_KIND_INT ? 4
                                                      : 2);
        return;
    case JFR_KIND_FLOAT:
        jfrp_skip(r, 4);
        return;
    case JFR_KIND_DOUBLE:
        jfrp_skip(r, 8);
        return;
    case JFR_KIND_STRING:
        jfrp_raw_string_read(r, &s);
        return;
    case JFR_KIND_STRUCT:
        if (!type->decodable) {
            jfrp_reader_fail(r, type->too_deep ? JFR_ELIMIT : JFR_ECORRUPT);
            return;
        }
        if (type->zero_size)
            return;
        for (size_t i = 0; i < type->nfields && !r->err; i++)
            jfrp_skip_field(r, &type->fields[i]);
        return;
    }
}

void jfrp_skip_array(jfrp_reader *r, const jfr_field *f)
{
    uint64_t n;

    /* the limit is enforced when values are read; skipping needs no cap
     * beyond the bytes present, except for zero-size elements */
    n = jfrp_array_count(r, f, UINT32_MAX);
    if (!f->pooled && f->type->zero_size)
        return;
    if (f->pooled && r->compressed) {
        jfrp_skip_varints(r, n);
        return;
    }
    if (!f->pooled && f->type->flat_varints) {
        /* n <= UINT32_MAX and a type has far fewer than 2^32 fields */
        jfrp_skip_varints(r, n * f->type->flat_varints);
        return;
    }
    if (!f->pooled && f->type->flat_ops) {
        for (uint64_t i = 0; i < n && !r->err; i++)
            skip_flat(r, f->type->flat_ops);
        return;
    }
    for (uint64_t i = 0; i < n && !r->err; i++)
        jfrp_skip_element(r, f);
}
