/* flame_names.c - what a flame graph's nodes are called and coloured by:
 * the tree's table of labels, the colour class of a frame and the unit of
 * the weights (flame_tree.h). Both ways of building a tree use them
 * (flame_tree.c, flame_stacks.c). */
#include <stdlib.h>

#include "flame_tree.h"
#include "util.h"

const char *flame_unit(const select_result *r)
{
    jfr_unit unit = jfr_profile_unit(r->profile);

    /* the pages scale ns and bytes; other counts read as samples */
    return unit == JFR_UNIT_NANOS || unit == JFR_UNIT_BYTES ? jfr_unit_name(unit)
                                                            : "samples";
}

uint8_t flame_kind_of(const jfr_profile_frame *f)
{
    if (!f)
        return FK_ROOT;
    if (f->synthetic)
        return FK_SYNTHETIC;
    switch (f->kind) {
    case JFR_FRAME_JIT:
    case JFR_FRAME_C1:
        return FK_JIT;
    case JFR_FRAME_INLINED:
        return FK_INLINED;
    case JFR_FRAME_INTERPRETED:
        return FK_INTERPRETED;
    case JFR_FRAME_NATIVE:
        return FK_NATIVE;
    case JFR_FRAME_CPP:
        return FK_CPP;
    case JFR_FRAME_KERNEL:
        return FK_KERNEL;
    default:
        return FK_UNKNOWN;
    }
}

uint32_t flame_tree_add_name(flame_tree *t, char *name)
{
    if (t->nnames == t->names_cap) {
        t->names_cap = t->names_cap ? t->names_cap * 2 : 256;
        t->names = xrealloc(t->names, t->names_cap, sizeof *t->names);
    }
    t->names[t->nnames] = name;
    return (uint32_t)t->nnames++;
}
