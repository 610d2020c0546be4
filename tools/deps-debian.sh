#!/bin/sh
# Install, as root on Debian 12 or later, what building libjfr and jfrtool
# needs; with --tests, also what the test suite uses (Criterion, the
# compression and SQLite command-line tools, clang and its sanitizer
# run-times, Chromium for the browser tests, the Python binding's cffi and
# Dask, Go's pprof; Node's npm and, with it, the speedscope viewer of
# tests/browser/test_speedscope.py; a JDK for the tests that follow a running
# JVM). Installs only what is missing; safe to run again.
set -eu

build="build-essential autoconf automake libtool pkg-config zlib1g-dev liblz4-dev
libdeflate-dev liblzma-dev libbz2-dev libjansson-dev libsqlite3-dev python3"
tests="libcriterion-dev sqlite3 gzip lz4 xz-utils bzip2 mandoc clang clang-format
libclang-rt-dev valgrind strace chromium chromium-driver python3-cffi
python3-distributed golang-go openjdk-17-jdk-headless"

case "${1:-}" in
--tests) pkgs="$build $tests" ;;
"") pkgs="$build" ;;
*)
    echo "usage: $0 [--tests]" >&2
    exit 1
    ;;
esac

missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing
fi

# The speedscope viewer (a test dependency, never committed): the npm
# package, in the cache the test looks in. The version is pinned here and in
# doc/testing.md.
SPEEDSCOPE_VERSION=1.25.0
if [ "${1:-}" = --tests ]; then
    # Debian's nodejs and npm, unless a node with its npm is there already
    if ! command -v npm >/dev/null 2>&1; then
        echo "installing: nodejs npm"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs npm
    fi
    dir=${XDG_CACHE_HOME:-$HOME/.cache}/jfrtool-tests/speedscope
    if ! grep -qs "\"version\": \"$SPEEDSCOPE_VERSION\"" "$dir/node_modules/speedscope/package.json"; then
        echo "installing: speedscope@$SPEEDSCOPE_VERSION (npm) into $dir"
        mkdir -p "$dir"
        (cd "$dir" && npm install --no-audit --no-fund --silent "speedscope@$SPEEDSCOPE_VERSION")
    fi
fi
