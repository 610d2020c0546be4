# view hot-methods: byte for byte JDK 25's jfr view (testdata/jdk/cpu-jdk25.jfr.view-hot-methods.txt)
jfrtool view hot-methods recordings/cpu-jdk25.jfr
