# a copied repository whose last chunk the JVM was still writing: that chunk
# is finished at its last complete flush and said so; exit 0; the output's
# chunks, read again, give no warning
jfrtool assemble repository "$WORK/out.jfr" || exit
jfrtool summary "$WORK/out.jfr" | head -n 4
