# --weight period: the honest CPU-time lines in CPU seconds (samplingPeriod)
jfrtool view --weight period cpu-time-hot-methods recordings/io-jdk25.jfr
