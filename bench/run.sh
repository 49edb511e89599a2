#!/usr/bin/env bash
# The benchmark, in one command: bench/run.sh [--quick] [--rounds R] [--seconds S]
#
# Builds the extension (scripts/setup.sh), the delay proxy and the floor probe; starts 7
# redis-servers on 127.0.0.1:7501-7507 and one delay proxy 127.0.0.1:7511-7517 -> 7501-7507
# (0.5 ms each way = 1 ms RTT); checks the RTT; then runs the extension, the baseline (the seed
# articles' PHP RedLock over phpredis) and the floor probe (hiredis, no PHP) side by side,
# interleaved, for N in {1,3,5,7} x RTT in {loopback, 1 ms} x {one RedLock reused, a new
# RedLock per cycle}; then P processes contending for one resource; then instructions per
# cycle under callgrind. Prints the table (also in .run/bench/table.md) and draws
# docs/evidence/bench.png. Stops everything it started on exit.
#   --quick        1 round of 0.4 s per cell, short callgrind runs: about 2 minutes
#   default        5 rounds of 1 s per cell: about 6-8 minutes
#   --rounds R / --seconds S / --callgrind-cycles C / --contenders P   override
#   --no-plot      leave docs/evidence/bench.png alone
#   --only-primitives   just issue 10's rows: lock, lockSemaphore, lockShared, lock with fencing
#                  (+ unlock), N=5, 1 ms RTT, interleaved per round (bench/primitives.php)
#   --tls          also the N=5 row over TLS (bench/tls_row.sh); --tls-only: that row alone
#   --watch [ARGS] autoExtend/waitTimeout rows instead (handoff latency, renewal overhead): bench/watch.sh ARGS
# REDLOCK_BENCH_PORT (default 7501): the servers' first port; the delay proxies take REDLOCK_BENCH_PORT+10 on.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
[ "${1:-}" = --watch ] && { shift; exec bash bench/watch.sh "$@"; }

rounds=5 seconds=1.0 cg_cycles=2000 contenders=4 contend_seconds=3 plot=1 quick=0 only_primitives=0 tls=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 rounds=1 seconds=0.4 cg_cycles=300 contend_seconds=2 ;;
    --rounds) rounds=$2; shift ;;
    --seconds) seconds=$2; shift ;;
    --callgrind-cycles) cg_cycles=$2; shift ;;
    --contenders) contenders=$2; shift ;;
    --no-plot) plot=0 ;;
    --only-primitives) only_primitives=1 ;;
    --tls) tls=1 ;;
    --tls-only) tls=2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

redis_base=${REDLOCK_BENCH_PORT:-7501} proxy_base=$(( ${REDLOCK_BENCH_PORT:-7501} + 10 )) one_way_us=500 max_servers=7
out=$root/.run/bench
bin=$out/bin
mkdir -p "$bin"
rm -f "$out"/results.tsv "$out"/contention.tsv "$out"/callgrind.tsv "$out"/rtt.txt "$out"/primitives.tsv

scripts/setup.sh
gcc -O2 -Wall -o "$bin/delay_proxy" bench/delay_proxy.c
gcc -O2 -Wall -Iext -o "$bin/floor_probe" bench/floor_probe.c -lhiredis
php_ext=(php -n -d extension=igbinary -d extension=redis -d extension="$root/modules/redlock.so")
# -n: no php.ini, so both PHP runs load exactly the same two extensions and no opcache/xdebug.
"${php_ext[@]}" -r 'exit(class_exists("Redis") && class_exists("RedLock") ? 0 : 1);' \
  || { echo "php cannot load redis (php-redis) and modules/redlock.so" >&2; exit 1; }

source bench/delayed-servers.sh
start_delayed_servers $max_servers $redis_base $proxy_base $one_way_us "$out" "$bin"

server_list() { # server_list N BASE_PORT
  local list="" i
  for i in $(seq 0 $(($1 - 1))); do list="${list:+$list,}127.0.0.1:$(($2 + i))"; done
  echo "$list"
}
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }

{
  echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1), $(uname -sr)"
  echo "software: $(php -r 'echo "PHP ", PHP_VERSION;'), phpredis $("${php_ext[@]}" -r 'echo phpversion("redis");'), hiredis $(pkg-config --modversion hiredis 2>/dev/null || echo '?'), $(redis-server --version | cut -d' ' -f1-3)"
  echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min)"
  echo "busiest other processes at start (%CPU over their lifetime):"
  ps -eo pcpu,args --sort=-pcpu | sed -n '2,7p' | cut -c1-120 | sed 's/^/    /'
  lo=$("$bin/floor_probe" -s 127.0.0.1:$redis_base -m ping -T 1 | field p50_us)
  px=$("$bin/floor_probe" -s 127.0.0.1:$proxy_base -m ping -T 1 | field p50_us)
  # redis-cli --latency --raw ends with "min max avg samples" (ms); its avg carries the machine's stalls.
  cli=$(timeout 3 redis-cli -p $proxy_base --latency --raw 2>/dev/null | tail -n 1 || true)
  echo "RTT check (PING, p50): loopback ${lo} us; through the proxy ${px} us" \
    "(redis-cli --latency through the proxy: min $(echo "$cli" | cut -d' ' -f1) ms, avg $(echo "$cli" | cut -d' ' -f3) ms)"
} | tee "$out/rtt.txt"

if [ $tls -gt 0 ]; then
  source bench/tls_row.sh
  [ $tls = 2 ] && exit 0
fi

# issue 10: the primitives against lock + unlock, same servers, same round, rotating order.
echo "primitives: $rounds round(s) x 4 kinds x ${seconds}s, N=5, 1 ms RTT"
kinds=(lock semaphore shared fencing)
for round in $(seq 1 "$rounds"); do
  for k in 0 1 2 3; do
    kind=${kinds[$(( (round + k) % 4 ))]}
    line=$("${php_ext[@]}" bench/primitives.php "$kind" "$(server_list 5 $proxy_base)" "$seconds")
    printf '%s\t%s\t%s\n' "$round" "$kind" "$line" >> "$out/primitives.tsv"
  done
done
php -n bench/primitives.php report "$out/primitives.tsv" | tee "$out/primitives.md"
[ $only_primitives = 1 ] && exit 0

impls=(ext baseline floor)
run_one() { # run_one IMPL MODE SERVERS
  case "$1" in
    floor) "$bin/floor_probe" -s "$3" -m "$2" -T "$seconds" ;;
    *) "${php_ext[@]}" bench/cycle.php "$1" "$2" "$3" "$seconds" ;;
  esac
}

echo "cycles: $rounds round(s) x 48 cells x ${seconds}s"
for round in $(seq 1 "$rounds"); do
  cell=0
  for rtt in loopback 1ms; do
    base=$redis_base; [ $rtt = 1ms ] && base=$proxy_base
    for n in 1 3 5 7; do
      servers=$(server_list $n $base)
      for mode in reused percycle; do
        # Rotate who goes first so that no implementation always follows the same one.
        for k in 0 1 2; do
          impl=${impls[$(( (round + cell + k) % 3 ))]}
          line=$(run_one "$impl" "$mode" "$servers")
          printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$rtt" "$n" "$mode" "$impl" "$line" >> "$out/results.tsv"
        done
        cell=$((cell + 1))
      done
    done
  done
  echo "  round $round done ($(date +%T), load $(cut -d' ' -f1 /proc/loadavg))"
done

contend_rounds=$(( rounds < 3 ? rounds : 3 ))
echo "contention: $contenders processes, one resource, N=5, retryDelay 20 ms, $contend_rounds round(s) of ${contend_seconds}s"
for round in $(seq 1 "$contend_rounds"); do
  for rtt in loopback 1ms; do
    base=$redis_base; [ $rtt = 1ms ] && base=$proxy_base
    servers=$(server_list 5 $base)
    order=(ext baseline); [ $((round % 2)) = 0 ] && order=(baseline ext)
    for impl in "${order[@]}"; do
      resource="bench:contend:$impl:$rtt:$round:$$"
      start_at=$(php -r 'printf("%.3f", microtime(true) + 1.0);')
      pids=()
      for p in $(seq 1 "$contenders"); do
        "${php_ext[@]}" bench/contend.php "$impl" "$servers" "$resource" "$start_at" "$contend_seconds" 20 \
          > "$out/contend.$p" &
        pids+=($!)
      done
      wait "${pids[@]}"
      for p in $(seq 1 "$contenders"); do
        printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$rtt" "$impl" "$contend_seconds" "$(cat "$out/contend.$p")" >> "$out/contention.tsv"
      done
    done
  done
done

echo "callgrind: instructions per cycle, N=5 loopback, one RedLock reused, $cg_cycles cycles minus a 0-cycle run"
servers5=$(server_list 5 $redis_base)
for impl in ext baseline null floor; do
  for cycles in 0 "$cg_cycles"; do
    if [ $impl = floor ]; then # -n 1 is its least: count both runs one cycle up
      cmd=("$bin/floor_probe" -s "$servers5" -T 600 -n $((cycles + 1)))
    else
      cmd=("${php_ext[@]}" bench/cycle.php "$impl" reused "$servers5" 600 "$cycles")
    fi
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "${cmd[@]}" > /dev/null 2> "$out/callgrind.log" \
      || { cat "$out/callgrind.log" >&2; exit 1; }
    ir=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$out/callgrind.log")
    printf '%s\t%s\t%s\n' "$impl" "$cycles" "$ir" >> "$out/callgrind.tsv"
  done
done
{
  echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "busiest other processes at end:"
  ps -eo pcpu,args --sort=-pcpu | sed -n '2,7p' | cut -c1-120 | sed 's/^/    /'
} >> "$out/rtt.txt"

plot_arg=""
[ $plot = 1 ] && plot_arg="$root/docs/evidence/bench.png"
php -n bench/report.php "$out" "$plot_arg" | tee "$out/table.md"
