#!/usr/bin/env bash
# Unit test of ext/net/rl_resolve.c (verify/unit/resolve_test.c, an injected slow/failing resolver).
#   verify/unit/resolve_test.sh [MODE...]     MODE: plain (default), valgrind, helgrind, tsan, asan, all
# Each mode builds into .run/unit/ and runs the test; the last line is "N passed, N failed" summed
# over the modes, and the exit status is non-zero on any failed check or any tool report.
#   valgrind  memcheck: errors, and definite or indirect leaks ("possibly lost" is shown, not
#             failed: glibc reports the TLS of a detached thread that is still exiting, or of the
#             parent's threads in a forked child, that way)
#   helgrind  data races and lock misuse (verify/unit/resolve_test.helgrind.supp: glibc's reuse of the
#             stacks of exited detached threads, which helgrind cannot see ordered)
#   tsan      clang -fsanitize=thread (die_after_fork=0: TSan refuses threads in a child forked
#             from a threaded process by default; the fork test needs exactly that)
#   asan      clang -fsanitize=address,undefined, leaks included
# Under the tools, the checks of how long our own code takes are relaxed (RL_TEST_SLOW): the
# plain run is the one that shows rl_resolve_start never waits for a lookup.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=.run/unit
mkdir -p "$out"
modes=${*:-plain}
[ "$modes" = all ] && modes="plain valgrind helgrind tsan asan"
src=verify/unit/resolve_test.c
warn="-Wall -Wextra -Werror -Wno-unused-function"
total_passed=0 total_failed=0

run_mode() {
  local mode=$1 bin=$out/resolve_test-$1 log=$out/resolve_test-$1.log status
  case $mode in
    plain|valgrind|helgrind) gcc -g -O1 $warn -Iext -o "$bin" $src -lpthread || return 2 ;;
    tsan) clang -g -O1 $warn -fsanitize=thread -Iext -o "$bin" $src -lpthread || return 2 ;;
    asan) clang -g -O1 $warn -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
            -Iext -o "$bin" $src -lpthread || return 2 ;;
    *) echo "unknown mode $mode" >&2; return 2 ;;
  esac
  echo "== $mode"
  case $mode in
    plain) "$bin" ;;
    valgrind) RL_TEST_SLOW=500 valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
                --errors-for-leak-kinds=definite,indirect --error-exitcode=99 "$bin" ;;
    helgrind) RL_TEST_SLOW=500 valgrind -q --tool=helgrind --suppressions=verify/unit/resolve_test.helgrind.supp \
                --error-exitcode=99 "$bin" ;;
    tsan) RL_TEST_SLOW=50 TSAN_OPTIONS="halt_on_error=1 exitcode=99 die_after_fork=0" "$bin" ;;
    asan) RL_TEST_SLOW=50 ASAN_OPTIONS=detect_leaks=1 "$bin" ;;
  esac 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  local p f
  p=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$log" | tail -n 1)
  f=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$log" | tail -n 1)
  total_passed=$((total_passed + ${p:-0}))
  # A tool report (exit 99) or a crash counts as one more failure.
  if [ "$status" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then f=1; echo "$mode: exit status $status"; fi
  [ -z "$p" ] && f=$(( ${f:-0} > 0 ? f : 1 ))
  total_failed=$((total_failed + ${f:-0}))
}

for mode in $modes; do
  run_mode "$mode" || { echo "$mode: build failed"; total_failed=$((total_failed + 1)); }
done
echo "${total_passed} passed, ${total_failed} failed"
[ "$total_failed" -eq 0 ]
