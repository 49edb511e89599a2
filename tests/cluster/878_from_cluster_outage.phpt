--TEST--
RedLock::fromCluster() during an outage: a cluster partly down (a master marked failed, its replica not yet promoted: a slot no master owns) is server trouble, a RedLockException naming the slot, not a ValueError counting too few masters; seeds refused or silent are a RedLockException within the timeout; a whole map of 2 masters stays a ValueError (bad input) (fake nodes answering CLUSTER NODES)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$line = fn (string $id, int $port, string $flags, string $master, string $slots = '') =>
    "$id 127.0.0.1:$port@" . ($port + 10000) . " $flags $master 0 1700000000000 1 connected" . ($slots !== '' ? " $slots" : '') . "\n";
$ids = ['a' => str_repeat('a', 40), 'b' => str_repeat('b', 40), 'c' => str_repeat('c', 40), 'd' => str_repeat('d', 40)];
$fake = function (string $nodes): int {
    return rt_spawn_fake_redis([['on' => 'CLUSTER', 'reply' => '$' . strlen($nodes) . "\r\n$nodes\r\n"]]);
};
// as a node lists the cluster between a master marked failed and its replica's promotion
$partly = $line($ids['a'], 30001, 'myself,master', '-', '0-5460') . $line($ids['b'], 30002, 'master', '-', '5461-10922')
    . $line($ids['c'], 30003, 'master,fail', '-', '10923-16383') . $line($ids['d'], 30004, 'slave', $ids['c']);
$two = $line($ids['a'], 30001, 'myself,master', '-', '0-8191') . $line($ids['b'], 30002, 'master', '-', '8192-16383');
$silent = stream_socket_server('tcp://127.0.0.1:0');   // accepts (the backlog) and never answers
$silent_port = (int) explode(':', stream_socket_get_name($silent, false))[1];
$refused = rt_free_port();
$cases = [
    'partly down' => '127.0.0.1:' . $fake($partly),
    'silent seed, timeout 0.2 s' => "127.0.0.1:$silent_port?timeout=0.2",
    'refused seed' => "127.0.0.1:$refused",
    'whole map, 2 masters' => '127.0.0.1:' . $fake($two),
];
$bounds = ['silent seed, timeout 0.2 s' => [0.2, 0.2]];
foreach ($cases as $name => $seeds) {
    $t = microtime(true);
    try {
        $r = RedLock::fromCluster($seeds, 20, 1);
        $said = 'a RedLock of ' . count($r->getLastErrors()) . ' members';
    } catch (Throwable $e) {
        $said = get_class($e) . ': ' . preg_replace('/127\.0\.0\.1:\d+/', '127.0.0.1:PORT', $e->getMessage());
    }
    $took = microtime(true) - $t;
    [$least, $bound] = $bounds[$name] ?? [0.0, 0.0];
    // bounded: the timeout, scaled under valgrind, never the seeds' silence
    $in_time = $took >= $least * 0.9 && $took < ($bound + 0.5) * rt_time_scale();
    echo "$name: $said", $in_time ? '' : sprintf(' (took %.3f s)', $took), "\n";
}
?>
--EXPECT--
partly down: RedLockException: RedLock::fromCluster(): cluster: no master owns slot 10923 (a master failed, its replica not promoted yet): the masters cannot be counted now
silent seed, timeout 0.2 s: RedLockException: RedLock::fromCluster(): cluster: no slot map (127.0.0.1:PORT: timeout)
refused seed: RedLockException: RedLock::fromCluster(): cluster: no slot map (127.0.0.1:PORT: connect: Connection refused)
whole map, 2 masters: ValueError: RedLock::fromCluster(): Argument #1 ($seeds) names a cluster of 2 masters: fromCluster() needs at least 3 (a quorum of masters)
