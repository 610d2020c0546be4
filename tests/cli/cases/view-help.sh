# view --help: the usage and every registered view
jfrtool view --help
