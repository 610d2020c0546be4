#!/bin/sh
# tests/views/check_views.py empty (see there); skipped without python3.
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
exec python3 "$(dirname "$0")/check_views.py" empty
