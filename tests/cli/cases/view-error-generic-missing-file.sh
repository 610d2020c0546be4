# a view the generic engine runs (SQL), on an input that cannot be opened:
# exit 2 and the error only, no "missing event type" message
jfrtool view gc recordings/no-such-file.jfr
