/* select_check.c - --event E that names no profile kind: the one event
 * type it names among the inputs' types, or a usage error suggesting the
 * nearest kinds and types. The rest of the selection is checked by
 * jfr_profile_build. */
#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "select.h"
#include "type_names.h"

/* "unknown profile kind or event type 'X' (did you mean a, b?)" */
static void unknown_event(const char *event, const jfr_type_set *set)
{
    size_t nkinds;
    const jfr_profile_kind *kinds = jfr_profile_kinds(&nkinds);
    const char **names = xcalloc(nkinds + 1, sizeof *names);

    for (size_t i = 0; i < nkinds; i++)
        names[i] = kinds[i].name;
    warn_unknown_name("profile kind", event, names, nkinds, set,
                      "--event list shows the kinds");
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
