#!/usr/bin/env bash
# Runs bench.php: integrations/symfony/bench.sh [ROUNDS] [SECONDS]   (default 5 rounds of 2 s)
# Starts 5 redis-servers on 127.0.0.1:7821-7825 and the repo's delay proxy on 7831-7835 ->
# 7821-7825 (bench/delay_proxy.c, -d 500: 0.5 ms each way = 1 ms RTT), then, for loopback and
# 1 ms RTT, runs CombinedStore+ConsensusStrategy over 5 RedisStores and RedLockStore in turn
# (interleaved, ROUNDS times) and prints each round and the medians. Stops everything on exit.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
rounds=${1:-5} seconds=${2:-2}

[ -f modules/redlock.so ] || bash scripts/setup.sh
out=$root/.run/symfony-bench
mkdir -p "$out/bin"
gcc -O2 -Wall -o "$out/bin/delay_proxy" bench/delay_proxy.c

proxy_pid=""
cleanup() {
  [ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null || true
  local f
  for f in "$out"/servers/redis-*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null; done
  scripts/redis-servers.sh stop "$out/servers" || true
}
trap cleanup EXIT
loopback=$(scripts/redis-servers.sh start 5 7821 "$out/servers")
"$out/bin/delay_proxy" -d 500 -t 1800 7831:7821 7832:7822 7833:7823 7834:7824 7835:7825 &
proxy_pid=$!
for _ in $(seq 50); do redis-cli -p 7831 ping >/dev/null 2>&1 && break; sleep 0.1; done
delayed=127.0.0.1:7831,127.0.0.1:7832,127.0.0.1:7833,127.0.0.1:7834,127.0.0.1:7835

php=(php -d extension="$root/modules/redlock.so")
echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1); $(php -r 'echo "PHP ", PHP_VERSION;'), phpredis $(php -r 'echo phpversion("redis");'), symfony/lock $(dpkg-query -W -f '${Version}' php-symfony-lock)"
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "RTT through the proxy (redis-cli --latency, min max avg samples, ms): $(timeout 2 redis-cli -p 7831 --latency --raw 2>/dev/null | tail -n 1 || true)"

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
for rtt in loopback 1ms; do
  list=$loopback; [ $rtt = 1ms ] && list=$delayed
  : >"$out/combined.$rtt"; : >"$out/redlock.$rtt"
  for r in $(seq "$rounds"); do
    for mode in combined redlock; do
      line=$("${php[@]}" "$here/bench.php" $mode "$list" "$seconds")
      echo "rtt=$rtt round=$r $line"
      echo "$line" | sed -n 's/.*rate=\([0-9.]*\).*/\1/p' >>"$out/$mode.$rtt"
    done
  done
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| RTT | CombinedStore + ConsensusStrategy, 5 RedisStores | RedLockStore | ratio |"
echo "|---|---|---|---|"
for rtt in loopback 1ms; do
  c=$(median <"$out/combined.$rtt"); n=$(median <"$out/redlock.$rtt")
  echo "| $rtt | $c | $n | $(awk -v a="$n" -v b="$c" 'BEGIN {printf "%.2fx", a / b}') |"
done
