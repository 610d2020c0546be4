# the type model of a JDK 25 recording
jfrtool metadata recordings/cpu-jdk25.jfr
