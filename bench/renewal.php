<?php
/**
 * Renewal overhead on the PHP thread: a CPU-bound $fn inside run(), with and without autoExtend
 * (ttl 600 ms: a renewal every 200 ms), alternating. Per round and variant: the wall time of $fn,
 * the CPU time the PHP thread ran meanwhile (/proc/self/task/<pid>/schedstat, ns: what the machine's
 * load does not change much) and the CPU time of every other thread (the renewal thread).
 * Prints "plain_wall=.. plain_cpu=.. auto_wall=.. auto_cpu=.. thread_cpu=.." (ms) per round.
 *   php renewal.php H:P,... ROUNDS WORK_ITERATIONS
 */
[$serverList, $rounds, $work] = array_slice($argv, 1, 3) + [null, 5, 3000000];
$servers = array_map(function ($hp) {
    [$h, $p] = explode(':', $hp);
    return [$h, (int) $p, 1.0];
}, explode(',', (string) $serverList));
$plain = new RedLock($servers, 10, 3);
$auto = new RedLock($servers, 10, 3, ['autoExtend' => true]);
function cpu_ns(bool $main): int
{
    $sum = 0;
    foreach (glob('/proc/self/task/*') as $task) {
        if ((basename($task) === (string) getmypid()) === $main) {
            $sum += (int) explode(' ', (string) @file_get_contents("$task/schedstat"))[0];
        }
    }
    return $sum;
}
$fn = function () use ($work) {
    $t = hrtime(true);
    $c = cpu_ns(true);
    $o = cpu_ns(false);
    $x = 0;
    for ($i = 0; $i < $work; $i++) {
        $x = ($x * 31 + $i) % 1000003;
    }
    return [(hrtime(true) - $t) / 1e6, (cpu_ns(true) - $c) / 1e6, (cpu_ns(false) - $o) / 1e6, $x];
};
for ($r = 0; $r < (int) $rounds; $r++) {
    $order = $r % 2 ? ['auto' => $auto, 'plain' => $plain] : ['plain' => $plain, 'auto' => $auto];
    $m = [];
    foreach ($order as $name => $redlock) {
        try {
            $m[$name] = $redlock->run("bench:renewal:$name:" . getmypid(), 600, $fn);
        } catch (RedLockException $e) {
            echo "lost: {$e->getMessage()}\n"; // a starved machine: the lease ran out
            continue 2;
        }
    }
    printf("plain_wall=%.1f plain_cpu=%.1f auto_wall=%.1f auto_cpu=%.1f thread_cpu=%.2f\n",
        $m['plain'][0], $m['plain'][1], $m['auto'][0], $m['auto'][1], $m['auto'][2]);
}
