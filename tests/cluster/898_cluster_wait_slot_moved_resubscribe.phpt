--TEST--
waitTimeout on a cluster:// member whose key's slot changes node while the waiter listens: a CLUSTER FAILOVER, then the slot moved to another master. Redis drops the waiter's sharded subscription each time ("sunsubscribe"); the waiter SUBSCRIBEs on the same connection for the rest of its wait, and the release (its SPUBLISH heard by nobody, its PUBLISH by every node) wakes it long before its 30-60 s backoff, as it woke the plain subscription of versions before sharded wake-ups
--EXTENSIONS--
redlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/cluster.inc'; echo cl_skip_reason();
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$scale = rt_time_scale();
$timeout = min(60.0, 2.0 * $scale);

/* $res held; a child waits for it (backoff 30-60 s); once its sharded subscription shows on the
 * owner, $change moves the slot, the waiter must SUBSCRIBE instead, and the release must wake it. */
function case_of(string $name, string $res, callable $change, float $scale, float $timeout): void
{
    // the releaser has waitTimeout: on Redis >= 8.4 and Valkey >= 9 only such objects release by script and
    // announce it (others use DELEX/DELIFEQ, docs/guide/renewal-and-waiting.md); Redis 8.6 failed here without
    $holder = new RedLock([cl_uri("?timeout=$timeout")], 20, 1, ['waitTimeout' => 1000]);
    $h = $holder->lock($res, 60000);
    $channel = 'redlock:released:{' . $res . '}';
    $owner = cl_owner($res);
    $pid = pcntl_fork();
    if ($pid === 0) {
        $waiter = new RedLock([cl_uri("?timeout=$timeout")], 60000, 1, ['waitTimeout' => (int) (15000 * $scale)]);
        $t0 = microtime(true);
        $w = $waiter->lock($res, 5000);
        $took = microtime(true) - $t0;
        exit(($w ? 0 : 1) + ($took < 15.0 * $scale ? 0 : 2)); // told by the parent, after its own lines
    }
    $sharded = fn (int $port) => rt_redis($port, 'PUBSUB', 'SHARDNUMSUB', $channel)[1] ?? 0;
    rt_eventually(fn () => $sharded($owner) === 1, 5.0 * $scale * rt_load_scale()) || rt_fatal("$name: the waiter never subscribed");
    $change($owner, $res);
    $ports = array_keys(cl_nodes());
    $subscriptions = fn () => [array_sum(array_map($sharded, $ports)),
        array_sum(array_map(fn ($port) => rt_redis($port, 'PUBSUB', 'NUMSUB', "redlock:released:$res")[1] ?? 0, $ports))];
    // the sharded one dropped by the node the slot left, a plain one in its place
    $again = rt_eventually(fn () => $subscriptions() === [0, 1], 5.0 * $scale * rt_load_scale());
    echo "$name: subscribed again: ", $again ? 'yes' : 'no', "\n";
    printf("%s: released: %s\n", $name, $holder->unlock($h) ? 'yes' : 'no');
    pcntl_waitpid($pid, $status);
    $code = pcntl_wexitstatus($status);
    printf("%s: woken and got the lock: %s, before its waitTimeout: %s\n", $name, $code & 1 ? 'no' : 'yes',
        $code & 2 ? 'no' : 'yes');
}

case_of('failover', rt_key('failover'), fn (int $owner) => cl_failover($owner), $scale, $timeout);

case_of('slot moved', rt_key('moved'), function (int $owner, string $res) {
    $to = array_values(array_diff(cl_masters(), [$owner]))[0];
    cl_move_slot(cl_slot($res), $owner, $to);
}, $scale, $timeout);
?>
--EXPECT--
failover: subscribed again: yes
failover: released: yes
failover: woken and got the lock: yes, before its waitTimeout: yes
slot moved: subscribed again: yes
slot moved: released: yes
slot moved: woken and got the lock: yes, before its waitTimeout: yes
