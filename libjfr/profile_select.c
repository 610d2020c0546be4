/* profile_select.c - the rules every front end applies before and after
 * building a profile, so that jfrtool and the bindings apply the same:
 * a time given as text, the default kind, and the hint that another kind
 * has far more samples (doc/profiles.md, "Selecting samples"). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jfr_private.h"

#define CPU_SAMPLE "jdk.CPUTimeSample"

/* ---- time ------------------------------------------------------------------ */

/* Exactly `n` digits at *p, as a number. */
static bool digits(const char **p, int n, int *out)
{
    *out = 0;
    for (int i = 0; i < n; i++, (*p)++) {
        if (!isdigit((unsigned char)**p))
            return false;
        *out = *out * 10 + (**p - '0');
    }
    return true;
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    int64_t era, yoe, doy, doe;

    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* A fraction of a second after its '.' or ',': nanoseconds (digits past
 * the ninth are dropped). */
static int64_t fraction(const char **p)
{
    int64_t ns = 0, scale = 100000000;

    for (; isdigit((unsigned char)**p); (*p)++) {
        ns += (**p - '0') * scale;
        scale /= 10;
    }
    return ns;
}

/* "Z", "+01:00", "-0130" or nothing (UTC): seconds east of UTC. */
static bool zone(const char **p, int64_t *east)
{
    int sign, h, m;

    *east = 0;
    if (**p == 'Z') {
        (*p)++;
        return true;
    }
    if (**p != '+' && **p != '-')
        return true;
    sign = *(*p)++ == '-' ? -1 : 1;
    if (!digits(p, 2, &h))
        return false;
    if (**p == ':')
        (*p)++;
    if (!digits(p, 2, &m))
        return false;
    *east = sign * (h * 3600 + m * 60);
    return true;
}

static bool parse_iso(const char *s, int64_t *out)
{
    int y, mo, d, h, mi, sec;
    int64_t frac = 0, east;
    const char *p = s;

    if (!digits(&p, 4, &y) || *p++ != '-' || !digits(&p, 2, &mo) || *p++ != '-' ||
        !digits(&p, 2, &d) || (*p != 'T' && *p != ' ') || !(p++, digits(&p, 2, &h)) ||
        *p++ != ':' || !digits(&p, 2, &mi) || *p++ != ':' || !digits(&p, 2, &sec))
        return false;
    if (*p == '.' || *p == ',') {
        p++;
        frac = fraction(&p);
    }
    if (!zone(&p, &east) || *p || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 ||
        mi > 59 || sec > 60)
        return false;
    *out = ((days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec) - east) *
               1000000000 +
           frac;
    return true;
}

/* "10s", "500ms", "2m", "1.5h", "30" (seconds): nanoseconds. */
static bool parse_offset(const char *s, int64_t *out)
{
    static const struct {
        const char *unit;
        double ns;
    } units[] = {{"ns", 1},   {"us", 1e3},   {"ms", 1e6}, {"s", 1e9},
                 {"m", 60e9}, {"h", 3600e9}, {"", 1e9}};
    char *end;
    double v;

    errno = 0;
    v = strtod(s, &end);
    if (end == s || errno || v < 0 || !isdigit((unsigned char)*s) || v >= 9.2e18)
        return false;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(end, units[i].unit) == 0) {
            double ns = v * units[i].ns + 0.5;

            if (ns >= 9.2e18)
                return false;
            *out = (int64_t)ns;
            return true;
        }
    }
    return false;
}

int jfr_parse_time(int64_t *out, const char *text, int64_t start_nanos)
{
    int64_t off;

    if (!out || !text)
        return JFR_EINVAL;
    if (parse_iso(text, out))
        return JFR_OK;
    if (start_nanos == JFR_TIME_NO_START || !parse_offset(text, &off) ||
        (start_nanos > 0 && off > INT64_MAX - start_nanos))
        return JFR_EINVAL;
    *out = start_nanos + off;
    return JFR_OK;
}

/* ---- the default kind ------------------------------------------------------- */

static bool chunk_has_events(jfr_chunk *chunk, const char *type)
{
    const jfr_type *t = jfr_chunk_event_type(chunk, type);
    const char *names[1];
    jfr_event_iter *it;
    const jfr_event *ev;
    bool found;

    if (!t)
        return false;
    names[0] = jfr_type_name(t);
    if (jfr_event_iter_new(&it, chunk, names, 1, 0) < 0)
        return false;
    found = jfr_event_next(&ev, it) == JFR_OK;
    jfr_event_iter_free(it);
    return found;
}

int jfr_recording_default_kind(const char **out, jfr_recording *rec)
{
    jfr_chunk *chunk;
    bool found = false;
    int rc;

    if (!out || !rec)
        return JFR_EINVAL;
    /* quietly: the read that follows reports what is wrong */
    while (!found && (rc = jfr_recording_next_chunk(&chunk, rec)) != JFR_DONE)
        found = rc >= 0 && chunk && chunk_has_events(chunk, CPU_SAMPLE);
    *out = found ? "cpu" : "exec";
    return jfr_recording_rewind(rec);
}

/* ---- the hint ------------------------------------------------------------------ */

/* `v` with a comma between groups of three digits, as a string. A count
 * of samples is far below INT64_MAX: each took bytes of some file. */
static void grouped(char buf[32], uint64_t v)
{
    size_t n = jfr_text_grouped(buf, 31, v > INT64_MAX ? INT64_MAX : (int64_t)v);

    buf[n < 31 ? n : 31] = '\0';
}

size_t jfr_profile_kind_hint(char *buf, size_t size, const jfr_profile *p,
                             const char *selection)
{
    size_t nkinds;
    const jfr_profile_kind *k = jfr_profile_kinds(&nkinds);
    uint64_t mine, most = 0;
    const char *best = NULL;
    char a[32], b[32];
    int n;

    if (buf && size)
        buf[0] = '\0';
    if (!p || !selection)
        return 0;
    mine = jfr_profile_kind_samples(p, selection);
    for (size_t i = 0; i < nkinds; i++) {
        uint64_t m = jfr_profile_kind_samples(p, k[i].name);

        if (strcmp(k[i].name, selection) != 0 && m > most) {
            most = m;
            best = k[i].name;
        }
    }
    if (!best || mine * 100 >= most)
        return 0;
    grouped(a, mine);
    grouped(b, most);
    n = snprintf(buf, buf ? size : 0, "only %s %s sample%s; --event %s has %s", a,
                 selection, mine == 1 ? "" : "s", best, b);
    return n < 0 ? 0 : (size_t)n;
}
