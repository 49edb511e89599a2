#!/usr/bin/env bash
# Differential test of the extension's reply reader (ext/protocol/rl_hiredis_reader.c: hiredis' reader with our
# object functions) against hiredis' reader building reply objects,
# deterministic (used by CI):
#   verify/fuzz/reader_diff.sh [--sanitize] [SEED [COUNT]] [--stream INDEX] [--dump FILE]
# Builds verify/fuzz/reader_diff.c into .run/fuzz/ with gcc, or with --sanitize with clang under
# ASan + UBSan (needs clang and libclang-rt-14-dev on Debian 12), and runs it. Its last line is
# "reader_diff: N streams, M replies compared, K stricter-than-hiredis, 0 mismatches"; it exits
# non-zero on any mismatch, printing the stream and how to replay it.
set -euo pipefail
cd "$(dirname "$0")/../.."
sanitize=0
if [ "${1:-}" = --sanitize ]; then
  sanitize=1
  shift
fi
out=.run/fuzz
mkdir -p "$out"
sources="verify/fuzz/reader_diff.c ext/protocol/rl_hiredis_reader.c ext/protocol/rl_reply.c"
if [ "$sanitize" = 1 ]; then
  bin="$out/reader_diff-sanitize"
  clang -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
    -Wall -Wextra -Iext -o "$bin" $sources -lhiredis
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
else
  bin="$out/reader_diff"
  gcc -O1 -g -Wall -Wextra -Iext -o "$bin" $sources -lhiredis
fi
exec "$bin" "$@"
