--TEST--
ttl bounds, every kind: 10^15 ms (about 31,700 years) is taken by lock(), multi-resource lock(), lockShared(), lockSemaphore(), extend() and run(); above it, a ValueError naming the ttl argument (lockShared() at 1e17 used to fail with a script error on every server)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$r = new RedLock(rt_servers(3), 0, 1);
$max = 1000000000000000;
$calls = [
    'lock' => fn ($ttl) => $r->lock(rt_key('l'), $ttl),
    'lock multi' => fn ($ttl) => $r->lock([rt_key('m1'), rt_key('m2')], $ttl),
    'lockShared' => fn ($ttl) => $r->lockShared(rt_key('s'), $ttl),
    'lockSemaphore' => fn ($ttl) => $r->lockSemaphore(rt_key('sem'), 2, $ttl),
];
foreach ($calls as $name => $call) {
    $lock = $call($max);
    $extended = is_array($lock) ? $r->extend($lock, $max) : false;
    echo "$name at 10^15: ", var_export(is_array($lock), true), ", extend: ", var_export(is_array($extended), true),
        ", unlock: ", var_export(is_array($extended) && $r->unlock($extended), true), "\n";
    foreach ([$max + 1, 100000000000000000, PHP_INT_MAX] as $ttl) {
        echo "  $ttl: ", rt_throws(fn () => $call($ttl)), "\n";
    }
}
$lock = $r->lock(rt_key('e'), 1000);
echo "extend above: ", rt_throws(fn () => $r->extend($lock, $max + 1)), "\n";
var_dump($r->unlock($lock));
echo "run at 10^15: ", $r->run(rt_key('run'), $max, fn () => 'ran'), "\n";
echo "run above: ", rt_throws(fn () => $r->run(rt_key('run'), $max + 1, fn () => 'ran')), "\n";
?>
--EXPECT--
lock at 10^15: true, extend: true, unlock: true
  1000000000000001: ValueError: RedLock::lock(): Argument #2 ($ttl) must be at most 1000000000000000 (ms, about 31,700 years)
  100000000000000000: ValueError: RedLock::lock(): Argument #2 ($ttl) must be at most 1000000000000000 (ms, about 31,700 years)
  9223372036854775807: ValueError: RedLock::lock(): Argument #2 ($ttl) must be at most 1000000000000000 (ms, about 31,700 years)
lock multi at 10^15: true, extend: true, unlock: true
  1000000000000001: ValueError: RedLock::lock(): Argument #2 ($ttl) must be at most 1000000000000000 (ms, about 31,700 years)
  100000000000000000: ValueError: RedLock::lock(): Argument #2 ($ttl) must be at most 1000000000000000 (ms, about 31,700 years)
  9223372036854775807: ValueError: RedLock::lock(): Argument #2 ($ttl) must be at most 1000000000000000 (ms, about 31,700 years)
lockShared at 10^15: true, extend: true, unlock: true
  1000000000000001: ValueError: RedLock::lockShared(): Argument #2 ($ttl) must be at most 1000000000000000 (ms, about 31,700 years)
  100000000000000000: ValueError: RedLock::lockShared(): Argument #2 ($ttl) must be at most 1000000000000000 (ms, about 31,700 years)
  9223372036854775807: ValueError: RedLock::lockShared(): Argument #2 ($ttl) must be at most 1000000000000000 (ms, about 31,700 years)
lockSemaphore at 10^15: true, extend: true, unlock: true
  1000000000000001: ValueError: RedLock::lockSemaphore(): Argument #3 ($ttl) must be at most 1000000000000000 (ms, about 31,700 years)
  100000000000000000: ValueError: RedLock::lockSemaphore(): Argument #3 ($ttl) must be at most 1000000000000000 (ms, about 31,700 years)
  9223372036854775807: ValueError: RedLock::lockSemaphore(): Argument #3 ($ttl) must be at most 1000000000000000 (ms, about 31,700 years)
extend above: ValueError: RedLock::extend(): Argument #2 ($ttl) must be at most 1000000000000000 (ms, about 31,700 years)
bool(true)
run at 10^15: ran
run above: ValueError: RedLock::run(): Argument #2 ($ttl) must be at most 1000000000000000 (ms, about 31,700 years)
