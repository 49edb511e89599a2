#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, ASan + UBSan) and runs each for a bounded time.
#   verify/fuzz/run.sh [SECONDS_PER_HARNESS=300] [HARNESS...]   (reply_fuzz, algorithm_fuzz, uri_fuzz)
# Needs clang and libclang-rt-14-dev (Debian 12). Corpora and crash files go to .run/fuzz/.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-300}
shift || true
harnesses=${*:-reply_fuzz algorithm_fuzz uri_fuzz}
# hiredis (reply_fuzz compares rl_reader with it) makes many small allocations: a smaller
# quarantine keeps RSS under the limit
export ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=32}
out=.run/fuzz
mkdir -p "$out"
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -Iext"

clang $flags -o "$out/reply_fuzz" verify/fuzz/reply_fuzz.c ext/protocol/rl_hiredis_reader.c ext/protocol/rl_reply.c -lhiredis
clang $flags -o "$out/algorithm_fuzz" verify/fuzz/algorithm_fuzz.c ext/core/rl_algorithm.c ext/core/rl_token.c -lm
if [ -f ext/net/rl_uri.c ]; then
  clang $flags -o "$out/uri_fuzz" verify/fuzz/uri_fuzz.c ext/net/rl_uri.c ext/net/rl_uri_sentinel.c -lm
else
  harnesses=${harnesses/uri_fuzz/}   # the URI parser is not in this tree
fi

for harness in $harnesses; do
  mkdir -p "$out/corpus-$harness"
  [ "$harness" = reply_fuzz ] && cp verify/fuzz/seeds/* "$out/corpus-$harness/" 2>/dev/null || true
  [ "$harness" = uri_fuzz ] && cp verify/fuzz/seeds-uri/* "$out/corpus-$harness/" 2>/dev/null || true
  echo "== $harness for ${seconds}s"
  "$out/$harness" -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$out/$harness-" \
    -max_len=4096 -rss_limit_mb=3072 "$out/corpus-$harness" 2>&1 | tee "$out/$harness.log" | grep -E '^(#[0-9]+ *DONE|stat::number_of_executed_units|stat::peak_rss|==[0-9]+==ERROR|SUMMARY)' || true
  if grep -qE '==[0-9]+==ERROR|runtime error|deadly signal|out-of-memory|SUMMARY' "$out/$harness.log"; then
    echo "$harness: CRASH (see $out/$harness.log)"; exit 1
  fi
  echo "$harness: no crash"
done
