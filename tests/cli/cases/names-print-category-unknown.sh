# a category that no event type of the inputs has
jfrtool print --categories Gc recordings/cpu-jdk25.jfr
