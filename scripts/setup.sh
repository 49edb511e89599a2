#!/usr/bin/env bash
# Installs what the build, the tests and the demo need (Debian 12 or 13, as root), then builds the
# extension in place with phpize. Safe to run again, and as a normal user once the packages are in.
#   REDLOCK_PHP_VERSION=8.5   build for that one of several installed PHPs (php8.5, phpize8.5, ...)
set -euo pipefail
cd "$(dirname "$0")/.."

v=${REDLOCK_PHP_VERSION:-}
packages="php$v-dev php$v-cli php$v-fpm libhiredis-dev libssl-dev openssl redis-server redis-tools pkg-config make gcc gdb procps"
# The Sentinel chapter runs on the host only: a matrix leg's root pairs a newer redis-server with a
# redis-sentinel it cannot install beside it (sid's 8.0 sentinel wants sid's redis-tools, not 8.6's).
[ -n "${REDLOCK_MATRIX_LEG:-}" ] || packages="$packages redis-sentinel"
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

# Run as root in a tree a user owns (sudo scripts/setup.sh): build as that user, so that the
# user's later runs can still write everything the build makes.
if [ "$(id -u)" -eq 0 ] && [ "$(stat -c %U .)" != root ]; then
  exec runuser -u "$(stat -c %U .)" -- bash "$PWD/scripts/setup.sh" "$@"
fi

# Reconfigure whenever config.m4 changed (a merge can add sources); rebuild when any source changed.
mkdir -p .run
stamp=.run/config.m4.sha1
if [ ! -f Makefile ] || [ "$(sha1sum < config.m4)" != "$(cat "$stamp" 2>/dev/null)" ]; then
  # The sources changed: objects and their dependency files may name headers that moved or went
  # (a .dep naming a missing header stops make), so the build starts afresh.
  find ext \( -name '*.dep' -o -name '*.lo' -o -name '*.o' \) -delete 2>/dev/null || true
  "phpize$v" >/dev/null
  ./configure -q --with-php-config="$(command -v "php-config$v")"
  sha1sum < config.m4 > "$stamp"
fi
# A build left from before a header moved can name it in a .dep file: then once more from scratch.
make -j"$(nproc)" >/dev/null 2>&1 || {
  find ext \( -name '*.dep' -o -name '*.lo' -o -name '*.o' \) -delete
  make -j"$(nproc)" >/dev/null
}
test -f modules/redlock.so
