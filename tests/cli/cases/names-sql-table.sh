# an unknown table names the nearest tables, short names before full ones
jfrtool sql 'SELECT count(*) FROM ExecutionSampl' recordings/cpu-jdk25.jfr
echo "exit $?"
jfrtool sql 'SELECT count(*) FROM "jdk.ExecutionSampl"' recordings/cpu-jdk25.jfr
