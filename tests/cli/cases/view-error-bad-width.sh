# --width must be a positive number: usage error, exit 1
jfrtool view --width 0 hot-methods recordings/cpu-jdk25.jfr
