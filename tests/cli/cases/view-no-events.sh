# a declared event type without events: the JDK's message, exit 0
jfrtool view native-methods recordings/cpu-jdk25.jfr
