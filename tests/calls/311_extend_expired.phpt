--TEST--
extend() of a lock that already expired fails and does not bring the keys back
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$r = new RedLock(rt_servers(5, 3.0));
$lock = $r->lock($key, 250);
var_dump(is_array($lock));
var_dump(rt_eventually(fn () => rt_values($key) === array_fill(0, 5, null)));
var_dump($r->extend($lock, 10000));
var_dump(rt_values_are($key, array_fill(0, 5, null)));
// Gone from a majority: extend() fails (the two servers still holding our token may have
// prolonged it: a minority can never give us or anyone else a quorum).
$lock = $r->lock($key, 10000);
foreach (array_slice(rt_ports(), 0, 3) as $port) {
    rt_redis($port, 'DEL', $key);
}
var_dump($r->extend($lock, 60000));
$pttls = rt_pttls($key);
var_dump(array_slice($pttls, 0, 3) === [-2, -2, -2], array_slice(rt_values($key), 3) === [$lock['token'], $lock['token']]);
var_dump($r->unlock($lock), rt_eventually(fn () => rt_values($key) === array_fill(0, 5, null)));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
