# the output exists already: refused, left as it was; exit 1
cd "$WORK" || exit 99
echo keep > out.jfr
jfrtool assemble "$OLDPWD/recordings/cpu-jdk25.jfr" out.jfr
echo "exit $?"
cat out.jfr
