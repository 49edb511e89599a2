--TEST--
extend() of a lock another client now holds fails and leaves the other's ttl alone
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$first = new RedLock(rt_servers(5, 3.0));
$second = new RedLock(rt_servers(5, 3.0));
$old = $first->lock($key, 250);
var_dump(rt_eventually(fn () => rt_values($key) === array_fill(0, 5, null)));
$new = $second->lock($key, 5000);
var_dump(is_array($new), rt_eventually(fn () => rt_values($key) === array_fill(0, 5, $new['token'])));
var_dump($first->extend($old, 60000));
var_dump(rt_values_are($key, array_fill(0, 5, $new['token'])));
var_dump(max(rt_pttls($key)) <= 5000);
var_dump($first->validity($old), $first->unlock($old));
var_dump(rt_values_are($key, array_fill(0, 5, $new['token'])));
var_dump($second->unlock($new));

// A multi-resource lock where one of the keys was taken over is not extended either.
$a = rt_key('a');
$b = rt_key('b');
$old = $first->lock([$a, $b], 250);
var_dump(rt_eventually(fn () => rt_values($a) === array_fill(0, 5, null)));
$thief = $second->lock($b, 5000);
foreach (rt_ports() as $port) {
    rt_redis($port, 'SET', $a, $old['token'], 'PX', '5000'); // a still (again) ours
}
var_dump($first->extend($old, 60000));
var_dump(max(rt_pttls($a)) <= 5000, max(rt_pttls($b)) <= 5000);
var_dump($second->unlock($thief));
rt_del($a);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
