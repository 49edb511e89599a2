<?php
/**
 * issue 10's rows: cycles of one kind of acquisition + unlock() on one reused RedLock, in the
 * format of cycle.php (cycles=.. seconds=.. p50_us=.. p99_us=.. failed=..), or the table of a
 * bench/run.sh results file.
 *
 *   php primitives.php KIND SERVERS SECONDS    KIND: lock | semaphore | shared | fencing
 *   php primitives.php report FILE             FILE: round \t kind \t cycle.php line, per line
 *
 * One cycle = the acquisition of a fresh key (10 s TTL; lockSemaphore with limit 4) + unlock().
 */
if ($argv[1] === 'report') {
    $rows = [];
    foreach (file($argv[2], FILE_IGNORE_NEW_LINES) as $line) {
        [, $kind, $result] = explode("\t", $line);
        preg_match('/cycles=(\d+) seconds=([\d.]+) p50_us=([\d.]+)/', $result, $m);
        $rows[$kind][] = ['rate' => $m[1] / $m[2], 'p50' => (float) $m[3]];
    }
    $median = function (array $values): float {
        sort($values);
        return $values[intdiv(count($values) - 1, 2)];
    };
    $base = $median(array_column($rows['lock'], 'rate'));
    echo "| N=5, 1 ms RTT, one RedLock reused | cycles/s (median of rounds) | p50 ms | ratio to lock+unlock |\n";
    echo "|---|---:|---:|---:|\n";
    $names = ['lock' => 'lock + unlock', 'semaphore' => 'lockSemaphore(limit 4) + unlock',
        'shared' => 'lockShared + unlock', 'fencing' => "lock + unlock, 'fencing' => true"];
    foreach ($names as $kind => $name) {
        $rate = $median(array_column($rows[$kind], 'rate'));
        printf("| %s | %.1f | %.2f | %.2fx |\n", $name, $rate, $median(array_column($rows[$kind], 'p50')) / 1000, $rate / $base);
    }
    exit(0);
}
[$kind, $serverList, $seconds] = array_slice($argv, 1, 3);
$servers = array_map(fn ($hp) => [explode(':', $hp)[0], (int) explode(':', $hp)[1], 1.0], explode(',', $serverList));
$redlock = new RedLock($servers, 200, 3, $kind === 'fencing' ? ['fencing' => true] : []);
$prefix = "bench:primitives:$kind:" . getmypid();
$acquire = match ($kind) {
    'lock', 'fencing' => fn ($key) => $redlock->lock($key, 10000),
    'semaphore' => fn ($key) => $redlock->lockSemaphore($key, 4, 10000),
    'shared' => fn ($key) => $redlock->lockShared($key, 10000),
};
$acquire("$prefix:warmup") && null;
$latencies = [];
$failed = 0;
$start = hrtime(true);
$deadline = $start + (int) ((float) $seconds * 1e9);
for ($i = 0; ($t0 = hrtime(true)) < $deadline; $i++) {
    $lock = $acquire("$prefix:$i");
    if ($lock === false) {
        $failed++;
    } else {
        $redlock->unlock($lock);
    }
    $latencies[] = hrtime(true) - $t0;
}
$elapsed = (hrtime(true) - $start) / 1e9;
sort($latencies);
$n = count($latencies);
printf("cycles=%d seconds=%.4f p50_us=%.1f p99_us=%.1f failed=%d\n", $n, $elapsed,
    $n ? $latencies[intdiv($n - 1, 2)] / 1e3 : 0, $n ? $latencies[(int) (($n - 1) * 0.99)] / 1e3 : 0, $failed);
