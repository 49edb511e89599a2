#!/usr/bin/env bash
# Unit test of the clock-jump arithmetic, ext/protocol/rl_clock_jump.h (verify/unit/clock_test.c): jumps
# seen by two connections counted once however late a reply was read, honest clocks and small steps no
# jump. Plain C, no I/O: built with the warnings of the tree as errors and run under ASan/UBSan where clang
# is (else plain). Last line "N passed, N failed"; non-zero exit on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=.run/unit
mkdir -p "$out"
warn="-Wall -Wextra -Werror -Wno-unused-function"
if command -v clang >/dev/null; then
  clang -g -O1 $warn -fsanitize=address,undefined -fno-sanitize-recover=all -Iext -o "$out/clock_test" verify/unit/clock_test.c
else
  gcc -g -O1 $warn -Iext -o "$out/clock_test" verify/unit/clock_test.c
fi || { echo "0 passed, 1 failed (the test does not build)"; exit 1; }
"$out/clock_test"
