# under a UTF-8 locale non-ASCII method names are written as UTF-8 (C locale: '?', as Java)
LC_ALL=C.UTF-8 jfrtool view --width 100 cpu-time-hot-methods recordings/cpu-jdk25.jfr
