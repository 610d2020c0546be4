# --event takes a short name (it was "no event type 'ExecutionSample'"),
# and a type that only the second input declares
jfrtool folded --event ExecutionSample recordings/cpu-jdk25.jfr > "$WORK/short"
jfrtool folded --event jdk.ExecutionSample recordings/cpu-jdk25.jfr > "$WORK/full"
cmp "$WORK/short" "$WORK/full" && wc -l < "$WORK/short"
jfrtool folded --event CPUTimeSample recordings/cpu-jdk17.jfr recordings/cpu-jdk25.jfr |
    awk '{ n += $NF } END { print n }'
