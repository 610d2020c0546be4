/* types.c - public accessors of the type model (jfr/types.h). */
#include <stdio.h>
#include <string.h>

#include "jfr_private.h"

size_t jfr_chunk_type_count(const jfr_chunk *chunk)
{
    return chunk ? chunk->meta.ntypes : 0;
}

const jfr_type *jfr_chunk_type_at(const jfr_chunk *chunk, size_t i)
{
    return chunk && i < chunk->meta.ntypes ? &chunk->meta.types[i] : NULL;
}

const jfr_type *jfr_chunk_type_by_name(const jfr_chunk *chunk, const char *name)
{
    if (!chunk || !name)
        return NULL;
    for (size_t i = 0; i < chunk->meta.ntypes; i++)
        if (strcmp(chunk->meta.types[i].name, name) == 0)
            return &chunk->meta.types[i];
    return NULL;
}

const jfr_type *jfr_chunk_event_type(const jfr_chunk *chunk, const char *name)
{
    const jfr_type *t = jfr_chunk_type_by_name(chunk, name);
    char legacy[256];

    if (t || !chunk || !name || chunk->header.major != 1)
        return t;
    /* JFR 1.0 prefixed every JDK name: com.oracle.jdk.X, com.oracle.jfr.types.X */
    if ((size_t)snprintf(legacy, sizeof legacy, "com.oracle.%s", name) >= sizeof legacy)
        return NULL;
    return jfr_chunk_type_by_name(chunk, legacy);
}

const jfr_type *jfr_chunk_type_by_id(const jfr_chunk *chunk, uint64_t id)
{
    uint64_t v;

    if (!chunk)
        return NULL;
    if (id < chunk->meta.nsmall_ids) {
        v = chunk->meta.small_ids[id];
        return v ? &chunk->meta.types[v - 1] : NULL;
    }
    v = jfrp_map_get(&chunk->meta.type_by_id, id);
    return v ? &chunk->meta.types[v - 1] : NULL;
}

const char *jfr_type_name(const jfr_type *type)
{
    return type ? type->name : NULL;
}

uint64_t jfr_type_id(const jfr_type *type)
{
    return type ? type->id : 0;
}

size_t jfr_type_index(const jfr_type *type)
{
    return type ? type->index : 0;
}

const char *jfr_type_super(const jfr_type *type)
{
    return type ? type->super_type : NULL;
}

jfr_kind jfr_type_kind(const jfr_type *type)
{
    return type ? type->kind : JFR_KIND_STRUCT;
}

bool jfr_type_is_event(const jfr_type *type)
{
    return type && type->is_event;
}

bool jfr_type_is_simple(const jfr_type *type)
{
    return type && type->simple && type->nfields == 1;
}

const char *jfr_type_label(const jfr_type *type)
{
    return type ? type->label : NULL;
}

size_t jfr_type_field_count(const jfr_type *type)
{
    return type ? type->nfields : 0;
}

const jfr_field *jfr_type_field_at(const jfr_type *type, size_t i)
{
    return type && i < type->nfields ? &type->fields[i] : NULL;
}

int jfr_type_field_index(const jfr_type *type, const char *name)
{
    if (!type || !name)
        return -1;
    for (size_t i = 0; i < type->nfields; i++)
        if (strcmp(type->fields[i].name, name) == 0)
            return (int)i;
    return -1;
}

const jfr_field *jfr_type_field_by_name(const jfr_type *type, const char *name)
{
    int i = jfr_type_field_index(type, name);
    return i < 0 ? NULL : &type->fields[i];
}

size_t jfr_type_annotation_count(const jfr_type *type)
{
    return type ? type->nannotations : 0;
}

const jfr_annotation *jfr_type_annotation_at(const jfr_type *type, size_t i)
{
    return type && i < type->nannotations ? &type->annotations[i] : NULL;
}

static const char *annotation_value(size_t n, const jfr_annotation *a, const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (!a[i].type || strcmp(a[i].type->name, name) != 0)
            continue;
        for (size_t j = 0; j < a[i].count; j++)
            if (strcmp(a[i].names[j], "value") == 0 ||
                strcmp(a[i].names[j], "value-0") == 0)
                return a[i].values[j];
        return "";
    }
    return NULL;
}

const char *jfr_type_annotation_value(const jfr_type *type, const char *annotation)
{
    return type ? annotation_value(type->nannotations, type->annotations, annotation)
                : NULL;
}

size_t jfr_type_setting_count(const jfr_type *type)
{
    return type ? type->nsettings : 0;
}

const jfr_setting *jfr_type_setting_at(const jfr_type *type, size_t i)
{
    return type && i < type->nsettings ? &type->settings[i] : NULL;
}

const char *jfr_field_name(const jfr_field *field)
{
    return field ? field->name : NULL;
}

const jfr_type *jfr_field_type(const jfr_field *field)
{
    return field ? field->type : NULL;
}

bool jfr_field_is_array(const jfr_field *field)
{
    return field && field->array;
}

bool jfr_field_is_pooled(const jfr_field *field)
{
    return field && field->pooled;
}

const char *jfr_field_label(const jfr_field *field)
{
    return field ? field->label : NULL;
}

size_t jfr_field_annotation_count(const jfr_field *field)
{
    return field ? field->nannotations : 0;
}

const jfr_annotation *jfr_field_annotation_at(const jfr_field *field, size_t i)
{
    return field && i < field->nannotations ? &field->annotations[i] : NULL;
}

const char *jfr_field_annotation_value(const jfr_field *field, const char *annotation)
{
    return field ? annotation_value(field->nannotations, field->annotations, annotation)
                 : NULL;
}
