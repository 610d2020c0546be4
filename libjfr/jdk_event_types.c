/* jdk_event_types.c - the event types some JDK records
 * (jdk_event_types.inc, made by tools/gen-jdk-event-types.sh from JDK 17's
 * and JDK 25's own metadata): a filter item naming one is never a typo. */
#include <stdlib.h>
#include <string.h>

#include "typefilter.h"

/* sorted byte by byte, for bsearch */
static const char *const jdk_event_types[] = {
#include "jdk_event_types.inc"
};

static int by_name(const void *key, const void *entry)
{
    return strcmp(key, *(const char *const *)entry);
}

bool jfrp_jdk_event_type(const char *item)
{
    char full[128];

    if (!item || jfrp_is_glob(item))
        return false;
    /* a short name stands for the jdk. type of that name */
    if (!strchr(item, '.') && strlen(item) < sizeof full - 4) {
        memcpy(full, "jdk.", 4);
        strcpy(full + 4, item);
        item = full;
    }
    item = jfrp_canonical_type_name(item);
    return bsearch(item, jdk_event_types,
                   sizeof jdk_event_types / sizeof jdk_event_types[0],
                   sizeof jdk_event_types[0], by_name) != NULL;
}
