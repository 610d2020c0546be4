# the profiles' --event: a mistyped event type or kind names the nearest
# kinds and types; a name of several types says which
jfrtool folded --event jdk.ExecutionSampl recordings/cpu-jdk25.jfr
echo "exit $?"
jfrtool flame --event aloc recordings/cpu-jdk25.jfr
echo "exit $?"
jfrtool folded --event '*Sample' recordings/cpu-jdk25.jfr
