# the first of two inputs cannot be opened: the other is still read, and
# the exit status is 2 as for a later input that cannot be opened
jfrtool folded --event exec recordings/no-such-file.jfr recordings/cpu-jdk17.jfr
