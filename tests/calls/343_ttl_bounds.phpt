--TEST--
One ttl maximum for every call that takes a ttl: 10^12 ms (about 31.7 years). lock(), lockShared(), lockSemaphore(), run(), extend() of each kind, promote() and demote() take 10^12 and throw a ValueError naming the ttl argument above it (10^12 + 1, 2^53, PHP_INT_MAX), before any server is asked. Before, lock(), lockSemaphore(), run() and extend() took 2^53 (a 285,000-year lock) and answered PHP_INT_MAX with false ("invalid expire time" from every server; run() said contention), while lockShared() stopped at 10^15
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$r = new RedLock(rt_servers(3, 5.0), 0, 1); // 5 s: the first call under a memory checker on a loaded machine outlasts 0.5 s
$max = 1000000000000;
$kinds = [
    'lock' => fn ($key, $ttl) => $r->lock($key, $ttl),
    'lockShared' => fn ($key, $ttl) => $r->lockShared($key, $ttl),
    'lockSemaphore' => fn ($key, $ttl) => $r->lockSemaphore($key, 2, $ttl),
];
foreach ($kinds as $name => $take) {
    $lock = $take(rt_key("$name-max"), $max);
    $extended = is_array($lock) ? $r->extend($lock, $max) : false;
    echo "$name at 10^12: ", var_export(is_array($lock), true), ", extend at 10^12: ", var_export(is_array($extended), true),
        ", unlock: ", var_export(is_array($extended) && $r->unlock($extended), true), "\n";
    foreach ([$max + 1, 2 ** 53, PHP_INT_MAX] as $ttl) {
        echo "  $name $ttl: ", rt_throws(fn () => $take(rt_key("$name-over"), $ttl)), "\n";
    }
    $lock = $take(rt_key("$name-extend"), 1000);
    echo "  extend above: ", rt_throws(fn () => $r->extend($lock, $max + 1)), "\n";
    echo "  still held after: ", var_export($r->unlock($lock), true), "\n";
}
echo "run at 10^12: ", var_export($r->run(rt_key('run'), $max, fn () => 'ran'), true), "\n";
foreach ([$max + 1, PHP_INT_MAX] as $ttl) {
    echo "  run $ttl: ", rt_throws(fn () => $r->run(rt_key('run'), $ttl, fn () => 'ran')), "\n";
}
$shared = $r->lockShared(rt_key('convert'), 1000);
echo "promote above: ", rt_throws(fn () => $r->promote($shared, PHP_INT_MAX)), "\n";
$exclusive = $r->promote($shared, $max);
echo "promote at 10^12: ", var_export(is_array($exclusive), true), "\n";
echo "demote above: ", rt_throws(fn () => $r->demote($exclusive, $max + 1)), "\n";
$shared = $r->demote($exclusive, $max);
echo "demote at 10^12: ", var_export(is_array($shared) && $r->unlock($shared), true), "\n";
$over = array_merge(...array_map(fn ($n) => [rt_key("$n-over"), rt_key("$n-over") . ':0', rt_key("$n-over") . ':1'], array_keys($kinds)));
echo "nothing reached the servers for the refused calls: ",
    var_export(array_merge(...array_map(fn ($k) => rt_values($k, 3), array_merge($over, [rt_key('run')]))) === array_fill(0, 3 * (count($over) + 1), null), true), "\n";
?>
--EXPECT--
lock at 10^12: true, extend at 10^12: true, unlock: true
  lock 1000000000001: ValueError: RedLock::lock(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
  lock 9007199254740992: ValueError: RedLock::lock(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
  lock 9223372036854775807: ValueError: RedLock::lock(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
  extend above: ValueError: RedLock::extend(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
  still held after: true
lockShared at 10^12: true, extend at 10^12: true, unlock: true
  lockShared 1000000000001: ValueError: RedLock::lockShared(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
  lockShared 9007199254740992: ValueError: RedLock::lockShared(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
  lockShared 9223372036854775807: ValueError: RedLock::lockShared(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
  extend above: ValueError: RedLock::extend(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
  still held after: true
lockSemaphore at 10^12: true, extend at 10^12: true, unlock: true
  lockSemaphore 1000000000001: ValueError: RedLock::lockSemaphore(): Argument #3 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
  lockSemaphore 9007199254740992: ValueError: RedLock::lockSemaphore(): Argument #3 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
  lockSemaphore 9223372036854775807: ValueError: RedLock::lockSemaphore(): Argument #3 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
  extend above: ValueError: RedLock::extend(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
  still held after: true
run at 10^12: 'ran'
  run 1000000000001: ValueError: RedLock::run(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
  run 9223372036854775807: ValueError: RedLock::run(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
promote above: ValueError: RedLock::promote(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
promote at 10^12: true
demote above: ValueError: RedLock::demote(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
demote at 10^12: true
nothing reached the servers for the refused calls: true
