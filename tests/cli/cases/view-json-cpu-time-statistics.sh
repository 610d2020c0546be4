# --json of cpu-time-statistics with the CPU-time accounting, weighted by period
jfrtool view --json --weight period cpu-time-statistics recordings/io-jdk25.jfr
