# a glob that matches no event type: the names it matches when case is
# ignored
jfrtool print --events 'jdk.gc*' recordings/cpu-jdk25.jfr
