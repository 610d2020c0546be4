# standard input, gzip-compressed, through a pipe (not seekable)
cat recordings/cpu-jdk25.jfr.gz | jfrtool summary -
