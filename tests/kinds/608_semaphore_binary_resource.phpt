--TEST--
lockSemaphore() on a resource with a NUL byte: validity(), extend() and unlock() address the slot the script won (binary-safe slot keys), so unlock() frees it for another client at once
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$servers = rt_servers(3);
$a = new RedLock($servers, 0, 1);
$b = new RedLock($servers, 0, 1);
$resource = rt_key("a\0b");
$lock = $a->lockSemaphore($resource, 1, 10000);
var_dump(is_array($lock), $b->lockSemaphore($resource, 1, 10000));
$slot = "$resource:slot:0";
echo "slot key held on the servers: ", implode(',', array_map(fn ($p) => var_export(rt_redis($p, 'GET', $slot) === $lock['token'], true), array_slice(rt_ports(), 0, 3))), "\n";
var_dump($a->validity($lock) > 9000);
$extended = $a->extend($lock, 30000);
var_dump(is_array($extended), rt_redis(rt_ports()[0], 'PTTL', $slot) > 20000);
var_dump($a->unlock($extended));
echo "slot key left: ", rt_settled(fn () => rt_redis(rt_ports()[0], 'EXISTS', $slot)), "\n"; // unlock() returns on a quorum
$other = $b->lockSemaphore($resource, 1, 10000);
var_dump(is_array($other) && $b->unlock($other));
?>
--EXPECT--
bool(true)
bool(false)
slot key held on the servers: true,true,true
bool(true)
bool(true)
bool(true)
bool(true)
slot key left: 0
bool(true)
