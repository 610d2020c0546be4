# gzip input on standard input
cat recordings/cpu-jdk25.jfr.gz | jfrtool view --width 100 hot-methods -
