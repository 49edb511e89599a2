<?php
/**
 * The figures of bench/fair.sh from the workers' lines (bench/fair.php): php fair_report.php WINDOW_S WAITERS FILE...
 * Only holds acquired within the first WINDOW_S seconds after the first acquisition count.
 * - hand-over: from a holder's unlock() call to the next holder's lock() returning (ms), p50/p99;
 * - hand-overs per second;
 * - bypasses: holds won by a call that started more than 10 ms after another call that was still
 *   waiting (that one got the lock later): acquisition order against arrival order;
 * - Jain's index of the holds per waiter: (sum x)^2 / (n * sum x^2) over all WAITERS (one that never
 *   held counts 0), 1 when every waiter held alike.
 */
$window = (float) $argv[1];
$waiters = (int) $argv[2];
$rows = [];
foreach (array_slice($argv, 3) as $file) {
    foreach (file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
        $p = explode(' ', $line);
        if (count($p) === 4) {
            $rows[] = [$p[0], (int) $p[1], (int) $p[2], (int) $p[3]];
        }
    }
}
usort($rows, fn ($a, $b) => $a[2] <=> $b[2]);
if ($rows === []) {
    echo "holds=0\n";
    exit;
}
$t0 = $rows[0][2];
$rows = array_values(array_filter($rows, fn ($r) => $r[2] - $t0 <= $window * 1e9));
$lat = [];
for ($k = 1; $k < count($rows); $k++) {
    if ($rows[$k][1] < $rows[$k - 1][3]) { // it was waiting when the previous holder released
        $lat[] = ($rows[$k][2] - $rows[$k - 1][3]) / 1e6;
    }
}
sort($lat);
$pct = fn ($q) => $lat === [] ? NAN : $lat[min(count($lat) - 1, (int) floor(count($lat) * $q))];
$bypass = 0;
$n = count($rows);
for ($j = 0; $j < $n; $j++) {
    for ($i = $j + 1; $i < $n; $i++) { // acquired after j
        if ($rows[$i][1] + 10e6 < $rows[$j][1]) { // and called more than 10 ms before j
            $bypass++;
            break;
        }
    }
}
$per = [];
foreach ($rows as $r) {
    $per[$r[0]] = ($per[$r[0]] ?? 0) + 1;
}
$zeros = max(0, $waiters - count($per));
$sum = array_sum($per);
$sq = array_sum(array_map(fn ($x) => $x * $x, $per));
$span = ($rows[$n - 1][2] - $t0) / 1e9;
printf("holds=%d waiters=%d handovers_per_s=%.1f p50_ms=%.2f p99_ms=%.2f bypasses=%d jain=%.4f min_holds=%d max_holds=%d\n",
    $n, count($per), $span > 0 ? ($n - 1) / $span : 0, $pct(0.5), $pct(0.99), $bypass, $sum * $sum / ((count($per) + $zeros) * $sq),
    $zeros > 0 ? 0 : min($per), max($per));
