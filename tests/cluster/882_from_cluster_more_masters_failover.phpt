--TEST--
RedLock::fromCluster() with more masters than members (3 members counted before a 4th master took a slot): while a master (killed) is marked failed and its replica not promoted (cluster-replica-no-failover yes until a CLUSTER FAILOVER TAKEOVER; cluster-require-full-coverage no), an object that keeps calling must not place its members by the map with the failed master's slots unowned (every member would still find one of the 3 live masters, under a tag no other process uses once the replica owns the slots): after the takeover, a rival of a lock held by a fresh object is refused (no second holder while the holder's validity() says held). A private cluster of 4 masters and 1 replica (docs/design/cluster.md#fromcluster-placement)
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (!preg_match('/v=(\d+)/', (string) shell_exec('redis-server --version'), $m) || (int) $m[1] < 7) die('skip needs redis-server 7 (cluster-port)'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$scale = rt_time_scale();
$load = rt_load_scale();
$nodes = [];
foreach (['a', 'b', 'c', 'd', 'r'] as $name) {
    $bus = rt_free_port();
    $nodes[$name] = rt_spawn_server(['--cluster-enabled', 'yes', '--cluster-port', (string) $bus,
        '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '2000',
        '--cluster-require-full-coverage', 'no', '--cluster-replica-no-failover', 'yes']) + ['bus' => $bus];
    $nodes[$name]['id'] = rt_redis($nodes[$name]['port'], 'CLUSTER', 'MYID');
}
$port = fn (string $n) => (string) $nodes[$n]['port'];
// a: 0-5460 (member 0's master), b: 5461-10922, c: the rest; d a master with no slot yet, r a's replica
rt_redis($port('a'), 'CLUSTER', 'ADDSLOTSRANGE', '0', '5460');
rt_redis($port('b'), 'CLUSTER', 'ADDSLOTSRANGE', '5461', '10922');
rt_redis($port('c'), 'CLUSTER', 'ADDSLOTSRANGE', '10923', '16383');
foreach (['b', 'c', 'd', 'r'] as $n) {
    rt_redis($port('a'), 'CLUSTER', 'MEET', '127.0.0.1', $port($n), (string) $nodes[$n]['bus']);
}
/** Node $n's view: port => flags, for every node it knows, and whether it says cluster_state:ok. */
$view = function (string $n) use ($nodes): array {
    $text = @rt_redis($nodes[$n]['port'], 'CLUSTER', 'NODES');
    $out = [];
    foreach (is_string($text) ? explode("\n", trim($text)) : [] as $line) {
        $f = explode(' ', trim($line));
        if (count($f) >= 8) {
            $out[(int) explode('@', explode(':', $f[1])[1])[0]] = $f[2] . (count($f) > 8 ? ' slots:' . implode(',', array_slice($f, 8)) : '');
        }
    }
    return $out;
};
$agreed = function (array $who, callable $ok) use ($view): bool {
    foreach ($who as $n) {
        if (!$ok($view($n), $n)) {
            return false;
        }
    }
    return true;
};
$known = rt_eventually(fn () => $agreed(['a', 'b', 'c', 'd', 'r'], fn ($v) => count($v) === 5), 10.0 * $scale * $load);
rt_redis($port('r'), 'CLUSTER', 'REPLICATE', $nodes['a']['id']);
$formed = $known && rt_eventually(function () use ($agreed, $nodes) {
    return $agreed(['a', 'b', 'c', 'd', 'r'], function ($v, $n) use ($nodes) {
        return str_contains((string) rt_redis($nodes[$n]['port'], 'CLUSTER', 'INFO'), 'cluster_state:ok')
            && str_contains($v[$nodes['r']['port']] ?? '', 'slave');
    });
}, 10.0 * $scale * $load);
echo 'formed: ', $formed ? 'yes' : 'no', "\n";
// a loaded machine needs more for the live members
$seeds = "cluster://127.0.0.1:{$port('b')},127.0.0.1:{$port('c')},127.0.0.1:{$port('d')}?timeout=" . min(60.0, 0.3 * $scale * $load);
$rival = RedLock::fromCluster($seeds, 10, 1); // 3 masters own slots: 3 members
$x = $rival->lock(rt_key('first'), 1000);
echo 'rival members: ', count($rival->getLastErrors()), ', locked: ', $x ? 'yes' : 'no', "\n";
$x && $rival->unlock($x);
// slot 16383 (empty) from c to d, as a resharding moves it: now 4 masters own slots, in median order a, b, c, d
$ok = fn ($reply) => $reply instanceof Throwable ? rt_fatal('slot move: ' . $reply->getMessage()) : $reply;
$ok(rt_redis($port('d'), 'CLUSTER', 'SETSLOT', '16383', 'IMPORTING', $nodes['c']['id']));
$ok(rt_redis($port('c'), 'CLUSTER', 'SETSLOT', '16383', 'MIGRATING', $nodes['d']['id']));
foreach (['d', 'c', 'a', 'b'] as $n) {
    $ok(rt_redis($port($n), 'CLUSTER', 'SETSLOT', '16383', 'NODE', $nodes['d']['id']));
}
$moved = rt_eventually(fn () => $agreed(['a', 'b', 'c', 'd', 'r'], fn ($v) => str_contains($v[$nodes['d']['port']] ?? '', 'slots:16383')),
    10.0 * $scale * $load);
echo 'd owns slot 16383: ', $moved ? 'yes' : 'no', "\n";
// a killed (refused at once: no call waits out a timeout on it), marked failed past the node timeout, its
// replica not promoted (no failover yet)
rt_stop_server($nodes['a']);
$failed = fn () => $agreed(['b', 'c', 'd', 'r'], fn ($v) => str_contains($v[$nodes['a']['port']] ?? '', 'fail')
    && !str_contains($v[$nodes['a']['port']] ?? '', 'fail?'));
// the rival keeps calling until it met the map with a hole: its members refused ("no master owns slot") or,
// were they placed by that map, member 2 on d (the third of the three live masters)
$met = false;
$deadline = microtime(true) + 20 * $scale * $load;
do {
    $seen = $failed();
    $x = $rival->lock($during = rt_key('during'), 2000);
    if ($seen) {
        $errors = implode(' ', array_map('strval', $rival->getLastErrors()));
        $met = str_contains($errors, 'no master owns slot')
            || ($x && rt_eventually(fn () => rt_redis($nodes['d']['port'], 'KEYS', "*$during") !== [], 0.5 * $scale));
    }
    $x && $rival->unlock($x);
    usleep(50000);
} while (!$met && microtime(true) < $deadline);
echo 'the rival called while a was marked failed: ', $met ? 'yes' : 'no', "\n";
// the replica takes the slots over; every live node agrees
rt_redis($port('r'), 'CLUSTER', 'FAILOVER', 'TAKEOVER') === 'OK' || rt_fatal('TAKEOVER refused');
$promoted = rt_eventually(fn () => $agreed(['b', 'c', 'd', 'r'], fn ($v) => str_contains($v[$nodes['r']['port']] ?? '', 'master')
    && str_contains($v[$nodes['r']['port']] ?? '', 'slots:0-5460')), 10.0 * $scale * $load);
echo 'replica promoted: ', $promoted ? 'yes' : 'no', "\n";
// a lock held by a fresh object (4 members, one per master): the rival must meet it
$res = rt_key('after');
$holder = RedLock::fromCluster($seeds, 10, 1);
$h = $holder->lock($res, 10000);
echo 'holder: ', is_array($h) ? 'held on ' . count($holder->getLastErrors()) . ' members' : json_encode($holder->getLastErrors()), "\n";
$r = $rival->lock($res, 1000);
echo 'rival: ', $r ? 'WON (a second holder)' : 'refused', "\n";
echo "holder's validity(): ", is_array($h) && $holder->validity($h) !== false ? 'held' : 'lost', "\n";
$r && $rival->unlock($r);
$h && $holder->unlock($h);
?>
--EXPECT--
formed: yes
rival members: 3, locked: yes
d owns slot 16383: yes
the rival called while a was marked failed: yes
replica promoted: yes
holder: held on 4 members
rival: refused
holder's validity(): held
