# a mistyped double-quoted column is an error naming the nearest columns of
# the table (issue 26: it printed the text sampledThread.javaNam and 365;
# CPUTimeSample has no sampledThread at all), and a string in double
# quotes says how strings are written
jfrtool sql 'SELECT "sampledThread.javaNam", COUNT(*) FROM CPUTimeSample GROUP BY 1' recordings/cpu-jdk25.jfr
echo "exit $?"
jfrtool sql "SELECT count(*) FROM ExecutionSample WHERE \"sampledThread.javaName\" = \"main\"" recordings/cpu-jdk25.jfr
echo "exit $?"
jfrtool sql 'SELECT startTim FROM ExecutionSample, CPUTimeSample' recordings/cpu-jdk25.jfr
