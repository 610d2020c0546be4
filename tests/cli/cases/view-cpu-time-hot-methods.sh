# view cpu-time-hot-methods: the JDK's table, then the honest CPU-time lines (JEP 509)
jfrtool view cpu-time-hot-methods recordings/cpu-jdk25.jfr
