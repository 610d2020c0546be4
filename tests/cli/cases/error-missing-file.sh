# a file that does not exist: exit 2, one line naming the file
jfrtool summary recordings/no-such-file.jfr
