#!/usr/bin/env bash
# Lock+unlock cycles/s from C coroutines of one Swoole worker at 1 ms RTT (bench/delay_proxy.c), for
# C = 1, 4, 16, 32: this extension (one RedLock shared) beside the PHP library over phpredis with
# SWOOLE_HOOK_ALL (one instance per coroutine). Needs swoole.so (.ci/swoole.sh --build-only builds it)
# and php-redis.
#   bench/coroutines.sh [ROUNDS=3] [SECONDS=3]      REDLOCK_BENCH_PORT=7740: 3 servers, 3 proxy ports above
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3} seconds=${2:-3}
port=${REDLOCK_BENCH_PORT:-7740}
out=$PWD/.run/bench-coroutines
mkdir -p "$out"
so=$(bash .ci/swoole.sh --build-only | tail -n 1)
gcc -O2 -Wall -o "$out/delay_proxy" bench/delay_proxy.c
proxy_pid=""
cleanup() { [ -n "$proxy_pid" ] && kill "$proxy_pid" 2>/dev/null || true; scripts/redis-servers.sh stop "$out/servers" || true; }
trap cleanup EXIT
scripts/redis-servers.sh start 3 "$port" "$out/servers" >/dev/null
"$out/delay_proxy" -d 500 -t 1800 "$((port + 3)):$port" "$((port + 4)):$((port + 1))" "$((port + 5)):$((port + 2))" &
proxy_pid=$!
for _ in $(seq 50); do redis-cli -p $((port + 3)) ping >/dev/null 2>&1 && break; sleep 0.1; done
servers=127.0.0.1:$((port + 3)),127.0.0.1:$((port + 4)),127.0.0.1:$((port + 5))
: > "$out/results.tsv"
# CPU seconds (user + system) of the delay proxy and the servers, from /proc (clock ticks)
ticks() { local t=0 pid; for pid in "$@"; do t=$((t + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0))); done; echo "$t"; }
others=("$proxy_pid" $(cat "$out"/servers/*.pid 2>/dev/null))
hz=$(getconf CLK_TCK)
for round in $(seq "$rounds"); do
  for c in 1 4 16 32; do
    for impl in ext baseline; do
      if [ $impl = ext ]; then exts=(-d extension="$so" -d extension="$PWD/modules/redlock.so"); else exts=(-d extension="$so"); fi
      before=$(ticks "${others[@]}")
      res=$(php "${exts[@]}" bench/coroutines.php $impl "$servers" $c "$seconds")
      after=$(ticks "${others[@]}")
      printf '%s\t%s\t%s\t%s %s\n' "$round" "$c" "$impl" "$res" "$(( (after - before) * 1000000 / hz ))" >> "$out/results.tsv"
    done
  done
done
php -r '
$rows = array_map(fn ($l) => explode("\t", $l), file($argv[1], FILE_IGNORE_NEW_LINES));
$by = [];
$f = [];
foreach ($rows as [$round, $c, $impl, $res]) {
    [$rate, $fail, $cpu, $idle, $otherUs] = explode(" ", $res) + [0, 0, 0, -1, 0];
    $by[$c][$impl][] = [(float) $rate, (float) $cpu, (float) $idle, (float) $otherUs / max(1.0, (float) $rate * (float) $argv[2])];
    $f[$c][$impl] = ($f[$c][$impl] ?? 0) + (int) $fail;
}
$med = function (array $v, int $k) { $v = array_column($v, $k); sort($v); return $v[intdiv(count($v), 2)]; };
$one = $med($by[1]["ext"], 0);
echo "| C | extension cycles/s | / (C x C=1 rate) | PHP library + phpredis, SWOOLE_HOOK_ALL | CPU µs per cycle: PHP process, proxy + servers (ext / library) | machine idle (ext / library) | failures (ext / library) |\n|---|---|---|---|---|---|---|\n";
foreach ($by as $c => $i) {
    printf("| %d | %.0f | %.2f | %.0f | %.0f + %.0f / %.0f + %.0f | %.0f %% / %.0f %% | %d / %d |\n", $c, $med($i["ext"], 0), $med($i["ext"], 0) / ($c * $one),
        $med($i["baseline"], 0), $med($i["ext"], 1), $med($i["ext"], 3), $med($i["baseline"], 1), $med($i["baseline"], 3),
        $med($i["ext"], 2), $med($i["baseline"], 2), $f[$c]["ext"], $f[$c]["baseline"]);
}
' "$out/results.tsv" "$seconds" | tee "$out/table.md"
