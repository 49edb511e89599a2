#!/usr/bin/env bash
# What every integration's run-tests.sh does, once:
#   integrations/phpunit.sh NAME SERVERS FIRST_PORT AUTOLOAD PACKAGE [PHPUnit arguments...]
# Installs Debian's PACKAGE (when AUTOLOAD is missing), phpunit and redis-server when missing, builds the
# extension when modules/redlock.so is missing, starts SERVERS redis-servers on 127.0.0.1 from FIRST_PORT
# (REDLOCK_INTEGRATION_PORT, when set, replaces FIRST_PORT: another block of ports for a parallel run)
# (stopped on exit, also on failure and with PHPUnit arguments), runs integrations/NAME's PHPUnit suite with the extension loaded
# (REDLOCK_SO, default modules/redlock.so; REDLOCK_TEST_SERVERS set) and exits with PHPUnit's status, or
# non-zero when a test method of the tree did not run (integrations/tests-ran.php; not with arguments).
set -euo pipefail
name=$1 servers=$2 first_port=${REDLOCK_INTEGRATION_PORT:-$3} autoload=$4 package=$5
shift 5
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

missing=()
[ -f "$autoload" ] || missing+=("$package")
command -v phpunit >/dev/null || missing+=(phpunit)
command -v redis-server >/dev/null || missing+=(redis-server)
[ "$name" = php-lock ] || php -r 'exit(class_exists("Redis") ? 0 : 1);' || missing+=(php-redis) # tests read keys; Laravel's app queues on Redis
[ "$name" != symfony ] || [ -f /usr/share/php/Symfony/Component/Console/autoload.php ] \
  || missing+=(php-symfony-console) # examples/console.php, run by ConsoleCommandTest
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null && apt-get install -y -q "${missing[@]}" >/dev/null; }
fi
[ -f modules/redlock.so ] || bash scripts/setup.sh

run=$root/.run/$name
cleanup() {
  # A redis-server takes about 2 s to exit on SIGTERM: signal them all at once, then let
  # redis-servers.sh wait for them (and SIGKILL any left).
  local f
  # A server already gone must neither stop the others' cleanup nor fail a passing run (set -e).
  for f in "$run"/servers/redis-*.pid; do [ -f "$f" ] && { kill "$(cat "$f")" 2>/dev/null || true; }; done
  scripts/redis-servers.sh stop "$run/servers" || true
}
trap cleanup EXIT
REDLOCK_TEST_SERVERS=$(scripts/redis-servers.sh start "$servers" "$first_port" "$run/servers")
REDLOCK_SO=${REDLOCK_SO:-$root/modules/redlock.so}
export REDLOCK_TEST_SERVERS REDLOCK_SO
if [ $# -gt 0 ]; then # a chosen part of the suite (--filter ...): as asked, not counted
  # not exec: the shell must live on for its EXIT trap to stop the servers
  status=0
  php -d extension="$REDLOCK_SO" "$(command -v phpunit)" -c "$root/integrations/$name/phpunit.xml.dist" "$@" || status=$?
  exit "$status"
fi
# The whole suite: PHPUnit's status, and every test method of the tree must have run (tests-ran.php).
status=0
php -d extension="$REDLOCK_SO" "$(command -v phpunit)" -c "$root/integrations/$name/phpunit.xml.dist" \
  --log-junit "$run/junit.xml" || status=$?
php "$root/integrations/tests-ran.php" "$root/integrations/$name/tests" "$run/junit.xml" || status=1
exit "$status"
