#!/usr/bin/env bash
# Fair waiting (issue 36), beside bench/run.sh: bench/fair.sh [--port-base=B] [--seconds S] [--servers "3 5"]
# 64 waiters (8 processes x 8 Fibers, Revolt) on ONE resource, each holding 1 ms, through the delay
# proxy (0.5 ms each way = 1 ms RTT), for each server count and each mode, in the same run:
# fair ('fair' => true), notified (waitTimeout alone), retries (retryDelay 200 ms). Per cell: hand-over
# latency p50/p99 (unlock() call to the next lock() return), hand-overs/s, bypasses, Jain's index of
# the holds per waiter (bench/fair_report.php). Servers on B..B+4, proxies on B+10..B+14 (default
# B=8900). Niced; stops what it started on exit. Revolt as the tests find it (REDLOCK_VENDOR_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
base=8900 seconds=8 counts="3 5" procs=8 fibers=8 hold=1 rtts="1ms"
while [ $# -gt 0 ]; do
  case "$1" in
    --port-base=*) base=${1#*=} ;;
    --seconds) seconds=$2; shift ;;
    --servers) counts=$2; shift ;;
    --rtt) rtts=$2; shift ;;   # "1ms", "loopback" or "1ms loopback"
    --processes) procs=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
out=$root/.run/bench-fair
bin=$out/bin
mkdir -p "$bin"
rm -f "$out"/w.*
gcc -O2 -Wall -o "$bin/delay_proxy" bench/delay_proxy.c
php=(nice -n 10 php -d extension="$root/modules/redlock.so")
proxy_pid=""
cleanup() {
  [ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null || true
  scripts/redis-servers.sh stop "$out/servers" >/dev/null 2>&1 || true
}
trap cleanup EXIT
scripts/redis-servers.sh start 5 "$base" "$out/servers" >/dev/null
mappings=()
for i in 0 1 2 3 4; do mappings+=("$((base + 10 + i)):$((base + i))"); done
nice -n 10 "$bin/delay_proxy" -d 500 -t 1800 "${mappings[@]}" &
proxy_pid=$!
for _ in $(seq 50); do redis-cli -p $((base + 10)) ping >/dev/null 2>&1 && break; sleep 0.1; done
list() { local l="" i off=10; [ "$2" = loopback ] && off=0; for ((i = 0; i < $1; i++)); do l="${l:+$l,}127.0.0.1:$((base + off + i))"; done; echo "$l"; }

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at start (shared with other jobs)"
echo "$((procs * fibers)) waiters ($procs processes x $fibers Fibers), one resource, ${hold} ms holds, ${seconds} s per cell"
for rtt in $rtts; do
for n in $counts; do
  for mode in ${modes:-fair notified retries}; do
    rm -f "$out"/w.*
    now=$(php -r 'echo microtime(true);')
    start_at=$(php -r "printf('%.3f', $now + 1.0);")
    end_at=$(php -r "printf('%.3f', $now + 1.0 + $seconds);")
    resource="bench:fair:$rtt:$n:$mode:$$"
    pids=()
    for p in $(seq 1 $procs); do
      "${php[@]}" bench/fair.php $mode "$(list "$n" "$rtt")" "$resource" "$start_at" "$end_at" $fibers $hold "$out/w.$p" &
      pids+=($!)
    done
    sleep $((seconds + 4))
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait "${pids[@]}" 2>/dev/null || true
    echo "  $rtt N=$n $mode: $(php bench/fair_report.php "$seconds" $((procs * fibers)) "$out"/w.*)"
  done
done
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
