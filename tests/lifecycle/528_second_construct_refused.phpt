--TEST--
A second constructor call on a constructed object is an Error and changes nothing: its autoExtend locks are still renewed (no onLoss), released by unlock() on the servers they were taken on
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$servers = rt_servers(5, 2.0);
$ttl = (int) (1200 * rt_time_scale()); // renewed every ttl/3: a loaded machine's stall of a few hundred ms is no loss
$losses = [];
$r = new RedLock(array_slice($servers, 0, 3), 0, 1, [
    'autoExtend' => true,
    'onLoss' => function (array $lock) use (&$losses) { $losses[] = $lock['resource']; },
]);
$key = rt_key();
$lock = $r->lock($key, $ttl);
var_dump(is_array($lock));
// Other servers, other options, the same ones again, bad ones: the same Error first, every time.
echo rt_throws(fn () => $r->__construct(array_slice($servers, 3, 2))), "\n";
echo rt_throws(fn () => $r->__construct(array_slice($servers, 0, 3), 0, 1, ['autoExtend' => true])), "\n";
echo rt_throws(fn () => $r->__construct([])), "\n";
echo rt_throws(fn () => $r->__construct(array_slice($servers, 0, 3), -1)), "\n";
// Three ttls later the lock is still held: renewed all along on its 3 servers.
usleep(3 * $ttl * 1000);
var_dump(rt_values_are($key, array_fill(0, 3, $lock['token']), 3), $r->validity($lock) > 0, $losses);
var_dump(count($r->getLastErrors()), $r->unlock($lock),
    rt_eventually(fn () => rt_values($key) === array_fill(0, 5, null))); // unlock() returns on a quorum of DELs
?>
--EXPECT--
bool(true)
Error: Cannot call constructor twice
Error: Cannot call constructor twice
Error: Cannot call constructor twice
Error: Cannot call constructor twice
bool(true)
bool(true)
array(0) {
}
int(3)
bool(true)
bool(true)
