# view cpu-time-statistics: the JDK's form, then the honest CPU-time lines
jfrtool view cpu-time-statistics recordings/cpu-jdk25.jfr
