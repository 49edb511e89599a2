#!/usr/bin/env bash
# The drop-in lock+unlock cycle of two builds of the extension side by side, in one run:
#   bench/before_after.sh OLD_MODULE [ROUNDS=5] [SECONDS=1.0]
# OLD_MODULE is another build's redlock.so (e.g. a worktree of an earlier commit built with
# phpize); the new one is modules/redlock.so. For N=5 on loopback and at 1 ms RTT (bench/delay_proxy.c),
# one RedLock reused and a new one per cycle, each round runs before, after and the floor probe
# (hiredis, no PHP) back to back in a rotating order; the table gives medians and the median of the
# per-round ratios (the machine is noisy: only ratios from the same round are compared). Then
# callgrind instructions per cycle for both builds. Prints the table (also .run/before_after/table.md).
# REDLOCK_BENCH_PORT (default 7501): the servers' first port; the delay proxies take REDLOCK_BENCH_PORT+10 on.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
old=${1:?usage: bench/before_after.sh OLD_MODULE [ROUNDS] [SECONDS]}
rounds=${2:-5} seconds=${3:-1.0}
redis_base=${REDLOCK_BENCH_PORT:-7501} proxy_base=$(( ${REDLOCK_BENCH_PORT:-7501} + 10 )) one_way_us=500 n=5 cg_cycles=2000
out=$root/.run/before_after bin=$root/.run/before_after/bin
mkdir -p "$bin"
rm -f "$out/results.tsv"
scripts/setup.sh
gcc -O2 -Wall -o "$bin/delay_proxy" bench/delay_proxy.c
gcc -O2 -Wall -Iext -o "$bin/floor_probe" bench/floor_probe.c -lhiredis
source bench/delayed-servers.sh
start_delayed_servers $n $redis_base $proxy_base $one_way_us "$out" "$bin"
list() { local l="" i; for i in $(seq 0 $((n - 1))); do l="${l:+$l,}127.0.0.1:$(($1 + i))"; done; echo "$l"; }
run_one() { # IMPL MODE SERVERS
  case "$1" in
    floor) "$bin/floor_probe" -s "$3" -m "$2" -T "$seconds" ;;
    before) php -n -d extension="$old" bench/cycle.php ext "$2" "$3" "$seconds" ;;
    after) php -n -d extension="$root/modules/redlock.so" bench/cycle.php ext "$2" "$3" "$seconds" ;;
  esac
}
impls=(before after floor)
for round in $(seq 1 "$rounds"); do
  for rtt in loopback 1ms; do
    base=$redis_base; [ $rtt = 1ms ] && base=$proxy_base
    for mode in reused percycle; do
      for k in 0 1 2; do
        impl=${impls[$(( (round + k) % 3 ))]}
        printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$rtt" "$mode" "$impl" "$(run_one "$impl" "$mode" "$(list $base)")" >> "$out/results.tsv"
      done
    done
  done
done
for impl in before after; do
  so=$old; [ $impl = after ] && so=$root/modules/redlock.so
  for cycles in 0 $cg_cycles; do
    valgrind --tool=callgrind --callgrind-out-file=/dev/null php -n -d extension="$so" bench/cycle.php ext reused \
      "$(list $redis_base)" 600 $cycles 2>&1 >/dev/null | sed -n "s/.*Collected : *\([0-9]*\).*/$impl\t$cycles\t\1/p" >> "$out/results.tsv"
  done
done
php -n -r '
$rows = []; $ir = [];
foreach (file($argv[1], FILE_IGNORE_NEW_LINES) as $line) {
    $f = explode("\t", $line);
    if (count($f) === 3) { $ir[$f[0]][(int) $f[1]] = (float) $f[2]; continue; }
    [$round, $rtt, $mode, $impl, $rest] = $f;
    preg_match("/cycles=(\d+) seconds=([\d.]+) p50_us=([\d.]+)/", $rest, $m);
    $rows[$rtt][$mode][$impl][$round] = ["rate" => $m[1] / $m[2], "p50" => (float) $m[3]];
}
$med = function (array $v) { sort($v); $c = count($v); return $c ? ($c % 2 ? $v[intdiv($c, 2)] : ($v[$c / 2 - 1] + $v[$c / 2]) / 2) : NAN; };
echo "| RTT | RedLock | before c/s | after c/s | floor c/s | after / before | after / floor | p50 before / after (us) |\n|---|---|---|---|---|---|---|---|\n";
foreach ($rows as $rtt => $byMode) foreach ($byMode as $mode => $c) {
    $ratio = fn ($a, $b) => $med(array_map(fn ($r) => $c[$a][$r]["rate"] / $c[$b][$r]["rate"], array_keys(array_intersect_key($c[$a], $c[$b]))));
    printf("| %s | %s | %.0f | %.0f | %.0f | %.3f | %.3f | %.0f / %.0f |\n", $rtt, $mode,
        $med(array_column($c["before"], "rate")), $med(array_column($c["after"], "rate")), $med(array_column($c["floor"], "rate")),
        $ratio("after", "before"), $ratio("after", "floor"), $med(array_column($c["before"], "p50")), $med(array_column($c["after"], "p50")));
}
foreach ($ir as $impl => $by) { $k = max(array_keys($by)); printf("callgrind %s: %s instructions per cycle\n", $impl, number_format(($by[$k] - $by[0]) / $k)); }
' "$out/results.tsv" | tee "$out/table.md"
