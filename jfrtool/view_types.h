/* view_types.h - `view TYPE` by the library's naming rule (view_types.c). */
#ifndef JFRTOOL_VIEW_TYPES_H
#define JFRTOOL_VIEW_TYPES_H

#include "view_generic.h"
#include "views.h"

/**
 * Show every event type of the inputs that `name` selects (a full or short
 * name, a glob, a comma list) as `view EVENT-TYPE` does, in the order the
 * inputs declare them, a blank line between two. A name that selects none
 * is a usage error suggesting the nearest of `views` (the view names) and
 * of the inputs' event types. Returns the exit status.
 */
int view_event_types(const char *name, const view_ctx *ctx, const gview_opts *o,
                     const char *const *views, size_t nviews);

#endif
