/* writer_decl.c - the types a writer declares for the chunks it builds:
 * the primitives, then the caller's types, fields and annotations. */
#include "writer_build_private.h"

/* Ids: 0 and 1 are the record types of metadata and checkpoints. */
#define FIRST_PRIMITIVE_ID 4
#define FIRST_USER_ID      20

static const struct {
    const char *name;
    jfr_kind kind;
} primitives[] = {{"boolean", JFR_KIND_BOOLEAN},
                  {"byte", JFR_KIND_BYTE},
                  {"char", JFR_KIND_CHAR},
                  {"short", JFR_KIND_SHORT},
                  {"int", JFR_KIND_INT},
                  {"long", JFR_KIND_LONG},
                  {"float", JFR_KIND_FLOAT},
                  {"double", JFR_KIND_DOUBLE},
                  {"java.lang.String", JFR_KIND_STRING}};

static char *dup(const jfrp_alloc *al, const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = jfrp_malloc(al, n);

    if (d)
        memcpy(d, s, n);
    return d;
}

jfrw_dtype *jfrw_decl_find(const jfr_writer *w, uint64_t id)
{
    const jfrw_decls *d = w->decls;

    for (size_t i = 0; d && i < d->n; i++)
        if (d->types[i].id == id)
            return &d->types[i];
    return NULL;
}

static jfrw_dtype *find_name(const jfr_writer *w, const char *name)
{
    const jfrw_decls *d = w->decls;

    for (size_t i = 0; d && i < d->n; i++)
        if (strcmp(d->types[i].name, name) == 0)
            return &d->types[i];
    return NULL;
}

static int add_type(jfr_writer *w, uint64_t id, const char *name, const char *super,
                    unsigned flags, jfr_kind kind)
{
    jfrw_decls *d = w->decls;
    jfrw_dtype *t;

    if (jfrp_grow_array(&w->al, (void **)&d->types, &d->cap, d->n + 1, sizeof *d->types) <
        0)
        return jfrw_fail(w, JFR_ENOMEM, "out of memory");
    t = &d->types[d->n];
    memset(t, 0, sizeof *t);
    t->id = id;
    t->flags = flags;
    t->kind = kind;
    t->name = dup(&w->al, name);
    t->super = super ? dup(&w->al, super) : NULL;
    if (!t->name || (super && !t->super)) {
        jfrp_free(&w->al, t->name);
        return jfrw_fail(w, JFR_ENOMEM, "out of memory");
    }
    t->is_event = super && strcmp(super, "jdk.jfr.Event") == 0;
    d->n++;
    d->generation++;
    return 0;
}

int jfrw_decls_ensure(jfr_writer *w)
{
    int rc;

    if (w->decls)
        return 0;
    if (!(w->decls = jfrp_calloc(&w->al, 1, sizeof *w->decls)))
        return jfrw_fail(w, JFR_ENOMEM, "out of memory");
    w->decls->next_id = FIRST_USER_ID;
    for (size_t i = 0; i < sizeof primitives / sizeof primitives[0]; i++)
        if ((rc = add_type(w, FIRST_PRIMITIVE_ID + i, primitives[i].name, NULL, 0,
                           primitives[i].kind)) < 0)
            return rc;
    return 0;
}

static void free_annots(const jfrp_alloc *al, jfrw_annot *a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < a[i].n; j++) {
            jfrp_free(al, a[i].names[j]);
            jfrp_free(al, a[i].values[j]);
        }
        jfrp_free(al, a[i].names);
        jfrp_free(al, a[i].values);
    }
    jfrp_free(al, a);
}

void jfrw_decls_free(jfr_writer *w)
{
    jfrw_decls *d = w->decls;

    if (!d)
        return;
    for (size_t i = 0; i < d->n; i++) {
        jfrw_dtype *t = &d->types[i];
        for (size_t j = 0; j < t->nfields; j++) {
            jfrp_free(&w->al, t->fields[j].name);
            free_annots(&w->al, t->fields[j].annots, t->fields[j].nannots);
        }
        jfrp_free(&w->al, t->fields);
        free_annots(&w->al, t->annots, t->nannots);
        jfrp_free(&w->al, t->name);
        jfrp_free(&w->al, t->super);
    }
    jfrp_free(&w->al, d->types);
    jfrp_free(&w->al, d);
    w->decls = NULL;
}

/* Declarations are fixed while a chunk is being built. */
static int check_open(jfr_writer *w)
{
    if (w->failed)
        return w->failed;
    if (w->build)
        return jfrw_fail(w, JFR_EINVAL, "types cannot change while a chunk is built");
    return jfrw_decls_ensure(w);
}

int jfr_writer_declare_type(uint64_t *id, jfr_writer *w, const char *name,
                            const char *super_type, unsigned flags)
{
    int rc;

    if (!w || !id || !name || !*name)
        return JFR_EINVAL;
    if ((rc = check_open(w)) < 0)
        return rc;
    if (find_name(w, name))
        return jfrw_fail(w, JFR_EINVAL, "type %s is declared already", name);
    if ((rc = add_type(w, w->decls->next_id, name, super_type, flags & JFR_TYPE_SIMPLE,
                       JFR_KIND_STRUCT)) < 0)
        return rc;
    *id = w->decls->next_id++;
    return JFR_OK;
}

int jfr_writer_type_id(uint64_t *id, const jfr_writer *w, const char *name)
{
    const jfrw_dtype *t;

    if (!w || !id || !name)
        return JFR_EINVAL;
    if (!w->decls) { /* the primitives, before any declaration */
        for (size_t i = 0; i < sizeof primitives / sizeof primitives[0]; i++)
            if (strcmp(primitives[i].name, name) == 0) {
                *id = FIRST_PRIMITIVE_ID + i;
                return JFR_OK;
            }
        return JFR_ENOTFOUND;
    }
    if (!(t = find_name(w, name)))
        return JFR_ENOTFOUND;
    *id = t->id;
    return JFR_OK;
}

int jfr_writer_declare_field(jfr_writer *w, uint64_t type, const char *name,
                             uint64_t field_type, unsigned flags)
{
    jfrw_dtype *t, *ft;
    jfrw_dfield *f;
    int rc;

    if (!w || !name || !*name)
        return JFR_EINVAL;
    if ((rc = check_open(w)) < 0)
        return rc;
    t = jfrw_decl_find(w, type);
    ft = jfrw_decl_find(w, field_type);
    if (!t || !ft)
        return jfrw_fail(w, JFR_EINVAL, "field %s: undeclared type id", name);
    if (t->kind != JFR_KIND_STRUCT || ((t->flags & JFR_TYPE_SIMPLE) && t->nfields))
        return jfrw_fail(w, JFR_EINVAL, "type %s cannot have field %s", t->name, name);
    for (size_t i = 0; i < t->nfields; i++)
        if (strcmp(t->fields[i].name, name) == 0)
            return jfrw_fail(w, JFR_EINVAL, "type %s has field %s already", t->name,
                             name);
    if (jfrp_grow_array(&w->al, (void **)&t->fields, &t->fields_cap, t->nfields + 1,
                        sizeof *t->fields) < 0)
        return jfrw_fail(w, JFR_ENOMEM, "out of memory");
    f = &t->fields[t->nfields];
    memset(f, 0, sizeof *f);
    if (!(f->name = dup(&w->al, name)))
        return jfrw_fail(w, JFR_ENOMEM, "out of memory");
    f->type = field_type;
    f->flags = flags & (JFR_FIELD_ARRAY | JFR_FIELD_POOLED);
    t->nfields++;
    w->decls->generation++;
    return JFR_OK;
}

int jfr_writer_annotate(jfr_writer *w, uint64_t type, const char *field,
                        uint64_t annotation, const char *const *names,
                        const char *const *values, size_t n)
{
    jfrw_dtype *t;
    jfrw_annot **list, *a;
    size_t *count;
    int rc;

    if (!w || (n && (!names || !values)))
        return JFR_EINVAL;
    if ((rc = check_open(w)) < 0)
        return rc;
    if (!(t = jfrw_decl_find(w, type)) || !jfrw_decl_find(w, annotation))
        return jfrw_fail(w, JFR_EINVAL, "annotation: undeclared type id");
    list = &t->annots;
    count = &t->nannots;
    if (field) {
        size_t i = 0;
        while (i < t->nfields && strcmp(t->fields[i].name, field) != 0)
            i++;
        if (i == t->nfields)
            return jfrw_fail(w, JFR_EINVAL, "type %s has no field %s", t->name, field);
        list = &t->fields[i].annots;
        count = &t->fields[i].nannots;
    }
    a = jfrp_reallocarray(&w->al, *list, *count + 1, sizeof *a);
    if (!a)
        return jfrw_fail(w, JFR_ENOMEM, "out of memory");
    *list = a;
    a = &a[*count];
    memset(a, 0, sizeof *a);
    a->type = annotation;
    ++*count; /* from here on freed with the type */
    a->names = jfrp_calloc(&w->al, n ? n : 1, sizeof *a->names);
    a->values = jfrp_calloc(&w->al, n ? n : 1, sizeof *a->values);
    if (!a->names || !a->values)
        return jfrw_fail(w, JFR_ENOMEM, "out of memory");
    for (; a->n < n; a->n++) {
        a->names[a->n] = dup(&w->al, names[a->n] ? names[a->n] : "value");
        a->values[a->n] = dup(&w->al, values[a->n] ? values[a->n] : "");
        if (!a->names[a->n] || !a->values[a->n])
            return jfrw_fail(w, JFR_ENOMEM, "out of memory");
    }
    w->decls->generation++;
    return JFR_OK;
}
