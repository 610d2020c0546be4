/* field_content.c - what a field's annotations say its values are
 * (jfr/types.h, jfr_content): the one rule that jfrtool's print, JSON and
 * view output, sql/'s columns and Python read, each rendering it its own way. */
#include <string.h>

#include "jfr_private.h"

/* The content annotations, one bit each, in the order that decides. */
enum {
    HAS_TIMESTAMP = 1u << 0,
    HAS_TIMESPAN = 1u << 1,
    HAS_PERCENTAGE = 1u << 2,
    HAS_DATA_AMOUNT = 1u << 3,
    HAS_MEMORY_ADDRESS = 1u << 4,
    HAS_FREQUENCY = 1u << 5
};

static const struct {
    const char *name;
    unsigned bit;
} content_annotations[] = {
    {"jdk.jfr.Timestamp", HAS_TIMESTAMP},
    {"jdk.jfr.Timespan", HAS_TIMESPAN},
    {"jdk.jfr.Percentage", HAS_PERCENTAGE},
    {"jdk.jfr.DataAmount", HAS_DATA_AMOUNT},
    {"jdk.jfr.MemoryAddress", HAS_MEMORY_ADDRESS},
    {"jdk.jfr.Frequency", HAS_FREQUENCY},
};

#define NCONTENT (sizeof content_annotations / sizeof content_annotations[0])

static bool any_named(size_t n, const jfr_annotation *a, const char *name)
{
    for (size_t i = 0; name && i < n; i++)
        if (a[i].type && a[i].type->name && strcmp(a[i].type->name, name) == 0)
            return true;
    return false;
}

bool jfr_field_has_annotation(const jfr_field *field, const char *annotation)
{
    return field && any_named(field->nannotations, field->annotations, annotation);
}

bool jfr_type_has_annotation(const jfr_type *type, const char *annotation)
{
    return type && any_named(type->nannotations, type->annotations, annotation);
}

/* Which content annotations the field carries: one pass over its list, as
 * every value printed asks. */
static unsigned content_bits(const jfr_field *field)
{
    unsigned bits = 0;

    for (size_t i = 0; field && i < field->nannotations; i++) {
        const jfr_type *t = field->annotations[i].type;

        if (!t || !t->name || strncmp(t->name, "jdk.jfr.", 8) != 0)
            continue;
        for (size_t k = 0; k < NCONTENT; k++)
            if (strcmp(t->name, content_annotations[k].name) == 0)
                bits |= content_annotations[k].bit;
    }
    return bits;
}

/* A data amount in bytes or bits, a rate with @Frequency; another unit
 * makes no amount (JFR_CONTENT_NONE), as for the JDK's formatters. */
static jfr_content amount_content(const jfr_field *field, bool per_second)
{
    const char *unit = jfr_field_annotation_value(field, "jdk.jfr.DataAmount");

    if (unit && strcmp(unit, "BYTES") == 0)
        return per_second ? JFR_CONTENT_BYTES_PER_SECOND : JFR_CONTENT_BYTES;
    if (unit && strcmp(unit, "BITS") == 0)
        return per_second ? JFR_CONTENT_BITS_PER_SECOND : JFR_CONTENT_BITS;
    return JFR_CONTENT_NONE;
}

jfr_content jfr_field_content(const jfr_field *field)
{
    unsigned bits = content_bits(field);
    jfr_content content;

    if (bits & HAS_TIMESTAMP)
        return JFR_CONTENT_TIMESTAMP;
    if (bits & HAS_TIMESPAN)
        return JFR_CONTENT_TIMESPAN;
    if (bits & HAS_PERCENTAGE)
        return JFR_CONTENT_PERCENTAGE;
    if ((bits & HAS_DATA_AMOUNT) &&
        (content = amount_content(field, (bits & HAS_FREQUENCY) != 0)) !=
            JFR_CONTENT_NONE)
        return content;
    if (bits & HAS_MEMORY_ADDRESS)
        return JFR_CONTENT_MEMORY_ADDRESS;
    if (bits & HAS_FREQUENCY)
        return JFR_CONTENT_FREQUENCY;
    return JFR_CONTENT_NONE;
}

const char *jfr_field_content_unit(const jfr_field *field)
{
    switch (jfr_field_content(field)) {
    case JFR_CONTENT_TIMESTAMP:
        return jfr_field_annotation_value(field, "jdk.jfr.Timestamp");
    case JFR_CONTENT_TIMESPAN:
        return jfr_field_annotation_value(field, "jdk.jfr.Timespan");
    case JFR_CONTENT_BYTES:
    case JFR_CONTENT_BITS:
    case JFR_CONTENT_BYTES_PER_SECOND:
    case JFR_CONTENT_BITS_PER_SECOND:
        return jfr_field_annotation_value(field, "jdk.jfr.DataAmount");
    default:
        return NULL;
    }
}

bool jfr_field_is_unsigned(const jfr_field *field)
{
    return jfr_field_has_annotation(field, "jdk.jfr.Unsigned");
}

bool jfr_field_has_content_type(const jfr_field *field)
{
    for (size_t i = 0; field && i < field->nannotations; i++)
        if (jfr_type_has_annotation(field->annotations[i].type, "jdk.jfr.ContentType"))
            return true;
    return false;
}

jfr_unit jfrp_weight_unit(const jfr_field *f)
{
    switch (jfr_field_content(f)) {
    case JFR_CONTENT_TIMESPAN:
        return JFR_UNIT_NANOS;
    case JFR_CONTENT_BYTES:
    case JFR_CONTENT_BYTES_PER_SECOND:
        return JFR_UNIT_BYTES;
    default:
        return JFR_UNIT_NUMBER;
    }
}
