/* findings_rules.c - libjfr's own rules, over the facts of
 * findings_facts.c: one row each (jfr/findings.h, jfr_rule), in the order
 * an analysis starts with them. The rules over the recording's tables
 * (long GC pauses, lock contention, ...) are SQL, in sql/rules.ini.
 * Adding a rule: one row here (or there), its row in doc/report.md's
 * table and a test case (doc/internals.md, "A new rule"). */
#include "findings_private.h"

#define RULE(id, sev, title, evidence, subject, fact, condition, link, max)              \
    {                                                                                    \
        JFR_RULE_VERSION, id, JFR_SEVERITY_##sev, title, evidence, subject, fact,        \
            condition, link, max, "built-in"                                             \
    }

static const jfr_rule rules[] = {
    RULE("alloc-rate", WARNING, "High allocation rate",
         "mean {mean:bytes}/s; peak {peak:bytes}/s (estimated from allocation samples)",
         NULL, "allocation", "rate >= 1 GiB or mean >= 512 MiB", "#tl-alloc", 1),
    RULE("exceptions", WARNING, "Many exceptions",
         "{throwables:.0f} throwables created, {per_second:.0f} per second", NULL,
         "exceptions", "per_second >= 100", "#profile-exceptions #overview", 1),
    RULE("safepoint-bias", WARNING, "Safepoint bias",
         "{biased} of {samples} CPU-time samples ({biased_share:.1%}) were taken at a "
         "safepoint: their stacks lean towards safepoint polls",
         NULL, "cpu-time", "biased_share >= 0.10 and samples >= 100", "#profile-cpu", 1),
    /* one rule id, two severities: one row each */
    RULE("cpu-lost", WARNING, "CPU-time samples lost",
         "{lost} of {sampled} CPU-time samples ({lost_share:.1%}) were lost "
         "(jdk.CPUTimeSamplesLost): CPU shares undercount",
         NULL, "cpu-time", "lost_share >= 0.05", "#tl-cpulost", 1),
    RULE("cpu-lost", INFO, "A few CPU-time samples lost",
         "{lost} of {sampled} CPU-time samples ({lost_share:.1%}) were lost "
         "(jdk.CPUTimeSamplesLost)",
         NULL, "cpu-time", "lost_share < 0.05 and lost > 0", "#tl-cpulost", 1),
    RULE("hot-thread", WARNING, "One thread dominates CPU",
         "thread {thread} has {share:.1%} of the {sampler} samples, {threads} threads "
         "sampled",
         "{thread}", "threads", "share >= 0.75 and samples >= 100 and threads >= 4",
         "#profiles", 1),
    RULE("leak", WARNING, "Leak candidate: {site}",
         "keeps alive {samples} old-object samples ({share:.1%} of all), through {type}; "
         "relevance {relevance:.2f}",
         "{site}", "leaks", "relevance >= 0", "#leaks", JFRP_MAX_LEAKS),
};

const jfr_rule *jfr_findings_builtin_rules(size_t *count)
{
    if (count)
        *count = sizeof rules / sizeof *rules;
    return rules;
}
