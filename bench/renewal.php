<?php
/**
 * Renewal overhead on the PHP thread: a CPU-bound $fn inside run(), with and without autoExtend
 * (ttl 300 ms: a renewal every 100 ms), alternating. Prints "plain=<ms> auto=<ms>" per round.
 *   php renewal.php H:P,... ROUNDS WORK_ITERATIONS
 */
[$serverList, $rounds, $work] = array_slice($argv, 1, 3) + [null, 5, 3000000];
$servers = array_map(function ($hp) {
    [$h, $p] = explode(':', $hp);
    return [$h, (int) $p, 1.0];
}, explode(',', (string) $serverList));
$plain = new RedLock($servers, 10, 3);
$auto = new RedLock($servers, 10, 3, ['autoExtend' => true]);
$fn = function () use ($work) {
    $t = hrtime(true);
    $x = 0;
    for ($i = 0; $i < $work; $i++) {
        $x = ($x * 31 + $i) % 1000003;
    }
    return [(hrtime(true) - $t) / 1e6, $x];
};
for ($r = 0; $r < (int) $rounds; $r++) {
    $order = $r % 2 ? ['auto' => $auto, 'plain' => $plain] : ['plain' => $plain, 'auto' => $auto];
    $ms = [];
    foreach ($order as $name => $redlock) {
        [$ms[$name]] = $redlock->run("bench:renewal:$name:" . getmypid(), 300, $fn);
    }
    printf("plain=%.1f auto=%.1f\n", $ms['plain'], $ms['auto']);
}
