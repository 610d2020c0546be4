/* profile_check.c - a selection that cannot match is refused, not an
 * empty success: a weight field the selected types lack, or a time range
 * that is empty. The refusal says what the recording has instead. A valid
 * selection that matches nothing is for the front end to mention. */
#include <stdio.h>
#include <string.h>

#include "profile_build_private.h"

static bool is_integer_field(const jfr_field *f)
{
    jfr_kind k = jfr_type_kind(jfr_field_type(f));

    return f && !jfr_field_is_array(f) && !jfr_field_is_pooled(f) && k >= JFR_KIND_BYTE &&
           k <= JFR_KIND_LONG;
}

/* Append printf-style text to the refusal, cut to its size. */
static void say(jfrp_refusal *r, const char *fmt, const char *a, const char *b,
                const char *c)
{
    size_t used = strlen(r->text);

    if (used + 1 < sizeof r->text)
        snprintf(r->text + used, sizeof r->text - used, fmt, a, b, c);
}

/* "a, b" of the integer fields of `t`. */
static void list_integer_fields(jfrp_refusal *r, const jfr_type *t)
{
    size_t listed = 0;

    for (size_t i = 0; i < jfr_type_field_count(t); i++) {
        const jfr_field *f = jfr_type_field_at(t, i);
        if (!is_integer_field(f))
            continue;
        say(r, "%s%s%s", listed++ ? ", " : "", jfr_field_name(f), "");
    }
}

/* The types `names` (n of them) have in the first chunk of `rec` that
 * declares any of them; NULL when none does. */
static jfr_chunk *find_types(jfr_recording *rec, const char *const *names, size_t n,
                             const jfr_type **found)
{
    jfr_chunk *chunk;

    while (jfr_recording_next_chunk(&chunk, rec) != JFR_DONE) {
        bool any = false;

        if (!chunk)
            continue;
        for (size_t i = 0; i < n; i++)
            any |= (found[i] = jfr_chunk_event_type(chunk, names[i])) != NULL;
        if (any)
            return chunk;
    }
    return NULL;
}

/* The weight field against the types of the first chunk that has any of
 * the selection's types. */
static void check_weight(jfrp_refusal *r, jfr_recording *rec, const char *weight,
                         const char *const *names, size_t n)
{
    const jfr_type *found[16];
    bool any = false;

    if (!find_types(rec, names, n, found))
        return;
    for (size_t i = 0; i < n; i++) {
        int fi = found[i] ? jfr_type_field_index(found[i], weight) : -1;
        any |= fi >= 0 && is_integer_field(jfr_type_field_at(found[i], (size_t)fi));
    }
    for (size_t i = 0; i < n && !any; i++) {
        if (!found[i])
            continue;
        say(r, "%s%s has no integer field '%s' to weigh by; its integer fields: ",
            r->text[0] ? "; " : "", jfr_type_name(found[i]), weight);
        list_integer_fields(r, found[i]);
    }
}

bool jfrp_profile_check(jfrp_refusal *r, jfr_recording *rec,
                        const jfr_profile_build_options *o, const jfr_profile_options *po)
{
    const char *names[16];
    size_t n = 0;
    const char *weight = po->weight_field;

    r->text[0] = '\0';
    if (po->from_nanos && po->to_nanos && po->from_nanos >= po->to_nanos) {
        char a[24], b[24];
        snprintf(a, sizeof a, "%lld", (long long)po->from_nanos);
        snprintf(b, sizeof b, "%lld", (long long)po->to_nanos);
        say(r, "--from %s is not before --to %s%s: no sample can be selected",
            o->from ? o->from : a, o->to ? o->to : b, "");
        return false;
    }
    if (po->event_type) {
        names[n++] = po->event_type;
    } else {
        const jfr_profile_kind *kind = jfr_profile_kind_by_name(po->kind ? po->kind : "");
        const jfr_profile_source *src = kind ? kind->sources : po->sources;
        size_t nsrc = kind ? kind->nsources : po->nsources;
        /* a kind absent from a recording is an empty selection, not an
         * error; only a weight field is checked against its types */
        if (!weight || !src)
            return true;
        for (size_t i = 0; i < nsrc && n < 16; i++)
            names[n++] = src[i].event_type;
    }
    if (!rec)
        return true;
    /* the first chunk with one of the types decides; an event type no
     * input declares was refused before (the front end resolves names) */
    if (weight && strcmp(weight, "samplingPeriod") != 0)
        check_weight(r, rec, weight, names, n);
    jfr_recording_rewind(rec);
    return r->text[0] == '\0';
}
