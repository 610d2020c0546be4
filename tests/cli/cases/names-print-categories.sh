# print --categories, as the JDK's: a category element or its acronym
# (OS: Operating System), here with --events: the types both select
jfrtool print --categories OS --events 'CPU*' recordings/cpu-jdk25.jfr
