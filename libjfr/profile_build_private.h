/* profile_build_private.h - between the parts of jfr_profile_build. */
#ifndef JFR_PROFILE_BUILD_PRIVATE_H
#define JFR_PROFILE_BUILD_PRIVATE_H

#include "jfr_private.h"

/** The whole text of a refused selection. */
typedef struct jfrp_refusal {
    char text[1024];
} jfrp_refusal;

/**
 * Check the profile options `po` (made of `o`) against `rec`, the first
 * input (rewound afterwards; NULL: only what needs no input). False, with
 * the reason in r->text, when the selection cannot match.
 */
bool jfrp_profile_check(jfrp_refusal *r, jfr_recording *rec,
                        const jfr_profile_build_options *o,
                        const jfr_profile_options *po);

#endif
