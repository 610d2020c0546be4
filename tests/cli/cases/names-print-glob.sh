# print --events takes the JDK's globs, short names and comma lists (issue
# 26: 'jdk.GC*' was a usage error); tests/cli/filters-vs-jdk.sh compares
# the events with JDK 25's jfr print
jfrtool print --events 'jdk.GCHeapS*, CPULoad' recordings/cpu-jdk25.jfr
