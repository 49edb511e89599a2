#!/usr/bin/env bash
# The Laravel cache store's tests: integrations/laravel/run-tests.sh [PHPUnit arguments...]
# Installs Debian's php-laravel-framework (8.83) and phpunit (9.6) when missing, builds the extension
# when modules/redlock.so is missing, starts 3 redis-servers on 127.0.0.1:7821-7823 (stopped on
# exit), runs PHPUnit with the extension loaded and exits with PHPUnit's status. About 10 s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"

missing=()
[ -f /usr/share/php/Illuminate/Cache/autoload.php ] || missing+=(php-laravel-framework)
command -v phpunit >/dev/null || missing+=(phpunit)
command -v redis-server >/dev/null || missing+=(redis-server)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null && apt-get install -y -q "${missing[@]}" >/dev/null; }
fi
[ -f modules/redlock.so ] || bash scripts/setup.sh

run=$root/.run/laravel
cleanup() {
  local f
  for f in "$run"/servers/redis-*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
  scripts/redis-servers.sh stop "$run/servers" || true
}
trap cleanup EXIT
REDLOCK_TEST_SERVERS=$(scripts/redis-servers.sh start 3 7821 "$run/servers")
export REDLOCK_TEST_SERVERS

php -d extension="${REDLOCK_SO:-$root/modules/redlock.so}" "$(command -v phpunit)" -c "$here/phpunit.xml.dist" "$@"
