# view native-methods: every row (no top 25), counts only
jfrtool view native-methods recordings/io-jdk25.jfr
