# a type that only the second input declares is known; standard input is
# read once, though its types are looked at first
jfrtool print --events CPUTimeSample recordings/cpu-jdk17.jfr recordings/cpu-jdk25.jfr |
    grep -c '^jdk.CPUTimeSample'
jfrtool print --json --events GCCPUTime - < recordings/cpu-jdk25.jfr | grep -c '"type"'
