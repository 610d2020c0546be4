# an input that cannot be opened: exit 2, one line naming it
jfrtool view hot-methods recordings/no-such-file.jfr
