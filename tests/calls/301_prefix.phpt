--TEST--
Option prefix: prepended to every key sent to Redis, while the lock's resource stays the caller's name
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$r = new RedLock(rt_servers(5, 3.0), 10, 1, ['prefix' => 'tenant-7:']);
$lock = $r->lock($key, 10000);
var_dump($lock['resource'] === $key);
var_dump(rt_eventually(fn () => rt_values("tenant-7:$key") === array_fill(0, 5, $lock['token'])));
var_dump(rt_values_are($key, array_fill(0, 5, null)));

// Without the prefix the same name is a different key: both can be held at once.
$plain = new RedLock(rt_servers(5, 3.0), 10, 1);
$other = $plain->lock($key, 10000);
var_dump(is_array($other), $plain->unlock($lock), rt_values("tenant-7:$key")[0] === $lock['token']);
var_dump($plain->unlock($other));

// extend, validity and unlock all address the prefixed key.
var_dump(is_array($r->extend($lock, 20000)), rt_eventually(fn () => min(rt_pttls("tenant-7:$key")) > 10000));
var_dump($r->validity($lock) > 10000);
var_dump($r->unlock($lock), rt_eventually(fn () => rt_values("tenant-7:$key") === array_fill(0, 5, null)));

// Multi-resource locks too.
$names = [rt_key('a'), rt_key('b')];
$multi = $r->lock($names, 10000);
var_dump($multi['resource'] === $names);
var_dump(rt_eventually(fn () => rt_values("tenant-7:{$names[1]}") === array_fill(0, 5, $multi['token'])), rt_values_are($names[0], array_fill(0, 5, null)));
var_dump($r->unlock($multi), rt_eventually(fn () => rt_values("tenant-7:{$names[0]}") === array_fill(0, 5, null)));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
