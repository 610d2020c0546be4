# an unfinished recording (JDK 25's jfr view never returns on it): a warning, rows as of the last flush
jfrtool view hot-methods recordings/unfinished-jdk25.jfr
