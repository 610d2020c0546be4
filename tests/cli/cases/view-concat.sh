# two JVMs' recordings in one file: rows are the sums of the parts (JDK 25 shows the first part only)
jfrtool view hot-methods recordings/concat-17-25.jfr
