# a directory is not a recording: one message, "jfrtool: COMMAND: PATH: why",
# the path named once
jfrtool folded recordings
