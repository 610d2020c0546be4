# print --events with a name that no input declares: a usage error before
# anything is printed, naming the nearest names (issue 26; it printed the
# other types' events, then a list of every type)
jfrtool print --events CPULoad,ExecutionSampl recordings/cpu-jdk25.jfr
