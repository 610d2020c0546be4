# standard output that cannot be written: exit 2, said once
jfrtool sql "SELECT name FROM jfr_event_types" recordings/cpu-jdk25.jfr >/dev/full
