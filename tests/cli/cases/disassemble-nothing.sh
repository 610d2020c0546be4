# no more chunks than --max-chunks (5 by default): nothing to split, as the
# JDK says; exit 1
jfrtool disassemble --output "$WORK" recordings/multi-jdk25.jfr
