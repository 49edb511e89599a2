<?php
/**
 * issue 26's row: inspect() beside lock(), on one reused RedLock, servers on loopback.
 *
 *   php -d extension=modules/redlock.so bench/inspect.php SERVERS SECONDS ROUNDS
 *
 * Per round, SECONDS each, in turn: lock() of a fresh key + unlock() (two round trips); lock() of a
 * fresh key alone (one round trip, its keys left to expire: ttl 2 s); inspect() of a held key; inspect()
 * of a free key. Prints calls/s and p50 µs per kind, the median of the rounds.
 */
[$serverList, $seconds, $rounds] = [$argv[1], (float) ($argv[2] ?? 2), (int) ($argv[3] ?? 3)];
$servers = array_map(fn ($hp) => [explode(':', $hp)[0], (int) explode(':', $hp)[1], 1.0], explode(',', $serverList));
$redlock = new RedLock($servers, 200, 1);
$prefix = 'bench:inspect:' . getmypid();
$held = $redlock->lock("$prefix:held", 600000);
$kinds = [
    'lock() + unlock()' => function ($i) use ($redlock, $prefix) {
        $redlock->unlock($redlock->lock("$prefix:c$i", 10000));
    },
    'lock() alone' => fn ($i) => $redlock->lock("$prefix:l$i", 2000),
    'inspect(), held' => fn ($i) => $redlock->inspect("$prefix:held"),
    'inspect(), free' => fn ($i) => $redlock->inspect("$prefix:free"),
];
$results = [];
for ($round = 0; $round < $rounds; $round++) {
    foreach ($kinds as $name => $call) {
        $latencies = [];
        $start = hrtime(true);
        $deadline = $start + (int) ($seconds * 1e9);
        for ($i = 0; ($t0 = hrtime(true)) < $deadline && $i < 1000000; $i++) {
            $call("$round:$i");
            $latencies[] = hrtime(true) - $t0;
        }
        sort($latencies);
        $results[$name][] = [count($latencies) / ((hrtime(true) - $start) / 1e9), $latencies[intdiv(count($latencies), 2)] / 1000];
    }
}
$redlock->unlock($held);
$median = function (array $v) { sort($v); return $v[intdiv(count($v) - 1, 2)]; };
echo "| N=" . count($servers) . ", loopback, one RedLock reused | calls/s (median of $rounds rounds of {$seconds} s) | p50 µs |\n|---|---:|---:|\n";
foreach ($results as $name => $rows) {
    printf("| %s | %.0f | %.1f |\n", $name, $median(array_column($rows, 0)), $median(array_column($rows, 1)));
}
