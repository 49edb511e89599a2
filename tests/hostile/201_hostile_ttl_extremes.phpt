--TEST--
Hostile input: ttl at 1, at the maximum (10^12 ms), above it up to PHP_INT_MAX (a ValueError), and out of range
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/reliability.inc';
$redlock = new RedLock(rt_servers(5, 5.0), 10, 2);

echo "ttl 1: no validity is left after the drift, so false; nothing stays held\n";
$key = rt_key('one');
var_dump($redlock->lock($key, 1));
// a SET still on its way when lock() gave up lives 1 ms once it lands: read until none is left (a loaded run's
// descheduled server landed one just before a single read)
var_dump(rt_eventually(fn () => rt_values($key) === array_fill(0, 5, null)));

foreach (['PHP_INT_MAX' => PHP_INT_MAX, 'PHP_INT_MAX - 1' => PHP_INT_MAX - 1, '2^53' => 2 ** 53, '10^12 + 1' => 10 ** 12 + 1] as $label => $ttl) {
    echo "ttl $label: above the one maximum (Redis refuses the PX of the largest: invalid expire time), a ValueError before any server is asked\n";
    $key = rt_key($label);
    echo rt_throws(fn () => $redlock->lock($key, $ttl)), "\n";
    var_dump(rt_values_are($key, array_fill(0, 5, null)));
}
$reply = rt_redis(rt_ports()[0], 'SET', rt_key('direct'), 'x', 'NX', 'PX', (string) PHP_INT_MAX);
var_dump($reply instanceof RuntimeException && str_contains($reply->getMessage(), 'invalid expire time'));

foreach (['10^12' => 10 ** 12] as $label => $ttl) {
    echo "ttl $label ms: the maximum, accepted; validity is ttl - 1%\n";
    $key = rt_key($label);
    $lock = $redlock->lock($key, $ttl);
    var_dump(is_float($lock['validity']), $lock['validity'] > 0.98 * $ttl, $lock['validity'] < $ttl);
    var_dump(rt_redis(rt_ports()[0], 'PTTL', $key) > 0.99 * $ttl);
    var_dump($redlock->unlock($lock), rf_settled_values($key, array_fill(0, 5, null)) === array_fill(0, 5, null));
}

echo "out of range\n";
foreach ([0, -1, PHP_INT_MIN] as $ttl) {
    try {
        $redlock->lock($key, $ttl);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
foreach ([1e30, NAN, INF] as $ttl) {
    try {
        $redlock->lock($key, $ttl);
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
ttl 1: no validity is left after the drift, so false; nothing stays held
bool(false)
bool(true)
ttl PHP_INT_MAX: above the one maximum (Redis refuses the PX of the largest: invalid expire time), a ValueError before any server is asked
ValueError: RedLock::lock(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
bool(true)
ttl PHP_INT_MAX - 1: above the one maximum (Redis refuses the PX of the largest: invalid expire time), a ValueError before any server is asked
ValueError: RedLock::lock(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
bool(true)
ttl 2^53: above the one maximum (Redis refuses the PX of the largest: invalid expire time), a ValueError before any server is asked
ValueError: RedLock::lock(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
bool(true)
ttl 10^12 + 1: above the one maximum (Redis refuses the PX of the largest: invalid expire time), a ValueError before any server is asked
ValueError: RedLock::lock(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
bool(true)
bool(true)
ttl 10^12 ms: the maximum, accepted; validity is ttl - 1%
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
out of range
RedLock::lock(): Argument #2 ($ttl) must be greater than 0
RedLock::lock(): Argument #2 ($ttl) must be greater than 0
RedLock::lock(): Argument #2 ($ttl) must be greater than 0
RedLock::lock(): Argument #2 ($ttl) must be of type int, float given
RedLock::lock(): Argument #2 ($ttl) must be of type int, float given
RedLock::lock(): Argument #2 ($ttl) must be of type int, float given
