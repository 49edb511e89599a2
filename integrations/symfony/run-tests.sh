#!/usr/bin/env bash
# The Symfony Lock store's tests: integrations/symfony/run-tests.sh [PHPUnit arguments...]
# Installs Debian's php-symfony-lock (5.4) and phpunit (9.6) when missing, builds the extension
# when modules/redlock.so is missing, starts 5 redis-servers on 127.0.0.1:7801-7805 (stopped on
# exit), runs PHPUnit with the extension loaded and exits with PHPUnit's status.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"

missing=()
[ -f /usr/share/php/Symfony/Component/Lock/autoload.php ] || missing+=(php-symfony-lock)
command -v phpunit >/dev/null || missing+=(phpunit)
command -v redis-server >/dev/null || missing+=(redis-server)
php -r 'exit(class_exists("Redis") ? 0 : 1);' || missing+=(php-redis)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null && apt-get install -y -q "${missing[@]}" >/dev/null; }
fi
[ -f modules/redlock.so ] || bash scripts/setup.sh

run=$root/.run/symfony
cleanup() {
  # A redis-server takes about 2 s to exit on SIGTERM: signal all five at once, then let
  # redis-servers.sh wait for them (and SIGKILL any left).
  local f
  for f in "$run"/servers/redis-*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
  scripts/redis-servers.sh stop "$run/servers" || true
}
trap cleanup EXIT
REDLOCK_TEST_SERVERS=$(scripts/redis-servers.sh start 5 7801 "$run/servers")
export REDLOCK_TEST_SERVERS

REDLOCK_SO=$root/modules/redlock.so
export REDLOCK_SO
php -d extension="$REDLOCK_SO" "$(command -v phpunit)" -c "$here/phpunit.xml.dist" "$@"
