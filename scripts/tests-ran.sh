#!/usr/bin/env bash
# Did every test the tree holds run? Compares the .phpt files under DIR with the tests run-tests.php
# reported in LOG: a PASS, FAIL, SKIP, BORK, LEAK, WARN (passed when retried: run-tests.php retries a
# test that calls usleep() or microtime()), XFAIL or XLEAK line naming the file. Prints the tests per
# chapter, names each test that did not run (on stdout, one a line, after the summary on stderr)
# and exits non-zero when any did not: a chapter that silently stops being collected fails the run.
#   bash scripts/tests-ran.sh DIR LOG
set -uo pipefail
dir=${1:?DIR}; log=${2:?LOG}
expected=$(find "$dir" -name '*.phpt' | sort)
# (run-tests.php colours its words and rewrites a progress line with \r)
ran=$(tr '\r' '\n' < "$log" | sed 's/\x1b\[[0-9;]*m//g' | grep -aoE '^(PASS|FAIL|SKIP|BORK|LEAK|WARN|XFAIL|XLEAK) .*\[[^]]+\.phpt\]' \
  | sed 's/.*\[\([^]]*\.phpt\)\]$/\1/' | sort -u)
missing=$(comm -23 <(printf '%s\n' "$expected") <(printf '%s\n' "$ran") | grep . || true)
per_chapter=$(printf '%s\n' "$expected" | awk -F/ '{ n[$(NF-1)]++ } END { for (c in n) printf "%s %d, ", c, n[c] }' | sed 's/, $//')
echo "tests collected: $(printf '%s\n' "$expected" | grep -c .) in $dir ($per_chapter); not run: $(printf '%s\n' "$missing" | grep -c .)" >&2
if [ -n "$missing" ]; then
  printf '%s\n' "$missing" | sed 's/^/not run: /' >&2
  printf '%s\n' "$missing"
  exit 1
fi
