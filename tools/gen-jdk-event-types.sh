#!/bin/sh
# gen-jdk-event-types.sh JFR... > libjfr/jdk_event_types.c
#
# The event types some JDK records, for libjfr's type filters: a name in
# this list is never a typo, so a filter item naming one that no input
# declares selects nothing instead of failing (the recording is of a JDK
# without that type). Each JFR is a JDK's `jfr` tool, whose `jfr metadata`
# without a file lists that JDK's own types. Made from JDK 17 and JDK 25:
#   tools/gen-jdk-event-types.sh /usr/lib/jvm/java-17-openjdk-amd64/bin/jfr \
#       /usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr > libjfr/jdk_event_types.c
# plus jdk.SafepointWaitBlocked (JDK 11-16, in the corpus' recordings).
set -eu
names=$(for jfr in "$@"; do
    "$jfr" metadata | awk '/^@Name\("/ { n = $0; sub(/^@Name\("/, "", n); sub(/"\).*/, "", n) }
                           /extends jdk\.jfr\.Event/ { print n }'
done; echo jdk.SafepointWaitBlocked)
cat <<'HEAD'
/* jdk_event_types.c - the event types some JDK records (made by
 * tools/gen-jdk-event-types.sh from JDK 17's and JDK 25's own metadata):
 * a filter item naming one is never a typo. */
#include <stdlib.h>
#include <string.h>

#include "typefilter.h"

/* sorted byte by byte, for bsearch */
static const char *const jdk_event_types[] = {
HEAD
printf '%s\n' $names | LC_ALL=C sort -u | sed 's/.*/    "&",/'
cat <<'TAIL'
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
TAIL
