# a recording cut inside its second chunk: the first chunk and the complete
# records of the second still count; a warning names the file, the chunk and
# the offset; exit 0
cd "$WORK" || exit 99
head -c 400000 "$OLDPWD/recordings/multi-jdk25.jfr" > cut.jfr
jfrtool summary cut.jfr
