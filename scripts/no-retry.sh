#!/usr/bin/env bash
# Prints the path of a copy of run-tests.php that never runs a failed test again.
#   run_tests=$(bash scripts/no-retry.sh /path/to/run-tests.php)
# run-tests.php runs a failed test a second time when its code calls usleep(), microtime(), hrtime() or
# sleep() (most tests here) or its output says "timed out", and counts a pass the second time as a pass
# ("warn: Test passed on retry attempt"). A test that fails under load is wrong (a bound, a race) and is
# fixed, never retried. A run-tests.php this cannot patch is printed as it is: scripts/test.sh then counts
# each "passed on retry attempt" as a failure.
set -euo pipefail
src=$1
dir=$(cd "$(dirname "$0")/.." && pwd)/.run
mkdir -p "$dir"
copy=$dir/run-tests-no-retry-$(md5sum < "$src" | cut -c1-12).php
if [ ! -f "$copy" ]; then
  sed 's/^function error_may_be_retried(TestFile $test, string $output): bool$/function error_may_be_retried(TestFile $test, string $output): bool { return false; }\nfunction redlock_retry_rule_unused(TestFile $test, string $output): bool/' \
    "$src" > "$copy.tmp"
  if grep -q 'redlock_retry_rule_unused' "$copy.tmp"; then mv "$copy.tmp" "$copy"; else rm -f "$copy.tmp"; echo "$src"; exit 0; fi
fi
echo "$copy"
