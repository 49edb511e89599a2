#!/usr/bin/env bash
# The rows of issue 11 (autoExtend, waitTimeout), on bench/run.sh's ports (run it, like run.sh, only
# under `flock /tmp/bench.lock`): bench/watch.sh [--seconds S] [--rounds R] [--before SO]
#   1. handoff latency, notified (waitTimeout) against polling (retryDelay 200 ms, the default),
#      4 processes on one resource holding 10 ms each, 5 servers, loopback and 1 ms RTT: p50/p99;
#   2. renewal overhead: a CPU-bound run() $fn with and without autoExtend, alternating;
#   3. with --before SO (a build without this work), the drop-in lock+unlock cycle of SO against
#      ours, interleaved (bench/cycle.php, N=5, one RedLock reused): the unlock script's PUBLISH.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=10 rounds=5 before=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    --before) before=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
redis_base=7501 proxy_base=7511 guard=7507
out=$root/.run/bench-watch
bin=$root/.run/bench/bin
mkdir -p "$out" "$bin"
scripts/setup.sh >/dev/null
gcc -O2 -Wall -o "$bin/delay_proxy" bench/delay_proxy.c
php=(php -n -d extension=igbinary -d extension=redis -d extension="$root/modules/redlock.so")
proxy_pid=""
cleanup() {
  [ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null || true
  scripts/redis-servers.sh stop "$out/servers" || true
}
trap cleanup EXIT
scripts/redis-servers.sh start 7 $redis_base "$out/servers" >/dev/null
mappings=()
for i in 0 1 2 3 4; do mappings+=("$((proxy_base + i)):$((redis_base + i))"); done
"$bin/delay_proxy" -d 500 -t 1800 "${mappings[@]}" &
proxy_pid=$!
for _ in $(seq 50); do redis-cli -p $proxy_base ping >/dev/null 2>&1 && break; sleep 0.1; done
list() { local l="" i; for i in 0 1 2 3 4; do l="${l:+$l,}127.0.0.1:$(($1 + i))"; done; echo "$l"; }
pct() { sort -n | awk '{a[NR]=$1} END {if (NR==0) {print "n=0"; exit}; i=int(NR*0.5)+1; if (i>NR) i=NR; j=int(NR*0.99)+1; if (j>NR) j=NR; printf "n=%d p50=%.2f p99=%.2f max=%.2f\n", NR, a[i], a[j], a[NR]}'; }

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at start (shared and noisy)"
echo "handoff: 4 processes, one resource, 10 ms holds, N=5, ${seconds}s per cell, retryDelay 200 ms"
for rtt in loopback 1ms; do
  base=$redis_base; [ $rtt = 1ms ] && base=$proxy_base
  for mode in polling notified; do
    start_at=$(php -r 'printf("%.3f", microtime(true) + 1.0);')
    resource="bench:handoff:$rtt:$mode:$$"
    pids=()
    for p in 1 2 3 4; do
      "${php[@]}" bench/handoff.php $mode "$(list $base)" $guard "$resource" "$start_at" "$seconds" > "$out/handoff.$p" &
      pids+=($!)
    done
    wait "${pids[@]}"
    echo "  $rtt $mode: $(cat "$out"/handoff.* | pct) ms"
  done
done

echo "renewal overhead: CPU-bound \$fn in run() (~1 s), ttl 600 ms (a renewal every 200 ms), $rounds rounds, N=5 loopback"
"${php[@]}" bench/renewal.php "$(list $redis_base)" "$rounds" 50000000 | tee "$out/renewal.txt" | sed 's/^/  /'
grep -v '^lost' "$out/renewal.txt" > "$out/renewal.ok" || true
awk -F'[= ]' '{pw+=$2; pc+=$4; aw+=$6; ac+=$8; t+=$10} END {printf "  sums: wall plain %.0f ms, autoExtend %.0f ms (%+.1f%%); PHP thread CPU plain %.0f ms, autoExtend %.0f ms (%+.1f%%); renewal thread CPU %.1f ms\n", pw, aw, (aw-pw)*100/pw, pc, ac, (ac-pc)*100/pc, t}' "$out/renewal.ok"

if [ -n "$before" ]; then
  echo "drop-in cycle (lock+unlock, N=5, one RedLock reused, 1 s each, $rounds rounds interleaved): before vs this build"
  for rtt in loopback 1ms; do
    base=$redis_base; [ $rtt = 1ms ] && base=$proxy_base
    for round in $(seq 1 "$rounds"); do
      for so in "$before" "$root/modules/redlock.so"; do
        tag=after; [ "$so" = "$before" ] && tag=before
        line=$(php -n -d extension=igbinary -d extension=redis -d extension="$so" bench/cycle.php ext reused "$(list $base)" 1.0)
        echo "$rtt $tag $line" >> "$out/cycle.txt"
      done
    done
    for tag in before after; do
      echo "  $rtt $tag: per-cycle p50 over the rounds: $(grep "^$rtt $tag " "$out/cycle.txt" | sed -n 's/.*p50_us=\([0-9.]*\).*/\1/p' | pct | sed 's/p50/median/') us"
    done
  done
  rm -f "$out/cycle.txt"
  echo "server time of the unlock script (INFO commandstats, usec per EVALSHA, 20000 lock+unlock on one server, fresh each):"
  for so in "$before" "$root/modules/redlock.so"; do
    tag=after; [ "$so" = "$before" ] && tag=before
    redis-cli -p $guard CONFIG RESETSTAT >/dev/null
    php -n -d extension="$so" -r '$r = new RedLock([["127.0.0.1", (int) $argv[1], 1.0]]); for ($i = 0; $i < 20000; $i++) { $r->unlock($r->lock("bench:unlockcost", 10000)); }' $guard
    echo "  $tag: $(redis-cli -p $guard INFO commandstats | tr -d '\r' | sed -n 's/^cmdstat_evalsha:.*usec_per_call=\([0-9.]*\).*/\1/p') us per EVALSHA (set: $(redis-cli -p $guard INFO commandstats | tr -d '\r' | sed -n 's/^cmdstat_set:.*usec_per_call=\([0-9.]*\).*/\1/p') us)"
  done
fi
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
