# print --json restricted to two event types
jfrtool print --json --events jdk.CPULoad,jdk.GCHeapSummary recordings/cpu-jdk25.jfr
