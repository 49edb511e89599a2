--TEST--
Option driftFactor: validity of lock(), extend() and validity() subtract ttl * driftFactor + 2 ms
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$r = new RedLock(rt_servers(5, 3.0), 10, 1, ['driftFactor' => 0.5]);
$lock = $r->lock($key, 10000);
var_dump($lock['validity'] <= 10000 - 5002 && $lock['validity'] > 4000);
$extended = $r->extend($lock, 20000);
var_dump($extended['validity'] <= 20000 - 10002 && $extended['validity'] > 9000);
$v = $r->validity($lock);
var_dump($v <= 20000 - 10002 && $v > 9000);
$r->unlock($lock);
// driftFactor 0: only the constant 2 ms.
$zero = new RedLock(rt_servers(5, 3.0), 10, 1, ['driftFactor' => 0]);
$lock = $zero->lock($key, 10000);
var_dump($lock['validity'] <= 10000 - 2 && $lock['validity'] > 9000);
$zero->unlock($lock);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
