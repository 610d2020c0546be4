#!/bin/sh
# gen-jdk-event-types.sh JFR... > libjfr/jdk_event_types.inc
#
# The event types some JDK records, for libjfr's type filters
# (libjfr/jdk_event_types.c): a name in this list is never a typo, so a
# filter item naming one that no input declares selects nothing instead of
# failing (the recording is of a JDK without that type). Each JFR is a
# JDK's `jfr` tool, whose `jfr metadata` without a file lists that JDK's
# own types. Made from JDK 17 and JDK 25:
#   tools/gen-jdk-event-types.sh /usr/lib/jvm/java-17-openjdk-amd64/bin/jfr \
#       /usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr > libjfr/jdk_event_types.inc
# plus jdk.SafepointWaitBlocked (JDK 11-16, in the corpus' recordings).
set -eu
names=$(for jfr in "$@"; do
    "$jfr" metadata | awk '/^@Name\("/ { n = $0; sub(/^@Name\("/, "", n); sub(/"\).*/, "", n) }
                           /extends jdk\.jfr\.Event/ { print n }'
done; echo jdk.SafepointWaitBlocked)
echo "/* made by tools/gen-jdk-event-types.sh: sorted byte by byte */"
printf '%s\n' $names | LC_ALL=C sort -u | sed 's/.*/"&",/'
