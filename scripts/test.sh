#!/usr/bin/env bash
# The whole test suite, from a fresh Debian 12 machine: installs, builds, starts 5 redis-servers
# on 127.0.0.1, runs tests/ with run-tests.php, stops the servers. Ends with "N passed, N failed"
# and exits non-zero on any failure.
#   REDLOCK_TEST_ARGS="-m"   extra run-tests.php arguments (-m: under valgrind)
#   REDLOCK_TEST_PORT=7301   first port of the 5 servers
#   REDLOCK_TEST_CLUSTER_PORT first of the 6 cluster nodes of tests/cluster/ (default REDLOCK_TEST_PORT + 100;
#                            their bus ports are 10000 above); REDLOCK_TEST_CLUSTER=host:port,... uses a running one
#   REDLOCK_PHP_VERSION=8.5  test with that one of several installed PHPs (see scripts/setup.sh)
set -uo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh || exit 1
# Run as root in a tree a user owns: test as that user, so that nothing here becomes root's.
if [ "$(id -u)" -eq 0 ] && [ "$(stat -c %U .)" != root ]; then
  exec runuser -u "$(stat -c %U .)" -- bash "$PWD/scripts/test.sh" "$@"
fi

run_dir=$PWD/.run/test-servers
cluster_dir=$PWD/.run/test-cluster
trap 'scripts/redis-servers.sh stop "$run_dir"; scripts/redis-cluster.sh stop "$cluster_dir"' EXIT
servers=$(scripts/redis-servers.sh start 5 "${REDLOCK_TEST_PORT:-7301}" "$run_dir") || exit 1
export REDLOCK_TEST_SERVERS=$servers
# The Redis Cluster of tests/cluster/ (3 masters, 3 replicas; about 8 s to form). A matrix leg without
# cluster support goes on without it (the chapter skips there, saying "[no cluster]").
if [ -z "${REDLOCK_TEST_CLUSTER:-}" ]; then
  mkdir -p "$cluster_dir"
  if cluster=$(scripts/redis-cluster.sh start "${REDLOCK_TEST_CLUSTER_PORT:-$(( ${REDLOCK_TEST_PORT:-7301} + 100 ))}" \
      "$cluster_dir" 2>"$cluster_dir/start.err"); then
    export REDLOCK_TEST_CLUSTER=$cluster
  elif [ -z "${REDLOCK_MATRIX_LEG:-}" ]; then
    cat "$cluster_dir/start.err" >&2
    exit 1
  fi
fi

log=$PWD/.run/run-tests.log
mkdir -p .run
export NO_INTERACTION=1 REPORT_EXIT_STATUS=1
php=php${REDLOCK_PHP_VERSION:-}
php_config=php-config${REDLOCK_PHP_VERSION:-}
# phpize copies it into the tree; Debian's php-dev keeps it next to the extensions; a PHP built
# from source under its prefix.
for run_tests in run-tests.php "$("$php_config" --extension-dir)/build/run-tests.php" \
                 "$("$php_config" --prefix)/lib/php/build/run-tests.php"; do
  [ -f "$run_tests" ] && break
done
# a copy that never runs a failed test again: a test that fails under load is fixed, never retried
run_tests=$(bash scripts/no-retry.sh "$run_tests")
# A test's time limit: run-tests.php's default of 60 s is below what the longest generated chapters
# (combinations/970, 971: 144 option combinations each, three in four of them held past 3.5 ttls or lost) take on a CI leg sharing 2 cores
# with two other lanes (971: 52 s at load 6 here, timed out in a rehearsal's ZTS leg). A hang still ends
# the test, at this bound (under valgrind run-tests.php keeps its own 300 s).
"$php" "$run_tests" -q --show-diff --set-timeout "${REDLOCK_TEST_TIMEOUT:-180}" ${REDLOCK_TEST_ARGS:-} \
  -d extension="$PWD/modules/redlock.so" -P tests/ 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

passed=$(sed -n 's/^Tests passed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
failed=$(sed -n 's/^Tests failed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
skipped=$(sed -n 's/^Tests skipped *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
leaked=$(sed -n 's/^Tests leaked *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
borked=$(sed -n 's/^Tests borked *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
retried=$(grep -ac 'passed on retry attempt' "$log" || true)
passed=$(( ${passed:-0} - retried )); failed=$(( ${failed:-0} + ${leaked:-0} + ${borked:-0} + retried ))
[ "$retried" -eq 0 ] || { echo "== failed once, passed when run-tests.php ran them again (counted as failed):"; grep -a 'passed on retry attempt' "$log"; }
bash scripts/failed-diffs.sh "$log"
# Every test the tree holds ran: a chapter (or a test) that silently stops being collected fails too.
not_run=$(bash scripts/tests-ran.sh tests "$log") || failed=$((failed + $(printf '%s\n' "$not_run" | grep -c .)))
# Nothing in this suite may skip: a skip means a missing server or extension, which must fail CI.
# The one exception: a test that measures RSS skips under a memory checker (USE_ZEND_ALLOC=0, set by
# scripts/valgrind.sh and sanitize.sh), saying "[memory checker]".
# And a matrix leg (REDLOCK_MATRIX_LEG, set by scripts/matrix.sh) skips what does not depend on the
# platform's servers and runs on the host anyway, saying "[host only]" (the memory:// chapter 992).
checker_skips=0 accepted=()
accept() { # REASON: a skip saying "[REASON]" is expected in this run
  accepted+=("$1"); checker_skips=$((checker_skips + $(grep -ac "SKIP.*reason: \\[$1\\]" "$log" || true)))
}
if [ "${USE_ZEND_ALLOC:-}" = 0 ]; then
  accept 'memory checker'
fi
if [ -n "${REDLOCK_MATRIX_LEG:-}" ]; then
  accept 'host only'
  # the legs install no redis-sentinel: the Sentinel chapter runs on the host (scripts/setup.sh installs it)
  accept 'no redis-sentinel'
  # a leg whose servers cannot form a cluster: the cluster chapter runs on the host
  accept 'no cluster'
fi
# The coroutine chapter (tests/coroutines/) needs the swoole extension: .ci/swoole.sh builds it and runs
# the chapter with it, where nothing may skip; here it skips, saying "[no swoole]".
if ! php -m | grep -qix swoole; then
  accept 'no swoole'
fi
# The native chapter (tests/native/) needs Redis 8.6 and Valkey 9: .ci/native.sh starts them and runs it,
# where nothing may skip; here it skips, saying "[native servers]".
if [ -z "${REDLOCK_NATIVE_REDIS:-}" ] || [ -z "${REDLOCK_NATIVE_VALKEY:-}" ]; then
  accept 'native servers'
fi
if [ $(( ${skipped:-0} - checker_skips )) -ne 0 ]; then
  echo "== skipped, counted as failed (a reason this run does not accept):"
  accepted_re=$(printf '%s|' "${accepted[@]}" "-"); accepted_re=${accepted_re%|}
  sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -a '^SKIP' | grep -avE "reason: \[($accepted_re)\]" | head -n 20
fi
failed=$((failed + ${skipped:-0} - checker_skips))
echo "${passed} passed, ${failed} failed, ${skipped:-0} skipped"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
