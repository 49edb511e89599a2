#!/usr/bin/env bash
# The coroutine chapter (tests/coroutines/) with Swoole loaded, from a clean clone on a fresh Debian 12
# machine, as root. Swoole is built from the vendored source archive (never committed here) once per
# machine: the build (about 5 CPU-minutes) is cached outside the clone, keyed by the archive's sha256.
# Ends with "N passed, N failed"; nothing in the chapter may skip here.
#   REDLOCK_VENDOR_DIR=DIR          where swoole-src-6.2.2.tar.gz is (else ../shared/vendor from the
#                                   clone, or from its parent, else /work/shared/vendor)
#   REDLOCK_CI_CACHE=/var/cache/redlock-ci   where builds are kept
#   REDLOCK_SWOOLE_PORT=7701        first of the 5 servers' ports
#   REDLOCK_TEST_ARGS="-m"          extra run-tests.php arguments (-m: under valgrind; once:
#     USE_ZEND_ALLOC=0 REDLOCK_TEST_ARGS="-m -d pcre.jit=0" bash .ci/swoole.sh, about 3 minutes)
#   .ci/swoole.sh --build-only      build (or find) swoole.so, print its path, run nothing
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)

archive=swoole-src-6.2.2.tar.gz
sha=f4d1552b611fff192a4a64853e94d3ec2c0803914ada2f56707c8e5cc5d3e196
vendor=""
for dir in "${REDLOCK_VENDOR_DIR:-}" "$(dirname "$PWD")/shared/vendor" "$(dirname "$PWD")/../shared/vendor" /work/shared/vendor; do
  [ -n "$dir" ] && [ -f "$dir/$archive" ] && { vendor=$dir; break; }
done
[ -n "$vendor" ] || { echo "swoole: $archive not found (set REDLOCK_VENDOR_DIR)" >&2; exit 1; }
echo "$sha  $vendor/$archive" | sha256sum -c --quiet - || { echo "swoole: $vendor/$archive: wrong sha256" >&2; exit 1; }

cache=${REDLOCK_CI_CACHE:-/var/cache/redlock-ci}/swoole-$sha
so=$cache/swoole.so
if [ ! -f "$so" ]; then
  # Swoole is C++; the rest (php-dev, make) comes with scripts/setup.sh.
  if ! command -v g++ >/dev/null; then
    [ "$(id -u)" -eq 0 ] || { echo "swoole: g++ missing (run as root)" >&2; exit 1; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q g++ >/dev/null
  fi
  command -v phpize >/dev/null || bash scripts/setup.sh
  mkdir -p "$cache"
  work=$(mktemp -d "$cache/build.XXXXXX")
  tar xzf "$vendor/$archive" -C "$work"
  # The defaults only: coroutines, runtime hooks and the HTTP server need no library (no openssl,
  # curl, c-ares, brotli: the chapter uses none of them).
  ( cd "$work"/swoole-src-* && phpize >/dev/null && ./configure -q >"$work/configure.log" 2>&1 \
      && nice -n 10 make -j"$(nproc)" >"$work/make.log" 2>&1 ) \
    || { tail -30 "$work"/*.log >&2; exit 1; }
  cp "$work"/swoole-src-*/modules/swoole.so "$so.tmp" && mv "$so.tmp" "$so"
  rm -rf "$work"
  echo "swoole: built $so ($(( $(date +%s) - started )) s)"
fi
php -n -d extension="$so" -r 'exit(version_compare(SWOOLE_VERSION, "6.2.2", "==") ? 0 : 1);' \
  || { echo "swoole: $so does not load" >&2; exit 1; }
[ "${1:-}" = --build-only ] && { echo "$so"; exit 0; }

bash scripts/setup.sh
# Run as root in a tree a user owns: test as that user (the cache stays readable to it).
chmod -R a+rX "${REDLOCK_CI_CACHE:-/var/cache/redlock-ci}" 2>/dev/null || true
if [ "$(id -u)" -eq 0 ] && [ "$(stat -c %U .)" != root ]; then
  exec runuser -u "$(stat -c %U .)" -- bash "$PWD/.ci/swoole.sh" "$@"
fi

run_dir=$PWD/.run/swoole-servers
port=${REDLOCK_SWOOLE_PORT:-7701}
trap 'scripts/redis-servers.sh stop "$run_dir"' EXIT
REDLOCK_TEST_SERVERS=$(scripts/redis-servers.sh start 5 "$port" "$run_dir")
export REDLOCK_TEST_SERVERS REDLOCK_TEST_PORT=$port
export NO_INTERACTION=1 REPORT_EXIT_STATUS=1
# Under valgrind (REDLOCK_TEST_ARGS="-m"): Swoole's own reports are suppressed, nothing of ours.
export VALGRIND_OPTS="${VALGRIND_OPTS:-} --suppressions=$PWD/tests/coroutines/swoole.supp"
log=$PWD/.run/swoole-tests.log
for run_tests in run-tests.php "$(php-config --extension-dir)/build/run-tests.php"; do
  [ -f "$run_tests" ] && break
done
set +e # a failing run still gets its summary line
run_tests=$(bash scripts/no-retry.sh "$run_tests") # never retried: scripts/no-retry.sh
php "$run_tests" -q --show-diff ${REDLOCK_TEST_ARGS:-} -d extension="$so" \
  -d extension="$PWD/modules/redlock.so" -P tests/coroutines/ 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
passed=$(sed -n 's/^Tests passed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
failed=$(sed -n 's/^Tests failed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
skipped=$(sed -n 's/^Tests skipped *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
leaked=$(sed -n 's/^Tests leaked *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
failed=$(( ${failed:-0} + ${skipped:-0} + ${leaked:-0} ))
echo "coroutines (Swoole $(php -n -d extension="$so" -r 'echo SWOOLE_VERSION;')): ${passed:-0} passed, $failed failed ($(( $(date +%s) - started )) s)"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ] && [ "${passed:-0}" -gt 0 ]
