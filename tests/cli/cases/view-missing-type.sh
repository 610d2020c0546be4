# a view whose event type the recording lacks (JDK 17: no CPU-time sampler): the JDK's message, exit 0
jfrtool view cpu-time-hot-methods recordings/cpu-jdk17.jfr
