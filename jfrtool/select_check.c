/* select_check.c - a selection that cannot match is a usage error, not an
 * empty success: an event type no input declares, a weight field the
 * selected types lack, or --from not before --to. The error says what the
 * recording has instead. A valid selection that matches nothing only warns
 * (select.c). */
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "select.h"
#include "type_names.h"

static bool is_integer_field(const jfr_field *f)
{
    jfr_kind k = jfr_type_kind(jfr_field_type(f));

    return f && !jfr_field_is_array(f) && !jfr_field_is_pooled(f) && k >= JFR_KIND_BYTE &&
           k <= JFR_KIND_LONG;
}

/* "a, b, c" of the event types of `chunk` with a stack trace (what a
 * profile can select), or of every event type when none has one. */
static void list_event_types(strbuf *sb, jfr_chunk *chunk)
{
    size_t n = jfr_chunk_type_count(chunk), listed = 0;

    for (int pass = 0; pass < 2 && !listed; pass++) {
        for (size_t i = 0; i < n; i++) {
            const jfr_type *t = jfr_chunk_type_at(chunk, i);
            if (!jfr_type_is_event(t) ||
                (pass == 0 && jfr_type_field_index(t, "stackTrace") < 0))
                continue;
            sb_puts(sb, listed++ ? ", " : "");
            sb_puts(sb, jfr_type_name(t));
        }
    }
}

/* "a, b" of the integer fields of `t`. */
static void list_integer_fields(strbuf *sb, const jfr_type *t)
{
    size_t listed = 0;

    for (size_t i = 0; i < jfr_type_field_count(t); i++) {
        const jfr_field *f = jfr_type_field_at(t, i);
        if (!is_integer_field(f))
            continue;
        sb_puts(sb, listed++ ? ", " : "");
        sb_puts(sb, jfr_field_name(f));
    }
}

/* The types `names` (n of them) have in the first chunk of `rec` that
 * declares any of them; NULL chunk when none does. `listing` gets the event
 * types of the first chunk read (a chunk is gone once the next is read). */
static jfr_chunk *find_types(jfr_recording *rec, const char *const *names, size_t n,
                             const jfr_type **found, strbuf *listing)
{
    jfr_chunk *chunk;
    bool first = true;

    while (jfr_recording_next_chunk(&chunk, rec) != JFR_DONE) {
        bool any = false;

        if (!chunk)
            continue;
        if (first)
            list_event_types(listing, chunk);
        first = false;
        for (size_t i = 0; i < n; i++)
            any |= (found[i] = jfr_chunk_event_type(chunk, names[i])) != NULL;
        if (any)
            return chunk;
    }
    return NULL;
}

/* "unknown profile kind or event type 'X' (did you mean a, b?)": the
 * nearest of the kinds, then of the inputs' event types. */
static void unknown_event(const char *event, const jfr_type_set *set)
{
    size_t nkinds, idx[3], n, m;
    const jfr_profile_kind *kinds = jfr_profile_kinds(&nkinds);
    const char **names = xcalloc(nkinds + 1, sizeof *names);
    const char *near[6];
    strbuf sb = {0};

    for (size_t i = 0; i < nkinds; i++)
        names[i] = kinds[i].name;
    n = jfr_nearest_names(idx, 3, event, names, nkinds);
    for (size_t i = 0; i < n; i++)
        near[i] = names[idx[i]];
    m = n + jfr_type_set_nearest(near + n, 3, set, event, JFR_FILTER_BY_NAME);
    sb_printf(&sb, "unknown profile kind or event type '%s'", event);
    for (size_t i = 0; i < m && i < 3; i++)
        sb_printf(&sb, "%s%s", i ? ", " : " (did you mean ", near[i]);
    sb_puts(&sb, m ? "?)" : " (--event list shows the kinds)");
    warnx_("%s", sb_str(&sb));
    sb_free(&sb);
    free(names);
}

int select_resolve_event(char **out, const char *event, char *const *files, int nfiles)
{
    jfr_type_set *set;
    const char *full = NULL;
    jfr_error err;
    int rc = JFR_ENOTFOUND, status = EXIT_OK;

    *out = NULL;
    if (jfr_profile_kind_by_name(event))
        return EXIT_OK;
    /* the first inputs that declare it decide: later ones are not read */
    set = type_set_new();
    for (int i = 0; i < nfiles && rc == JFR_ENOTFOUND; i++) {
        type_set_add_input(set, files[i], i == 0 || strcmp(files[i], "-") == 0);
        rc = jfr_type_set_resolve(&full, set, event, &err);
    }
    if (rc == JFR_OK) {
        *out = xstrdup(full);
    } else if (jfr_type_set_count(set) == 0) {
        /* no input could be read: building the profile says so */
    } else if (rc == JFR_ENOTFOUND) {
        unknown_event(event, set);
        status = EXIT_USAGE;
    } else {
        warnx_("--event: %s", err.message);
        status = EXIT_USAGE;
    }
    jfr_type_set_free(set);
    return status;
}

int select_check(jfr_recording *rec, const select_opts *s, const jfr_profile_options *po,
                 int64_t from, int64_t to)
{
    const char *names[16];
    const jfr_type *found[16];
    size_t n = 0;
    jfr_chunk *chunk;
    strbuf sb = {0}, types = {0};
    int status = EXIT_OK;
    const char *weight = po->weight_field;

    if (s->from && s->to && from >= to) {
        warnx_("--from %s is not before --to %s: no sample can be selected", s->from,
               s->to);
        return EXIT_USAGE;
    }
    if (po->event_type) {
        names[n++] = po->event_type;
    } else {
        const jfr_profile_kind *kind = jfr_profile_kind_by_name(po->kind ? po->kind : "");
        const jfr_profile_source *src = kind ? kind->sources : po->sources;
        size_t nsrc = kind ? kind->nsources : po->nsources;
        /* a kind absent from a recording is an empty selection, not an error;
         * only a weight field is checked against its types */
        if (!weight || !src)
            return EXIT_OK;
        for (size_t i = 0; i < nsrc && n < 16; i++)
            names[n++] = src[i].event_type;
    }
    if (!rec)
        return EXIT_OK;
    /* an event type that no input declares was refused by
     * select_resolve_event; one only later inputs declare is not checked */
    chunk = find_types(rec, names, n, found, &types);
    if (chunk && weight && strcmp(weight, "samplingPeriod") != 0) {
        bool any = false;
        for (size_t i = 0; i < n; i++) {
            int fi = found[i] ? jfr_type_field_index(found[i], weight) : -1;
            any |= fi >= 0 && is_integer_field(jfr_type_field_at(found[i], (size_t)fi));
        }
        for (size_t i = 0; i < n && !any; i++) {
            if (!found[i])
                continue;
            sb_printf(&sb,
                      "%s%s has no integer field '%s' to weigh by; its integer fields: ",
                      sb.len ? "; " : "", jfr_type_name(found[i]), weight);
            list_integer_fields(&sb, found[i]);
            status = EXIT_USAGE;
        }
    }
    if (status != EXIT_OK)
        warnx_("%s", sb_str(&sb));
    sb_free(&sb);
    sb_free(&types);
    jfr_recording_rewind(rec);
    return status;
}
