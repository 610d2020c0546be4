# a file that is not a recording: exit 2, one line naming the file
jfrtool summary README.md
