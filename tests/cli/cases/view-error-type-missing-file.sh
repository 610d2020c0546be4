# an event type view whose input cannot be opened: exit 2 naming the file,
# not "unknown view"
jfrtool view GarbageCollection recordings/no-such-file.jfr
