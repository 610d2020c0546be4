# an unknown option is a usage error: exit 1, with the command's usage
jfrtool summary --bogus recordings/cpu-jdk25.jfr
