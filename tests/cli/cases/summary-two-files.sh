# several files are summarised as one recording: here the same as the summary
# of concat-17-25.jfr, which is these two files joined with cat
jfrtool summary recordings/cpu-jdk17.jfr recordings/cpu-jdk25.jfr
