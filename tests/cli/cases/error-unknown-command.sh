# an unknown command is a usage error: exit 1
jfrtool frobnicate recordings/cpu-jdk25.jfr
