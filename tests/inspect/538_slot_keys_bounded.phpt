--TEST--
A semaphore's slot keys take at most 1 MiB together (issue 32, defect 19): inspect($name, 1024) with a 64 KiB name grew the process by about 300 MiB of malloc'd memory outside memory_limit (every slot key built, then encoded once per server) and no server answered it in time. Now the name is a ValueError naming the resource (at most 1014 bytes for 1024 slots, 65528 for 16, prefix included), for inspect() with a limit and for lockSemaphore() (whose waiters subscribe to every slot); inspect() at the longest name grows the process by a few MiB; lock() and inspect() without a limit take the 64 KiB name
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (getenv('USE_ZEND_ALLOC') === '0') die('skip [memory checker] resident memory under a checker says nothing of our allocations'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
function peak_rss_mib(): float
{
    preg_match('/VmHWM:\s+(\d+)/', file_get_contents('/proc/self/status'), $m);
    return (int) $m[1] / 1024;
}
$r = new RedLock(rt_servers(3, 2.0), 0, 1, ['prefix' => 'p:']);
$huge = rt_key(str_repeat('x', 65536));
$r->inspect(rt_key('warm'), 4); // connections and buffers of an ordinary call
$before = peak_rss_mib();
echo "inspect, 64 KiB name, limit 1024: ", rt_throws(fn () => $r->inspect($huge, 1024)), "\n";
echo "lockSemaphore, 64 KiB name, limit 1024: ", rt_throws(fn () => $r->lockSemaphore($huge, 1024, 1000)), "\n";
echo "inspect, a 600 KB name in a list, limit 2: ", rt_throws(fn () => $r->inspect([rt_key('a'), str_repeat('w', 600000)], 2)), "\n";
$longest = 1014 - strlen('p:');
$name = str_pad(rt_key('s'), $longest, 'y');
echo "inspect, the longest name for 1024 slots: ", json_encode(array_slice($r->inspect($name, 1024), 0, 5)), "\n";
echo "  one byte more: ", rt_throws(fn () => $r->inspect($name . 'y', 1024)), "\n";
$sem = $r->lockSemaphore($name, 1024, 5000);
echo "lockSemaphore of it: ", var_export(is_array($sem), true), ", inspect: ", json_encode(array_slice($r->inspect($name, 1024), 0, 5)), "\n";
var_dump($r->unlock($sem));
$sixteen = str_pad(rt_key('t'), 65528 - strlen('p:'), 'z');
$sem = $r->lockSemaphore($sixteen, 16, 5000);
echo "16 slots of a 65526-byte name: ", var_export(is_array($sem) && $r->inspect($sixteen, 16)['holders'] === 1 && $r->unlock($sem), true), "\n";
echo "  one byte more: ", rt_throws(fn () => $r->lockSemaphore($sixteen . 'z', 16, 5000)), "\n";
$growth = peak_rss_mib() - $before;
echo "peak RSS grew by at most 16 MiB: ", var_export($growth <= 16, true), $growth <= 16 ? '' : " ($growth MiB)", "\n";
$lock = $r->lock($huge, 5000);
echo "lock() of the 64 KiB name: ", var_export(is_array($lock), true), ", inspect without a limit: ",
    json_encode($r->inspect($huge)['held']), ", unlock: ", var_export($r->unlock($lock), true), "\n";
?>
--EXPECT--
inspect, 64 KiB name, limit 1024: ValueError: RedLock::inspect(): Argument #1 ($resource) must be at most 1014 bytes (prefix included) for 1024 slots: each slot is a key of its own, and a semaphore's slot keys take at most 1048576 bytes together
lockSemaphore, 64 KiB name, limit 1024: ValueError: RedLock::lockSemaphore(): Argument #1 ($resource) must be at most 1014 bytes (prefix included) for 1024 slots: each slot is a key of its own, and a semaphore's slot keys take at most 1048576 bytes together
inspect, a 600 KB name in a list, limit 2: ValueError: RedLock::inspect(): Argument #1 ($resource) must be at most 524281 bytes (prefix included) for 2 slots: each slot is a key of its own, and a semaphore's slot keys take at most 1048576 bytes together
inspect, the longest name for 1024 slots: {"held":false,"kind":null,"holders":0,"ttl":null,"fence":null}
  one byte more: ValueError: RedLock::inspect(): Argument #1 ($resource) must be at most 1014 bytes (prefix included) for 1024 slots: each slot is a key of its own, and a semaphore's slot keys take at most 1048576 bytes together
lockSemaphore of it: true, inspect: {"held":true,"kind":"semaphore","holders":1,"ttl":null,"fence":null}
bool(true)
16 slots of a 65526-byte name: true
  one byte more: ValueError: RedLock::lockSemaphore(): Argument #1 ($resource) must be at most 65528 bytes (prefix included) for 16 slots: each slot is a key of its own, and a semaphore's slot keys take at most 1048576 bytes together
peak RSS grew by at most 16 MiB: true
lock() of the 64 KiB name: true, inspect without a limit: true, unlock: true
