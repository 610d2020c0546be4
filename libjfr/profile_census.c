/* profile_census.c - the samples of every kind that counts samples, next
 * to a profile (JFR_PROFILE_KIND_SAMPLES): a count-only profile per kind,
 * fed the same chunks, so that a nearly empty profile can be told from a
 * recording whose samples are of another kind (cryostat-recording.jfr: 4
 * execution samples, 29,867 wall-clock ones). */
#include <string.h>

#include "profile_private.h"

/* A kind that counts samples: no source weighs by time or bytes. */
static bool counts_samples(const jfr_profile_kind *k)
{
    if (k->count_unit != JFR_UNIT_SAMPLES)
        return false;
    for (size_t i = 0; i < k->nsources; i++)
        if (k->sources[i].weight_field && !k->sources[i].weight_counts)
            return false;
    return true;
}

int jfrp_census_new(jfr_profile *p, const jfr_profile_options *opts, jfr_error *err)
{
    const jfr_profile_kind *kinds = jfr_profile_kinds(&p->ncensus);
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    int rc;

    p->census = jfrp_calloc(&p->al, p->ncensus, sizeof *p->census);
    if (!p->census)
        return jfrp_fail(err, JFR_ENOMEM, -1, 0, "out of memory");
    /* the same samples: time range and threads, not frames */
    o.thread_field = opts->thread_field;
    o.thread_regex = opts->thread_regex;
    o.from_nanos = opts->from_nanos;
    o.to_nanos = opts->to_nanos;
    o.allocator = opts->allocator;
    for (size_t k = 0; k < p->ncensus; k++) {
        if (!counts_samples(&kinds[k]))
            continue;
        o.kind = kinds[k].name;
        if ((rc = jfr_profile_new(&p->census[k], &o, err)) < 0)
            return rc;
        p->census[k]->count_only = true;
    }
    return JFR_OK;
}

int jfrp_census_add_chunk(jfr_profile *p, jfr_chunk *chunk)
{
    for (size_t k = 0; k < p->ncensus; k++)
        if (p->census[k] && jfr_profile_add_chunk(p->census[k], chunk) == JFR_ENOMEM)
            return JFR_ENOMEM;
    return JFR_OK;
}

void jfrp_census_merge(jfr_profile *dst, const jfr_profile *src)
{
    for (size_t k = 0; k < dst->ncensus && k < src->ncensus; k++) {
        if (!dst->census[k] || !src->census[k])
            continue;
        dst->census[k]->samples += src->census[k]->samples;
        dst->census[k]->total += src->census[k]->total;
    }
}

void jfrp_census_free(jfr_profile *p)
{
    for (size_t k = 0; p->census && k < p->ncensus; k++)
        jfr_profile_free(p->census[k]);
    jfrp_free(&p->al, p->census);
    p->census = NULL;
}

uint64_t jfr_profile_kind_samples(const jfr_profile *p, const char *kind)
{
    const jfr_profile_kind *k = jfr_profile_kind_by_name(kind);
    const jfr_profile_kind *kinds = jfr_profile_kinds(NULL);

    if (!p || !k || !p->census || (size_t)(k - kinds) >= p->ncensus ||
        !p->census[k - kinds])
        return 0;
    return p->census[k - kinds]->total;
}
