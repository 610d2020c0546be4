# one chunk a file in the current directory, named as jfr disassemble names
# them; the files are listed on standard output
cd "$WORK" || exit 99
jfrtool disassemble --max-chunks 1 "$OLDPWD/recordings/multi-jdk25.jfr"
ls
