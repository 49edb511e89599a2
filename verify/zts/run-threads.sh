#!/usr/bin/env bash
# The threaded embed test (verify/zts/threads.c) on the thread-safe PHP first on PATH (scripts/matrix.sh
# zts puts verify/zts/build-php.sh's there): builds the extension (scripts/setup.sh) and the program, starts
# 5 redis-servers at REDLOCK_TEST_PORT+20, runs 8 threads x 3 rounds, then smaller runs under
# valgrind memcheck (leaks, invalid accesses) and helgrind (data races). Last line: "threads: ok"
# or what failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
php -r 'exit(PHP_ZTS ? 0 : 1);' || { echo "threads: FAILED: the php on PATH is not thread-safe"; exit 1; }
bash scripts/setup.sh >/dev/null || { echo "threads: FAILED: build"; exit 1; }
mkdir -p .run/zts
prefix=$(php-config --prefix)
# shellcheck disable=SC2046
gcc -O1 -g -pthread -D_GNU_SOURCE -o .run/zts/threads verify/zts/threads.c $(php-config --includes) -I"$prefix/include/php" \
  -L"$prefix/lib" -lphp -Wl,-rpath,"$prefix/lib" || { echo "threads: FAILED: compile"; exit 1; }
printf 'extension=%s\n' "$PWD/modules/redlock.so" > .run/zts/php.ini
run_dir=$PWD/.run/zts/servers
trap 'scripts/redis-servers.sh stop "$run_dir"' EXIT
servers=$(scripts/redis-servers.sh start 5 $(( ${REDLOCK_TEST_PORT:-7301} + 20 )) "$run_dir") || exit 1
# Two of them by name: their connections go through the resolver's lookup threads.
servers=$(echo "$servers" | sed 's/127\.0\.0\.1:/localhost:/; s/127\.0\.0\.1:/localhost:/')
export PHPRC=$PWD/.run/zts/php.ini
echo "== 8 threads, 3 rounds, 5 requests of 20 locks each"
./.run/zts/threads "$servers" 8 3 5 20 || { echo "threads: FAILED"; exit 1; }
if command -v valgrind >/dev/null; then
  echo "== under valgrind: 8 threads, 2 rounds, 2 requests of 5 locks"
  USE_ZEND_ALLOC=0 ZEND_DONT_UNLOAD_MODULES=1 valgrind -q --suppressions=verify/zts/valgrind.supp --leak-check=full --show-leak-kinds=definite,indirect \
    --errors-for-leak-kinds=definite,indirect --error-exitcode=99 ./.run/zts/threads "$servers" 8 2 2 5 \
    > .run/zts/valgrind.log 2>&1
  status=$?
  tail -n 5 .run/zts/valgrind.log
  grep -c '^==[0-9]*== ' .run/zts/valgrind.log | sed 's/^/valgrind report lines: /'
  [ "$status" -eq 0 ] || { echo "threads: FAILED under valgrind (exit $status, .run/zts/valgrind.log)"; exit 1; }
  echo "== under helgrind (data races, lock order): 8 threads, 1 round, 1 request of 3 locks"
  USE_ZEND_ALLOC=0 valgrind --tool=helgrind --suppressions=verify/race/helgrind.supp --error-exitcode=98 ./.run/zts/threads "$servers" 8 1 1 3 \
    > .run/zts/helgrind.log 2>&1
  status=$?
  grep -E 'ERROR SUMMARY|^threads:' .run/zts/helgrind.log
  [ "$status" -eq 0 ] || { echo "threads: FAILED under helgrind (exit $status, .run/zts/helgrind.log)"; exit 1; }
fi
echo "threads: ok"
