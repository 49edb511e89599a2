#!/usr/bin/env bash
# Builds the Redlock simulation and runs its checks (see sim/sim.h):
#   sim/run.sh [SECONDS=20]
# - the normal mode for SECONDS on two processes (base seeds from SIM_SEED, else the clock):
#   no two clients may ever hold the lock at once;
# - an ASan + UBSan build for a short run;
# - crashes that lose the keys with Redlock's delayed restart: still safe;
# - mutations that must be caught (fixed seeds, so CI is deterministic): one token per lock()
#   call (defect 1), a quorum of floor(N/2), drift factor 0, restart without the delay;
# - a replay of a found seed must reproduce its trace byte for byte.
# Last line: "N passed, N failed"; exit status 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
out=.run/sim
mkdir -p "$out"
sources="sim/lock_sim.c sim/world.c sim/fanout.c sim/client.c sim/check.c ext/core/rl_lock.c ext/core/rl_algorithm.c ext/core/rl_token.c"
passed=0
failed=0

check() { # name, then the command: passes when it exits 0
  local name=$1
  shift
  if "$@"; then
    echo "PASS $name"
    passed=$((passed + 1))
  else
    echo "FAIL $name"
    failed=$((failed + 1))
  fi
}

result() { # the value of key in a log's RESULT line
  sed -n "s/^RESULT.* $2=\([0-9a-fx]*\).*/\1/p" "$1" | tail -1
}

# 0 violations and at least one schedule; $1 log
clean() {
  local schedules violations foreign
  schedules=$(result "$1" schedules)
  violations=$(result "$1" violations)
  foreign=$(result "$1" foreign)
  # foreign: an unlock, rollback or extend that hit a key another attempt set (rl_lock.h says never)
  [ -n "$schedules" ] && [ "$schedules" -gt 0 ] && [ "$violations" = 0 ] && [ "$foreign" = 0 ] ||
    { tail -40 "$1"; return 1; }
}

# finds violations; $1 log
caught() {
  local violations
  violations=$(result "$1" violations)
  [ -n "$violations" ] && [ "$violations" -gt 0 ] || { tail -5 "$1"; return 1; }
  grep -E '^(VIOLATION|RESULT)' "$1" | head -1
  grep '^RESULT' "$1"
}

build() {
  gcc -O2 -g -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Iext -o "$out/lock_sim" $sources -lm &&
  clang -O1 -g -std=c99 -D_POSIX_C_SOURCE=200809L -fsanitize=address,undefined -fno-sanitize-recover=all \
    -fno-omit-frame-pointer -Iext -o "$out/lock_sim_asan" $sources -lm
}
check "build (gcc -O2, clang ASan+UBSan)" build
if [ ! -x "$out/lock_sim" ] || [ ! -x "$out/lock_sim_asan" ]; then
  echo "$passed passed, $((failed + 1)) failed"
  exit 1
fi

seed=${SIM_SEED:-$(date +%s)}
echo "== normal mode, ${seconds}s on 2 processes, base seeds $seed and $((seed + 1))"
"$out/lock_sim" --seconds "$seconds" --seed "$seed" > "$out/normal-1.log" 2>&1 &
job1=$!
"$out/lock_sim" --seconds "$seconds" --seed $((seed + 1)) > "$out/normal-2.log" 2>&1 &
job2=$!
wait $job1
wait $job2
for log in "$out/normal-1.log" "$out/normal-2.log"; do
  grep -E '^([0-9.]+ s:|RESULT)' "$log"
  check "normal mode: no overlapping holds ($log)" clean "$log"
done

echo "== sanitizers, 3s on 2 processes"
"$out/lock_sim_asan" --seconds 3 --seed $((seed + 2)) > "$out/asan-normal.log" 2>&1 &
job1=$!
"$out/lock_sim_asan" --seconds 3 --seed 1 --shared-token --stop-after 1000000 > "$out/asan-shared.log" 2>&1 &
job2=$!
wait $job1
status1=$?
wait $job2
status2=$?
check "ASan+UBSan, normal mode: clean exit, no overlap" bash -c "[ $status1 = 0 ] && ! grep -q 'runtime error' $out/asan-normal.log" &&
  clean "$out/asan-normal.log" > /dev/null
check "ASan+UBSan, --shared-token: no sanitizer report" bash -c "[ $status2 = 3 ] && ! grep -qE 'runtime error|ERROR: AddressSanitizer' $out/asan-shared.log"

# Mutations: each must produce violations within 15 s (fixed seeds: found within a second or so).
# Run two at a time, next to the delayed-restart check.
"$out/lock_sim" --seconds 3 --seed $((seed + 3)) --crash-lose-keys > "$out/crash-lose-keys.log" 2>&1 &
mutations="--shared-token --quorum-minus-one --no-drift --fast-restart"
for mutation in $mutations; do
  "$out/lock_sim" --seconds 15 --seed 1 $mutation --stop-after 3 > "$out/mutation$mutation.log" 2>&1 &
  [ "$mutation" = --quorum-minus-one ] && wait
done
wait
echo "== crashes that lose the keys, restarted after the longest ttl: 3s"
grep '^RESULT' "$out/crash-lose-keys.log"
check "--crash-lose-keys (delayed restart): no overlapping holds" clean "$out/crash-lose-keys.log"
for mutation in $mutations; do
  echo "== mutation $mutation"
  check "mutation $mutation is caught" caught "$out/mutation$mutation.log"
done

echo "== replay of the first --shared-token violation, twice"
first=$(result "$out/mutation--shared-token.log" first)
replay_same() {
  [ -n "$first" ] || return 1
  "$out/lock_sim" --replay "$first" --shared-token > "$out/replay-1.log" 2>&1
  "$out/lock_sim" --replay "$first" --shared-token > "$out/replay-2.log" 2>&1
  [ "$(result "$out/replay-1.log" violations)" = 1 ] && cmp -s "$out/replay-1.log" "$out/replay-2.log"
}
check "replay of $first reproduces the violation, identically" replay_same

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
