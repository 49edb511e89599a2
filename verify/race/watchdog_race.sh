#!/usr/bin/env bash
# The renewal thread (ext/services/rl_renewal.c, with the registry in rl_leases.c) and abortOnLoss under helgrind: verify/race/watchdog_race.php adds,
# renews, loses, removes and frees locks while the thread works, raises abortOnLoss, forks. Fails
# on any helgrind report (data race, lock order, misuse of the pthread API) in any process.
#   REDLOCK_RACE_PORT=7491 bash verify/race/watchdog_race.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f modules/redlock.so ] || bash scripts/setup.sh
command -v valgrind >/dev/null || apt-get install -y -q valgrind >/dev/null
port=${REDLOCK_RACE_PORT:-7491}
run_dir=$PWD/.run/race-$port
trap 'scripts/redis-servers.sh stop "$run_dir"' EXIT
servers=$(scripts/redis-servers.sh start 3 "$port" "$run_dir")
log=$run_dir/helgrind.log
USE_ZEND_ALLOC=0 valgrind --tool=helgrind --suppressions=verify/race/helgrind.supp --trace-children=yes \
  php -n -d extension="$PWD/modules/redlock.so" -d extension=posix.so -d pcre.jit=0 \
  verify/race/watchdog_race.php "$servers" >"$log" 2>&1 || true
grep -v '^==' "$log" || true
summaries=$(grep -c 'ERROR SUMMARY' "$log" || true)
errors=$(grep 'ERROR SUMMARY' "$log" | sed 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/' | awk "{s+=\$1} END {print s+0}")
echo "helgrind: $summaries processes, $errors errors (log: $log)"
grep -q "^told$" "$log" && grep -q "^done$" "$log" && [ "$errors" -eq 0 ]
