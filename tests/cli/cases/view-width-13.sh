# a very narrow table: every cell cut; a cut share shows the JDK's compact text (the raw count as a share), as jfr view --width 13 does
jfrtool view --jdk-order --width 13 hot-methods recordings/cpu-jdk25.jfr
