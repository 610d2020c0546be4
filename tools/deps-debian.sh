#!/bin/sh
# Install, as root on Debian 12 or later, what building and testing libjfr
# and jfrtool needs. Installs only what is missing; safe to run again.
set -eu

pkgs="build-essential autoconf automake libtool pkg-config zlib1g-dev liblz4-dev
liblzma-dev libbz2-dev xz-utils bzip2 libjansson-dev libsqlite3-dev sqlite3 libcriterion-dev python3 gzip lz4 mandoc clang clang-format
libclang-rt-dev valgrind strace chromium chromium-driver
python3-cffi python3-distributed"

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
