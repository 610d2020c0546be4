# a JFR 0.9 (JDK 7/8, JRockit) chunk header: not supported, exit 2, one line
# naming the file. The 68-byte header is made here: magic FLR\0, major 0,
# minor 9, zeros.
cd "$WORK" || exit 99
{ printf 'FLR\000\000\000\000\011'; head -c 60 /dev/zero; } > jfr09.jfr
jfrtool summary jfr09.jfr
