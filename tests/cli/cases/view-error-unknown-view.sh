# an unknown view: usage error, exit 1
jfrtool view hottest-methods recordings/cpu-jdk25.jfr
