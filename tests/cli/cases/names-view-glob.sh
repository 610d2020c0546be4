# view of a glob: every event type it selects, one table after the other;
# a type only the second input declares is found
jfrtool view --width 100 'jdk.GCPhasePauseL*' recordings/cpu-jdk25.jfr
jfrtool view --width 100 CPUTimeSamplesLost recordings/cpu-jdk17.jfr recordings/cpu-jdk25.jfr | head -6
