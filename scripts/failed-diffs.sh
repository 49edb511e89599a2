#!/usr/bin/env bash
# The diffs of the tests a run-tests.php log names as failed (the first 40 lines of up to 3): CI keeps the
# end of its output, and a failure seen once under load must say what it was.
#   bash scripts/failed-diffs.sh LOG
# The names come from the log's FAILED TEST SUMMARY, not from any line with FAIL in it ("CLUSTER FAILOVER"
# in a passing test's title is not a failure).
set -uo pipefail
awk '/^FAILED TEST SUMMARY/ { inside = 1; next } inside && /^=====/ { inside = 0 } inside' "$1" \
  | sed -n 's/.*\[\(tests\/[^]]*\)\.phpt\].*/\1/p' | sort -u | head -n 3 | while read -r failed_test; do
  if [ -f "$failed_test.diff" ]; then
    echo "== $failed_test.diff"; head -n 40 "$failed_test.diff"; echo
  fi
done
