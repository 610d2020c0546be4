/* time_unit.c - a time field's integers in nanoseconds (jfr/types.h,
 * jfr_time_unit): the one conversion behind print, JSON, SQL, profiles,
 * leaks and Python, read from the unit that jfr_field_content chose. */
#include <string.h>

#include "jfr_private.h"

static const struct {
    const char *name;
    jfr_time_unit unit;
} timespan_units[] = {{"TICKS", JFR_TIME_TICKS},
                      {"NANOSECONDS", JFR_TIME_NANOSECONDS},
                      {"MICROSECONDS", JFR_TIME_MICROSECONDS},
                      {"MILLISECONDS", JFR_TIME_MILLISECONDS},
                      {"SECONDS", JFR_TIME_SECONDS}},
  timestamp_units[] = {{"TICKS", JFR_TIME_EPOCH_TICKS},
                       {"MILLISECONDS_SINCE_EPOCH", JFR_TIME_EPOCH_MILLISECONDS},
                       {"NANOSECONDS_SINCE_EPOCH", JFR_TIME_EPOCH_NANOSECONDS}};

#define NSPAN  (sizeof timespan_units / sizeof timespan_units[0])
#define NSTAMP (sizeof timestamp_units / sizeof timestamp_units[0])

jfr_time_unit jfr_field_time_unit(const jfr_field *field)
{
    jfr_content content = jfr_field_content(field);
    const char *unit = jfr_field_content_unit(field);

    if (!unit)
        return JFR_TIME_NONE;
    if (content == JFR_CONTENT_TIMESPAN) {
        for (size_t i = 0; i < NSPAN; i++)
            if (strcmp(unit, timespan_units[i].name) == 0)
                return timespan_units[i].unit;
    } else if (content == JFR_CONTENT_TIMESTAMP) {
        for (size_t i = 0; i < NSTAMP; i++)
            if (strcmp(unit, timestamp_units[i].name) == 0)
                return timestamp_units[i].unit;
    }
    return JFR_TIME_NONE;
}

/* value * factor, saturating: a damaged value must not overflow. */
static int64_t scaled(int64_t value, int64_t factor)
{
    int64_t r;

    if (__builtin_mul_overflow(value, factor, &r))
        return value < 0 ? INT64_MIN : INT64_MAX;
    return r;
}

/* Nanoseconds per unit; 0 for the units counted in ticks, -1 for none. */
static int64_t nanos_per_unit(jfr_time_unit unit)
{
    switch (unit) {
    case JFR_TIME_TICKS:
    case JFR_TIME_EPOCH_TICKS:
        return 0;
    case JFR_TIME_NANOSECONDS:
    case JFR_TIME_EPOCH_NANOSECONDS:
        return 1;
    case JFR_TIME_MICROSECONDS:
        return 1000;
    case JFR_TIME_MILLISECONDS:
    case JFR_TIME_EPOCH_MILLISECONDS:
        return 1000000;
    case JFR_TIME_SECONDS:
        return 1000000000;
    default:
        return -1;
    }
}

int jfr_chunk_time_nanos(int64_t *out_nanos, const jfr_chunk *chunk, jfr_time_unit unit,
                         int64_t value)
{
    int64_t per = nanos_per_unit(unit);

    if (!out_nanos)
        return JFR_EINVAL;
    *out_nanos = per < 0 ? value : 0;
    if (per < 0 || (per == 0 && !chunk))
        return JFR_EINVAL;
    if (per > 0)
        *out_nanos = scaled(value, per);
    else if (unit == JFR_TIME_EPOCH_TICKS)
        *out_nanos = jfr_chunk_ticks_to_epoch_nanos(chunk, value);
    else
        *out_nanos = jfr_chunk_ticks_to_nanos(chunk, value);
    return JFR_OK;
}

int jfr_chunk_time_split(int64_t *seconds, int32_t *nanos, const jfr_chunk *chunk,
                         jfr_time_unit unit, int64_t value)
{
    int64_t per = nanos_per_unit(unit), per_second, rest, ns;
    int rc;

    if (!seconds || !nanos)
        return JFR_EINVAL;
    *seconds = 0;
    *nanos = 0;
    if (per > 0) {
        /* units of fixed length: no detour through 64-bit nanoseconds */
        per_second = 1000000000 / per;
        rest = value % per_second;
        *seconds = value / per_second - (rest < 0);
        *nanos = (int32_t)((rest < 0 ? rest + per_second : rest) * per);
        return JFR_OK;
    }
    if ((rc = jfr_chunk_time_nanos(&ns, chunk, unit, value)) != JFR_OK)
        return rc;
    rest = ns % 1000000000;
    *seconds = ns / 1000000000 - (rest < 0);
    *nanos = (int32_t)(rest < 0 ? rest + 1000000000 : rest);
    return JFR_OK;
}

int64_t jfr_nanos_between(int64_t from, int64_t to)
{
    int64_t d;

    if (__builtin_sub_overflow(to, from, &d))
        return to > from ? INT64_MAX : INT64_MIN;
    return d;
}
