#!/bin/sh
# The jfrsql extension in Python's sqlite3 module (doc/sql.md): runs
# python-extension.py with a python3 whose sqlite3 can load extensions
# (some builds, such as pyenv's defaults, cannot: then skipped).
#
# Environment (set by make check): JFRTOOL, JFR_TESTDATA, JFRSQL_EXT.
set -u
ext=${JFRSQL_EXT:-}
[ -n "$ext" ] && [ -f "$ext.so" ] ||
    { echo "SKIP: the jfrsql extension was not built (no SQLite, or --disable-shared)"; exit 77; }
# built with sanitizers, it needs their run-time, which the host lacks
if nm -D --undefined-only "$ext.so" 2>/dev/null | grep -qE ' (__asan|__ubsan|__sanitizer)_'; then
    echo "SKIP: the jfrsql extension is built with sanitizers: it cannot load into an"
    echo "      uninstrumented sqlite3 or python3 (jfrtool sql is tested by check_sql.py)"
    exit 77
fi
for py in python3 /usr/bin/python3; do
    command -v "$py" >/dev/null 2>&1 || continue
    if "$py" -c 'import sqlite3, sys
sys.exit(not hasattr(sqlite3.connect(":memory:"), "enable_load_extension"))' 2>/dev/null; then
        exec "$py" "$(dirname "$0")/python-extension.py"
    fi
done
echo "SKIP: no python3 whose sqlite3 module has enable_load_extension"
exit 77
