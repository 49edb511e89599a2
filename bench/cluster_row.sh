#!/usr/bin/env bash
# The benchmark row of docs/design/cluster.md: lock+unlock cycles of RedLock::fromCluster() over a
# 3-master cluster beside new RedLock() over 3 independent servers, every connection at 1 ms RTT
# (bench/delay_proxy.c; the cluster's nodes announce the proxies' ports, so MOVED and the slot map
# lead through them too). Prints one line per form: cycles, median and p99 per cycle.
#   bash bench/cluster_row.sh [BASE_PORT=9650] [SECONDS=10]
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-9650}; seconds=${2:-10}
out=$PWD/.run/bench-cluster
mkdir -p "$out"
gcc -O2 -Wall -o "$out/delay_proxy" bench/delay_proxy.c
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for f in "$out"/*.pid; do [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null || true; rm -f "$f"; done
  rm -f "$out"/nodes-*.conf
}
trap cleanup EXIT
# independent servers base..base+2 behind base+10..base+12; cluster nodes base+20..base+22 behind base+30..base+32
for i in 0 1 2; do
  redis-server --port $((base + i)) --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --pidfile "$out/s$i.pid" --logfile "$out/s$i.log" --dir "$out"
  redis-server --port $((base + 20 + i)) --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --cluster-enabled yes --cluster-config-file "$out/nodes-$i.conf" --cluster-node-timeout 5000 \
    --cluster-announce-ip 127.0.0.1 --cluster-announce-port $((base + 30 + i)) \
    --cluster-announce-bus-port $((base + 20 + i + 10000)) \
    --pidfile "$out/c$i.pid" --logfile "$out/c$i.log" --dir "$out"
done
"$out/delay_proxy" -d 500 -t 600 $((base + 10)):$base $((base + 11)):$((base + 1)) $((base + 12)):$((base + 2)) \
  $((base + 30)):$((base + 20)) $((base + 31)):$((base + 21)) $((base + 32)):$((base + 22)) &
pids+=($!)
sleep 0.5
redis-cli --cluster create 127.0.0.1:$((base + 20)) 127.0.0.1:$((base + 21)) 127.0.0.1:$((base + 22)) \
  --cluster-yes >"$out/create.log" 2>&1
for _ in $(seq 200); do
  redis-cli -p $((base + 20)) cluster info | grep -q '^cluster_state:ok' && break
  sleep 0.1
done
php -d extension="$PWD/modules/redlock.so" -r '
[$base, $seconds] = [(int) $argv[1], (float) $argv[2]];
$forms = [
    "independent servers (3)" => fn () => new RedLock(array_map(fn ($i) => "redis://127.0.0.1:" . ($base + 10 + $i), [0, 1, 2]), 10, 1),
    "fromCluster (3 masters)" => fn () => RedLock::fromCluster("127.0.0.1:" . ($base + 30), 10, 1),
    "cluster:// as 1 member" => fn () => new RedLock(["cluster://127.0.0.1:" . ($base + 30)], 10, 1),
];
foreach ($forms as $name => $make) {
    $r = $make();
    $r->unlock($r->lock("warm", 10000) ?: ["resource" => "warm", "token" => "x", "validity" => 1]);
    $times = [];
    $failed = 0;
    $end = microtime(true) + $seconds;
    for ($n = 0; microtime(true) < $end && $n < 100000; $n++) {
        $t = hrtime(true);
        $l = $r->lock("k$n", 10000);
        $l ? $r->unlock($l) : $failed++;
        $times[] = (hrtime(true) - $t) / 1e6;
    }
    sort($times);
    printf("%-26s cycles=%d p50=%.2f ms p99=%.2f ms failed=%d\n", $name, count($times),
        $times[intdiv(count($times), 2)], $times[(int) (count($times) * 0.99)], $failed);
}' "$base" "$seconds"
