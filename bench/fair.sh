#!/usr/bin/env bash
# Fair waiting (issue 36), beside bench/run.sh: bench/fair.sh [--port-base=B] [--seconds S] [--servers "3 5"]
# 64 waiters (8 processes x 8 Fibers, Revolt) on ONE resource, each holding 1 ms, through the delay
# proxy (0.5 ms each way = 1 ms RTT), for each server count and each mode, in the same run:
# fair ('fair' => true), notified (waitTimeout alone), retries (retryDelay 200 ms). Per cell: hand-over
# latency p50/p99 (unlock() call to the next lock() return), hand-overs/s, bypasses, Jain's index of
# the holds per waiter (bench/fair_report.php). Servers on B..B+4, proxies on B+10..B+14 (default
# B=8900). Niced; stops what it started on exit. Revolt as the tests find it (REDLOCK_VENDOR_DIR).
# --processes P --fibers F: the waiters (default 8 x 8); modes="fair" in the environment: those modes only.
# --semaphore L: the waiters take lockSemaphore(resource, L) instead of lock(): modes fair and notified
# (the notified non-fair semaphore); the hand-over is from a slot's unlock() call to the next holder's
# lockSemaphore() return, each freed slot paired with the next acquisition in time order (fair_report.php).
# --ext "A.so B.so" [--repeat R]: each cell with each build in turn (R rounds), for a before/after
# under the same load. --tickets: the fair cells also count bypasses by the queue's tickets (server 0
# watched by MONITOR, which costs that server CPU: off by default). Each cell also prints the CPU seconds its workers (getrusage), the servers
# and the proxy used, and the load average at its end.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
base=8900 seconds=8 counts="3 5" procs=8 fibers=8 hold=1 rtts="1ms" exts="" repeat=1 tickets=0 limit=0
while [ $# -gt 0 ]; do
  case "$1" in
    --port-base=*) base=${1#*=} ;;
    --seconds) seconds=$2; shift ;;
    --servers) counts=$2; shift ;;
    --rtt) rtts=$2; shift ;;   # "1ms", "loopback" or "1ms loopback"
    --processes) procs=$2; shift ;;
    --fibers) fibers=$2; shift ;;
    --ext) exts=$2; shift ;;       # "before.so after.so": each cell once per build, interleaved (same load)
    --repeat) repeat=$2; shift ;;  # each cell R times, the builds alternating
    --tickets) tickets=1 ;;        # fair cells: bypasses by the tickets, from server 0's MONITOR log
    --semaphore) limit=$2; shift ;; # lockSemaphore() of this limit
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
out=$root/.run/bench-fair
bin=$out/bin
mkdir -p "$bin"
rm -f "$out"/w.*
gcc -O2 -Wall -o "$bin/delay_proxy" bench/delay_proxy.c
exts=${exts:-$root/modules/redlock.so}
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
# CPU ticks (user + system) of the servers and of the proxy, for the CPU each cell costs them
ticks() { local t=0 pid; for pid in "$@"; do [ -r /proc/$pid/stat ] && t=$((t + $(awk '{print $14 + $15}' /proc/$pid/stat))); done; echo $t; }
server_pids() { cat "$out"/servers/redis-*.pid 2>/dev/null; }
list() { local l="" i off=10; [ "$2" = loopback ] && off=0; for ((i = 0; i < $1; i++)); do l="${l:+$l,}127.0.0.1:$((base + off + i))"; done; echo "$l"; }

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at start (shared with other jobs)"
what="one resource"; [ "$limit" -gt 0 ] && what="one semaphore of limit $limit"
[ "$limit" -gt 0 ] && [ "$tickets" = 1 ] && { echo "--tickets counts the lock's tickets only" >&2; exit 2; }
echo "$((procs * fibers)) waiters ($procs processes x $fibers Fibers), $what, ${hold} ms holds, ${seconds} s per cell"
for rtt in $rtts; do
for n in $counts; do
  default_modes="fair notified retries"; [ "$limit" -gt 0 ] && default_modes="fair notified"
  for mode in ${modes:-$default_modes}; do
  for round in $(seq 1 "$repeat"); do
  for ext in $exts; do
    php=(nice -n 10 php -d extension="$ext")
    rm -f "$out"/w.*
    now=$(php -r 'echo microtime(true);')
    start_at=$(php -r "printf('%.3f', $now + 1.0);")
    end_at=$(php -r "printf('%.3f', $now + 1.0 + $seconds);")
    resource="bench:fair:$rtt:$n:$mode:$limit:$$:$round:$(basename "$ext")"
    pids=()
    monitor_pid="" report=()
    if [ "$tickets" = 1 ] && [ "$mode" = fair ]; then
      redis-cli -p "$base" monitor > "$out/monitor.txt" &
      monitor_pid=$!
      report=(--monitor="$out/monitor.txt")
    fi
    servers0=$(ticks $(server_pids)) proxy0=$(ticks "$proxy_pid")
    for p in $(seq 1 $procs); do
      "${php[@]}" bench/fair.php $mode "$(list "$n" "$rtt")" "$resource" "$start_at" "$end_at" $fibers $hold "$out/w.$p" $limit &
      pids+=($!)
    done
    sleep $((seconds + 4))
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait "${pids[@]}" 2>/dev/null || true
    if [ -n "$monitor_pid" ]; then kill "$monitor_pid" 2>/dev/null || true; wait "$monitor_pid" 2>/dev/null || true; fi
    hz=$(getconf CLK_TCK)
    servers_s=$(php -r "printf('%.2f', ($(ticks $(server_pids)) - $servers0) / $hz);")
    proxy_s=$(php -r "printf('%.2f', ($(ticks "$proxy_pid") - $proxy0) / $hz);")
    label=$rtt; [ "$exts" != "$root/modules/redlock.so" ] && label="$rtt $(basename "$ext")"
    [ "$limit" -gt 0 ] && { label="$label semaphore($limit)"; report+=(--limit="$limit"); }
    echo "  $label N=$n $mode: $(php bench/fair_report.php "${report[@]}" "$seconds" $((procs * fibers)) "$out"/w.*) servers_cpu_s=$servers_s proxy_cpu_s=$proxy_s load=$(cut -d' ' -f1 /proc/loadavg)"
  done
  done
  done
done
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
