# --json of a weighted view: samples, weight (bytes) and percent per row
jfrtool view --json allocation-by-class recordings/cpu-jdk25.jfr
