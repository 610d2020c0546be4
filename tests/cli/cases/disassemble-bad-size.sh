# --max-size takes a positive number of bytes with an optional k, M or G
jfrtool disassemble --max-size 10X --output "$WORK" recordings/multi-jdk25.jfr
