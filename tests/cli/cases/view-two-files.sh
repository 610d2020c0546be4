# two files are read as one recording; CPU-time rows come from the JDK 25 file
jfrtool view cpu-time-hot-methods recordings/cpu-jdk17.jfr recordings/cpu-jdk25.jfr
