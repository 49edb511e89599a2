--TEST--
Clock jumps: +5 s on 2 of 3 servers under a tracked lock of 30 s (its keys still there, 25 s left by those clocks): validity() samples TIME with its question and no longer counts those servers' yes ("clock jumped +5000 ms since the lock was taken: vote not counted"): false, and onLoss told; extend() likewise; a lock taken after the jump counts their votes
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (trim((string) shell_exec('command -v cc')) === '') die('skip no cc for the clock shim'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/clock.inc';
$a = ck_spawn_server();
$b = ck_spawn_server();
$c = rt_spawn_server();
$lost = [];
$servers = [['127.0.0.1', $a['port'], 1.0], ['127.0.0.1', $b['port'], 1.0], ['127.0.0.1', $c['port'], 1.0]];
$r = new RedLock($servers, 10, 1, ['autoExtend' => true, 'onLoss' => function (array $lock, string $reason) use (&$lost) { $lost[] = $reason; }]);
$lock = $r->lock($key = rt_key(), 30000);
$v = $r->validity($lock);
var_dump($v > 25000, $r->getServerWarnings()[0]);
ck_jump($a, 5000);
ck_jump($b, 5000);
echo 'keys left: ', json_encode(array_map(fn ($s) => rt_redis($s['port'], 'PTTL', $key) > 20000, [$a, $b, $c])), "\n";
var_dump($r->validity($lock));
foreach (array_slice($r->getLastErrors(), 0, 2) as $i => $e) {
    echo $i, ': ', preg_replace('/\+[45]\d{3} ms/', '+~5000 ms', (string) $e), "\n";
}
echo 'onLoss: ', json_encode($lost), "\n";
var_dump($r->extend($lock, 30000));
$again = $r->lock(rt_key('after'), 30000);
var_dump($again !== false, $r->validity($again) > 25000, $r->unlock($again));
?>
--EXPECT--
bool(true)
NULL
keys left: [true,true,true]
bool(false)
0: clock jumped +~5000 ms since the lock was taken: vote not counted
1: clock jumped +~5000 ms since the lock was taken: vote not counted
onLoss: ["not_held"]
bool(false)
bool(true)
bool(true)
bool(true)
