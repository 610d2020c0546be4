/* options.c - versioned option structs: what each *_options_init writes.
 * One table of versions per struct: where each version's struct ends. */
#include "jfr_private.h"

#define NVERSIONS(ends) (sizeof(ends) / sizeof((ends)[0]))

int jfrp_options_init(void *opts, unsigned version, const size_t *ends, size_t nversions)
{
    /* the caller's struct is as large as its version: write no further */
    if (!opts || version < 1 || version > nversions)
        return JFR_EINVAL;
    memset(opts, 0, ends[version - 1]);
    memcpy(opts, &version, sizeof version);
    return JFR_OK;
}

int jfr_options_init(jfr_options *opts, unsigned version)
{
    static const size_t ends[] = {JFRP_END_OF(jfr_options, max_types)};

    return jfrp_options_init(opts, version, ends, NVERSIONS(ends));
}

int jfr_profile_options_init(jfr_profile_options *opts, unsigned version)
{
    static const size_t ends[] = {
        JFRP_END_OF(jfr_profile_options, allocator),
        JFRP_END_OF(jfr_profile_options, nsources),
        JFRP_END_OF(jfr_profile_options, bucket_origin_nanos),
    };

    return jfrp_options_init(opts, version, ends, NVERSIONS(ends));
}

int jfr_leaks_options_init(jfr_leaks_options *opts, unsigned version)
{
    static const size_t ends[] = {JFRP_END_OF(jfr_leaks_options, allocator)};

    return jfrp_options_init(opts, version, ends, NVERSIONS(ends));
}

int jfr_rate_options_init(jfr_rate_options *opts, unsigned version)
{
    static const size_t ends[] = {JFRP_END_OF(jfr_rate_options, allocator)};

    return jfrp_options_init(opts, version, ends, NVERSIONS(ends));
}

int jfr_findings_options_init(jfr_findings_options *opts, unsigned version)
{
    static const size_t ends[] = {
        JFRP_END_OF(jfr_findings_options, allocator),
        JFRP_END_OF(jfr_findings_options, flags),
    };

    return jfrp_options_init(opts, version, ends, NVERSIONS(ends));
}

int jfr_timeline_options_init(jfr_timeline_options *opts, unsigned version)
{
    static const size_t ends[] = {
        JFRP_END_OF(jfr_timeline_options, max_intervals),
        JFRP_END_OF(jfr_timeline_options, sample_bin_origin_nanos),
    };

    return jfrp_options_init(opts, version, ends, NVERSIONS(ends));
}

int jfr_follow_options_init(jfr_follow_options *opts, unsigned version)
{
    static const size_t ends[] = {JFRP_END_OF(jfr_follow_options, pid)};

    /* JFR_FOLLOW_FROM_FIRST is 0: zero is every default */
    return jfrp_options_init(opts, version, ends, NVERSIONS(ends));
}

int jfr_split_options_init(jfr_split_options *opts, unsigned version)
{
    static const size_t ends[] = {JFRP_END_OF(jfr_split_options, max_size)};

    return jfrp_options_init(opts, version, ends, NVERSIONS(ends));
}

int jfr_writer_options_init(jfr_writer_options *opts, unsigned version)
{
    static const size_t ends[] = {JFRP_END_OF(jfr_writer_options, allocator)};

    return jfrp_options_init(opts, version, ends, NVERSIONS(ends));
}

int jfr_chunk_spec_init(jfr_chunk_spec *spec, unsigned version)
{
    static const size_t ends[] = {JFRP_END_OF(jfr_chunk_spec, gmt_offset_ms)};

    return jfrp_options_init(spec, version, ends, NVERSIONS(ends));
}

int jfr_rule_init(jfr_rule *rule, unsigned version)
{
    static const size_t ends[] = {JFRP_END_OF(jfr_rule, source)};
    int rc = jfrp_options_init(rule, version, ends, NVERSIONS(ends));

    /* as JFR_RULE_INIT: a rule warns unless told otherwise */
    if (rc == JFR_OK)
        rule->severity = JFR_SEVERITY_WARNING;
    return rc;
}
