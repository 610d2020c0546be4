/* view_types.c - `view TYPE`: event types named by the library's rule
 * (jfr_type_filter(3)): a full or short name, a glob or a comma list shows
 * each type it selects as a table, in the order the inputs declare them;
 * a name that is neither a view nor an event type of the inputs is a usage
 * error that suggests the nearest views and types. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "jfrtool.h"
#include "type_names.h"
#include "view_types.h"

#ifdef HAVE_SQLITE
static int unknown(const char *name, const jfr_type_set *set, const char *const *views,
                   size_t nviews)
{
    warn_unknown_name("view", name, views, nviews, set, "see jfrtool view --help");
    return EXIT_USAGE;
}

int view_event_types(const char *name, const view_ctx *ctx, const gview_opts *o,
                     const char *const *views, size_t nviews)
{
    /* standard input is read by the view itself: its types are not known */
    jfr_type_set *set;
    jfr_type_filter *f = NULL;
    int status = EXIT_OK;
    size_t shown = 0, count, matches = 0;
    gview_opts each = *o;

    for (size_t i = 0; i < nviews; i++)
        if (strcmp(views[i], name) == 0) { /* a view this mode cannot run */
            warnx_("unknown view '%s' (see jfrtool view --help)", name);
            return EXIT_USAGE;
        }
    set = input_type_set(ctx->files, ctx->nfiles, false);
    count = jfr_type_set_count(set);
    if (count == 0) { /* nothing read: the view's own open says why */
        jfr_type_set_free(set);
        status = gview_run_type(name, ctx, o);
        return status >= 0 ? status : unknown(name, NULL, views, nviews);
    }
    if (jfr_type_filter_new(&f, name, JFR_FILTER_BY_NAME, NULL, NULL) < 0 ||
        jfr_type_filter_check(NULL, f, set, NULL) != JFR_OK)
        status = unknown(name, set, views, nviews);
    /* several types are titled as all-events titles them, one as its own
     * view (the JDK's `jfr view TYPE`) */
    for (size_t i = 0; i < count && status != EXIT_USAGE; i++)
        matches += jfr_type_set_matches(set, i, f) ? 1 : 0;
    each.label_titles = matches > 1;
    for (size_t i = 0; i < count && status != EXIT_USAGE; i++) {
        int rc;

        if (!jfr_type_set_matches(set, i, f))
            continue;
        if (shown++)
            fputc('\n', ctx->out); /* a line between types, as all-events */
        rc = gview_run_type(jfr_type_set_name(set, i), ctx, &each);
        if (rc > status)
            status = rc;
    }
    jfr_type_filter_free(f);
    jfr_type_set_free(set);
    return status;
}
#endif
