# --jdk-order: equal rows in the JDK's HashMap order, byte for byte JDK 25's jfr view (testdata/jdk/cpu-jdk25.jfr.view-allocation-by-site.txt)
jfrtool view --jdk-order allocation-by-site recordings/cpu-jdk25.jfr
