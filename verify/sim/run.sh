#!/usr/bin/env bash
# The deterministic simulation (verify/sim/main.c, verify/sim/kernel.c): the extension's own plain-C client,
# driver and connection layer (ext/client, ext/core, ext/net, ext/protocol, ext/services, compiled as they are
# with their system calls turned into a simulated kernel's by verify/sim/seam.h) against simulated
# servers, on a virtual clock. Checks, each a PASS or FAIL line:
#   verify/sim/run.sh [SECONDS=20]
# - the normal mode for SECONDS on two processes (base seeds from SIM_SEED, else the clock), every
#   lock kind (exclusive with and without fencing, multi-resource, shared, semaphore), delay
#   spikes, slow links, paused servers, crashes that lose the keys with Redlock's delayed restart:
#   no two holders at once, never more than a semaphore's limit, fences that only grow; fair
#   waiting ('fair' => true, waiters SIGKILLed while queued; lock(), and lockSemaphore() in half the
#   semaphore schedules, half the fair ones with --fair): exclusion and the limit, and where no
#   server pauses or crashes FIFO, no starvation, no stall (verify/sim/main.c, fair_violated());
# - a calm run (no faults): every release of a lock still valid succeeds, shared holders
#   included (on servers with DELIFEQ too);
# - a short ASan + UBSan run;
# - mutations that must be caught (fixed seeds, so CI is deterministic): two planted in the real
#   connection code (net/rl_conn.h, built from patched copies of ext/), one in the real driver's
#   shared-kind policy (core/rl_shared.c), five of fair waiting (the queue's head taken from its
#   tail, a waiter taken off the queue where its attempt won, a fair semaphore's free slot given to
#   any waiter, all in the servers' scripts of memory/rl_memory_store.c; a heartbeat key that
#   outlives a dead waiter, a fair semaphore's waiter leaving the lock()'s queue, core/rl_fair.c), and
#   four of the configuration or the world: a quorum of floor(N/2), drift factor 0, one token per
#   call (defect 1), a crashed server restarted at once;
# - a replay of a found seed must print the same, byte for byte.
# Last line: "N passed, N failed"; exit status 1 on any failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-20}
out=.run/sim
mkdir -p "$out"
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

clean() { # 0 violations, schedules of every mode; $1 log
  local schedules violations
  schedules=$(result "$1" schedules)
  violations=$(result "$1" violations)
  [ -n "$schedules" ] && [ "$schedules" -gt 0 ] && [ "$violations" = 0 ] &&
    [ "$(result "$1" exclusive)" -gt 0 ] && [ "$(result "$1" shared)" -gt 0 ] && [ "$(result "$1" semaphore)" -gt 0 ] &&
    [ "$(result "$1" fair)" -gt 0 ] && [ "$(result "$1" fair_semaphore)" -gt 0 ] ||
    { grep -E '^(VIOLATION|RESULT)' "$1" | tail -5; return 1; }
}

caught() { # violations found; $1 log
  local violations
  violations=$(result "$1" violations)
  [ -n "$violations" ] && [ "$violations" -gt 0 ] || { tail -3 "$1"; return 1; }
  grep -E '^VIOLATION' "$1" | head -1
}

# A copy of ext/ with one file patched by a sed expression; $1 name, $2 file, $3 expression.
mutant() {
  local dir="$out/mutant-$1"
  rm -rf "$dir" && mkdir -p "$dir" && cp -r ext "$dir/" &&
    sed -i "$3" "$dir/ext/$2" && ! cmp -s "ext/$2" "$dir/ext/$2" &&
    bash verify/sim/build.sh "$out/sim-$1" "$dir" -O2
}

build() {
  bash verify/sim/build.sh "$out/sim" . -O2 &&
    CC=clang bash verify/sim/build.sh "$out/sim-asan" . -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer &&
    mutant stale-as-current net/rl_conn.h 's/(conn->checked | conn->probes | conn->stale | conn->time_owed) == 0/(conn->checked | conn->probes | conn->time_owed) == 0/' &&
    mutant abandoned-not-stale net/rl_conn.h 's/^\tconn->stale += conn->time_owed + conn->expected;.*/\t(void) 0;/' &&
    mutant shared-native-release core/rl_shared.c 's/^\tpolicy->release_by_script = 1;.*//' &&
    mutant fair-head-from-tail memory/rl_memory_store.c 's/return x->number < y->number ? -1 : 1;/return x->number < y->number ? 1 : -1;/' &&
    mutant fair-winner-leaves memory/rl_memory_store.c 's|^\t/\* the winner stays queued until its leave (RL_SCRIPT_FAIR_LOCK) \*/|\tif (mlen > 0) { fair_off(c->s, \&n, me, mlen); }|' &&
    mutant fair-heartbeat-kept core/rl_fair.c 's/(unsigned long long) RL_FAIR_HEARTBEAT_KEY_MS)/(unsigned long long) RL_FAIR_HEARTBEAT_KEY_MS * 400)/' &&
    mutant fair-semaphore-any-admitted memory/rl_memory_store.c 's/if (!admitted \&\& (mlen > 0 || count >= free_slots)) {/if (free_slots == 0) {/' &&
    mutant fair-semaphore-leaves-lock-queue core/rl_fair.c 's/semaphore ? \&policy->scripts->fair_semaphore_leave : \&policy->scripts->fair_leave/\&policy->scripts->fair_leave/'
}
check "build: the real ext/ sources with verify/sim/seam.h (gcc -O2, clang ASan+UBSan, 8 mutants)" build
if [ ! -x "$out/sim" ] || [ ! -x "$out/sim-asan" ]; then
  echo "$passed passed, $((failed + 1)) failed"
  exit 1
fi

seed=${SIM_SEED:-$(date +%s)}
echo "== normal mode, ${seconds}s on 2 processes, base seeds $seed and $((seed + 1))"
"$out/sim" --seconds "$seconds" --base-seed "$seed" --quiet > "$out/normal-1.log" 2>&1 &
job1=$!
"$out/sim" --seconds "$seconds" --base-seed $((seed + 1)) --quiet > "$out/normal-2.log" 2>&1 &
job2=$!
wait $job1
wait $job2
for log in "$out/normal-1.log" "$out/normal-2.log"; do
  grep '^RESULT' "$log"
  check "normal mode: no two holders, limits kept, fences grow ($log)" clean "$log"
done

echo "== calm mode (no faults) and sanitizers, 3s each"
"$out/sim" --seconds 3 --base-seed $((seed + 2)) --calm --quiet > "$out/calm.log" 2>&1 &
job1=$!
"$out/sim-asan" --seconds 3 --base-seed $((seed + 3)) --quiet > "$out/asan.log" 2>&1 &
job2=$!
wait $job1
wait $job2
status2=$?
grep '^RESULT' "$out/calm.log"
check "calm mode: every release of a valid lock succeeds" bash -c \
  "[ \"\$(sed -n 's/^RESULT.* refused_releases=\([0-9]*\).*/\1/p' $out/calm.log)\" = 0 ]"
check "calm mode: no violation" clean "$out/calm.log"
check "ASan+UBSan: clean exit, no report" bash -c "[ $status2 = 0 ] && ! grep -qE 'runtime error|ERROR: AddressSanitizer' $out/asan.log"

# Mutations: each must be caught within 15 s from a fixed base seed (found within a second or so).
echo "== mutations"
for m in stale-as-current abandoned-not-stale; do
  "$out/sim-$m" --seconds 15 --base-seed 1 --stop-after 3 > "$out/mutation-$m.log" 2>&1 &
done
wait
for m in stale-as-current abandoned-not-stale; do
  check "mutation in the real connection code ($m) is caught" caught "$out/mutation-$m.log"
done
"$out/sim-shared-native-release" --seconds 3 --base-seed 1 --calm --quiet > "$out/mutation-shared-native-release.log" 2>&1
check "mutation in the real driver (a shared holder released by DELIFEQ) is caught: refused releases in calm mode" bash -c \
  "[ \"\$(sed -n 's/^RESULT.* refused_releases=\([0-9]*\).*/\1/p' $out/mutation-shared-native-release.log)\" -gt 0 ]"
# fair waiting's: every schedule fair (FIFO, starvation and stalls are checked in those without server faults)
fair_mutants="fair-head-from-tail fair-winner-leaves fair-heartbeat-kept fair-semaphore-any-admitted fair-semaphore-leaves-lock-queue"
for m in $fair_mutants; do
  stop=3 # the fair semaphore's stop at their first violation (under a second each; the third comes seconds later)
  case $m in fair-semaphore-*) stop=1 ;; esac
  "$out/sim-$m" --seconds 15 --base-seed 1 --fair --stop-after $stop > "$out/mutation-$m.log" 2>&1 &
done
wait
for m in $fair_mutants; do
  check "mutation of fair waiting ($m) is caught" caught "$out/mutation-$m.log"
done
mutations="--shared-token --quorum-minus-one --no-drift --fast-restart"
for mutation in $mutations; do
  "$out/sim" --seconds 15 --base-seed 1 $mutation --stop-after 3 > "$out/mutation$mutation.log" 2>&1 &
  [ "$mutation" = --quorum-minus-one ] && wait
done
wait
for mutation in $mutations; do
  check "mutation $mutation is caught" caught "$out/mutation$mutation.log"
done

echo "== replay of the first violation of stale-as-current, twice"
first=$(result "$out/mutation-stale-as-current.log" first)
replay_same() {
  [ -n "$first" ] && [ "$first" != 0x0000000000000000 ] || return 1
  "$out/sim-stale-as-current" --seed "$first" > "$out/replay-1.log" 2>&1
  "$out/sim-stale-as-current" --seed "$first" > "$out/replay-2.log" 2>&1
  [ "$(result "$out/replay-1.log" violations)" = 1 ] && cmp -s "$out/replay-1.log" "$out/replay-2.log"
}
check "replay of $first reproduces the violation, identically" replay_same

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
