#!/usr/bin/env bash
# Builds the extension with ASan + UBSan in .run/asan-build (a copy; modules/ is untouched) and runs
# the phpt suite under it, or a PHP script given after "php".
#   scripts/sanitize.sh                      the whole suite; ends with "N passed, N failed"
#   scripts/sanitize.sh php verify/fuzz/php_fuzz.php 20000 300
#   REDLOCK_TEST_PORT=7341                   first port of the 5 servers
# How: PHP's dlopen() uses RTLD_DEEPBIND, which the ASan runtime refuses, so a tiny preloaded shim
# strips that flag; libasan is preloaded into the (uninstrumented) php binary; USE_ZEND_ALLOC=0
# sends every Zend allocation through malloc so ASan/LSan see them. Any ASan/UBSan/LSan report
# changes a test's output, so it fails the test.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$root/.run/asan-build
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"

mkdir -p "$build"
rm -rf "$build/ext"
cp -rp config.m4 ext "$build/"   # -p keeps mtimes: rebuilt only when a source changed
if [ ! -f "$build/modules/redlock.so" ] || [ -n "$(find "$build/ext" "$build/config.m4" -newer "$build/modules/redlock.so" -print -quit)" ]; then
  (cd "$build" && phpize >/dev/null && ./configure -q CFLAGS="$flags" LDFLAGS="-fsanitize=address,undefined" >/dev/null && make clean >/dev/null && make -j"$(nproc)" >/dev/null)
fi
cat > "$build/nodeepbind.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
/* PHP loads extensions with RTLD_DEEPBIND, which the ASan runtime rejects: drop the flag. */
void *dlopen(const char *file, int mode)
{
	static void *(*real_dlopen)(const char *, int);
	if (!real_dlopen) {
		real_dlopen = (void *(*)(const char *, int)) dlsym(RTLD_NEXT, "dlopen");
	}
	return real_dlopen(file, mode & ~RTLD_DEEPBIND);
}
C
cc -shared -fPIC -O1 -o "$build/nodeepbind.so" "$build/nodeepbind.c" -ldl
printf '#!/bin/sh\nunset LD_PRELOAD ASAN_OPTIONS UBSAN_OPTIONS\nexec redis-server "$@"\n' > "$build/redis-server-plain"
chmod +x "$build/redis-server-plain"

run_dir=$root/.run/asan-servers
trap 'scripts/redis-servers.sh stop "$run_dir"' EXIT
servers=$(scripts/redis-servers.sh start 5 "${REDLOCK_TEST_PORT:-7301}" "$run_dir")
export REDLOCK_TEST_SERVERS=$servers REDLOCK_TEST_REDIS_SERVER=$build/redis-server-plain

export USE_ZEND_ALLOC=0 ZEND_DONT_UNLOAD_MODULES=1
export ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=1:abort_on_error=0:exitcode=86
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=87
export LSAN_OPTIONS=suppressions=$root/scripts/lsan.supp:print_suppressions=0
preload="$build/nodeepbind.so $(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"

if [ "${1:-}" = php ]; then
  shift
  LD_PRELOAD=$preload php -d extension="$build/modules/redlock.so" "$@"
  exit $?
fi

log=$root/.run/asan-tests.log
export NO_INTERACTION=1 REPORT_EXIT_STATUS=1
run_tests=$(ls /usr/lib/php/*/build/run-tests.php | head -n 1)
run_tests=$(bash scripts/no-retry.sh "$run_tests") # never retried: scripts/no-retry.sh
LD_PRELOAD=$preload php "$run_tests" -q --show-diff -d extension="$build/modules/redlock.so" -P tests/ 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
passed=$(sed -n 's/^Tests passed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
failed=$(sed -n 's/^Tests failed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
reports=$(cat tests/*/*.out 2>/dev/null | grep -cE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' || true)
echo "${passed:-0} passed, ${failed:-0} failed, sanitizer reports in failed tests: $reports"
[ "$status" -eq 0 ] && [ "${failed:-0}" -eq 0 ]
