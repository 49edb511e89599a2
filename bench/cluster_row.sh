#!/usr/bin/env bash
# The benchmark rows of docs/design/cluster.md: lock+unlock cycles of RedLock::fromCluster() over a
# 3-master and a 5-master cluster beside new RedLock() over as many independent servers (and a cluster as one
# member), every connection at 1 ms RTT (bench/delay_proxy.c; the clusters' nodes announce the proxies'
# ports, so MOVED and the slot map lead through them too). The forms take turns, ROUNDS rounds of
# SECONDS/ROUNDS each, so that a change of the machine's load falls on all of them alike. Prints the load
# average before and after, and one line per form: cycles, median and p99 per cycle.
#   bash bench/cluster_row.sh [BASE_PORT=9650] [SECONDS=10] [ROUNDS=5]
# Ports: BASE..BASE+4 servers, +10.. their proxies; +20..+22 and +40..+44 the clusters' nodes, +30.. and +50..
# their proxies, +60..+64 and +70..+72 their cluster bus ports.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-9650}; seconds=${2:-10}; rounds=${3:-5}
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
rm -f "$out"/nodes-*.conf
maps=()
for i in 0 1 2 3 4; do
  redis-server --port $((base + i)) --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --pidfile "$out/s$i.pid" --logfile "$out/s$i.log" --dir "$out"
  maps+=("$((base + 10 + i)):$((base + i))")
done
# node NAME PORT PROXY_PORT BUS_PORT
node() {
  redis-server --port "$2" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --cluster-enabled yes --cluster-config-file "$out/nodes-$1.conf" --cluster-node-timeout 5000 \
    --cluster-port "$4" --cluster-announce-ip 127.0.0.1 --cluster-announce-port "$3" --cluster-announce-bus-port "$4" \
    --pidfile "$out/$1.pid" --logfile "$out/$1.log" --dir "$out"
  maps+=("$3:$2")
}
three="" five=""
for i in 0 1 2; do node "a$i" $((base + 20 + i)) $((base + 30 + i)) $((base + 70 + i)); three="$three 127.0.0.1:$((base + 20 + i))"; done
for i in 0 1 2 3 4; do node "b$i" $((base + 40 + i)) $((base + 50 + i)) $((base + 60 + i)); five="$five 127.0.0.1:$((base + 40 + i))"; done
"$out/delay_proxy" -d 500 -t 900 "${maps[@]}" &
pids+=($!)
sleep 0.5
for nodes in "$three" "$five"; do
  # shellcheck disable=SC2086
  redis-cli --cluster create $nodes --cluster-yes >"$out/create.log" 2>&1 || { cat "$out/create.log" >&2; exit 1; }
done
for p in $((base + 20)) $((base + 40)); do
  for _ in $(seq 200); do
    redis-cli -p "$p" cluster info | grep -q '^cluster_state:ok' && break
    sleep 0.1
  done
done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
php -d extension="$PWD/modules/redlock.so" -r '
[$base, $seconds, $rounds] = [(int) $argv[1], (float) $argv[2], max(1, (int) $argv[3])];
$servers = fn (int $n) => array_map(fn ($i) => "redis://127.0.0.1:" . ($base + 10 + $i), range(0, $n - 1));
$forms = [
    "independent servers (3)" => fn () => new RedLock($servers(3), 10, 1),
    "fromCluster (3 masters)" => fn () => RedLock::fromCluster("127.0.0.1:" . ($base + 30), 10, 1),
    "cluster:// as 1 member" => fn () => new RedLock(["cluster://127.0.0.1:" . ($base + 30)], 10, 1),
    "independent servers (5)" => fn () => new RedLock($servers(5), 10, 1),
    "fromCluster (5 masters)" => fn () => RedLock::fromCluster("127.0.0.1:" . ($base + 50), 10, 1),
];
$objects = $times = $failed = [];
foreach ($forms as $name => $make) {
    $objects[$name] = $r = $make();
    $r->unlock($r->lock("warm", 10000) ?: ["resource" => "warm", "token" => "x", "validity" => 1]);
    $times[$name] = [];
    $failed[$name] = 0;
}
$n = 0;
for ($round = 0; $round < $rounds; $round++) {
    foreach ($objects as $name => $r) {
        $end = microtime(true) + $seconds / $rounds;
        for ($k = 0; microtime(true) < $end && $k < 100000; $k++, $n++) {
            $t = hrtime(true);
            $l = $r->lock("k$n", 10000);
            $l ? $r->unlock($l) : $failed[$name]++;
            $times[$name][] = (hrtime(true) - $t) / 1e6;
        }
    }
}
foreach ($times as $name => $list) {
    sort($list);
    printf("%-26s members=%d cycles=%d p50=%.2f ms p99=%.2f ms failed=%d\n", $name, count($objects[$name]->getLastErrors()),
        count($list), $list[intdiv(count($list), 2)], $list[(int) (count($list) * 0.99)], $failed[$name]);
}' "$base" "$seconds" "$rounds"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
