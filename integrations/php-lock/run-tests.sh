#!/usr/bin/env bash
# The php-lock/lock mutex's tests: integrations/php-lock/run-tests.sh [PHPUnit arguments...]
# Twice: on Debian's php-malkusch-lock (2.x), then on php-lock/lock 3.1.1 from the vendored tarball
# (php-lock-lock-3.1.1.tar.gz in REDLOCK_VENDOR_DIR, else ../shared/vendor beside the clone, else
# /work/shared/vendor; sha256 checked, unpacked once outside the clone into REDLOCK_CACHE_DIR, else
# /var/cache/redlock-ci when writable, else the temp dir), each with phpunit (9.6) and 3 redis-servers
# on 127.0.0.1:7811-7813 (integrations/phpunit.sh; REDLOCK_INTEGRATION_PORT moves them). Without the
# tarball (a matrix leg's root holds only the clone) the 3.x run is skipped, saying so, as the suite's
# Revolt chapter skips.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tarball=php-lock-lock-3.1.1.tar.gz
sha256=907a68cc6f6ca8310d08e49472e365b5dc6b1b686ef3a14f8e929dc81f10f3ed

echo "== php-lock/lock 2.x (Debian's php-malkusch-lock)"
status=0
PHP_LOCK_SRC= bash "$here/../phpunit.sh" php-lock 3 7811 /usr/share/php/Malkusch/Lock/autoload.php php-malkusch-lock "$@" || status=$?

echo "== php-lock/lock 3.1.1 (the vendored tarball)"
found=
for dir in ${REDLOCK_VENDOR_DIR:-} "$(dirname "$repo")/shared/vendor" /work/shared/vendor; do
  [ -n "$dir" ] && [ -f "$dir/$tarball" ] && { found=$dir/$tarball; break; }
done
if [ -z "$found" ]; then
  echo "php-lock/lock 3.x: SKIPPED, $tarball not found (set REDLOCK_VENDOR_DIR)"
  exit "$status"
fi
echo "$sha256  $found" | sha256sum -c --quiet - || { echo "php-lock: $found does not have the sha256 $sha256" >&2; exit 1; }
cache=${REDLOCK_CACHE_DIR:-}
if [ -z "$cache" ]; then
  if [ -d /var/cache/redlock-ci ] && [ -w /var/cache/redlock-ci ]; then cache=/var/cache/redlock-ci; else cache=${TMPDIR:-/tmp}; fi
fi
dest=$cache/php-lock-$sha256
if [ ! -f "$dest/php-lock-lock-3.1.1/src/Mutex/AbstractLockMutex.php" ]; then
  tmp=$(mktemp -d "$cache/php-lock-unpack.XXXXXX")
  tar -xzf "$found" -C "$tmp"
  mkdir -p "$dest" && rm -rf "$dest/php-lock-lock-3.1.1" && mv "$tmp/php-lock-lock-3.1.1" "$dest/" && rmdir "$tmp"
fi
[ -f /usr/share/php/Psr/Log/autoload.php ] || apt-get install -y -q php-psr-log >/dev/null # 3.x needs psr/log
PHP_LOCK_SRC=$dest/php-lock-lock-3.1.1/src bash "$here/../phpunit.sh" php-lock 3 7811 /usr/share/php/Malkusch/Lock/autoload.php php-malkusch-lock "$@" || status=$?
exit "$status"
