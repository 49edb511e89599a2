#!/usr/bin/env bash
# Installs what the build, the tests and the demo need (Debian 12, as root), then builds the
# extension in place with phpize. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages="php-dev php-cli libhiredis-dev redis-server redis-tools pkg-config make gcc"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "missing packages:$missing (run as root, or install them)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q $missing
fi

if [ ! -f modules/redlock.so ] || [ -n "$(find ext config.m4 -newer modules/redlock.so -print -quit)" ]; then
  if [ ! -f Makefile ] || [ config.m4 -nt Makefile ]; then
    phpize >/dev/null
    ./configure -q
  fi
  make -j"$(nproc)" >/dev/null
fi
test -f modules/redlock.so
