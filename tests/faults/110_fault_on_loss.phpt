--TEST--
Fault: onLoss under the fault proxy. Two of three servers start delaying every request past the lock's validity: autoExtend's renewals cannot reach a quorum, the lock is lost, and onLoss is told once, on the PHP thread, while plain code runs, with the lock array and the reason; abortOnLoss's exception comes after it inside run()'s $fn; once the delay is lifted a new lock is renewed and never reported
--EXTENSIONS--
redlock
pcntl
--FILE--
<?php
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(30);
$s = fp_time_scale();
$a = fp_spawn_server();
$b = fp_spawn_server();
$c = fp_spawn_server();
$proxy = fp_start([$a['port'], $b['port']]);
$servers = [['127.0.0.1', $proxy['listen'][$a['port']], 0.5 * $s], ['127.0.0.1', $proxy['listen'][$b['port']], 0.5 * $s],
    ['127.0.0.1', $c['port'], 0.5 * $s]];
$ttl = (int) (600 * $s);
$told = [];
$r = new RedLock($servers, 10, 3, ['autoExtend' => true, 'abortOnLoss' => true,
    'onLoss' => function (array $lock, string $reason) use (&$told) { $told[] = [$lock, $reason, microtime(true)]; }]);

echo "-- the servers slow down\n";
$lock = $r->lock($key = rt_key('slowed'), $ttl);
var_dump(is_array($lock));
foreach ([$a, $b] as $server) {
    fp_set($proxy, $server['port'], 'all', 'delay_c2s=' . (3 * $ttl));
}
$start = microtime(true);
$steps = 0;
while (!$told && microtime(true) - $start < 5 * $ttl / 1000) {
    usleep(1000); // plain code, interrupted by the callable
    $steps++;
}
echo count($told), ' ', $told[0][1] ?? 'no reason',
    ', its lock: ', var_export(($told[0][0] ?? null) === $lock, true), ', within two ttls: ',
    var_export(($told[0][2] ?? INF) - $start < 2 * $ttl / 1000, true), ', while plain code ran: ', var_export($steps > 0, true), "\n";
var_dump($r->validity($lock));
usleep(200000);
echo 'told once: ', count($told), "\n";

echo "-- inside run(): the callable, then abortOnLoss\n";
foreach ([$a, $b] as $server) {
    fp_set($proxy, $server['port'], 'all', 'delay_c2s=0');
}
$told = [];
$order = [];
try {
    $r->run(rt_key('run'), $ttl, function () use ($proxy, $a, $b, $ttl, &$told, &$order) {
        foreach ([$a, $b] as $server) {
            fp_set($proxy, $server['port'], 'all', 'delay_c2s=' . (3 * $ttl));
        }
        try {
            for ($i = 0; $i < 10000; $i++) {
                usleep(1000);
            }
        } catch (RedLockException $e) {
            /* where abortOnLoss throws, inside $fn: the callable must have run already */
            $order[] = $told ? 'told' : 'not told yet';
            throw $e;
        }
        return 'not interrupted';
    });
} catch (RedLockException $e) {
    $order[] = 'exception';
    echo $e->getMessage(), "\n";
}
echo implode(' then ', $order), ', reason ', $told[0][1] ?? 'none', ', told ', count($told), "\n";

echo "-- healthy again: renewed, never told\n";
foreach ([$a, $b] as $server) {
    fp_set($proxy, $server['port'], 'all', 'delay_c2s=0');
}
$told = [];
$fresh = new RedLock($servers, 10, 3, ['autoExtend' => true,
    'onLoss' => function (array $lock, string $reason) use (&$told) { $told[] = $reason; }]);
$lock = $fresh->lock(rt_key('healthy'), $ttl);
usleep((int) (3 * $ttl * 1000));
var_dump($fresh->validity($lock) > 0, $told, $fresh->unlock($lock));
?>
--EXPECTF--
-- the servers slow down
bool(true)
1 renewal_failed, its lock: true, within two ttls: true, while plain code ran: true
bool(false)
told once: 1
-- inside run(): the callable, then abortOnLoss
The lock on "%s" was lost during the work: a renewal did not reach a quorum, or maxExtensions was reached (abortOnLoss)
told then exception, reason renewal_failed, told 1
-- healthy again: renewed, never told
bool(true)
array(0) {
}
bool(true)
