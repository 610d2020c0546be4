# --json: every row as an object in table order; tableRows says how many the table shows
jfrtool view --json hot-methods recordings/multi-jdk25.jfr
