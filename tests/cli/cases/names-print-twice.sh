# --events given twice (the JDK refuses it too), and an empty filter
jfrtool print --events CPULoad --events GCHeapSummary recordings/cpu-jdk25.jfr
echo "exit $?"
jfrtool print --events ' , ' recordings/cpu-jdk25.jfr
