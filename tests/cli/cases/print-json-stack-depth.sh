# print --json with stacks cut to 3 frames (two thread starts have 4 and 19);
# as in the JDK, "truncated" keeps the recorded value. The expected output
# agrees with JDK 25's `jfr print --json --stack-depth 3` (checked with jsoncmp).
jfrtool print --json --stack-depth 3 --events jdk.ThreadStart,jdk.CPULoad recordings/cpu-jdk17.jfr
