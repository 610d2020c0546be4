#!/bin/sh
# Install, as root on Debian 12 or later, what building libjfr and jfrtool
# needs; with --tests, also what the test suite uses (Criterion, the
# compression and SQLite command-line tools, clang and its sanitizer
# run-times, Chromium for the browser tests, the Python binding's cffi and
# Dask, Go's pprof, a JDK for the tests that follow a running JVM). Installs
# only what is missing; safe to run again.
set -eu

build="build-essential autoconf automake libtool pkg-config zlib1g-dev liblz4-dev
liblzma-dev libbz2-dev libjansson-dev libsqlite3-dev python3"
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
