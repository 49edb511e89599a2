--TEST--
ttl bounds of a shared lock: lockShared() and extend() of a shared lock take up to 10^15 ms (about 31,700 years); above, a ValueError naming the ttl argument (at 1e17 every server failed with a script error: the shared scripts compute in Lua doubles). The other kinds leave the bound to the servers, as the PHP library does (test 201), and extend() takes what lock() takes: 2^62 (the extend scripts gave PEXPIRE a Lua number, "4.6e+18", which Redis refuses)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$r = new RedLock(rt_servers(3), 0, 1);
$max = 1000000000000000;
$lock = $r->lockShared(rt_key('s'), $max);
$extended = is_array($lock) ? $r->extend($lock, $max) : false;
echo "lockShared at 10^15: ", var_export(is_array($lock), true), ", extend: ", var_export(is_array($extended), true),
    ", unlock: ", var_export(is_array($extended) && $r->unlock($extended), true), "\n";
foreach ([$max + 1, 100000000000000000, PHP_INT_MAX] as $ttl) {
    echo "lockShared $ttl: ", rt_throws(fn () => $r->lockShared(rt_key('s2'), $ttl)), "\n";
}
$lock = $r->lockShared(rt_key('s3'), 1000);
echo "extend of a shared lock above: ", rt_throws(fn () => $r->extend($lock, $max + 1)), "\n";
var_dump($r->unlock($lock));
echo "nothing reached the servers for the refused calls: ", var_export(rt_values(rt_key('s2'), 3) === [null, null, null], true), "\n";
$lock = $r->lock(rt_key('x'), 1000);
$extended = $r->extend($lock, 2 ** 62);
echo "extend of an exclusive lock to 2^62: ", var_export(is_array($extended), true), "\n";
var_dump($r->unlock($extended ?: $lock));
$sem = $r->lockSemaphore(rt_key('sem'), 2, 2 ** 62);
echo "lockSemaphore at 2^62: ", var_export(is_array($sem) && $r->unlock($sem), true), "\n";
?>
--EXPECT--
lockShared at 10^15: true, extend: true, unlock: true
lockShared 1000000000000001: ValueError: RedLock::lockShared(): Argument #2 ($ttl) must be at most 1000000000000000 for a shared lock (ms, about 31,700 years)
lockShared 100000000000000000: ValueError: RedLock::lockShared(): Argument #2 ($ttl) must be at most 1000000000000000 for a shared lock (ms, about 31,700 years)
lockShared 9223372036854775807: ValueError: RedLock::lockShared(): Argument #2 ($ttl) must be at most 1000000000000000 for a shared lock (ms, about 31,700 years)
extend of a shared lock above: ValueError: RedLock::extend(): Argument #2 ($ttl) must be at most 1000000000000000 for a shared lock (ms, about 31,700 years)
bool(true)
nothing reached the servers for the refused calls: true
extend of an exclusive lock to 2^62: true
bool(true)
lockSemaphore at 2^62: true
