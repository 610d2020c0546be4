# view of a name that is neither a view nor an event type of the inputs:
# the nearest views and types (issue 26; it said "unknown view")
jfrtool view GarbageColection recordings/cpu-jdk25.jfr
echo "exit $?"
jfrtool view hot-method recordings/cpu-jdk25.jfr
