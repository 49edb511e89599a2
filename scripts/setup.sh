#!/usr/bin/env bash
# Installs what the build, the tests and the demo need (Debian 12, as root), then builds the
# extension in place with phpize. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages="php-dev php-cli libhiredis-dev libssl-dev openssl redis-server redis-tools pkg-config make gcc gdb"
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

# Reconfigure whenever config.m4 changed (a merge can add sources); rebuild when any source changed.
mkdir -p .run
stamp=.run/config.m4.sha1
if [ ! -f Makefile ] || [ "$(sha1sum < config.m4)" != "$(cat "$stamp" 2>/dev/null)" ]; then
  phpize >/dev/null
  ./configure -q
  sha1sum < config.m4 > "$stamp"
fi
make -j"$(nproc)" >/dev/null
test -f modules/redlock.so
