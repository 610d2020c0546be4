# a chunk cut before its first flush, junk and a file that is not a
# recording: each reported, the rest assembled; exit 2 (an input could not
# be read at all)
cd "$WORK" || exit 99
head -c 100000 "$OLDPWD/repository/2026_11_26_14_43_34.jfr" > cut.jfr
printf 'not a recording\n' > junk.jfr
cat "$OLDPWD/recordings/cpu-jdk25.jfr" > tail.jfr
printf 'trailing bytes' >> tail.jfr
jfrtool assemble cut.jfr junk.jfr tail.jfr out.jfr
echo "exit $?"
jfrtool summary out.jfr | head -n 3
