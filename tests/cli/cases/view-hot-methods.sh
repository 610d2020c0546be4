# view hot-methods: JDK 25's rows and layout; equal rows by name (--jdk-order: the JDK's own order)
jfrtool view hot-methods recordings/cpu-jdk25.jfr
