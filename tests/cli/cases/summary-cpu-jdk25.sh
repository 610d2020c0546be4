# summary of a single-chunk JDK 25 recording (same text as JDK 25's jfr summary)
jfrtool summary recordings/cpu-jdk25.jfr
