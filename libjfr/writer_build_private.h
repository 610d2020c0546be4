/* writer_build_private.h - the types a writer declares and the chunk it
 * builds, shared by writer_decl.c (declarations), writer_meta.c (their
 * metadata record) and writer_build.c (values, pools, the chunk). */
#ifndef JFRP_WRITER_BUILD_PRIVATE_H
#define JFRP_WRITER_BUILD_PRIVATE_H

#include "writer_struct.h"

/** An annotation: its type and its elements (name = value). */
typedef struct jfrw_annot {
    uint64_t type;
    char **names, **values;
    size_t n;
} jfrw_annot;

typedef struct jfrw_dfield {
    char *name;
    uint64_t type;
    unsigned flags; /* JFR_FIELD_* */
    jfrw_annot *annots;
    size_t nannots;
} jfrw_dfield;

typedef struct jfrw_dtype {
    uint64_t id;
    char *name, *super;
    unsigned flags; /* JFR_TYPE_* */
    jfr_kind kind;  /* JFR_KIND_STRUCT unless a primitive */
    bool is_event;
    jfrw_dfield *fields;
    size_t nfields, fields_cap;
    jfrw_annot *annots;
    size_t nannots;
} jfrw_dtype;

struct jfrw_decls {
    jfrw_dtype *types;
    size_t n, cap;
    uint64_t next_id;
    uint64_t generation; /* changes with every declaration: the metadata id */
};

/** The declared type `id`, or NULL. */
jfrw_dtype *jfrw_decl_find(const jfr_writer *w, uint64_t id);
/** Declare the primitive types once (a writer's first declaration). */
int jfrw_decls_ensure(jfr_writer *w);
void jfrw_decls_free(jfr_writer *w);

/** The metadata record of the declared types, appended to `b`. */
void jfrw_meta_encode(const jfr_writer *w, jfrw_buf *b, bool compressed, int64_t ticks,
                      int64_t gmt_offset_ms);

#endif
