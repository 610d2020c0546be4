/* profile_fixture.h - an empty profile of execution samples, for the
 * Criterion tests of the profile API that add their own stacks. */
#ifndef TESTS_PROFILE_FIXTURE_H
#define TESTS_PROFILE_FIXTURE_H

#include <criterion/criterion.h>

#include "jfr.h"

static inline jfr_profile *new_exec_profile(unsigned flags)
{
    jfr_profile_options o = JFR_PROFILE_OPTIONS_INIT;
    jfr_profile *p;
    jfr_error err;

    o.event_type = "jdk.ExecutionSample";
    o.flags = flags;
    cr_assert_eq(jfr_profile_new(&p, &o, &err), JFR_OK, "%s", err.message);
    return p;
}

#endif
